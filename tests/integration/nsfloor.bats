#!/usr/bin/env bats
# tools/nsfloor.c, tools/bench's `floor` row: the yardstick must do the
# kernel work it stands for (else the floor it shows is too low), and pass
# the program's end on as the bench expects.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	tc_setup
	NSFLOOR="$(dirname "$TOOLCELL")/toolcell-nsfloor"
	[ -x "$NSFLOOR" ] || {
		echo "toolcell-nsfloor not found beside $TOOLCELL" >&2
		return 1
	}
	printf 'print("from the bound file")\n' >"$TC_TMP/tool.py"
	chmod 644 "$TC_TMP/tool.py"
}

teardown() {
	tc_teardown
}

@test "nsfloor: a fresh root, PID, user and network namespace around the program" {
	cat >"$TC_TMP/probe.py" <<'EOF'
import os, socket
print(sorted(os.listdir("/")))
print(os.getpid(), os.getuid(), os.getgid())
print(socket.if_nameindex())
import fcntl, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
SIOCGIFFLAGS = 0x8913
flags = struct.unpack("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH", b"lo", 0)))[1]
print("lo up" if flags & 1 else "lo down")
try:
    open("/usr/toolcell-nsfloor-probe", "w")
except OSError as e:
    print("usr:", e.errno == 30)
print(sorted(os.listdir("/dev")), sorted(os.listdir("/tmp")))
# the host's root is gone, not merely hidden under the new one
with open("/proc/self/mountinfo") as f:
    mounts = [(l.split()[4], l.split(" - ")[1].split()[0]) for l in f]
print([t for m, t in mounts if m == "/"])
print(sorted(t for m, t in mounts if m in ("/tmp", "/proc")))
import stat, sys
print(stat.S_ISCHR(os.stat("/dev/null").st_mode))
# every namespace a new one: none is the host's (given as arguments)
print([n for n, host in zip(sys.argv[1::2], sys.argv[2::2])
       if os.readlink("/proc/self/ns/" + n) == host])
EOF
	chmod 644 "$TC_TMP/probe.py"
	local ns hosts=()
	for ns in user mnt pid net ipc uts cgroup; do
		hosts+=("$ns" "$(readlink "/proc/self/ns/$ns")")
	done
	run "$NSFLOOR" --ro "$TC_TMP/probe.py" "$PY" -I -S "$TC_TMP/probe.py" "${hosts[@]}"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "['bin', 'dev', 'lib', 'lib64', 'proc', 'tmp', 'usr']" ]
	[ "${lines[1]}" = "2 0 0" ]
	[ "${lines[2]}" = "[(1, 'lo')]" ]
	[ "${lines[3]}" = "lo up" ]
	[ "${lines[4]}" = "usr: True" ]
	# /tmp is a fresh tmpfs holding only the bound file's folders
	[ "${lines[5]}" = "['null'] ['$(basename "$TC_TMP")']" ]
	[ "${lines[6]}" = "['tmpfs']" ]
	[ "${lines[7]}" = "['proc', 'tmpfs']" ]
	[ "${lines[8]}" = "True" ]
	[ "${lines[9]}" = "[]" ]
	[ "${#lines[@]}" -eq 10 ]
}

@test "nsfloor: --ro FILE is readable at its own path, and read-only" {
	run "$NSFLOOR" --ro "$TC_TMP/tool.py" "$PY" -I -S -c "
import sys
exec(open(sys.argv[1]).read())
try:
    open(sys.argv[1], 'a')
except OSError as e:
    print(e.errno)
" "$TC_TMP/tool.py"
	[ "$status" -eq 0 ]
	[ "$output" = "from the bound file
30" ]
}

@test "nsfloor: the program's exit status and its death by a signal are passed on" {
	run "$NSFLOOR" "$PY" -I -S -c 'raise SystemExit(7)'
	[ "$status" -eq 7 ]
	run "$NSFLOOR" "$PY" -I -S -c 'import os, signal; os.kill(os.getpid(), signal.SIGKILL)'
	[ "$status" -eq 137 ]
}

@test "nsfloor: a relative program or file, a path with . or .., or no program is refused" {
	local usage='usage: toolcell-nsfloor [--ro /FILE]... /PROGRAM [ARGS...] (at most 64 files, each named without "." or "..")'
	run "$NSFLOOR" python3 -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	run "$NSFLOOR" --ro "$TC_TMP/tool.py"
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	run "$NSFLOOR" --ro tool.py "$PY" -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	run "$NSFLOOR" --ro "/../$TC_TMP/tool.py" "$PY" -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	run "$NSFLOOR" --ro "$TC_TMP/./tool.py" "$PY" -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	# 64 files are taken, a 65th is not
	local i many=()
	for i in $(seq 64); do many+=(--ro "$TC_TMP/f$i"); done
	run "$NSFLOOR" "${many[@]}" --ro "$TC_TMP/f65" "$PY" -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "$usage" ]
	for i in $(seq 64); do : >"$TC_TMP/f$i"; done
	run "$NSFLOOR" "${many[@]}" "$PY" -I -S -c 'print("64 bound")'
	[ "$status" -eq 0 ]
	[ "$output" = "64 bound" ]
}

@test "nsfloor: a program that cannot be run is 127, named" {
	run -127 "$NSFLOOR" "$TC_TMP/none"
	[ "$status" -eq 127 ]
	[ "$output" = "toolcell-nsfloor: $TC_TMP/none: No such file or directory" ]
}
