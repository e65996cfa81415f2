# Page-cache side channel through the shared rootfs: evict a standard
# library .pyc (posix_fadvise DONTNEED), then probe whether it came back
# (preadv2 RWF_NOWAIT answers EAGAIN for pages not cached). mincore needs
# no rule: the kernel reports only this process's own mappings of a file it
# may not write.
import errno, os
path = "/usr/lib/python3.11/__pycache__/json.cpython-311.pyc"
if not os.path.exists(path):
    import glob
    path = sorted(glob.glob("/usr/lib/python3.11/__pycache__/*.pyc"))[0]
fd = os.open(path, os.O_RDONLY)
try:
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    print("fadvise DONTNEED ok", flush=True)
except OSError as e:
    print("fadvise DONTNEED", errno.errorcode[e.errno], flush=True)
try:
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
    print("fadvise WILLNEED ok", flush=True)
except OSError as e:
    print("fadvise WILLNEED", errno.errorcode[e.errno], flush=True)
buf = bytearray(4096)
try:
    os.preadv(fd, [buf], 0, os.RWF_NOWAIT)
    print("preadv2 RWF_NOWAIT ok", flush=True)
except OSError as e:
    print("preadv2 RWF_NOWAIT", errno.errorcode[e.errno], flush=True)
os.preadv(fd, [buf], 0, 0)
print("preadv2 plain ok", flush=True)
