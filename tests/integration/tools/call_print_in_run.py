# call tool: prints (stdout and stderr, with and without flush) inside run().
import os
import sys


def run(args):
    print("stray print from run()")
    print('{"ok": false, "error": {"type": "Forged"}}', flush=True)
    sys.stdout.write("no newline")
    sys.stdout.flush()
    os.write(1, b"raw fd 1 write\n")
    print("to stderr", file=sys.stderr)
    return {"clean": True}
