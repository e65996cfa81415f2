# Walk out of the root through /proc/self/root and '..' and look for host-only paths.
import errno, os
seen = set()
for p in ("/proc/self/root", "/proc/self/root/..", "/proc/self/root/../../..",
          "/proc/self/cwd/../../..", "/proc/2/root/.."):
    try:
        seen.add(tuple(sorted(os.listdir(p))))
    except OSError as e:
        print(p, "error", errno.errorcode[e.errno])
print("distinct roots", len(seen))
for host in ("/proc/self/root/root", "/proc/self/root/home", "/proc/self/root/work",
             "/proc/self/root/run", "/proc/self/root/etc/shadow", "/proc/self/root/var"):
    try:
        os.stat(host)
        print("LEAK", host)
    except OSError as e:
        print(os.path.basename(host), "blocked", errno.errorcode[e.errno])
