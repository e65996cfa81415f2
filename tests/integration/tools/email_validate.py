# PyRunner-style example: validate e-mail addresses with a regular expression.
import re

PATTERN = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")


def run(args):
    valid = [e for e in args["emails"] if PATTERN.match(e)]
    invalid = [e for e in args["emails"] if not PATTERN.match(e)]
    return {"valid": valid, "invalid": invalid, "all_valid": not invalid}
