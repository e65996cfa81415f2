# call tool in script mode (no run()): reads the request on stdin and prints
# one JSON document.
import json
import sys

request = json.load(sys.stdin)
print(json.dumps({"greeting": "hello " + request["name"], "len": len(request["name"])}))
