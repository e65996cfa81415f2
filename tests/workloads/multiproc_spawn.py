"""Workload: multiprocessing with the spawn and forkserver start methods
(each child is a fresh interpreter started from sys.executable), and a
ProcessPoolExecutor."""
import multiprocessing as mp
import os
import sys
from concurrent.futures import ProcessPoolExecutor

NAME = "multiproc_spawn"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


def cube(x):
    return x ** 3


def whoami(q):
    q.put((os.getpid(), mp.current_process().name, sys.executable))


if __name__ == "__main__":
    for method in ("spawn", "forkserver"):
        ctx = mp.get_context(method)
        with ctx.Pool(2) as pool:
            check(pool.map(cube, range(10)) == [x ** 3 for x in range(10)], f"{method} Pool.map")
        q = ctx.Queue()
        p = ctx.Process(target=whoami, args=(q,), name=f"{method}-child")
        p.start()
        pid, name, exe = q.get(timeout=20)
        p.join(20)
        check(p.exitcode == 0 and pid != os.getpid(), f"{method} child exit {p.exitcode}")
        check(name == f"{method}-child" and exe == sys.executable, f"{method} child saw {name} {exe}")

    with ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("fork")) as ex:
        check(list(ex.map(cube, range(8))) == [x ** 3 for x in range(8)], "ProcessPoolExecutor")

    print(f"ok {NAME}")
