# perf_event_open on every CPU of the host: side channels and a long CVE list.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(128)
ctypes.memmove(attr, (ctypes.c_uint32 * 2)(1, 128), 8)  # PERF_TYPE_SOFTWARE, size
r = libc.syscall(298, attr, -1, 0, -1, 0)
print("perf_event_open returned", r, ctypes.get_errno(), flush=True)
