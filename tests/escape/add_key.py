# Plant a key in the user keyring, which the kernel keys by host uid, not namespace.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
KEY_SPEC_USER_KEYRING = -4
r = libc.syscall(248, b"user", b"tc-esc", b"payload", 7, KEY_SPEC_USER_KEYRING)
print("add_key returned", r, ctypes.get_errno(), flush=True)
