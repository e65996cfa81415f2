# OpenFang agent that reports its working directory, reads notes.txt by a
# relative path, and tries to create a file there.
import errno
import json
import os
import sys

sys.stdin.readline()
try:
    with open("notes.txt") as f:
        notes = f.read().strip()
except OSError as e:
    notes = errno.errorcode[e.errno]
try:
    open("created-by-agent.txt", "w").close()
    create = "CREATED"
except OSError as e:
    create = errno.errorcode[e.errno]
print(json.dumps({"type": "response", "text": os.getcwd(), "notes": notes, "create": create,
                  "argv0": sys.argv[0]}))
