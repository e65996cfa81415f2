# mount_setattr (nr 442): clear MOUNT_ATTR_RDONLY on /usr, recursively.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
class MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]
a = MountAttr(0, 1, 0, 0)
r = libc.syscall(442, -100, b"/usr", 0x8000, ctypes.byref(a), ctypes.sizeof(a))
print("mount_setattr returned", r, ctypes.get_errno(), flush=True)
