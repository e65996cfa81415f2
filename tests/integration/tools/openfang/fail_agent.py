# OpenFang agent that fails: "exit N" exits N after a stdout line and a
# stderr message; "raise" raises an uncaught exception.
import json
import sys

msg = json.loads(sys.stdin.readline())["message"]
print(json.dumps({"type": "progress", "text": "about to fail"}), flush=True)
if msg == "raise":
    def answer():
        raise RuntimeError("model backend unreachable (42)")
    answer()
code = int(msg.split()[1])
sys.stderr.write("agent failed: giving up with %d\nsecond line \u00e9\n" % code)
sys.exit(code)
