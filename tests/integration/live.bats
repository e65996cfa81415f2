#!/usr/bin/env bats
# The live bind: a writable --bind is the host's own folder, which the host
# sees as the tool writes (unlike the workspace's layer). As root it is
# idmapped, so the caller's files are the tool's and what the tool creates
# is the caller's; nosuid, nodev; the filter refuses set-uid and set-gid
# mode bits in every call that sets a mode; a file is at most file_size.
# Symlinks, FIFOs and sockets the tool makes do reach the host (README's
# "Live binds"). Runs as root and, with TC_UNPRIVILEGED=1, as an
# unprivileged user.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	PY=/usr/bin/python3
	T=$(mktemp -d /tmp/tc-live.XXXXXX)
	chmod 755 "$T"
	mkdir "$T/live"
	# default.json with allow.bind: a live bind is the policy's choice
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["allow"]["bind"] = True
json.dump(p, open(sys.argv[2], "w"))' "$BATS_TEST_DIRNAME/../../policies/default.json" "$T/live.json"
	chmod 644 "$T/live.json"
	LIVE=(--policy "$T/live.json" --bind "$T/live:/live")
}

teardown() {
	rm -rf "$T"
}

@test "a live bind is idmapped as root: the caller's 0600 file is the tool's, what the tool writes is the caller's" {
	printf 'mine\n' >"$T/live/old.txt"
	chmod 600 "$T/live/old.txt"
	run "$TOOLCELL" python "${LIVE[@]}" -c "
import os
st = os.stat('/live/old.txt')
print(os.getuid(), st.st_uid, open('/live/old.txt').read().strip())
open('/live/old.txt', 'a').write('changed\n')
open('/live/new.txt', 'w').write('new\n')
os.mkdir('/live/sub')
for line in open('/proc/self/mountinfo'):
    f = line.split()
    if f[4] == '/live':
        print(sorted(set(f[5].split(',')) & {'ro', 'rw', 'nosuid', 'nodev', 'idmapped'}))
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "1000 1000 mine" ]
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# the tool is the caller's own uid: nothing to map
		[ "${lines[1]}" = "['nodev', 'nosuid', 'rw']" ]
	else
		[ "${lines[1]}" = "['idmapped', 'nodev', 'nosuid', 'rw']" ]
	fi
	[ "$(cat "$T/live/old.txt")" = "$(printf 'mine\nchanged')" ]
	# created by the tool, owned by the caller on the host
	[ "$(stat -c '%u:%g %a' "$T/live/new.txt")" = "$(id -u):$(id -g) 644" ]
	[ "$(stat -c '%u:%g %a' "$T/live/sub")" = "$(id -u):$(id -g) 755" ]
	[ "$(cat "$T/live/new.txt")" = new ]
}

# The calls that set a mode, made raw (ctypes) so that no library call
# stands between the tool and the kernel: name, then the errno or "ok".
SETID_PROBE='
import ctypes, errno, os, stat
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
AT = -100
def sc(name, nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    print(name, "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()])
    if r >= 0 and name.startswith(("open", "creat")):
        os.close(r)
os.chdir("/live")
open("f", "w").write("x")
fd = os.open("f", os.O_RDONLY)
WR = os.O_WRONLY
sc("chmod 4755", 90, b"f", 0o4755)
sc("chmod 2755", 90, b"f", 0o2755)
sc("chmod 1<<16|4755", 90, b"f", 1 << 16 | 0o4755)
sc("chmod 1<<32|2755", 90, b"f", 1 << 32 | 0o2755)
sc("fchmod 6755", 91, fd, 0o6755)
sc("fchmodat 4755", 268, AT, b"f", 0o4755)
sc("fchmodat2 2755", 452, AT, b"f", 0o2755, 0)
sc("open O_CREAT 4755", 2, b"o1", os.O_CREAT | WR, 0o4755)
sc("openat O_CREAT 2755", 257, AT, b"o2", os.O_CREAT | WR, 0o2755)
sc("openat O_TMPFILE 4755", 257, AT, b".", os.O_TMPFILE | WR, 0o4755)
sc("creat 6755", 85, b"c1", 0o6755)
sc("mknod S_IFREG 4755", 133, b"n1", stat.S_IFREG | 0o4755, 0)
sc("mknodat S_IFREG 2755", 259, AT, b"n2", stat.S_IFREG | 0o2755, 0)
sc("openat2", 437, AT, b"o3", ctypes.create_string_buffer(24), 24)
sc("renameat2 RENAME_WHITEOUT", 316, AT, b"f", AT, b"w", 4)
# without set-id bits (or without a flag that creates) all of them work
sc("chmod 755", 90, b"f", 0o755)
sc("fchmod 1755", 91, fd, 0o1755)
sc("open O_RDONLY 4755", 2, b"f", os.O_RDONLY, 0o4755)
sc("open O_CREAT 644", 2, b"o4", os.O_CREAT | WR, 0o644)
sc("mknod S_IFREG 600", 133, b"n3", stat.S_IFREG | 0o600, 0)
sc("mkdir 2755", 83, b"d", 0o2755)
'

@test "set-id bits never reach the host through a live bind: each call that sets a mode answers EPERM" {
	run "$TOOLCELL" python "${LIVE[@]}" -c "$SETID_PROBE"
	[ "$status" -eq 0 ]
	[ "$output" = "chmod 4755 EPERM
chmod 2755 EPERM
chmod 1<<16|4755 EPERM
chmod 1<<32|2755 EPERM
fchmod 6755 EPERM
fchmodat 4755 EPERM
fchmodat2 2755 ENOSYS
open O_CREAT 4755 EPERM
openat O_CREAT 2755 EPERM
openat O_TMPFILE 4755 EPERM
creat 6755 EPERM
mknod S_IFREG 4755 EPERM
mknodat S_IFREG 2755 EPERM
openat2 ENOSYS
renameat2 RENAME_WHITEOUT EPERM
chmod 755 ok
fchmod 1755 ok
open O_RDONLY 4755 ok
open O_CREAT 644 ok
mknod S_IFREG 600 ok
mkdir 2755 ok" ]
	# nothing set-id, no whiteout device, none of the refused files
	[ -z "$(find "$T/live" -perm /6000)" ]
	[ -z "$(find "$T/live" -type c)" ]
	[ "$(cd "$T/live" && echo *)" = "d f n3 o4" ]
	# the kernel drops mkdir's set-gid bit itself
	[ "$(stat -c %a "$T/live/d")" = 755 ]
	[ "$(stat -c %a "$T/live/f")" = 1755 ]
}

@test "without a live bind the filter keeps its usual rules: chmod 4755 in /tmp works" {
	# the set-id rules cost a filter compiled per run: only a run with a
	# live bind has them (a workspace's set-id bits are dropped at apply)
	run "$TOOLCELL" python -c "
import os
open('/tmp/f', 'w').close()
os.chmod('/tmp/f', 0o4755)
print(oct(os.stat('/tmp/f').st_mode & 0o7777))"
	[ "$status" -eq 0 ]
	[ "$output" = 0o4755 ]
}

@test "a live bind gives no file capabilities: setxattr security.capability answers EPERM" {
	run "$TOOLCELL" python "${LIVE[@]}" -c "
import os
open('/live/f', 'w').close()
# VFS_CAP_REVISION_2, every capability permitted (20 bytes)
cap = bytes([0, 0, 0, 2]) + bytes([0xff, 0xff, 0xff, 0xff]) + bytes(12)
try:
    os.setxattr('/live/f', 'security.capability', cap)
    print('set')
except OSError as e:
    print(e.errno)"
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
	run "$PY" -I -c 'import os, sys; print(os.listxattr(sys.argv[1]))' "$T/live/f"
	[ "$output" = "[]" ]
}

@test "a symlink the tool makes in a live bind reaches the host as it is (documented)" {
	run "$TOOLCELL" python "${LIVE[@]}" -c "
import os
os.symlink('/etc/shadow', '/live/link')
os.mkfifo('/live/fifo')
print('made')"
	[ "$status" -eq 0 ]
	[ "$output" = made ]
	[ "$(readlink "$T/live/link")" = /etc/shadow ]
	[ "$(stat -c '%u %F' "$T/live/link")" = "$(id -u) symbolic link" ]
	[ "$(stat -c '%F' "$T/live/fifo")" = fifo ]
}

@test "a file in a live bind is at most file_size: the tool gets EFBIG, the host file stops there; fallocate cannot go past it" {
	run "$TOOLCELL" python "${LIVE[@]}" --file-size 1M -c "
import ctypes, errno, os
f = open('/live/big', 'wb', buffering=0)
try:
    for i in range(32):  # 2 MiB at most, whatever the limit
        f.write(b'x' * 65536)
    print('no limit')
except OSError as e:
    print(e.errno)
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open('/live/blocks', os.O_CREAT | os.O_WRONLY, 0o644)
for name, mode in (('keep_size', 1), ('plain', 0)):
    r = libc.fallocate(fd, mode, ctypes.c_long(0), ctypes.c_long(2 << 20))
    print(name, 'ok' if r == 0 else errno.errorcode[ctypes.get_errno()])"
	[ "$status" -eq 0 ]
	# EOPNOTSUPP is 95, which Python names ENOTSUP
	[ "$output" = "27
keep_size ENOTSUP
plain EFBIG" ]
	[ "$(stat -c %s "$T/live/big")" = 1048576 ]
	# FALLOC_FL_KEEP_SIZE would take blocks past the end, unseen by RLIMIT_FSIZE
	[ "$(stat -c '%s %b' "$T/live/blocks")" = "0 0" ]
}

@test "in a set-gid folder of the caller's a new folder inherits the bit, as on the host; a file does not get it" {
	mkdir "$T/live/sg"
	chmod 2775 "$T/live/sg"
	run "$TOOLCELL" python "${LIVE[@]}" -c "
import os
os.mkdir('/live/sg/sub')
open('/live/sg/f', 'w').close()
try:
    os.chmod('/live/sg/f', 0o2644)
except OSError as e:
    print(e.errno)"
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
	[ "$(stat -c '%a %g' "$T/live/sg/sub" "$T/live/sg/f" | tr '\n' ' ')" = "2755 $(id -g) 644 $(id -g) " ]
}
