# PyRunner-style tool that never returns: a CPU-bound loop.
def run(args):
    n = 0
    while True:
        n += 1
