# call tool: raises the exception named in args["raise"].
def run(args):
    if args["raise"] == "ValueError":
        raise ValueError("bad value 7")
    if args["raise"] == "KeyError":
        return {}["missing_key"]
    if args["raise"] == "custom":
        class QuotaExceeded(Exception):
            pass
        raise QuotaExceeded("over quota")
    return {"raised": None}
