# PyRunner-style tool: arithmetic and math functions. Division by zero and
# domain errors surface as Python raises them.
import math


def run(args):
    op, a, b = args["operation"], args.get("a"), args.get("b")
    if op == "add":
        result = a + b
    elif op == "subtract":
        result = a - b
    elif op == "multiply":
        result = a * b
    elif op == "divide":
        result = a / b
    elif op == "power":
        result = a ** b
    elif op == "sqrt":
        result = math.sqrt(a)
    elif op == "factorial":
        result = math.factorial(a)
    else:
        raise ValueError("Unknown operation: %s" % op)
    return {"operation": op, "result": result}
