"""Workload: multiprocessing with the fork start method: Pool, Pipe, Queue,
Process exit codes, shared Value/Array, Manager-free shared memory."""
import multiprocessing as mp
import os
import sys
from multiprocessing import shared_memory

NAME = "multiproc_fork"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


def square(x):
    return x * x, os.getpid()


def child_pipe(conn):
    msg = conn.recv()
    conn.send({"echo": msg, "pid": os.getpid(), "ppid": os.getppid()})
    conn.send_bytes(b"\x00" * 100_000)
    conn.close()


def child_queue(q, n):
    for i in range(n):
        q.put(i)
    q.put(None)


def child_exit(code):
    sys.exit(code)


def child_shared(val, arr, lock):
    with lock:
        val.value += 10
    for i in range(len(arr)):
        arr[i] = arr[i] * 2


def child_shm(name):
    shm = shared_memory.SharedMemory(name=name)
    shm.buf[:5] = b"child"
    shm.close()


if __name__ == "__main__":
    ctx = mp.get_context("fork")

    with ctx.Pool(2) as pool:
        out = pool.map(square, range(20))
        check([v for v, _ in out] == [x * x for x in range(20)], "Pool.map")
        check(os.getpid() not in {p for _, p in out}, "work ran in the parent")
        check(pool.apply_async(square, (12,)).get(timeout=10)[0] == 144, "apply_async")
        check(sorted(v for v, _ in pool.imap_unordered(square, range(5))) == [0, 1, 4, 9, 16], "imap_unordered")

    parent, child = ctx.Pipe()
    p = ctx.Process(target=child_pipe, args=(child,))
    p.start()
    parent.send(["hello", 42])
    reply = parent.recv()
    big = parent.recv_bytes()
    p.join(10)
    check(reply["echo"] == ["hello", 42] and reply["ppid"] == os.getpid(), f"pipe reply {reply}")
    check(len(big) == 100_000 and p.exitcode == 0, "pipe bytes / exit code")

    q = ctx.Queue()
    p = ctx.Process(target=child_queue, args=(q, 500))
    p.start()
    items = list(iter(lambda: q.get(timeout=10), None))
    p.join(10)
    check(items == list(range(500)), "Queue")

    for code in (0, 3):
        p = ctx.Process(target=child_exit, args=(code,))
        p.start()
        p.join(10)
        check(p.exitcode == code, f"exit code {p.exitcode} != {code}")

    val = ctx.Value("i", 5)
    arr = ctx.Array("d", [1.0, 2.0, 3.0])
    p = ctx.Process(target=child_shared, args=(val, arr, ctx.Lock()))
    p.start()
    p.join(10)
    check(val.value == 15 and list(arr) == [2.0, 4.0, 6.0], "shared Value/Array")

    shm = shared_memory.SharedMemory(create=True, size=4096)
    try:
        p = ctx.Process(target=child_shm, args=(shm.name,))
        p.start()
        p.join(10)
        check(bytes(shm.buf[:5]) == b"child", "SharedMemory in /dev/shm")
    finally:
        shm.close()
        shm.unlink()

    ev = ctx.Event()
    p = ctx.Process(target=ev.set)
    p.start()
    check(ev.wait(10), "Event across processes")
    p.join(10)
    check(mp.active_children() == [], "children left")

    print(f"ok {NAME}")
