# OpenFang agent that reports its environment: its own, everything it can read
# in /proc/*/environ, the module it imports from PYTHONPATH (if any) and the
# encoding PYTHONIOENCODING gave its stdout.
import json
import os
import sys

msg = json.loads(sys.stdin.readline())
others = {}
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                others[pid] = f.read().decode("utf-8", "backslashreplace")
        except OSError:
            pass
try:
    import openfang_helper
    helper = openfang_helper.VALUE
except ImportError:
    helper = None
print(json.dumps({
    "type": "response",
    "text": os.environ.get("OPENFANG_MESSAGE", ""),
    "env": dict(os.environ),
    "proc_environ": others,
    "helper": helper,
    "stdout_encoding": sys.stdout.encoding,
}))
