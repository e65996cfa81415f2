# OpenFang agent (the SDK's read_input/respond protocol): one message line on
# stdin, JSON lines on stdout, {"type": "response", "text": ...} last. Echoes
# what it received, so a test can compare it with what was sent.
import json
import sys

line = sys.stdin.readline()
msg = json.loads(line)
print("Loading model...", flush=True)  # a plain log line, which OpenFang skips
print(json.dumps({"type": "progress", "step": 1}), flush=True)
reply = {
    "type": "response",
    "text": "%s heard: %s" % (msg["agent_id"], msg["message"]),
    "metadata": {"received": msg, "line_ends_with_newline": line.endswith("\n")},
}
print(json.dumps(reply, ensure_ascii=False))
