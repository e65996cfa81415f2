#!/usr/bin/python3 -I
"""Kill toolcell with SIGKILL at swept delays through its start-up, then say
whether any process of those sandboxes outlived it (issue 9, medium 3).

Every toolcell started here carries MARKER in its argv (the tool's last
argument), so the sandbox's first process (a copy of toolcell until it
execs), the network helper and the tool all show it in /proc/PID/cmdline:
only our own processes are looked at, never a uid range that other
sandboxes share.

usage: killsweep.py TOOLCELL POLICY MARKER KILLS MAX_DELAY_MS [POOL_START POOL_COUNT]

Prints one summary line; exits 1 when a toolcell ended other than by the
SIGKILL sent to it (a refusal such as 125 means the sweep did not exercise
start-up, or the uid pool ran dry), when a process is left after the grace
period (each listed with its parent, uid and wait channel) or when a uid
pair of [POOL_START, POOL_START+POOL_COUNT) is still locked in
/run/toolcell/uidpool.lock.
"""
import fcntl
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

GRACE_S = 10.0  # a SIGKILLed namespace takes a moment to go; a leftover never does
F_OFD_GETLK = 36


def marked(marker):
    """pids of processes whose argv holds marker"""
    found = []
    needle = marker.encode()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                if needle in f.read():
                    found.append(int(d))
        except OSError:
            pass
    return [p for p in found if p != os.getpid()]


def gone(marker):
    """wait up to GRACE_S for every process carrying marker to end"""
    deadline = time.monotonic() + GRACE_S
    while marked(marker):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)
    return True


def freed(start, count):
    """wait up to GRACE_S for every uid pair of the range to be free"""
    deadline = time.monotonic() + GRACE_S
    while locked_pairs(start, count):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)
    return True


def describe(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            st = dict(line.split(":", 1) for line in f if ":" in line)
        with open(f"/proc/{pid}/wchan") as f:
            wchan = f.read()
        return "pid %d ppid %s uid %s state %s wchan %s" % (
            pid, st["PPid"].strip(), st["Uid"].split()[0], st["State"].strip(), wchan)
    except OSError:
        return "pid %d (gone)" % pid


def locked_pairs(start, count):
    """uid pairs of the range that some process still holds"""
    held = []
    try:
        fd = os.open("/run/toolcell/uidpool.lock", os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return held
    try:
        for base in range(start, start + count, 2):
            fl = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, base, 2, 0)
            got = fcntl.fcntl(fd, F_OFD_GETLK, fl)
            if struct.unpack("hhqqi", got)[0] != fcntl.F_UNLCK:
                held.append(base)
    finally:
        os.close(fd)
    return held


def main():
    toolcell, policy, marker, kills, max_ms = sys.argv[1:6]
    kills, max_ms = int(kills), float(max_ms)
    pool = (int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else None
    argv = [toolcell, "run", "--policy", policy, "--", "python3", "-S", "-c",
            "import time; time.sleep(120)", marker]
    ended = {}
    reasons = []  # what toolcell said when it ended other than by our SIGKILL
    done = 0
    for i in range(kills):
        done += 1
        # a low-discrepancy sweep of [0, max_ms): every part of start-up is hit
        delay = ((i * 0.6180339887498949) % 1.0) * max_ms / 1000.0
        # stderr to a file, never a pipe: a process left behind holds
        # toolcell's stderr open, and a read of a pipe would wait for it
        # forever instead of reporting it
        err = tempfile.TemporaryFile()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err)
        if delay:
            time.sleep(delay)
        os.kill(p.pid, signal.SIGKILL)
        rc = p.wait()
        ended[rc] = ended.get(rc, 0) + 1
        err.seek(0)
        why = err.read(4096).decode(errors="replace").strip()
        err.close()
        if rc != -signal.SIGKILL and why not in reasons:
            reasons.append(why)
        # The sandbox dies with toolcell, but not in the same instant (its
        # init holds the uid pair until the kernel has killed it): let it go
        # before the next start, so the 2-pair pool is never busy by chance.
        # One that is still there after the grace period is a leftover.
        if not gone(marker):
            break
        # a process drops out of the argv scan when its memory goes, a
        # moment before its descriptors (and the uid pair's lock) do
        if pool and not freed(*pool):
            break
    left = [] if gone(marker) else marked(marker)
    held = locked_pairs(*pool) if pool else []
    print("killsweep: %d kills over 0-%g ms (toolcell ended: %s); %d processes left; "
          "%d uid pairs still locked" % (done, max_ms, ", ".join(
              "%d x%d" % kv for kv in sorted(ended.items())), len(left), len(held)))
    for why in reasons:
        print("  toolcell said: " + why)
    for pid in left:
        print("  left: " + describe(pid))
    for base in held:
        print("  locked: uid pair %d,%d" % (base, base + 1))
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    refused = sum(n for rc, n in ended.items() if rc != -signal.SIGKILL)
    return 1 if left or held or refused else 0


if __name__ == "__main__":
    sys.exit(main())
