# What a PyRunner-style runner writes to a temporary file and runs as
# `INTERPRETER tool.py` with the arguments as JSON on stdin: its own wrapper
# (an address-space limit, stdin read, run() called, one JSON document on
# stdout, exit 1 on an exception) around the tool's code. Used with
# tools/toolcell-python as the interpreter, not with `toolcell call`.
import json
import resource
import sys

limit = 256 * 1024 * 1024
try:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
except (ValueError, OSError):
    pass

input_data = json.loads(sys.stdin.read())


def run(args):
    return sorted(args["items"], key=str.lower)


try:
    result = run(input_data)
    if isinstance(result, dict) and "ok" in result:
        output = result
    else:
        output = {"ok": True, "data": result}
    print(json.dumps(output, indent=2))
except MemoryError:
    error = {"message": "Memory limit exceeded", "type": "MemoryError"}
    print(json.dumps({"ok": False, "error": error}, indent=2))
    sys.exit(1)
except Exception as e:
    error = {"message": str(e), "type": type(e).__name__}
    print(json.dumps({"ok": False, "error": error}, indent=2))
    sys.exit(1)
