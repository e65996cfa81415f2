# The new mount API: clone the root mount tree with open_tree(OPEN_TREE_CLONE|AT_RECURSIVE)
# (nr 428), then move_mount it somewhere writable.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
OPEN_TREE_CLONE, AT_RECURSIVE = 1, 0x8000
fd = libc.syscall(428, -100, b"/", OPEN_TREE_CLONE | AT_RECURSIVE)
print("open_tree returned", fd, ctypes.get_errno(), flush=True)
r = libc.syscall(429, fd, b"", -100, b"/tmp", 4)
print("move_mount returned", r, ctypes.get_errno(), flush=True)
