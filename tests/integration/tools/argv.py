# Prints sys.argv as one JSON line.
import json
import sys

print(json.dumps(sys.argv))
