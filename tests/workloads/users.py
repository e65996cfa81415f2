"""Workload: getpass.getuser, pwd, grp, ids and the home directory."""
import getpass
import grp
import os
import pwd
import sys

NAME = "users"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


uid, gid = os.getuid(), os.getgid()
check(os.geteuid() == uid and os.getegid() == gid, "real == effective")
check(os.getresuid() == (uid, uid, uid) and os.getresgid() == (gid, gid, gid), "getresuid/getresgid")
me = pwd.getpwuid(uid)
check(me.pw_uid == uid and me.pw_name, f"getpwuid {me}")
check(pwd.getpwnam(me.pw_name).pw_uid == uid, "getpwnam round trip")
check(me.pw_dir and me.pw_shell, "pw_dir/pw_shell")
env_user = next((os.environ[v] for v in ("LOGNAME", "USER", "LNAME", "USERNAME") if os.environ.get(v)), None)
user = getpass.getuser()
check(user == (env_user or me.pw_name), f"getuser {user!r} vs {env_user or me.pw_name!r}")
check(any(p.pw_uid == 0 for p in pwd.getpwall()), "getpwall has root")
check(pwd.getpwnam("root").pw_uid == 0 and pwd.getpwuid(0).pw_name == "root", "root entry")
try:
    pwd.getpwnam("no-such-user-wl")
except KeyError:
    pass
else:
    check(False, "found a missing user")
if uid == 1000 and os.path.exists("/etc/passwd") and me.pw_name == "tool":
    check(me.pw_dir == "/tmp" and me.pw_gid == 1000, "the rootfs's tool user")

check(grp.getgrgid(0).gr_name == "root", "getgrgid(0)")
try:
    g = grp.getgrgid(gid)
    check(g.gr_gid == gid and grp.getgrnam(g.gr_name).gr_gid == gid, "own group")
except KeyError:
    check(False, f"no group entry for gid {gid}")
check(isinstance(os.getgroups(), list) and len(grp.getgrall()) >= 2, "getgroups/getgrall")
check(os.path.expanduser("~root") == pwd.getpwnam("root").pw_dir, "expanduser ~root")
check(os.path.expanduser("~") == os.environ.get("HOME", me.pw_dir), "expanduser ~")
check(os.access(os.environ.get("HOME", "/tmp"), os.W_OK) or uid == 0, "HOME is writable")

print(f"ok {NAME}")
