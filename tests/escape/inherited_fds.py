# Look for descriptors the launcher leaked to us (fds 3..1023).
import os
leaked = []
for fd in range(3, 1024):
    try:
        os.fstat(fd)
        leaked.append((fd, os.readlink(f"/proc/self/fd/{fd}")))
    except OSError:
        pass
print("leaked fds", leaked)
