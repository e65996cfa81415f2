# Lazily unmount / to peel off the sandbox's mounts and reveal what lies beneath.
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
MNT_DETACH = 2
r = libc.umount2(b"/", MNT_DETACH)
print("umount2 returned", r, ctypes.get_errno(), os.listdir("/"), flush=True)
