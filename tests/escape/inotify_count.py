# Per-user kernel counts: take every inotify instance the kernel gives
# (charged to the uid that created the sandbox's user namespace, at the
# host's level). Prints how many and what stopped it (at most 1000).
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
fds = []
while len(fds) < 1000:
    fd = libc.inotify_init1(0)
    if fd < 0:
        print("inotify_init1", errno.errorcode[ctypes.get_errno()], "after", len(fds), flush=True)
        break
    fds.append(fd)
for name in ("max_inotify_instances", "max_inotify_watches", "max_fanotify_groups",
             "max_fanotify_marks", "max_user_namespaces", "max_net_namespaces",
             "max_mnt_namespaces", "max_pid_namespaces", "max_ipc_namespaces",
             "max_uts_namespaces", "max_cgroup_namespaces", "max_time_namespaces"):
    print(name, open("/proc/sys/user/" + name).read().strip(), flush=True)
