"""Workload: threading with a Lock, a Queue, a Condition, an Event, a pool."""
import queue
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

NAME = "threads"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


counter = 0
lock = threading.Lock()
jobs = queue.Queue()
results = queue.Queue()
names = set()


def worker():
    global counter
    names.add(threading.current_thread().name)
    while True:
        item = jobs.get()
        if item is None:
            jobs.task_done()
            return
        for _ in range(1000):
            with lock:
                counter += 1
        results.put((item, item * item, threading.get_native_id()))
        jobs.task_done()


threads = [threading.Thread(target=worker, name=f"w{i}") for i in range(4)]
for t in threads:
    t.start()
for i in range(40):
    jobs.put(i)
for _ in threads:
    jobs.put(None)
jobs.join()
for t in threads:
    t.join(timeout=10)
    check(not t.is_alive(), f"{t.name} did not finish")

check(counter == 40 * 1000, f"lost updates: {counter}")
got = sorted(results.get_nowait()[:2] for _ in range(40))
check(got == [(i, i * i) for i in range(40)], "queue results")
check(results.empty() and names == {"w0", "w1", "w2", "w3"}, "all workers ran")

# Event, Condition, Semaphore, Barrier, RLock, thread-local data, timeout
ready = threading.Event()
cond = threading.Condition()
box = []


def producer():
    ready.wait(5)
    with cond:
        box.append("item")
        cond.notify_all()


t = threading.Thread(target=producer, daemon=True)
t.start()
ready.set()
with cond:
    check(cond.wait_for(lambda: box, timeout=5), "condition wait")
t.join()

barrier = threading.Barrier(3)
sem = threading.BoundedSemaphore(2)
local = threading.local()
seen = []


def party(i):
    local.value = i
    barrier.wait(timeout=5)
    with sem:
        seen.append(local.value == i)


ps = [threading.Thread(target=party, args=(i,)) for i in range(3)]
for p in ps:
    p.start()
for p in ps:
    p.join()
check(seen == [True] * 3, "barrier/thread-local")

rl = threading.RLock()
with rl:
    with rl:
        pass
check(lock.acquire(timeout=1), "lock acquire")
check(not lock.acquire(timeout=0.01), "held lock acquired twice")
lock.release()
check(threading.Event().wait(0.01) is False, "event timeout")
timer_hit = threading.Event()
threading.Timer(0.01, timer_hit.set).start()
check(timer_hit.wait(5), "Timer")

with ThreadPoolExecutor(max_workers=4) as ex:
    check(list(ex.map(lambda x: x * 3, range(100))) == [x * 3 for x in range(100)], "ThreadPoolExecutor")
check(threading.active_count() == 1, f"threads left: {threading.enumerate()}")

print(f"ok {NAME}")
