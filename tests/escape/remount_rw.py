# Remount the read-only rootfs writable, then write to /usr.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
MS_REMOUNT, MS_BIND = 32, 4096
r = libc.mount(None, b"/usr", None, MS_REMOUNT | MS_BIND, None)
print("remount returned", r, ctypes.get_errno(), flush=True)
open("/usr/pwned", "w").write("x")
print("ESCAPED: wrote /usr", flush=True)
