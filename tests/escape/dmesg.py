# Read the kernel log with syslog(SYSLOG_ACTION_READ_ALL), then clear it.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(65536)
r = libc.klogctl(3, buf, 65536)
print("syslog returned", r, ctypes.get_errno(), buf.value[:80], flush=True)
