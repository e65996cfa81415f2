# Leave a daemon behind: double fork, setsid, ignore SIGHUP/SIGTERM, and exec a
# long sleep whose command line carries a marker the host can pgrep for.
import os, signal
marker = os.environ["MARKER"]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for fd in (0, 1, 2):
            os.close(fd)
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)", marker])
    os._exit(0)
os.wait()
print("daemon launched", flush=True)
