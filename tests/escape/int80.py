# The i386 ABI via int 0x80 from a 64-bit process: eax=310 is i386
# unshare(CLONE_NEWUSER)... but i386 numbers differ from x86_64 ones.
import ctypes, mmap
code = bytes([
    0x53,                                # push rbx (callee-saved)
    0xb8, 0x36, 0x01, 0x00, 0x00,        # mov eax, 310 (i386 unshare)
    0xbb, 0x00, 0x00, 0x00, 0x10,        # mov ebx, CLONE_NEWUSER
    0xcd, 0x80,                          # int 0x80
    0x5b,                                # pop rbx
    0xc3,                                # ret (rax holds the result)
])
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
f = ctypes.CFUNCTYPE(ctypes.c_long)(addr)
print("int 0x80 unshare returned", f(), flush=True)
