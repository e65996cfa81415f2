# OpenFang agent that never answers: it forks a child that keeps stdout open,
# says where it is, and sleeps (OpenFang's timeout then SIGKILLs the interpreter).
import json
import os
import sys
import time

sys.stdin.readline()
if os.fork() == 0:
    time.sleep(300)
    os._exit(0)
print(json.dumps({"type": "progress", "pid": os.getpid()}), flush=True)
time.sleep(300)
