# pidfd_open(1) then pidfd_send_signal and pidfd_getfd: steal the init's fds.
import ctypes, errno, os, signal
libc = ctypes.CDLL(None, use_errno=True)
fd = os.pidfd_open(1)
print("pidfd_open(1) gave an fd", flush=True)
try:
    signal.pidfd_send_signal(fd, signal.SIGKILL)
    print("LEAK init killed", flush=True)
except OSError as e:
    print("pidfd_send_signal blocked", errno.errorcode[e.errno], flush=True)
r = libc.syscall(438, fd, 0, 0)
print("pidfd_getfd returned", r, ctypes.get_errno(), flush=True)
