# Trojan the interpreter's standard library and /etc in the shared rootfs.
import errno, os
for p in ("/usr/lib/python3.11/os.py", "/etc/passwd", "/usr/bin/evil", "/etc/ld.so.preload", "/lib/x"):
    try:
        open(p, "a").write("import evil\n")
        print("LEAK wrote", p)
    except OSError as e:
        print(p, "blocked", errno.errorcode[e.errno])
for op, f in (("chmod", lambda: os.chmod("/usr/bin/python3.11", 0o6777)),
              ("rename", lambda: os.rename("/etc/passwd", "/etc/passwd.old")),
              ("utime", lambda: os.utime("/etc/passwd", (0, 0)))):
    try:
        f()
        print("LEAK", op)
    except OSError as e:
        print(op, "blocked", errno.errorcode[e.errno])
