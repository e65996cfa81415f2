#!/usr/bin/python3 -I
"""maskproc.py PROGRAM [ARG...]: run PROGRAM in a mount namespace whose /proc
is masked the way Docker and Kubernetes mask it (/dev/null bound over
the first of /proc/kcore, /proc/keys, /proc/timer_list that exists), so the kernel refuses any new proc mount made below it. As
root a private mount namespace is enough; an unprivileged caller gets a user
namespace that maps its own uid and gid alone, so PROGRAM runs as itself."""
import ctypes
import os
import sys

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000

libc = ctypes.CDLL(None, use_errno=True)


def check(ok, what):
    if not ok:
        sys.exit("maskproc: %s: %s" % (what, os.strerror(ctypes.get_errno())))


uid, gid = os.geteuid(), os.getegid()
check(libc.unshare(CLONE_NEWNS | (0 if uid == 0 else CLONE_NEWUSER)) == 0, "unshare")
if uid != 0:
    for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1\n" % (uid, uid)),
                       ("gid_map", "%d %d 1\n" % (gid, gid))):
        with open("/proc/self/" + name, "w") as f:
            f.write(text)
check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) == 0, "mount --make-rprivate /")
masked = next(p for p in ("/proc/kcore", "/proc/keys", "/proc/timer_list") if os.path.exists(p))
check(libc.mount(b"/dev/null", masked.encode(), None, MS_BIND, None) == 0, "bind /dev/null on " + masked)
os.execv(sys.argv[1], sys.argv[1:])
