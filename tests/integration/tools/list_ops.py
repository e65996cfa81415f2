# PyRunner-style example: an operation over a list of numbers.
OPERATIONS = {
    "sum": sum,
    "max": max,
    "min": min,
    "mean": lambda xs: sum(xs) / len(xs),
}


def run(args):
    op = args.get("operation")
    numbers = args["numbers"]
    if op not in OPERATIONS:
        return {
            "ok": False,
            "error": {
                "type": "UnknownOperation",
                "message": "unknown operation: %s (known: %s)" % (op, ", ".join(sorted(OPERATIONS))),
            },
        }
    return {"operation": op, "count": len(numbers), "result": OPERATIONS[op](numbers)}
