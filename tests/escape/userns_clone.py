# Nested user namespace through raw clone(2) (x86_64 nr 56), not unshare.
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
CLONE_NEWUSER, SIGCHLD = 0x10000000, 17
pid = libc.syscall(56, ctypes.c_ulong(CLONE_NEWUSER | SIGCHLD), None, None, None, None)
if pid == 0:
    print("ESCAPED: child in a nested userns", flush=True)
    os._exit(0)
print("clone returned", pid, ctypes.get_errno(), flush=True)
