# The x32 ABI (nr | 0x40000000): a filter that checks only the x86_64 number misses it.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
X32 = 0x40000000
r = libc.syscall(ctypes.c_long(X32 | 272), 0x10000000)  # x32 unshare(CLONE_NEWUSER)
print("x32 unshare returned", r, ctypes.get_errno(), flush=True)
