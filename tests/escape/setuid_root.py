# Become uid 0 (inside, which the namespace maps to the host's sandbox uid H).
import errno, os
for name, f in (("setuid", lambda: os.setuid(0)), ("setresuid", lambda: os.setresuid(0, 0, 0)),
                ("setgid", lambda: os.setgid(0)), ("setgroups", lambda: os.setgroups([0])),
                ("setfsuid", lambda: None)):
    try:
        f()
        if name != "setfsuid":
            print("LEAK", name, os.getresuid())
    except OSError as e:
        print(name, "blocked", errno.errorcode[e.errno])
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.setfsuid(0)
print("fsuid still", libc.setfsuid(-1 & 0xffffffff), "uid", os.getuid())
