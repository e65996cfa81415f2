# io_uring bypasses seccomp for the operations it runs.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
r = libc.syscall(425, 8, params)
print("io_uring_setup returned", r, ctypes.get_errno(), flush=True)
