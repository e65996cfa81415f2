# call tool: returns large integers, one from the request, one computed.
def run(args):
    return {"echo": args["n"], "next": args["n"] + 1, "literal": 12345678901234567890}
