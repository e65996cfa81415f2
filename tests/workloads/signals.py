"""Workload: signal handlers (SIGUSR1 via os.kill of itself), alarm and
setitimer, pthread_sigmask, sigpending, sigwait, pthread_kill, SIGCHLD,
default SIGPIPE handling."""
import os
import signal
import sys
import threading
import time

NAME = "signals"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


hits = []
signal.signal(signal.SIGUSR1, lambda s, f: hits.append(s))
os.kill(os.getpid(), signal.SIGUSR1)
check(hits == [signal.SIGUSR1], f"SIGUSR1 handler: {hits}")
signal.raise_signal(signal.SIGUSR1)
check(len(hits) == 2, "raise_signal")

# a one-shot ITIMER_REAL interrupts a sleep through an exception raised by
# the SIGALRM handler; alarm() arms and cancels (its granularity is 1 s)


class Alarm(Exception):
    pass


def on_alarm(s, f):
    raise Alarm()


signal.signal(signal.SIGALRM, on_alarm)
t0 = time.monotonic()
signal.setitimer(signal.ITIMER_REAL, 0.05)
try:
    time.sleep(5)
except Alarm:
    pass
else:
    check(False, "timer did not interrupt the sleep")
check(0.04 < time.monotonic() - t0 < 5, "timer timing")
check(signal.alarm(10) == 0, "an alarm was already pending")
check(signal.alarm(0) in (9, 10), "alarm(0) did not return the time left")

# setitimer: a periodic real-time timer
ticks = []
signal.signal(signal.SIGALRM, lambda s, f: ticks.append(time.monotonic()))
signal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)
deadline = time.monotonic() + 2
while len(ticks) < 3 and time.monotonic() < deadline:
    signal.pause()
signal.setitimer(signal.ITIMER_REAL, 0)
check(len(ticks) >= 3, f"setitimer ticks {len(ticks)}")
check(signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0), "getitimer after cancel")
# a CPU-time timer (ITIMER_PROF) with SIGPROF
prof = []
signal.signal(signal.SIGPROF, lambda s, f: prof.append(s))
signal.setitimer(signal.ITIMER_PROF, 0.01)
end = time.monotonic() + 2
x = 0
while not prof and time.monotonic() < end:
    x += 1
check(prof == [signal.SIGPROF], "ITIMER_PROF")

# pthread_sigmask: a blocked signal stays pending until unblocked
hits.clear()
old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
check(signal.SIGUSR1 not in old, "SIGUSR1 blocked at start")
os.kill(os.getpid(), signal.SIGUSR1)
check(hits == [] and signal.SIGUSR1 in signal.sigpending(), "pending while blocked")
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
check(hits == [signal.SIGUSR1], "delivered after unblock")
check(signal.SIGUSR1 not in signal.pthread_sigmask(signal.SIG_SETMASK, old), "mask restored")

# sigwait / sigtimedwait on a blocked signal
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
os.kill(os.getpid(), signal.SIGUSR2)
check(signal.sigwait({signal.SIGUSR2}) == signal.SIGUSR2, "sigwait")
check(signal.sigtimedwait({signal.SIGUSR2}, 0.01) is None, "sigtimedwait timeout")
os.kill(os.getpid(), signal.SIGUSR2)
info = signal.sigwaitinfo({signal.SIGUSR2})
check(info.si_signo == signal.SIGUSR2 and info.si_pid == os.getpid(), "sigwaitinfo")
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR2})

# pthread_kill to the main thread from another thread; handlers run in main
hits.clear()
main_id = threading.get_ident()
t = threading.Thread(target=signal.pthread_kill, args=(main_id, signal.SIGUSR1))
t.start()
t.join()
time.sleep(0.01)
check(hits == [signal.SIGUSR1], "pthread_kill")

# SIGCHLD when a child exits; set_wakeup_fd
chld = []
signal.signal(signal.SIGCHLD, lambda s, f: chld.append(s))
rfd, wfd = os.pipe()
os.set_blocking(wfd, False)
signal.set_wakeup_fd(wfd)
pid = os.fork()
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
time.sleep(0.01)
check(chld == [signal.SIGCHLD], "SIGCHLD")
check(os.read(rfd, 16)[:1] == bytes([signal.SIGCHLD]), "wakeup fd")
signal.set_wakeup_fd(-1)
signal.signal(signal.SIGCHLD, signal.SIG_DFL)

# SIGPIPE is ignored by Python: writing to a closed pipe raises
r, w = os.pipe()
os.close(r)
try:
    os.write(w, b"x")
except BrokenPipeError:
    pass
else:
    check(False, "no EPIPE")
os.close(w)
check(signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN, "SIGPIPE ignored")
check(signal.strsignal(signal.SIGTERM) == "Terminated" and signal.Signals(10).name == "SIGUSR1", "names")
check(signal.valid_signals() >= {signal.SIGINT, signal.SIGRTMIN}, "valid_signals")
check(signal.siginterrupt(signal.SIGUSR1, False) is None, "siginterrupt")

print(f"ok {NAME}")
