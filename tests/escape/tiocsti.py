# Push characters into the caller's terminal input (TIOCSTI), as the plain
# request and with high bits set that the kernel ignores.
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_char_p]
print("stdin is a tty", os.isatty(0))
for req in (0x5412, 0xdead00005412, 0x541C):  # TIOCSTI, TIOCSTI|junk, TIOCLINUX
    r = libc.ioctl(0, req, b"id\n")
    e = ctypes.get_errno()
    print(hex(req), "returned", r, errno.errorcode.get(e, e) if r < 0 else "")
