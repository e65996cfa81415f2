# Drop a binary: a copy of the interpreter into a memfd (refused: memfds hold
# memory no limit counts), /tmp, /dev/shm and the workspace, then execute
# it. Where it runs, is it still inside the sandbox (seccomp, no_new_privs,
# no capabilities, uid 1000)?
import errno, os
blob = open("/usr/bin/python3.11", "rb").read()
probe = """
import os, ctypes, sys
st = {l.split(':')[0]: l.split()[1] for l in open('/proc/self/status') if ':' in l and l.split()[1:]}
print(sys.argv[1], 'ran: uid', os.getuid(), 'Seccomp', st['Seccomp'], 'NoNewPrivs', st['NoNewPrivs'], 'CapEff', st['CapEff'], flush=True)
if sys.argv[2:] == ['unshare']:
    ctypes.CDLL(None).unshare(0x10000000)
    print('LEAK unshared', flush=True)
"""
def attempt(where, target, *extra):
    child = os.fork()
    if child == 0:
        try:
            os.execve(target, ["py", "-c", probe, where, *extra], {})
        except OSError as e:
            print(where, "exec blocked", errno.errorcode[e.errno], flush=True)
            os._exit(0)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        print(where, "child killed by signal", os.WTERMSIG(status), flush=True)
try:
    fd = os.memfd_create("dropped")
    os.write(fd, blob)
    attempt("memfd", fd)
except OSError as e:
    print("memfd", errno.errorcode[e.errno], flush=True)
for d in ("/tmp", "/dev/shm", "/workspace"):
    p = d + "/py"
    with open(p, "wb") as f:
        f.write(blob)
    os.chmod(p, 0o755)
    attempt(d, p)
# last: the dropped program tries a nested user namespace
attempt("/workspace", "/workspace/py", "unshare")
print("LEAK survived")
