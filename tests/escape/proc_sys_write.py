# Tune the host kernel through /proc/sys and /sys (core_pattern is a root shell
# on the host on many setups), and poke /proc/sysrq-trigger.
import errno, os
for p in ("/proc/sys/kernel/core_pattern", "/proc/sys/kernel/hostname",
          "/proc/sys/vm/drop_caches", "/proc/sysrq-trigger", "/sys/kernel/uevent_helper",
          "/proc/self/attr/current", "/proc/self/oom_score_adj"):
    try:
        with open(p, "w") as f:
            f.write("|/tmp/x" if "core" in p else "-1000" if "oom" in p else "1")
        print("LEAK wrote", p)
    except OSError as e:
        print(p, "blocked", errno.errorcode[e.errno])
print("/sys exists", os.path.exists("/sys"))
