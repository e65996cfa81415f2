# call tool: doubles args["n"]; returns a dict.
def run(args):
    return {"doubled": args["n"] * 2, "label": args.get("label", "")}
