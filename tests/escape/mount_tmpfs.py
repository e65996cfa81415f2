# Mount a tmpfs over /etc to plant our own passwd.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.mount(b"none", b"/etc", b"tmpfs", 0, None)
print("mount returned", r, ctypes.get_errno(), flush=True)
