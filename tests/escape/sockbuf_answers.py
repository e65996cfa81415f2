# What setsockopt(SOL_SOCKET, SO_SNDBUF/SO_RCVBUF/...FORCE) answers now that
# the supervisor performs it: the size the socket got, and every error as
# setsockopt itself gives it. Prints one line per call.
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def ans(r):
    return "ok" if r == 0 else errno.errorcode[ctypes.get_errno()]
def raw(fd, level, opt, value, size=4, ptr=True):
    v = ctypes.c_int(value)
    p = ctypes.byref(v) if ptr else None
    # setsockopt is syscall 54; the level as a whole 64-bit register
    return ans(libc.syscall(54, fd, ctypes.c_long(level), opt, p, size))
a, b = socket.socketpair()
a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 << 20)
print("SO_SNDBUF 64 MiB got", a.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF), flush=True)
a.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
print("SO_RCVBUF 64 KiB got", a.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF), flush=True)
a.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, -1)
print("SO_RCVBUF -1 got", a.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF), flush=True)
print("SO_SNDBUFFORCE", raw(a.fileno(), 1, 32, 1 << 20), flush=True)
print("SO_RCVBUFFORCE", raw(a.fileno(), 1, 33, 1 << 20), flush=True)
print("bad fd", raw(999, 1, 7, 4096), flush=True)
r, w = os.pipe()
print("pipe", raw(r, 1, 7, 4096), flush=True)
print("short", raw(a.fileno(), 1, 7, 4096, size=2), flush=True)
print("NULL", raw(a.fileno(), 1, 7, 4096, ptr=False), flush=True)
print("SOL_SOCKET|1<<32", raw(a.fileno(), 1 | 1 << 32, 7, 64 << 20), flush=True)
print("SO_SNDBUF after all", a.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF), flush=True)
print("SO_REUSEADDR", raw(a.fileno(), 1, 2, 1), flush=True)
print("TCP_NODELAY", ans(0 if socket.socket().setsockopt(6, 1, 1) is None else 1), flush=True)
