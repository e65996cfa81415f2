# PyRunner-style tool: sum, max, min or average of a list of numbers. Returns a
# bare number (the runner wraps it); an unknown operation raises ValueError.
OPERATIONS = {
    "sum": sum,
    "max": max,
    "min": min,
    "average": lambda xs: sum(xs) / len(xs),
}


def run(args):
    operation = args["operation"]
    if operation not in OPERATIONS:
        raise ValueError("Unknown operation: %s" % operation)
    return OPERATIONS[operation](args["numbers"])
