# The older call: settimeofday(2) (nr 164), and adjtimex (nr 159).
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
tv = (ctypes.c_long * 2)(0, 0)
r = libc.syscall(164, tv, None)
print("settimeofday returned", r, ctypes.get_errno(), flush=True)
