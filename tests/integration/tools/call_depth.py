# call tool: how deeply nested is the request's first-element chain of lists?
def run(args):
    depth = 0
    while isinstance(args, list):
        depth += 1
        args = args[0] if args else None
    return {"depth": depth}
