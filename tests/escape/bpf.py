# Load a BPF socket filter program (BPF_PROG_LOAD), the verifier being a rich attack surface.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
insns = (ctypes.c_uint64 * 2)(0x00000000000000b7, 0x0000000000000095)  # r0 = 0; exit
attr = ctypes.create_string_buffer(128)
ctypes.memmove(attr, (ctypes.c_uint32 * 2)(1, 2), 8)  # prog_type SOCKET_FILTER, insn_cnt 2
ctypes.memmove(ctypes.addressof(attr) + 8, ctypes.byref(ctypes.c_uint64(ctypes.addressof(insns))), 8)
lic = ctypes.create_string_buffer(b"GPL")
ctypes.memmove(ctypes.addressof(attr) + 16, ctypes.byref(ctypes.c_uint64(ctypes.addressof(lic))), 8)
r = libc.syscall(321, 5, attr, 128)
print("bpf returned", r, ctypes.get_errno(), flush=True)
