"""Workload: os basics a tool uses: pids, cwd, listdir, environ, urandom,
cpu_count, affinity, uname, umask, sysconf, /proc of its own, fds, dup."""
import os
import sys

NAME = "os_info"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


pid = os.getpid()
check(pid > 0 and os.getppid() >= 0 and os.getpgrp() > 0 and os.getsid(0) > 0, "ids")
check(os.getpgid(0) == os.getpgrp(), "getpgid")
cwd = os.getcwd()
check(os.path.isabs(cwd) and os.path.isdir(cwd), f"getcwd {cwd}")
root = os.listdir("/")
check({"usr", "tmp", "proc", "dev"} <= set(root), f"listdir('/') {sorted(root)}")
check(os.path.isdir("/usr/lib/python3.11") or os.path.isdir(os.path.dirname(os.__file__)), "stdlib dir")
check("PATH" in os.environ and os.environ.get("HOME"), "environ PATH/HOME")
os.environ["WL_TEST"] = "value ✓"
check(os.getenv("WL_TEST") == "value ✓" and os.environb[b"WL_TEST"] == "value ✓".encode(), "putenv/environb")
del os.environ["WL_TEST"]
check("WL_TEST" not in os.environ, "unsetenv")
check(len(os.urandom(32)) == 32, "urandom")
n = os.cpu_count()
check(n is not None and n >= 1, f"cpu_count {n}")
aff = os.sched_getaffinity(0)
check(1 <= len(aff) <= n, f"sched_getaffinity {aff}")
os.sched_setaffinity(0, aff)
check(os.sched_getscheduler(0) == os.SCHED_OTHER and os.getpriority(os.PRIO_PROCESS, 0) >= 0, "scheduler/priority")
os.nice(1)  # lowering its own priority is always allowed
os.sched_yield()
u = os.uname()
check(u.sysname == "Linux" and u.machine and u.release, f"uname {u}")
old = os.umask(0o027)
check(os.umask(old) == 0o027, "umask")
check(os.sysconf("SC_PAGE_SIZE") >= 4096 and os.sysconf("SC_NPROCESSORS_ONLN") >= 1, "sysconf")
check(os.sysconf("SC_OPEN_MAX") >= 64 and os.confstr("CS_PATH"), "sysconf/confstr")
check(os.path.realpath("/proc/self") == f"/proc/{pid}", "/proc/self")
with open("/proc/self/status") as f:
    status = dict(line.split(":", 1) for line in f if ":" in line)
check(int(status["Pid"]) == pid and int(status["Uid"].split()[0]) == os.getuid(), "/proc/self/status")
check(os.listdir("/proc/self/fd") and os.readlink("/proc/self/exe").endswith(("python3", "python3.11")), "/proc/self/fd, exe")
with open("/proc/self/cmdline", "rb") as f:
    check(sys.argv[0].encode() in f.read(), "/proc/self/cmdline")
with open("/proc/meminfo") as f:
    check(f.readline().startswith("MemTotal:"), "/proc/meminfo")
with open("/proc/cpuinfo") as f:
    check("processor" in f.read(), "/proc/cpuinfo")
check(len(os.getloadavg()) == 3, "getloadavg")
r, w = os.pipe()
check(not os.isatty(r), "a pipe is not a tty")
os.close(r)
os.close(w)
for dev in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"):
    check(os.path.exists(dev), f"{dev} missing")
with open("/dev/zero", "rb") as f:
    check(f.read(16) == b"\0" * 16, "/dev/zero")
try:
    with open("/dev/full", "wb", buffering=0) as f:
        f.write(b"x")
except OSError as e:
    check(e.errno == 28, "/dev/full ENOSPC")
fd = os.open("/dev/null", os.O_WRONLY | os.O_CLOEXEC)
fd2 = os.dup(fd)
fd3 = os.dup2(fd, 100)
check(fd3 == 100 and not os.get_inheritable(fd) and not os.get_inheritable(fd2), "dup/dup2/cloexec")
for x in (fd, fd2, fd3):
    os.close(x)
st = os.fstat(1)
check(st.st_mode != 0, "fstat(1)")
check(os.get_exec_path() and os.path.exists(sys.executable), "exec path / executable")
check(os.times().elapsed >= 0 and os.getrandom(4, os.GRND_NONBLOCK) is not None, "times/getrandom")
check(os.path.expanduser("~") == os.environ["HOME"], "expanduser")
check(os.supports_follow_symlinks and os.stat in os.supports_fd, "supports_*")
check(os.waitstatus_to_exitcode(0) == 0 and os.strerror(2) == "No such file or directory", "strerror")

print(f"ok {NAME}")
