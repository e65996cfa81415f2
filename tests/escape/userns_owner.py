# Whose per-user kernel counts the sandbox spends: the kernel charges them
# (inotify instances, namespaces, ...) to the creator of the sandbox's user
# namespace at the host's level. Prints that creator as the sandbox sees it
# (NS_GET_OWNER_UID): host root shows as the overflow uid 65534, the pool's
# namespace root as 0, an unprivileged caller (mapped to the tool) as 1000.
import array, fcntl, os
NS_GET_OWNER_UID = 0xB704
buf = array.array("I", [0])
fcntl.ioctl(os.open("/proc/self/ns/user", os.O_RDONLY), NS_GET_OWNER_UID, buf)
print("owner", buf[0], flush=True)
