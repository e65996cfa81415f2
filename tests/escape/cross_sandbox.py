# Interfere with a sandbox running beside us: run twice at once, "plant" then
# "look". The planter leaves marks in /dev/shm and /tmp, locks a shared
# rootfs file (the same host inode in every sandbox) as hard as it may, and
# waits; the looker searches for the marks and probes the lock.
import errno, fcntl, os, time
mode = os.environ["MODE"]
target = "/usr/lib/python3.11/os.py"
print("uid_map", open("/proc/self/uid_map").read().split()[:3], flush=True)
if mode == "plant":
    open("/dev/shm/tc-esc-mark", "w").write("x")
    open("/tmp/tc-esc-mark", "w").write("x")
    a = os.open(target, os.O_RDONLY)
    try:
        fcntl.flock(a, fcntl.LOCK_EX)
        print("LEAK exclusive flock taken on a shared file", flush=True)
    except OSError as e:
        print("exclusive flock refused", errno.errorcode[e.errno], flush=True)
    fcntl.flock(a, fcntl.LOCK_SH)
    print("planted, holding a shared flock", flush=True)
    open(os.environ["READY"], "w").write("1") if os.environ.get("READY") else None
    time.sleep(float(os.environ.get("HOLD", "3")))
    print("planter done", flush=True)
else:
    for p in ("/dev/shm/tc-esc-mark", "/tmp/tc-esc-mark"):
        print(p, "seen" if os.path.exists(p) else "absent", flush=True)
    b = os.open(target, os.O_RDONLY)
    try:
        fcntl.flock(b, fcntl.LOCK_SH | fcntl.LOCK_NB)
        print("shared flock free", flush=True)
    except OSError as e:
        print("LEAK flock held by the other sandbox", errno.errorcode[e.errno], flush=True)
    try:
        fcntl.flock(b, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print("LEAK exclusive flock taken on a shared file", flush=True)
    except OSError as e:
        # EAGAIN would mean it saw the other sandbox's lock
        print("exclusive flock refused", errno.errorcode[e.errno], flush=True)
