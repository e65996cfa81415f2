"""Workload: resource limits. A tool reads its limits and lowers its own
(RLIMIT_NOFILE, RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_CORE, ...), reads them back,
and the lowered limits take effect; getrusage; prlimit."""
import errno
import os
import resource
import sys
import tempfile

NAME = "rlimits"
INF = resource.RLIM_INFINITY
MiB = 1 << 20


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


names = ["RLIMIT_AS", "RLIMIT_CORE", "RLIMIT_CPU", "RLIMIT_DATA", "RLIMIT_FSIZE", "RLIMIT_NOFILE",
         "RLIMIT_NPROC", "RLIMIT_STACK", "RLIMIT_MEMLOCK", "RLIMIT_RSS", "RLIMIT_MSGQUEUE",
         "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_SIGPENDING"]
start = {n: resource.getrlimit(getattr(resource, n)) for n in names}
for n, (soft, hard) in start.items():
    check(hard == INF or (soft != INF and 0 <= soft <= hard), f"{n} = {(soft, hard)}")

# RLIMIT_NOFILE: lower the soft limit, read it back, hit it, raise it again
soft, hard = start["RLIMIT_NOFILE"]
check(soft >= 64, f"RLIMIT_NOFILE soft is only {soft}")
resource.setrlimit(resource.RLIMIT_NOFILE, (32, hard))
check(resource.getrlimit(resource.RLIMIT_NOFILE) == (32, hard), "NOFILE read back")
fds = []
try:
    while True:
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    check(e.errno == errno.EMFILE, f"expected EMFILE, got {e}")
check(max(fds) == 31, f"highest fd {max(fds)} under a soft limit of 32")
for fd in fds:
    os.close(fd)
resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
check(resource.getrlimit(resource.RLIMIT_NOFILE) == (soft, hard), "NOFILE restored")

# RLIMIT_AS: lower the soft limit below what a big allocation needs
soft, hard = start["RLIMIT_AS"]
lowered = 192 * MiB
check(soft == INF or soft > lowered, f"RLIMIT_AS soft is already {soft}")
resource.setrlimit(resource.RLIMIT_AS, (lowered, hard))
check(resource.getrlimit(resource.RLIMIT_AS) == (lowered, hard), "AS read back")
try:
    bytearray(256 * MiB)
except MemoryError:
    pass
else:
    check(False, "a 256 MiB allocation succeeded under a 192 MiB address-space limit")
small = bytearray(16 * MiB)  # still fine
del small
resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
check(resource.getrlimit(resource.RLIMIT_AS) == (soft, hard), "AS restored")

# RLIMIT_FSIZE: Python ignores SIGXFSZ, so an oversized write fails with EFBIG
soft, hard = start["RLIMIT_FSIZE"]
resource.setrlimit(resource.RLIMIT_FSIZE, (MiB, hard))
with tempfile.TemporaryFile(buffering=0) as f:
    f.write(b"x" * MiB)
    try:
        f.write(b"y")
    except OSError as e:
        check(e.errno == errno.EFBIG, f"expected EFBIG, got {e}")
    else:
        check(False, "wrote past RLIMIT_FSIZE")
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))

# lower hard limits for good (as a careful tool would for its children)
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
check(resource.getrlimit(resource.RLIMIT_CORE) == (0, 0), "CORE read back")
soft, hard = start["RLIMIT_CPU"]
new_cpu = 600 if hard == INF else max(1, hard - 1)
resource.setrlimit(resource.RLIMIT_CPU, (new_cpu, new_cpu))
check(resource.getrlimit(resource.RLIMIT_CPU) == (new_cpu, new_cpu), "CPU read back")
if os.geteuid() != 0:
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 1))
    except ValueError:
        pass
    else:
        check(False, "raised a hard limit without privilege")
soft, hard = start["RLIMIT_NPROC"]
if soft != INF:
    resource.setrlimit(resource.RLIMIT_NPROC, (soft - 1, hard))
    check(resource.getrlimit(resource.RLIMIT_NPROC) == (soft - 1, hard), "NPROC read back")
    resource.setrlimit(resource.RLIMIT_NPROC, (soft, hard))
soft, hard = start["RLIMIT_STACK"]
resource.setrlimit(resource.RLIMIT_STACK, (4 * MiB if soft == INF else min(soft, 4 * MiB), hard))

# prlimit on itself and on a child; the child inherits lowered limits
check(resource.prlimit(0, resource.RLIMIT_CORE) == (0, 0), "prlimit self")
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    os.write(w, repr(resource.getrlimit(resource.RLIMIT_CPU)).encode())
    os._exit(0)
os.close(w)
check(os.read(r, 100) == repr((new_cpu, new_cpu)).encode(), "child inherited RLIMIT_CPU")
os.close(r)
os.waitpid(pid, 0)

usage = resource.getrusage(resource.RUSAGE_SELF)
check(usage.ru_maxrss > 1000 and usage.ru_utime + usage.ru_stime > 0, f"getrusage {usage}")
check(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss > 0, "RUSAGE_CHILDREN")
check(resource.getpagesize() == os.sysconf("SC_PAGE_SIZE"), "page size")

print(f"ok {NAME}")
