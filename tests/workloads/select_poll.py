"""Workload: select.select, select.poll, select.epoll and selectors on
pipes and a socketpair, with timeouts; eventfd; non-blocking I/O."""
import errno
import os
import select
import selectors
import socket
import sys
import time

NAME = "select_poll"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


r, w = os.pipe()

# select: nothing to read, the timeout expires
t0 = time.monotonic()
check(select.select([r], [], [], 0.05) == ([], [], []), "select timeout")
check(time.monotonic() - t0 >= 0.04, "select returned early")
check(select.select([], [w], [], 0)[1] == [w], "pipe writable")
os.write(w, b"x")
check(select.select([r], [], [], 1)[0] == [r], "select readable")
check(os.read(r, 1) == b"x", "read after select")

# poll
p = select.poll()
p.register(r, select.POLLIN)
p.register(w, select.POLLOUT)
check(p.poll(50) == [(w, select.POLLOUT)], "poll timeout/writable")
os.write(w, b"yy")
events = dict(p.poll(1000))
check(events.get(r, 0) & select.POLLIN, "poll readable")
os.read(r, 2)
p.unregister(w)
os.close(w)
check(dict(p.poll(1000)).get(r, 0) & select.POLLHUP, "POLLHUP after close")
os.close(r)

# epoll, level- and edge-triggered
r, w = os.pipe()
ep = select.epoll()
ep.register(r, select.EPOLLIN)
t0 = time.monotonic()
check(ep.poll(0.05) == [], "epoll timeout")
check(time.monotonic() - t0 >= 0.04, "epoll returned early")
os.write(w, b"abc")
check(ep.poll(1) == [(r, select.EPOLLIN)], "epoll readable")
check(ep.poll(0) == [(r, select.EPOLLIN)], "level-triggered repeats")
ep.modify(r, select.EPOLLIN | select.EPOLLET)
check(len(ep.poll(0)) == 1 and ep.poll(0) == [], "edge-triggered fires once")
os.read(r, 3)
ep.unregister(r)
ep.close()
check(ep.closed, "epoll closed")

# selectors on a socketpair, non-blocking, filling the buffer to EAGAIN
a, b = socket.socketpair()
a.setblocking(False)
b.setblocking(False)
sel = selectors.DefaultSelector()
sel.register(a, selectors.EVENT_WRITE, "a")
sel.register(b, selectors.EVENT_READ, "b")
check([k.data for k, _ in sel.select(0.5)] == ["a"], "only a is ready")
sent = 0
try:
    while True:
        sent += a.send(b"z" * 65536)
except BlockingIOError as e:
    check(e.errno == errno.EAGAIN, "EAGAIN")
check(sent > 0, "nothing sent")
ready = {k.data: ev for k, ev in sel.select(0.5)}
check(ready == {"b": selectors.EVENT_READ}, f"ready {ready}")
got = 0
while got < sent:
    sel.select(1)
    try:
        got += len(b.recv(1 << 20))
    except BlockingIOError:
        pass
check(got == sent, "drained")
sel.close()
a.close()
b.close()

# eventfd with poll
efd = os.eventfd(0, os.EFD_NONBLOCK)
p = select.poll()
p.register(efd, select.POLLIN)
check(p.poll(10) == [], "eventfd idle")
os.eventfd_write(efd, 3)
os.eventfd_write(efd, 4)
check(p.poll(100) == [(efd, select.POLLIN)] and os.eventfd_read(efd) == 7, "eventfd counter")
os.close(efd)

# a non-blocking pipe and os.set_blocking
r, w = os.pipe()
os.set_blocking(r, False)
try:
    os.read(r, 10)
except BlockingIOError:
    pass
else:
    check(False, "non-blocking read did not raise")
check(not os.get_blocking(r), "get_blocking")
os.close(r)
os.close(w)

print(f"ok {NAME}")
