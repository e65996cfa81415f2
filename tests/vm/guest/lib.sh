#!/bin/sh
# Helpers for the guest tests (tests/vm/guest/t-*.sh), sourced by each; POSIX
# sh for the guest's busybox. The guest's /init runs each test with:
#   TOOLCELL          /opt/toolcell/toolcell, with rootfs/ and policies/ beside it
#   TC_RUN_AS         root, or user (uid 1000, in /sys/fs/cgroup/tc-user/shell)
#   TC_CGROUP_PARENT  the delegated cgroup for this user's runs
#   TC_INFO           a file whose lines the host prints as facts
# A test prints what it does (shown when it fails), checks with the assert_*
# helpers, and ends with tc_done: exit 0 when every check held.
#
# JSON: the busybox guest has no Python of its own; the rootfs's python3 runs outside
# the sandbox through the rootfs's own dynamic loader and libraries. The systemd
# guest (tests/vm/run-systemd), with no rootfs beside TOOLCELL, has its own.

: "${TOOLCELL:=/opt/toolcell/toolcell}"
: "${TC_CGROUP_PARENT:=/sys/fs/cgroup/tc-root}"
: "${TC_INFO:=/dev/null}"
: "${TC_RUN_AS:=root}"
TC_ROOTFS=${TOOLCELL%/*}/rootfs
tc_failures=0
TC_RC=0
TC_OUT=
TC_W=$(mktemp -d /tmp/tcvm-test.XXXXXX) || exit 1
cd "$TC_W" || exit 1

tc_python() {
	if [ ! -x "$TC_ROOTFS/usr/bin/python3" ] && [ -x /usr/bin/python3 ]; then
		/usr/bin/python3 -I -B "$@" # the systemd guest has its own
		return
	fi
	"$TC_ROOTFS/usr/lib64/ld-linux-x86-64.so.2" \
		--library-path "$TC_ROOTFS/usr/lib/x86_64-linux-gnu" \
		"$TC_ROOTFS/usr/bin/python3" -I -B "$@"
}

# The flattening, once per file content: one "path<TAB>value" line for every
# node; strings as they are (newlines as \n), numbers, true/false/null, and
# objects and arrays as compact JSON. List items are numbered from 0.
tc_jflat_py='
import json, sys
def emit(path, v):
    if isinstance(v, str):
        s = v.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
    else:
        s = json.dumps(v, separators=(",", ":"))
    if path:
        print(path + "\t" + s)
    if isinstance(v, dict):
        for k, x in v.items():
            emit(path + "." + k if path else k, x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            emit(path + "." + str(i) if path else str(i), x)
with open(sys.argv[1], encoding="utf-8") as f:
    emit("", json.load(f))
'

# jget FILE KEY.PATH: print the value at KEY.PATH (limits.memory.enforced_by,
# isolation.namespaces.0); nothing and status 1 when the file is not JSON or
# has no such key
jget() {
	[ -s "$1" ] || return 1
	sum=$(md5sum <"$1")
	if [ ! -f "$1.flat" ] || [ "$(head -n 1 "$1.flat")" != "$sum" ]; then
		{
			echo "$sum"
			tc_python -c "$tc_jflat_py" "$1"
		} >"$1.flat" || {
			rm -f "$1.flat"
			return 1
		}
	fi
	awk -F '\t' -v k="$2" 'NR > 1 && $1 == k { print substr($0, length($1) + 2); f = 1; exit }
		END { exit !f }' "$1.flat"
}

pass() {
	printf '  ok    %s\n' "$1"
}

fail() {
	printf '  FAIL  %s\n' "$1"
	tc_failures=$((tc_failures + 1))
}

is_int() {
	case $1 in
	'' | - | *[!0-9-]* | ?*-*) return 1 ;;
	esac
	return 0
}

# assert_eq VALUE EXPECTED [LABEL]
assert_eq() {
	if [ "$1" = "$2" ]; then
		pass "${3:-value}: '$1'"
	else
		fail "${3:-value}: expected '$2', got '$1'"
	fi
}

# assert_ge VALUE MIN [LABEL]: integers
assert_ge() {
	if is_int "$1" && [ "$1" -ge "$2" ]; then
		pass "${3:-value}: $1 >= $2"
	else
		fail "${3:-value}: expected an integer >= $2, got '$1'"
	fi
}

# assert_le VALUE MAX [LABEL]: integers
assert_le() {
	if is_int "$1" && [ "$1" -le "$2" ]; then
		pass "${3:-value}: $1 <= $2"
	else
		fail "${3:-value}: expected an integer <= $2, got '$1'"
	fi
}

# assert_near VALUE EXPECTED PERCENT [LABEL]: integers, |VALUE - EXPECTED|
# at most PERCENT % of EXPECTED
assert_near() {
	if is_int "$1"; then
		d=$(($1 - $2))
		[ "$d" -lt 0 ] && d=$((-d))
		if [ $((d * 100)) -le $(($2 * $3)) ]; then
			pass "${4:-value}: $1, within $3 % of $2"
			return
		fi
	fi
	fail "${4:-value}: expected $2 +/- $3 %, got '$1'"
}

# assert_within VALUE EXPECTED SLACK [LABEL]: integers, |VALUE - EXPECTED|
# at most SLACK
assert_within() {
	if is_int "$1"; then
		d=$(($1 - $2))
		[ "$d" -lt 0 ] && d=$((-d))
		if [ "$d" -le "$3" ]; then
			pass "${4:-value}: $1, within $3 of $2"
			return
		fi
	fi
	fail "${4:-value}: expected $2 +/- $3, got '$1'"
}

# assert_match VALUE PATTERN [LABEL]: a shell glob
assert_match() {
	# shellcheck disable=SC2254 # the pattern is a glob on purpose
	case $1 in
	$2)
		pass "${3:-value}: '$1'"
		return
		;;
	esac
	fail "${3:-value}: expected a match of '$2', got '$1'"
}

# assert_key FILE KEY EXPECTED: a record's KEY equals EXPECTED
assert_key() {
	assert_eq "$(jget "$1" "$2" || echo '(missing)')" "$3" "$2"
}

# The memory bomb (python3 -c "$MEMORY_BOMB"): one more MiB at a time until
# a limit ends it
# shellcheck disable=SC2034 # for the tests
MEMORY_BOMB='
b = []
while True:
    b.append(bytearray(b"x") * (1 << 20))'

# assert_oom_killed RECORD: the last run (TC_RC) was ended by the kernel's
# OOM killer under a cgroup memory limit: exit 137, SIGKILL, status
# memory_limit from the kernel's word (not inferred)
assert_oom_killed() {
	assert_eq "$TC_RC" 137 "exit status (128 + SIGKILL)"
	assert_key "$1" status memory_limit
	assert_key "$1" status_inferred false
	assert_key "$1" signal_name SIGKILL
}

# run CMD [ARGS...]: run a command; its stdout is kept in TC_OUT and the
# file $TC_W/stdout, its exit status in TC_RC. Prints the command, its
# stderr and its status, for the failure report.
run() {
	echo "\$ $*"
	"$@" >"$TC_W/stdout" 2>"$TC_W/stderr"
	TC_RC=$?
	# shellcheck disable=SC2034 # for the tests
	TC_OUT=$(cat "$TC_W/stdout")
	sed -n '1,40s/^/  stderr| /p' "$TC_W/stderr"
	echo "  exit $TC_RC"
}

# info TEXT: a fact the host prints in its summary
info() {
	echo "$*" >>"$TC_INFO"
}

# leaves: the toolcell-run-* leaves under TC_CGROUP_PARENT, one a line
leaves() {
	for leaf in "$TC_CGROUP_PARENT"/toolcell-run-*; do
		[ -d "$leaf" ] && echo "$leaf"
	done
	return 0
}

assert_no_leaves() {
	assert_eq "$(leaves | tr '\n' ' ')" "" "toolcell-run-* leaves left under $TC_CGROUP_PARENT"
}

# assert_cgroup_record FILE: the record says cgroup v2 enforced memory, pids
# and CPU, in a leaf under TC_CGROUP_PARENT (given as a file system path or
# as a path in the cgroup hierarchy: either ends the same way), and the
# parent's subtree_control has the controllers on
assert_cgroup_record() {
	assert_key "$1" limits.memory.enforced_by cgroup2
	assert_key "$1" limits.pids.enforced_by cgroup2
	assert_key "$1" limits.cpus.enforced_by cgroup2
	assert_match "$(jget "$1" isolation.cgroup)" \
		"*${TC_CGROUP_PARENT#/sys/fs/cgroup}/toolcell-run-*" isolation.cgroup
	# toolcell enabled what the leaves need in the parent
	for controller in memory pids cpu; do
		assert_match " $(cat "$TC_CGROUP_PARENT/cgroup.subtree_control") " "* $controller *" \
			"$controller in $TC_CGROUP_PARENT/cgroup.subtree_control"
	done
}

# cg_value FILE KEY: the value of KEY in a flat-keyed cgroup file
# (memory.events, cpu.stat); 0 when the file has no such line
cg_value() {
	awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"
}

# ---- toolcell serve (both guests' t-serve.sh): $sock is the server's
# socket, $mark a word in the command lines of the test's own processes

# serve_ask LINE: one request line to the server on $sock, its first answer
# line in $TC_W/answer (each read waits 300 s at most)
# shellcheck disable=SC2016,SC2154 # python's text; $sock is the test's
serve_ask() {
	printf '%s\n' "$1" | tc_python -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(300)
s.connect(sys.argv[1])
s.sendall(sys.stdin.buffer.read())
buf = b""
while not buf.endswith(b"\n"):
    c = s.recv(1 << 20)
    if not c:
        break
    buf += c
sys.stdout.buffer.write(buf)' "$sock" >"$TC_W/answer"
}

# serve_request KIND SOURCE [LIMITS-JSON]: one request line (id 1); a call
# gets {} as its args
serve_request() {
	tc_python -c 'import json, sys
d = {"id": 1, "kind": sys.argv[1], "source": sys.argv[2]}
if sys.argv[1] == "call":
    d["args"] = {}
if len(sys.argv) > 3:
    d["limits"] = json.loads(sys.argv[3])
print(json.dumps(d))' "$@"
}

# leaf_gone LEAF: "gone" once LEAF is no directory (within 30 s: an answer
# goes out as soon as the tool has exited alone, before its leaf is removed)
leaf_gone() {
	i=0
	while [ -d "$1" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -d "$1" ] && echo present || echo gone
}

# populated LEAF: 1 while a process is in LEAF (or below), 0 once not
populated() {
	awk '$1 == "populated" { print $2 }' "$1/cgroup.events" 2>/dev/null
}

# populated_after LEAF: populated LEAF, once it is 0 or 30 s have passed. A
# dead server's idle entries die through a chain of parent-death signals
# (runner, sandbox, init) of their own, which can end seconds after its
# call's under emulation.
populated_after() {
	i=0
	while [ "$(populated "$1")" = 1 ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	populated "$1"
}

# marked: the pids whose command line has $mark, at once (one grep over
# /proc; a process per pid is seconds under emulation). The pattern has one
# letter in brackets: grep's own command line does not match it.
# shellcheck disable=SC2154 # $mark is the test's
marked() {
	grep -lsa "${mark%?}[${mark#"${mark%?}"}]" /proc/[0-9]*/cmdline | sed 's|^/proc/||; s|/cmdline$||'
}

# wait_marked: true once a process with the mark runs (within 120 s)
wait_marked() {
	i=0
	while [ -z "$(marked)" ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$(marked)" ]
}

# serve_ask_marked LINE: serve_ask LINE in the background ($client), until
# a process with the mark runs (checked)
serve_ask_marked() {
	serve_ask "$1" &
	# shellcheck disable=SC2034 # the test waits for it
	client=$!
	wait_marked
	assert_ge "$(marked | wc -l)" 1 "the call's process with the mark runs"
}

# wait_unmarked: until no process with the mark runs (30 s at most)
wait_unmarked() {
	i=0
	while [ -n "$(marked)" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

tc_done() {
	if [ "$tc_failures" -gt 0 ]; then
		echo "$tc_failures check(s) failed"
		exit 1
	fi
	exit 0
}
