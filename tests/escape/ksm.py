# KSM side channel: mark memory mergeable (prctl PR_SET_MEMORY_MERGE,
# madvise MADV_MERGEABLE). Prints each call's answer.
import ctypes, errno, mmap
libc = ctypes.CDLL(None, use_errno=True)
def ans(r):
    return "ok" if r == 0 else errno.errorcode[ctypes.get_errno()]
print("PR_SET_MEMORY_MERGE", ans(libc.prctl(67, 1, 0, 0, 0)), flush=True)
m = mmap.mmap(-1, 1 << 16)
addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
print("MADV_MERGEABLE", ans(libc.madvise(ctypes.c_void_p(addr), 1 << 16, 12)), flush=True)
# with the high half set: the kernel reads an int, the filter all 64 bits
print("PR_SET_MEMORY_MERGE|1<<32", ans(libc.syscall(157, ctypes.c_long(67 | 1 << 32), 1, 0, 0, 0)), flush=True)
print("MADV_DONTNEED", ans(libc.madvise(ctypes.c_void_p(addr), 1 << 16, 4)), flush=True)
