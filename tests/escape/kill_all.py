# kill(-1, SIGKILL): every process we may signal. Outside the sandbox that
# would be every process of our host uid; then check our init is still there.
import errno, os, signal
try:
    os.kill(-1, signal.SIGKILL)
    print("kill(-1) delivered")
except OSError as e:
    print("kill(-1) blocked", errno.errorcode[e.errno])
try:
    os.kill(1, signal.SIGKILL)
    print("LEAK init killed")
except OSError as e:
    print("kill(1) blocked", errno.errorcode[e.errno])
try:
    os.kill(os.getppid(), 0)
    print("LEAK parent signalable", os.getppid())
except OSError as e:
    print("kill(ppid) blocked", errno.errorcode[e.errno])
