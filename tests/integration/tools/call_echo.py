# call tool: returns its request unchanged (wrapped as data).
def run(args):
    return args
