# Read a sibling's memory with process_vm_readv (nr 310).
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
secret = ctypes.create_string_buffer(b"sibling-secret")
child = os.fork()
if child == 0:
    time.sleep(30)
    os._exit(0)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(32)
local = iovec(ctypes.cast(buf, ctypes.c_void_p), 14)
remote = iovec(ctypes.addressof(secret), 14)
r = libc.syscall(310, child, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
print("process_vm_readv returned", r, buf.value, flush=True)
