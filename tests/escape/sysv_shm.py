# Hold memory in detached System V shared memory: segments of 16 MiB,
# touched and detached, up to 1 GiB. Prints how much the kernel held for us
# at the end ("held N MiB") or the errno that stopped the first segment.
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_PRIVATE, IPC_CREAT, SEG = 0, 0o1000, 16 << 20
held = 0
while held < 1024:
    sid = libc.shmget(IPC_PRIVATE, SEG, IPC_CREAT | 0o600)
    if sid < 0:
        print("shmget", errno.errorcode[ctypes.get_errno()], "after", held, "MiB", flush=True)
        break
    addr = libc.shmat(sid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        print("shmat", errno.errorcode[ctypes.get_errno()], flush=True)
        break
    ctypes.memset(addr, 1, SEG)
    libc.shmdt(ctypes.c_void_p(addr))
    held += SEG >> 20
print("held", held, "MiB", flush=True)
