"""Workload: memory use well inside the default 256M limit: big buffers,
many small objects, a thread with a big stack, deep recursion, gc and
weakrefs, MemoryError from a request far over the limit being recoverable."""
import gc
import sys
import threading
import weakref

NAME = "memory_alloc"
MiB = 1 << 20


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


buf = bytearray(96 * MiB)
for off in range(0, len(buf), 4096):
    buf[off] = 1
check(sum(buf[::4096]) == 96 * MiB // 4096, "96 MiB touched")
del buf

ints = list(range(1_000_000))
d = {i: str(i) for i in range(200_000)}
check(sum(ints) == 499999500000 and d[199_999] == "199999", "many small objects")
del ints, d

big = b"ab" * (16 * MiB)
check(big.count(b"ab") == 16 * MiB and len(big.replace(b"a", b"")) == 16 * MiB, "bytes ops")
del big

s = "x" * (8 * MiB) + "é"
check(len(s.encode("utf-8")) == 8 * MiB + 2, "large str")
del s

# deep recursion in a thread with a 64 MiB stack
sys.setrecursionlimit(100_000)
threading.stack_size(64 * MiB)
depth = []


def recurse(n):
    return n if n == 0 else 1 + recurse(n - 1)


t = threading.Thread(target=lambda: depth.append(recurse(50_000)))
t.start()
t.join()
threading.stack_size(0)
check(depth == [50_000], f"deep recursion {depth}")
try:
    sys.setrecursionlimit(1000)

    def forever(n):
        return forever(n + 1)

    forever(0)
except RecursionError:
    pass
else:
    check(False, "no RecursionError")


class Node:
    def __init__(self):
        self.other = None


collected = []
a, b = Node(), Node()
a.other, b.other = b, a
weakref.finalize(a, collected.append, "a")
ref = weakref.ref(b)
del a, b
gc.collect()
check(collected == ["a"] and ref() is None, "gc of a cycle, finalize, weakref")
cache = weakref.WeakValueDictionary()
obj = Node()
cache["k"] = obj
check("k" in cache, "WeakValueDictionary")
del obj
check("k" not in cache, "WeakValueDictionary drop")
check(gc.isenabled() and len(gc.get_stats()) == 3, "gc stats")

# asking for far more than the limit gives a MemoryError the tool survives
# (no limit on the host: use a size no machine gives)
try:
    bytearray(1 << 60)
except MemoryError:
    pass
else:
    check(False, "an exabyte allocation succeeded")
after = bytearray(32 * MiB)
check(len(after) == 32 * MiB, "allocation after MemoryError")

print(f"ok {NAME}")
