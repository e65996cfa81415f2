# Look for any pid that is not ours (the init, toolcell, host processes) and
# read its cwd, fds, environ. Only our own process and our children should exist.
import errno, os, time
child = os.fork()
if child == 0:
    time.sleep(5)
    os._exit(0)
me = os.getpid()
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
print("pids visible", [("self" if p == me else "child" if p == child else p) for p in pids])
for p in range(1, 400):
    if p in (me, child):
        continue
    for what in ("cwd", "fd", "environ"):
        try:
            os.stat(f"/proc/{p}/{what}")
            print("LEAK", p, what)
        except OSError as e:
            if e.errno != errno.ENOENT:
                print("odd", p, what, errno.errorcode[e.errno])
# our own child's cwd is inside the sandbox anyway
print("child cwd", os.readlink(f"/proc/{child}/cwd"))
os.kill(child, 9)
os.waitpid(child, 0)
print("done")
