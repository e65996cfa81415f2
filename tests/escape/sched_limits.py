# What the tool may ask of the scheduler and the OOM killer: RLIMIT_RTPRIO
# and RLIMIT_NICE (inherited from the caller until set), oom_score_adj.
import os, resource
print("RLIMIT_RTPRIO", *resource.getrlimit(resource.RLIMIT_RTPRIO), flush=True)
print("RLIMIT_NICE", *resource.getrlimit(resource.RLIMIT_NICE), flush=True)
print("oom_score_adj", open("/proc/self/oom_score_adj").read().strip(), flush=True)
try:
    os.setpriority(os.PRIO_PROCESS, 0, -5)
    print("LEAK nice -5", flush=True)
except OSError as e:
    print("nice -5", os.strerror(e.errno), flush=True)
