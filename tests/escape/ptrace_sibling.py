# Seize a sibling process (our own child, same uid) to inject code into it.
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
child = os.fork()
if child == 0:
    time.sleep(30)
    os._exit(0)
PTRACE_SEIZE = 0x4206
r = libc.ptrace(PTRACE_SEIZE, child, None, None)
print("ptrace returned", r, ctypes.get_errno(), flush=True)
