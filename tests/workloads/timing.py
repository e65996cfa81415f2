"""Workload: time (monotonic, perf_counter, sleep, clocks, struct_time,
strftime/strptime), timeit and sched."""
import os
import sched
import sys
import time
import timeit

NAME = "timing"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


t0, p0, w0 = time.monotonic(), time.perf_counter(), time.time()
time.sleep(0.01)
dt_mono, dt_perf = time.monotonic() - t0, time.perf_counter() - p0
check(0.009 <= dt_mono < 5 and 0.009 <= dt_perf < 5, f"sleep(0.01) took {dt_mono:.4f}/{dt_perf:.4f}")
check(time.time() - w0 >= 0.009 and w0 > 1.7e9, f"wall clock {w0}")
check(time.monotonic_ns() > 0 and time.perf_counter_ns() > 0 and time.time_ns() // 10**9 >= int(w0), "ns clocks")

c0 = time.process_time()
x = sum(i * i for i in range(200_000))
check(time.process_time() >= c0 and time.thread_time() >= 0, "process_time/thread_time")
for clk in ("CLOCK_REALTIME", "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW", "CLOCK_BOOTTIME",
            "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID"):
    cid = getattr(time, clk)
    check(time.clock_gettime(cid) >= 0 and time.clock_getres(cid) > 0, f"{clk}")
check(time.get_clock_info("monotonic").monotonic and not time.get_clock_info("time").monotonic, "clock info")
check(time.pthread_getcpuclockid(__import__("threading").get_ident()) is not None, "pthread_getcpuclockid")

# many short sleeps and a zero sleep
t0 = time.monotonic()
for _ in range(10):
    time.sleep(0.001)
time.sleep(0)
check(0.009 < time.monotonic() - t0 < 5, "short sleeps")

st = time.gmtime(0)
check((st.tm_year, st.tm_mon, st.tm_mday, st.tm_wday, st.tm_yday) == (1970, 1, 1, 3, 1), "gmtime(0)")
check(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_000_000_000)) == "2001-09-09T01:46:40Z", "strftime")
parsed = time.strptime("2024-02-29 13:14:15", "%Y-%m-%d %H:%M:%S")
check(parsed.tm_yday == 60 and parsed.tm_hour == 13, "strptime")
check(time.mktime(time.localtime(1_000_000_000)) == 1_000_000_000, "mktime/localtime")
check(time.asctime(time.gmtime(0)) == "Thu Jan  1 00:00:00 1970", "asctime")
os.environ["TZ"] = "Europe/Paris"
time.tzset()
check(time.localtime(1_720_000_000).tm_isdst == 1 and time.strftime("%Z", time.localtime(1_720_000_000)) == "CEST", "TZ=Europe/Paris")
os.environ["TZ"] = "UTC"
time.tzset()
check(time.timezone == 0 and time.localtime(0).tm_hour == 0, "TZ=UTC")

check(timeit.timeit("sum(range(100))", number=1000) > 0, "timeit")
check(len(timeit.repeat("x = 1", repeat=3, number=100)) == 3, "timeit.repeat")

order = []
s = sched.scheduler(time.monotonic, time.sleep)
now = time.monotonic()
s.enterabs(now + 0.02, 1, order.append, ("second",))
s.enterabs(now + 0.01, 1, order.append, ("first",))
s.enterabs(now + 0.01, 0, order.append, ("first-prio",))
s.run()
check(order == ["first-prio", "first", "second"], f"sched {order}")

print(f"ok {NAME}")
