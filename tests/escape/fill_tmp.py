# Fill /tmp (host memory, if tmpfs were unbounded) until the kernel says stop.
import errno
n = 0
chunk = b"\0" * 65536
try:
    with open("/tmp/fill", "wb", buffering=0) as f:
        while n < 256 << 20:
            n += f.write(chunk)
    print("LEAK wrote", n)
except OSError as e:
    print("stopped", errno.errorcode[e.errno], "after", n // 1024, "KiB")
