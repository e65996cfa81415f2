# Writes what a PyRunner at Arium's HEAD writes to <tmp>/arium-py-XXXX/tool.py
# and runs as plain `python3 tool.py` (found on PATH), written anew from its
# contract (CLIENTS.md 002): its own RLIMIT_AS, the tool's code dedented,
# args from stdin ({} when empty), run(args) called, a dict with "ok" kept
# as it is, else {"ok": true, "data": ...}; an exception becomes {"ok":
# false, "error": {"type", "message"}}; one JSON document on stdout without
# a newline; exit 0 even on the tool's error.
# usage: python3 arium_head_wrapper.py MAX_MEMORY_MB < tool-code > tool.py
import sys
import textwrap

code = textwrap.dedent(sys.stdin.read())
mb = int(sys.argv[1])
sys.stdout.write(f"""import json, sys, resource, traceback
try:
    resource.setrlimit(resource.RLIMIT_AS, ({mb} * 1024 * 1024, {mb} * 1024 * 1024))
except Exception:
    pass

{code}

raw = sys.stdin.read()
args = json.loads(raw) if raw else {{}}
try:
    result = run(args)
    output = result if isinstance(result, dict) and "ok" in result else {{"ok": True, "data": result}}
except MemoryError as exc:
    output = {{"ok": False, "error": {{"type": "MemoryError", "message": str(exc)}}}}
except Exception as exc:
    output = {{"ok": False, "error": {{"type": type(exc).__name__, "message": str(exc)}}}}
sys.stdout.write(json.dumps(output))
""")
