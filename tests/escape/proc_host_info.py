# What /proc tells about the host and the other sandboxes: file locks of
# every sandbox (with host uids: a covert channel), the kernel's command
# line, version, configuration, interrupt and I/O memory maps, key counts
# per host uid, the boot id, and Docker's masked paths. Takes a lock of its
# own first, so /proc/locks would show at least that. Prints each path's
# size ("LEAK" for any content) and what an ordinary tool still reads.
import fcntl, os
with open("/tmp/lockme", "w") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    for name in ("locks", "cmdline", "version", "config.gz", "interrupts", "softirqs", "iomem",
                 "key-users", "keys", "timer_list", "sys/kernel/random/boot_id"):
        p = "/proc/" + name
        try:
            data = open(p, "rb").read()
            print(name, "LEAK %d bytes" % len(data) if data else "empty", flush=True)
        except FileNotFoundError:
            print(name, "empty", flush=True)  # not in this kernel: nothing to hide
        except OSError as e:
            print(name, "error", e.errno, flush=True)
    for name in ("acpi", "asound", "scsi"):
        p = "/proc/" + name
        print(name, "LEAK" if os.path.exists(p) and os.listdir(p) else "empty", flush=True)
    for name in ("meminfo", "cpuinfo", "loadavg", "stat", "uptime"):
        print(name, "readable" if open("/proc/" + name).read() else "empty", flush=True)
