# OpenFang agent that reads its whole stdin (not only the first line) and
# answers with its size, its sha256 and the message's length.
import hashlib
import json
import sys

data = sys.stdin.buffer.read()
msg = json.loads(data)
print(json.dumps({"type": "response", "text": "%d %s %d %s" % (
    len(data), hashlib.sha256(data).hexdigest(), len(msg["message"]),
    "newline" if data.endswith(b"\n") else "no-newline")}))
