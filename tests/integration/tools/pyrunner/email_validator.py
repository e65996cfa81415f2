# PyRunner-style tool: validate e-mail addresses with the re module. Returns a
# dict without "ok" (the runner wraps it); a non-string address is a TypeError.
import re

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}")


def run(args):
    results = []
    for email in args["emails"]:
        if not isinstance(email, str):
            raise TypeError("email must be a string, not %s" % type(email).__name__)
        ok = EMAIL.fullmatch(email) is not None
        results.append({"email": email, "valid": ok,
                        "domain": email.rsplit("@", 1)[1].lower() if ok else None})
    return {"results": results, "validCount": sum(r["valid"] for r in results)}
