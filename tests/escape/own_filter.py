# A filter of the tool's own turns a call toolcell counts (or kills) into a
# quiet errno: seccomp(SET_MODE_FILTER) and prctl(PR_SET_SECCOMP). Prints
# each answer; if one was loaded, tries ptrace, which must still end the tool.
import ctypes, errno, struct
libc = ctypes.CDLL(None, use_errno=True)
# BPF: return SECCOMP_RET_ERRNO | EPERM for every call
prog = struct.pack("HBBI", 0x06, 0, 0, 0x00050001)
buf = ctypes.create_string_buffer(prog)
class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
fp = Fprog(1, ctypes.addressof(buf))
def ans(r):
    return "ok" if r == 0 else errno.errorcode[ctypes.get_errno()]
print("seccomp SET_MODE_FILTER", ans(libc.syscall(317, 1, 0, ctypes.byref(fp))), flush=True)
print("prctl PR_SET_SECCOMP", ans(libc.prctl(22, 2, ctypes.byref(fp), 0, 0)), flush=True)
print("seccomp GET_ACTION_AVAIL", ans(libc.syscall(317, 2, 0, ctypes.byref(ctypes.c_uint(0x7fff0000)))), flush=True)
print("prctl PR_GET_SECCOMP", libc.prctl(21, 0, 0, 0, 0), flush=True)
