# call tool: reports its own failure in the envelope's shape.
def run(args):
    return {"ok": False, "error": {"type": "NotFound", "message": "no item " + str(args["id"])}}
