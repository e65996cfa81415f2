# OpenFang agent whose JSON lines carry awkward bytes: raw UTF-8 and \u
# escapes, an escaped CR and a raw CRLF line end, a tab, an empty line, a
# 200 KB line, then the response. Deterministic: bare python3 prints the same.
import json
import sys

msg = json.loads(sys.stdin.readline())
out = sys.stdout.buffer
out.write(b'{"type":"progress","n":1}\n')
out.write(json.dumps({"type": "progress", "raw": "h\u00e9llo \u20ac \U0001f600"},
                     ensure_ascii=False).encode("utf-8") + b"\n")
escaped = {"type": "progress", "escaped": "h\u00e9llo \u20ac \U0001f600"}
out.write(json.dumps(escaped).encode() + b"\n")
out.write(b'{"type":"progress","s":"a\\r\\nb\\tc"}\r\n')
out.write(b"\n")
out.write(b'{"type":"progress","tab":"\t","trailing":"  "}   \n')
out.write(json.dumps({"type": "progress", "pad": "x" * 200000}).encode() + b"\n")
out.write(json.dumps({"type": "response", "text": "done: " + msg["message"]},
                     ensure_ascii=False).encode("utf-8") + b"\n")
