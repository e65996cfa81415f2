# userfaultfd stalls the kernel mid-copy: a race-widening primitive.
import ctypes, errno, os
try:
    os.open("/dev/userfaultfd", os.O_RDWR)
    print("LEAK /dev/userfaultfd", flush=True)
except OSError as e:
    print("/dev/userfaultfd blocked", errno.errorcode[e.errno], flush=True)
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(323, os.O_CLOEXEC | os.O_NONBLOCK)
print("userfaultfd returned", r, ctypes.get_errno(), flush=True)
