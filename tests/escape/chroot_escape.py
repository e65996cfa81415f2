# The chroot classic: chroot into a subdirectory while keeping a fd on the old
# root, fchdir back, walk '..' up and chroot('.').
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
os.makedirs("/tmp/jail", exist_ok=True)
keep = os.open("/", os.O_RDONLY)
r = libc.chroot(b"/tmp/jail")
print("chroot returned", r, ctypes.get_errno(), flush=True)
os.fchdir(keep)
for _ in range(64):
    os.chdir("..")
libc.chroot(b".")
print("root now", os.listdir("/"), flush=True)
