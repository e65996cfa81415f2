"""Workload: mmap, anonymous and file-backed in /tmp: write, read back,
resize, flush, shared across fork, madvise."""
import mmap
import os
import sys
import tempfile

NAME = "mmap_files"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


PAGE = mmap.PAGESIZE
check(PAGE >= 4096 and mmap.ALLOCATIONGRANULARITY >= PAGE, "page size")

# anonymous private mapping (Python's default for fd -1 is MAP_SHARED)
with mmap.mmap(-1, 16 * PAGE, flags=mmap.MAP_PRIVATE) as m:
    m[:5] = b"hello"
    m[PAGE:PAGE + 5] = b"world"
    m.seek(0)
    check(m.read(5) == b"hello" and m[PAGE:PAGE + 5] == b"world", "anonymous map")
    check(m.find(b"world") == PAGE and len(m) == 16 * PAGE, "find/len")
    m.madvise(mmap.MADV_DONTNEED, 0, PAGE)
    check(m[:5] == b"\0" * 5, "MADV_DONTNEED zeroes a private anonymous page")
    m.madvise(mmap.MADV_WILLNEED)

# anonymous shared mapping survives fork: the child writes, the parent reads
shared = mmap.mmap(-1, PAGE, flags=mmap.MAP_SHARED)
pid = os.fork()
if pid == 0:
    shared[:11] = b"from child!"
    os._exit(0)
os.waitpid(pid, 0)
check(shared[:11] == b"from child!", "MAP_SHARED across fork")
shared.close()

# file-backed mapping in /tmp
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "data.bin")
    with open(path, "wb") as f:
        f.write(b"\0" * (4 * PAGE))
    with open(path, "r+b") as f:
        with mmap.mmap(f.fileno(), 0) as m:
            m[:12] = b"mapped write"
            m[-4:] = b"tail"
            m.flush()
            m.resize(8 * PAGE)  # mremap + ftruncate
            m[-3:] = b"end"
            m.flush(0, PAGE)
    with open(path, "rb") as f:
        data = f.read()
    check(len(data) == 8 * PAGE, f"resized file is {len(data)} bytes")
    check(data[:12] == b"mapped write" and data[4 * PAGE - 4:4 * PAGE] == b"tail" and data[-3:] == b"end",
          "file contents after mapped writes")

    # read-only and copy-on-write mappings of the same file
    with open(path, "rb") as f:
        ro = mmap.mmap(f.fileno(), PAGE, access=mmap.ACCESS_READ)
        check(ro[:6] == b"mapped", "ACCESS_READ")
        try:
            ro[0] = 0
        except TypeError:
            pass
        else:
            check(False, "wrote to a read-only map")
        ro.close()
        cow = mmap.mmap(f.fileno(), PAGE, access=mmap.ACCESS_COPY)
        cow[:6] = b"COPIED"
        cow.close()
    with open(path, "rb") as f:
        check(f.read(6) == b"mapped", "ACCESS_COPY changed the file")

    # a mapping at an offset, and a line-by-line scan
    with open(path, "w") as f:
        f.write("".join(f"record {i}\n" for i in range(2000)))
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        lines = iter(m.readline, b"")
        check(sum(1 for _ in lines) == 2000, "readline over a map")
        check(m.rfind(b"record 1999", 0) > 0 and m.find(b"record 0\n", 0) == 0, "rfind/find from 0")
    with open(path, "rb") as f, mmap.mmap(f.fileno(), PAGE, offset=mmap.ALLOCATIONGRANULARITY,
                                          access=mmap.ACCESS_READ) as m:
        f.seek(mmap.ALLOCATIONGRANULARITY)
        check(m[:100] == f.read(100), "offset map")

# a large anonymous map (64 MiB), touched sparsely
with mmap.mmap(-1, 64 << 20) as big:
    for off in range(0, 64 << 20, 1 << 20):
        big[off] = 0xAB
    check(big[63 << 20] == 0xAB, "64 MiB anonymous map")

print(f"ok {NAME}")
