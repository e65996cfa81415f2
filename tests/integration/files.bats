#!/usr/bin/env bats
# Files in: toolcell opens every bind source with the caller's own rights
# before clone and hands the sandbox a detached, non-recursive copy; as root
# read-only binds are idmapped so the tool reads what the caller handed it.
# Sources that would show the host (a proc inside, a socket inside) and
# shared system folders as writable places are refused. Runs as root and,
# with TC_UNPRIVILEGED=1, as an unprivileged user.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	PY=/usr/bin/python3
	T=$(mktemp -d /tmp/tc-files.XXXXXX)
	chmod 755 "$T"
}

teardown() {
	[ -z "${LISTENER:-}" ] || kill "$LISTENER" 2>/dev/null || true
	rm -rf "$T"
}

@test "a 0600 script in a 0700 folder (Arium's mkdtemp layout) runs, as root too" {
	local d
	d=$(mktemp -d "$T/arium-XXXXXX")
	printf 'import os\nprint("ran", os.getuid(), open(__file__).read(9))\n' >"$d/tool.py"
	chmod 600 "$d/tool.py"
	[ "$(stat -c %a "$d")" = 700 ]
	run "$TOOLCELL" python "$d/tool.py"
	[ "$status" -eq 0 ]
	[ "$output" = "ran 1000 import os" ]
}

@test "a script under a home only its owner can enter runs, bound read-only, nosuid, nodev" {
	mkdir -p "$T/home/agent/tools"
	chmod 700 "$T/home"
	printf 'print("agent tool")\n' >"$T/home/agent/tools/t.py"
	chmod 600 "$T/home/agent/tools/t.py"
	run "$TOOLCELL" python "$T/home/agent/tools/t.py"
	[ "$status" -eq 0 ]
	[ "$output" = "agent tool" ]
	# a folder bound read-only: its 0600 file is the tool's to read,
	# owned by the tool inside, and the mount stays ro, nosuid, nodev
	run "$TOOLCELL" python --ro-bind "$T/home/agent/tools:/data" -c "
import os
st = os.stat('/data/t.py')
print(open('/data/t.py').read().strip(), st.st_uid == os.getuid(), oct(st.st_mode & 0o777))
for line in open('/proc/self/mountinfo'):
    f = line.split()
    if f[4] == '/data':
        print(sorted(set(f[5].split(',')) & {'ro', 'rw', 'nosuid', 'nodev'}))
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "print(\"agent tool\") True 0o600" ]
	[ "${lines[1]}" = "['nodev', 'nosuid', 'ro']" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "the tool reads only what the caller handed it: another user's 0600 file stays closed" {
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# the caller cannot read root's file: toolcell refuses it up front
		run "$TOOLCELL" python --ro-bind "/etc/shadow:/data/s" -c "print(1)"
		[ "$status" -eq 125 ]
		[ "$output" = "toolcell: cannot bind /etc/shadow: the caller (uid $(id -u)) cannot read it (mode $(stat -c %04a /etc/shadow), owner uid 0); toolcell hands the sandbox only what the caller can read: Permission denied" ]
	else
		# root hands over a folder holding another user's 0600 file: the
		# idmap shows root's files as the tool's, nobody's stay nobody's
		mkdir "$T/mixed"
		echo mine >"$T/mixed/root.txt" && chmod 600 "$T/mixed/root.txt"
		echo theirs >"$T/mixed/other.txt" && chmod 600 "$T/mixed/other.txt"
		chown nobody "$T/mixed/other.txt"
		run "$TOOLCELL" python --ro-bind "$T/mixed:/data" -c "
for n in ('root.txt', 'other.txt'):
    try:
        print(n, open('/data/' + n).read().strip())
    except PermissionError:
        print(n, 'EACCES')
"
		[ "$status" -eq 0 ]
		[ "$output" = "$(printf 'root.txt mine\nother.txt EACCES')" ]
	fi
}

@test "a source the caller cannot reach: the message names the folder that stops it" {
	if [ -z "${TC_UNPRIVILEGED:-}" ]; then
		# root reaches everything: another user's 0700 home is no obstacle
		mkdir -p "$T/nobody-home/sub" && echo x >"$T/nobody-home/sub/f"
		chown -R nobody "$T/nobody-home" && chmod 700 "$T/nobody-home"
		run "$TOOLCELL" python --ro-bind "$T/nobody-home/sub:/data" -c "print(open('/data/f').read().strip())"
		[ "$status" -eq 0 ]
		[ "$output" = "x" ]
		return
	fi
	run "$TOOLCELL" python --ro-bind "/root/agent/tool.py:/data/t.py" -c "print(1)"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: cannot bind /root/agent/tool.py: the caller (uid $(id -u)) cannot search /root (mode $(stat -c %04a /root), owner uid 0); toolcell opens bind sources with the caller's own rights: hand over a path the caller can reach" ]
}

# mount_then TYPE DIR CMD...: in a mount namespace of its own (and, when
# unprivileged, a user and PID namespace that allow mounting a proc),
# mount a TYPE file system on DIR, then run CMD
mount_then() {
	local ns=(unshare -m)
	[ -z "${TC_UNPRIVILEGED:-}" ] || ns=(unshare -Ump --fork --map-current-user --keep-caps)
	"${ns[@]}" "$PY" -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[1].encode(), 0, None) < 0:
    sys.exit("mount: " + os.strerror(ctypes.get_errno()))
os.execv(sys.argv[3], sys.argv[3:])
' "$@"
}

@test "a bind source with a proc mounted inside is refused, and so is a proc itself" {
	mkdir -p "$T/src/p" && echo hi >"$T/src/f"
	run mount_then proc "$T/src/p" "$TOOLCELL" python --ro-bind "$T/src:/data" -c "import os; print(len(os.listdir('/data/p')))"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/src: a special proc file system is mounted inside it, at $T/src/p (binds carry no submounts, and this one shows host state); bind a folder without mounts" ]
	run mount_then proc "$T/src/p" "$TOOLCELL" python --ro-bind "$T/src/p/sys:/data" -c "print(1)"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/src/p/sys: it is on a proc file system, which shows the host's state" ]
	# a file there too (a file's own file system is told apart without the table only when plain)
	run mount_then proc "$T/src/p" "$TOOLCELL" python --ro-bind "$T/src/p/version:/data" -c "print(1)"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/src/p/version: it is on a proc file system, which shows the host's state" ]
	# any other file system inside a source is refused the same way
	run mount_then tmpfs "$T/src/p" "$TOOLCELL" python --ro-bind "$T/src:/data" -c "print(1)"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/src: a tmpfs file system is mounted inside it, at $T/src/p (binds carry no submounts); bind a folder without mounts" ]
}

@test "a read-only bind never hands the tool a host socket: a folder holding a listening one is refused" {
	mkdir -p "$T/run/sub"
	# a real host service listening in the folder, one level down
	"$PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(4)
open(sys.argv[1] + ".ready", "w").close()
while True:
    c, _ = s.accept(); c.sendall(b"host-secret"); c.close()
' "$T/run/sub/svc.sock" &
	LISTENER=$!
	for _ in $(seq 100); do [ -e "$T/run/sub/svc.sock.ready" ] && break; sleep 0.1; done
	[ -S "$T/run/sub/svc.sock" ]
	chmod 777 "$T/run/sub/svc.sock"
	run "$TOOLCELL" python --ro-bind "$T/run:/data" -c "
import socket
s = socket.socket(socket.AF_UNIX); s.connect('/data/sub/svc.sock'); print(s.recv(64))
"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/run: it holds a socket, $T/run/sub/svc.sock, which the tool could connect to even through a read-only bind; bind a folder without sockets" ]
	# the folder beside it binds fine
	mkdir "$T/plain" && echo ok >"$T/plain/f"
	run "$TOOLCELL" python --ro-bind "$T/plain:/data" -c "print(open('/data/f').read().strip())"
	[ "$status" -eq 0 ]
	[ "$output" = "ok" ]
}

@test "a bind source with a folder that can be entered but not listed (0311) is refused, not skipped by the socket scan" {
	mkdir -p "$T/hid/secret"
	echo ok >"$T/hid/f"
	"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/hid/secret/svc.sock"
	chmod 0311 "$T/hid/secret"
	run "$TOOLCELL" python --ro-bind "$T/hid:/data" -c "print(1)"
	[ "$status" -eq 125 ]
	if [ "$(id -u)" -eq 0 ]; then
		# root lists every folder: the socket itself is found
		[ "$output" = "toolcell: refusing to bind $T/hid: it holds a socket, $T/hid/secret/svc.sock, which the tool could connect to even through a read-only bind; bind a folder without sockets" ]
	else
		[ "$output" = "toolcell: refusing to bind $T/hid: its folder $T/hid/secret can be entered but not listed, so it cannot be checked for sockets; make it listable (chmod u+r) or bind a folder without it" ]
	fi
	# a folder the caller can neither list nor enter is no way in: the bind is fine
	chmod 0000 "$T/hid/secret"
	run "$TOOLCELL" python --ro-bind "$T/hid:/data" -c "print(open('/data/f').read().strip())"
	if [ "$(id -u)" -eq 0 ]; then
		[ "$status" -eq 125 ]
	else
		[ "$status" -eq 0 ]
		[ "$output" = "ok" ]
	fi
	chmod 0700 "$T/hid/secret"
}

@test "a bind source of more than TC_BIND_SCAN_MAX entries is refused, not half-checked" {
	mkdir "$T/big"
	(cd "$T/big" && seq 20001 | xargs touch)
	run "$TOOLCELL" python --ro-bind "$T/big:/data" -c "print(1)"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/big: it holds more than 20000 entries, too many to check for sockets; bind a smaller folder" ]
	rm "$T/big/1"
	run "$TOOLCELL" python --ro-bind "$T/big:/data" -c "import os; print(len(os.listdir('/data')))"
	[ "$status" -eq 0 ]
	[ "$output" = "20000" ]
}

@test "/tmp and /var/tmp are refused as workspaces" {
	for d in /tmp /var/tmp; do
		run "$TOOLCELL" python --workspace "$d" -c "print(1)"
		[ "$status" -eq 125 ]
		[ "$output" = "toolcell: refusing $d as the workspace: it is the host's shared $d, which other users and services write too; make a folder of its own (mkdir $d/NAME) and use that" ]
	done
	# a folder of its own in /tmp is fine
	mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" -c "print(1)"
	[ "$status" -eq 0 ]
	[ "$output" = "1" ]
}
