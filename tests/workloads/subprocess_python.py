"""Workload: subprocess of python itself (run, Popen pipes, timeout, signals,
env, cwd, pass_fds), os.fork/waitpid and os.posix_spawn."""
import os
import signal
import subprocess
import sys

NAME = "subprocess_python"
PY = sys.executable


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


r = subprocess.run([PY, "-c", "print(6*7)"], capture_output=True, text=True)
check(r.returncode == 0 and r.stdout == "42\n" and r.stderr == "", f"6*7 gave {r!r}")

r = subprocess.run([PY, "-c", "import sys; sys.stdout.write(sys.stdin.read().upper())"],
                   input=b"shout \xc3\xa9", capture_output=True, check=True)
check(r.stdout == "SHOUT É".encode(), f"stdin/stdout {r.stdout!r}")

r = subprocess.run([PY, "-c", "import sys; print('oops', file=sys.stderr); sys.exit(5)"],
                   capture_output=True, text=True)
check(r.returncode == 5 and r.stderr == "oops\n", "exit code and stderr")
try:
    subprocess.run([PY, "-c", "raise SystemExit(2)"], check=True, capture_output=True)
except subprocess.CalledProcessError as e:
    check(e.returncode == 2, "CalledProcessError")
else:
    check(False, "check=True did not raise")

r = subprocess.run([PY, "-c", "import os; print(os.environ['WL_VAR'], os.getcwd())"],
                   env={"WL_VAR": "from-parent"}, cwd="/tmp", capture_output=True, text=True)
check(r.stdout == "from-parent /tmp\n", f"env/cwd {r.stdout!r}")

check(subprocess.check_output([PY, "-m", "json.tool", "--compact"], input=b'{"a": [1, 2]}')
      == b'{"a":[1,2]}\n', "python -m json.tool")

# a child that outlives its timeout is killed
try:
    subprocess.run([PY, "-c", "import time; time.sleep(30)"], timeout=0.3)
except subprocess.TimeoutExpired:
    pass
else:
    check(False, "timeout did not fire")

# a child killed by a signal shows a negative return code
r = subprocess.run([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"])
check(r.returncode == -signal.SIGTERM, f"signal return code {r.returncode}")

# interactive Popen: line by line over pipes
p = subprocess.Popen([PY, "-u", "-c",
                      "import sys\nfor line in sys.stdin:\n    print(len(line.strip()), flush=True)"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
answers = []
for word in ("a", "bb", "ccc"):
    p.stdin.write(word + "\n")
    p.stdin.flush()
    answers.append(p.stdout.readline().strip())
p.stdin.close()
check(p.wait(timeout=10) == 0 and answers == ["1", "2", "3"], f"Popen dialogue {answers}")

# several children at once, and Popen.kill
procs = [subprocess.Popen([PY, "-c", f"print({i}*{i})"], stdout=subprocess.PIPE) for i in range(4)]
check([p.communicate(timeout=10)[0] for p in procs] == [b"0\n", b"1\n", b"4\n", b"9\n"], "parallel children")
p = subprocess.Popen([PY, "-c", "import time; time.sleep(30)"])
p.kill()
check(p.wait(timeout=10) == -signal.SIGKILL, "Popen.kill")

# pass_fds: the child writes to an inherited pipe
rfd, wfd = os.pipe()
subprocess.run([PY, "-c", f"import os; os.write({wfd}, b'via fd')"], pass_fds=(wfd,), check=True)
os.close(wfd)
check(os.read(rfd, 100) == b"via fd", "pass_fds")
os.close(rfd)

# plain os.fork and os.waitpid
pid = os.fork()
if pid == 0:
    os._exit(7)
_, status = os.waitpid(pid, 0)
check(os.waitstatus_to_exitcode(status) == 7, "fork/waitpid")

# os.posix_spawn of python
pid = os.posix_spawn(PY, [PY, "-c", "raise SystemExit(9)"], {})
_, status = os.waitpid(pid, 0)
check(os.waitstatus_to_exitcode(status) == 9, "posix_spawn")

# os.execv in a forked child
pid = os.fork()
if pid == 0:
    try:
        os.execv(PY, [PY, "-c", "raise SystemExit(11)"])
    finally:
        os._exit(99)
_, status = os.waitpid(pid, 0)
check(os.waitstatus_to_exitcode(status) == 11, "fork+execv")

print(f"ok {NAME}")
