"""Workload: json dumps/loads round trips, big integers, unicode, options."""
import json
import sys
from collections import OrderedDict

NAME = "json_codec"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


doc = {
    "big": 2**200 + 1,
    "neg": -(10**40),
    "float": 1.5e-300,
    "text": "héllo wörld ✓ 日本語 \U0001f600",
    "ctrl": "tab\there\nnewline \"quoted\" \\ back",
    "list": [1, 2.5, None, True, False, [], {}],
    "nested": {"a": {"b": {"c": [1, {"d": "e"}]}}},
}

# ensure_ascii=True (the default) escapes everything non-ASCII
ascii_text = json.dumps(doc, sort_keys=True)
check(ascii_text.isascii(), "default dumps is not pure ASCII")
check("\\ud83d\\ude00" in ascii_text, "astral char not escaped as a surrogate pair")
check(str(2**200 + 1) in ascii_text, "big int not written exactly")
check(json.loads(ascii_text) == doc, "ASCII round trip differs")

# ensure_ascii=False keeps the characters, and survives a UTF-8 encode/decode
utf8 = json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True).encode("utf-8")
check("日本語".encode() in utf8, "unicode not kept with ensure_ascii=False")
back = json.loads(utf8.decode("utf-8"))
check(back == doc, "UTF-8 round trip differs")
check(type(back["big"]) is int and back["big"] == 2**200 + 1, "big int lost precision")

# loads of bytes, exact layout of a compact dump
check(json.loads(b'{"x": [1, 2]}') == {"x": [1, 2]}, "loads(bytes) failed")
check(json.dumps({"b": 1, "a": [1, 2]}, separators=(",", ":"), sort_keys=True)
      == '{"a":[1,2],"b":1}', "compact dump layout")

# hooks: object_pairs_hook keeps order, parse_float, default=
pairs = json.loads('{"z": 1, "a": 2, "m": 3}', object_pairs_hook=OrderedDict)
check(list(pairs) == ["z", "a", "m"], "object_pairs_hook order")
check(json.loads("[0.1]", parse_float=str) == ["0.1"], "parse_float hook")
check(json.dumps(set([7]), default=sorted) == "[7]", "default= for a set")

# errors are reported with a position
try:
    json.loads('{"a": [1, 2,]}')
except json.JSONDecodeError as e:
    check(e.pos == 12 and e.lineno == 1, f"decode error position {e.pos}")
else:
    check(False, "invalid JSON accepted")

check(json.loads("NaN") != json.loads("NaN"), "NaN not parsed")
check(json.dumps(float("inf")) == "Infinity", "Infinity dump")

print(f"ok {NAME}")
