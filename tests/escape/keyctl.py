# Join (and so share) a named session keyring, the classic cross-container key leak.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
KEYCTL_JOIN_SESSION_KEYRING = 1
r = libc.syscall(250, KEYCTL_JOIN_SESSION_KEYRING, b"tc-esc-shared")
print("keyctl returned", r, ctypes.get_errno(), flush=True)
