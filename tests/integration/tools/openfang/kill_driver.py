# Plays OpenFang's timeout against the wrapper: spawns WRAPPER SCRIPT MARKER
# the way OpenFang's Python runtime does (environment cleared but PATH and
# HOME, pipes on stdin, stdout and stderr), sends the message line, waits for
# the agent's first line, SIGKILLs the wrapper's pid, and reports as JSON how
# long the caller's reads of stdout and stderr took to end and which processes
# carrying MARKER in their command line were left.
import json
import os
import select
import signal
import subprocess
import sys
import time

wrapper, script, marker = sys.argv[1:4]
me = os.getpid()


def marked():
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != me:
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(pid))
            except OSError:
                pass
    return found


def read_to_eof(stream, deadline):
    """ms until EOF on stream, or None when the deadline passed first"""
    t0 = time.monotonic()
    fd = stream.fileno()
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        if not os.read(fd, 65536):
            return round((time.monotonic() - t0) * 1000)


env = {"OPENFANG_AGENT_ID": "agent-7", "OPENFANG_MESSAGE": "hang",
       "PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/")}
p = subprocess.Popen([wrapper, script, marker], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, env=env, cwd="/")
p.stdin.write(b'{"agent_id":"agent-7","context":{},"message":"hang","type":"message"}\n')
p.stdin.close()
ready, _, _ = select.select([p.stdout], [], [], 20)
first = p.stdout.readline().decode() if ready else ""
with open("/proc/%d/comm" % p.pid) as f:
    comm = f.read().strip()
before = marked()
t0 = time.monotonic()
os.kill(p.pid, signal.SIGKILL)
stdout_eof_ms = read_to_eof(p.stdout, t0 + 5)
stderr_eof_ms = read_to_eof(p.stderr, t0 + 5)
rc = p.wait()
left = marked()
while left and time.monotonic() - t0 < 5:
    time.sleep(0.01)
    left = marked()
print(json.dumps({"first": first, "comm": comm, "before": len(before),
                  "stdout_eof_ms": stdout_eof_ms, "stderr_eof_ms": stderr_eof_ms,
                  "returncode": rc, "left": left,
                  "gone_ms": round((time.monotonic() - t0) * 1000)}))
