# Create device nodes for host memory and the root disk in /tmp.
import errno, os, stat
for name, mode, dev in (("mem", stat.S_IFCHR, os.makedev(1, 1)),
                        ("sda", stat.S_IFBLK, os.makedev(8, 0)),
                        ("kmsg", stat.S_IFCHR, os.makedev(1, 11))):
    try:
        os.mknod("/tmp/" + name, mode | 0o666, dev)
        print("LEAK made", name)
    except OSError as e:
        print(name, "blocked", errno.errorcode[e.errno])
# a FIFO is allowed (and harmless)
os.mkfifo("/tmp/fifo")
print("fifo ok", stat.S_ISFIFO(os.stat("/tmp/fifo").st_mode))
