# OpenFang agent whose response line has no newline at the end.
import json
import sys

msg = json.loads(sys.stdin.readline())
sys.stdout.write(json.dumps({"type": "response", "text": msg["message"][::-1]}))
