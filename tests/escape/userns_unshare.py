# A nested user namespace gives full capabilities over a fresh namespace:
# the classic first step of a kernel-attack chain.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER = 0x10000000
r = libc.unshare(CLONE_NEWUSER)
print("unshare returned", r, ctypes.get_errno(), flush=True)
open("/proc/self/uid_map", "w").write("0 1000 1\n")
print("ESCAPED: root in a nested userns", flush=True)
