# pivot_root into /tmp, keeping the old root reachable.
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
os.makedirs("/tmp/new/old", exist_ok=True)
r = libc.syscall(155, b"/tmp/new", b"/tmp/new/old")
print("pivot_root returned", r, ctypes.get_errno(), flush=True)
