# PyRunner-style example: math operations on the request's numbers.
import math


def run(args):
    op = args["operation"]
    if op == "sqrt":
        return {"result": math.sqrt(args["x"])}
    if op == "factorial":
        return {"result": math.factorial(args["n"])}
    if op == "gcd":
        return {"result": math.gcd(*args["numbers"])}
    if op == "power":
        return {"result": args["base"] ** args["exponent"]}
    if op == "hypot":
        return {"result": math.hypot(args["x"], args["y"])}
    raise ValueError("unsupported operation: " + op)
