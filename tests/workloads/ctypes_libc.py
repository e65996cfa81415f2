"""Workload: ctypes on libc.so.6 (strlen, getpid, qsort with a Python
callback, snprintf, structures, errno) and libm."""
import ctypes
import os
import sys

NAME = "ctypes_libc"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


libc = ctypes.CDLL("libc.so.6", use_errno=True)
libc.strlen.argtypes = [ctypes.c_char_p]
libc.strlen.restype = ctypes.c_size_t
check(libc.strlen(b"hello, world") == 12 and libc.strlen(b"") == 0, "strlen")
check(libc.getpid() == os.getpid(), "getpid")
check(ctypes.CDLL(None).strlen(b"abc") == 3, "CDLL(None)")

buf = ctypes.create_string_buffer(64)
n = libc.snprintf(buf, 64, b"%s=%d %.2f", b"x", ctypes.c_int(42), ctypes.c_double(3.14159))
check(n == 9 and buf.value == b"x=42 3.14", f"snprintf {buf.value!r}")

# qsort with a Python comparison function (a libffi closure)
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
calls = []


def cmp(a, b):
    calls.append(1)
    return (a[0] > b[0]) - (a[0] < b[0])


arr = (ctypes.c_int * 8)(5, 3, 9, 1, 7, 2, 8, 0)
cb = CMP(cmp)
libc.qsort(arr, len(arr), ctypes.sizeof(ctypes.c_int), cb)
check(list(arr) == [0, 1, 2, 3, 5, 7, 8, 9] and calls, "qsort with a callback")


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


ts = Timespec()
check(libc.clock_gettime(1, ctypes.byref(ts)) == 0 and ts.tv_sec >= 0, "clock_gettime into a Structure")

class Utsname(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char * 65) for f in ("sysname", "nodename", "release", "version", "machine", "domainname")]


un = Utsname()
check(libc.uname(ctypes.byref(un)) == 0 and un.sysname == b"Linux" and un.machine.decode() == os.uname().machine, "uname")

# errno from a failing call
libc.open.argtypes = [ctypes.c_char_p, ctypes.c_int]
check(libc.open(b"/nonexistent/x", 0) == -1 and ctypes.get_errno() == 2, "errno ENOENT")

# memory: malloc/free, memmove, arrays, pointers, cast
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
p = libc.malloc(1024)
check(p, "malloc")
ctypes.memmove(p, b"copied\0", 7)
check(ctypes.string_at(p) == b"copied", "memmove/string_at")
ctypes.memset(p, 0x41, 3)
check(ctypes.string_at(p, 4) == b"AAAi", "memset")
libc.free(p)
ints = (ctypes.c_uint32 * 2)(0x01020304, 0)
check(ctypes.cast(ints, ctypes.POINTER(ctypes.c_uint8))[0] in (4, 1), "cast")
check(ctypes.sizeof(ctypes.c_void_p) == 8 and ctypes.alignment(ctypes.c_double) == 8, "sizes")

libm = ctypes.CDLL("libm.so.6")
libm.cbrt.argtypes = [ctypes.c_double]
libm.cbrt.restype = ctypes.c_double
check(abs(libm.cbrt(27.0) - 3.0) < 1e-12, "libm cbrt")
check(ctypes.pythonapi.Py_IsInitialized() == 1, "pythonapi")

print(f"ok {NAME}")
