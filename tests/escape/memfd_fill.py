# Hold memory in memfds filled with write() and never mapped: RLIMIT_AS
# never sees them. Up to 960 MiB in 64 MiB memfds; prints what stopped it.
import errno, os
chunk = b"x" * (1 << 20)
held = 0
try:
    while held < 960:
        fd = os.memfd_create("hold")
        for _ in range(64):
            os.write(fd, chunk)
            held += 1
except OSError as e:
    print("memfd", errno.errorcode[e.errno], "after", held, "MiB", flush=True)
print("held", held, "MiB", flush=True)
