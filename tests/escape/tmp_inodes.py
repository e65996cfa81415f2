# Exhaust inodes: create empty files in /tmp until refused.
import errno, os
n = 0
try:
    while n < 100000:
        os.close(os.open(f"/tmp/f{n}", os.O_CREAT | os.O_WRONLY, 0o600))
        n += 1
    print("LEAK created", n)
except OSError as e:
    print("stopped", errno.errorcode[e.errno], "small" if n < 64 else "big", n)
