# The one-shot suites through `toolcell serve`: servers started on demand,
# one per policy, shared by a file's tests (a real server answers many
# callers, one call after another, each in a fresh entry), and a runner that
# sends a script as an `exec` request and sets what bats' `run
# --separate-stderr` sets for `toolcell python SCRIPT`: $status (the exit
# status toolcell python gives for the same outcome, see servecall.py),
# $output, $lines, $stderr (the script's own), and $SRV_OUT/record.json.
# Sourced with `load serve-lib`; a file calls srv_setup_file and
# srv_teardown_file from its setup_file and teardown_file.
#
# A test may also run a server of its own (srv_test_setup, srv_start,
# srv_test_teardown, with `load helpers`): serve.bats, serve-attack.bats,
# servecli.bats and serve-reload.bats; with sessions through it
# (srv_session_policy, srv_session, srv_marked): serve-session.bats and
# attack-session.bats.
#
# Options of the one-shot command line become the server's policy: a
# limit (--memory 64M) its limits key, --env NAME=VALUE its env, --policy
# FILE its base. A served call takes no workspace and no bind (README,
# "toolcell serve"): asking for one fails the test, never silently drops it.

srv_setup_file() {
	SRV_DIR=$(mktemp -d /tmp/tc-srv.XXXXXX)
	chmod 755 "$SRV_DIR"
	export SRV_DIR
}

# srv_teardown_file: SIGTERM to every server the file started; each must exit
# 0 within 60 s, and every process below it must be gone
srv_teardown_file() {
	local f pid kids rc=0
	[ -n "${SRV_DIR:-}" ] && [ -d "$SRV_DIR" ] || return 0
	for f in "$SRV_DIR"/*.pid; do
		[ -e "$f" ] || continue
		pid=$(cat "$f")
		kids=$(srv_descendants "$pid")
		kill -TERM "$pid" 2>/dev/null || continue
		srv_gone 600 "$pid" || {
			echo "server $pid did not end after SIGTERM" >&2
			kill -KILL "$pid" 2>/dev/null
			rc=1
		}
		# shellcheck disable=SC2086 # one pid a word
		srv_gone 150 $kids || {
			echo "processes of server $pid outlived it: $kids" >&2
			rc=1
		}
	done
	rm -rf "$SRV_DIR"
	return $rc
}

# srv_descendants PID: every process below PID (by parent pid), one a line
srv_descendants() {
	/usr/bin/python3 -I -c '
import os, sys
kids = {}
for p in filter(str.isdigit, os.listdir("/proc")):
    try:
        ppid = int(open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        continue
    kids.setdefault(ppid, []).append(int(p))
todo, seen = [int(sys.argv[1])], []
while todo:
    for k in kids.get(todo.pop(), []):
        seen.append(k)
        todo.append(k)
print("\n".join(map(str, seen)))' "$1"
}

# srv_runners PID: the server PID's runners (its children but its spawner,
# which is named toolcell-spawn), one a line
srv_runners() {
	pgrep -x -P "$1" toolcell || true
}

# srv_spawner PID: the server PID's spawner (serve-spawn.c), which makes its
# runners; empty while it has none
srv_spawner() {
	pgrep -x -P "$1" toolcell-spawn || true
}

# srv_gone TENTHS PID...: true once none of the PIDs is alive (zombies
# count as gone: their parent, not the sandbox, holds them), within
# TENTHS tenths of a second
srv_gone() {
	local i p alive n=$1
	shift
	for ((i = 0; i < n; i++)); do
		alive=
		for p in "$@"; do
			if [ -e "/proc/$p" ] && ! grep -q '^State:.Z' "/proc/$p/status" 2>/dev/null; then
				alive=$p
				break
			fi
		done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
	return 1
}

# srv_policy OUT [OPTIONS...]: the policy of `toolcell python OPTIONS` as a
# file for a server
srv_policy() {
	local out=$1 base
	shift
	base="$(dirname "$TOOLCELL")/policies/default.json"
	local limits=() envs=()
	while [ $# -gt 0 ]; do
		case $1 in
		--policy) base=$2 ;;
		--env) envs+=("$2") ;;
		--memory | --pids | --cpu-time | --tmp-size | --tmp-inodes | --open-files | \
			--stdout-size | --stderr-size | --file-size | --shm-size | --timeout)
			limits+=("${1#--}=$2") ;;
		*)
			echo "srv_policy: $1 has no served form (README, toolcell serve)" >&2
			return 1
			;;
		esac
		shift 2
	done
	/usr/bin/python3 -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
lim, env = json.loads(sys.argv[3]), json.loads(sys.argv[4])
for kv in lim:
    k, v = kv.split("=", 1)
    p.setdefault("limits", {})[k.replace("-", "_")] = int(v) if v.isdigit() else v
for kv in env:
    k, v = kv.split("=", 1)
    p.setdefault("env", {})[k] = v
json.dump(p, open(sys.argv[2], "w"), indent=1)
' "$base" "$out" "$(printf '%s\n' "${limits[@]}" | /usr/bin/python3 -I -c 'import json,sys; print(json.dumps([l for l in sys.stdin.read().split("\n") if l]))')" \
		"$(printf '%s\n' "${envs[@]}" | /usr/bin/python3 -I -c 'import json,sys; print(json.dumps([l for l in sys.stdin.read().split("\n") if l]))')"
	chmod 644 "$out"
}

# srv_warm SOCKET: true once the server on SOCKET has a ready entry for us
# (asked as the command prefix $AS_CALLER when set)
srv_warm() {
	# shellcheck disable=SC2086 # a command line, one word a word
	${AS_CALLER:-} /usr/bin/python3 -I -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(30)
s.connect(sys.argv[1])
s.sendall(b"{\"id\": 0, \"kind\": \"stats\"}\n")
buf = b""
while b"\n" not in buf:
    c = s.recv(65536)
    if not c:
        sys.exit(1)
    buf += c
d = json.loads(buf.split(b"\n")[0])
sys.exit(not any(p["ready"] for p in d.get("pools", [])))' "$1" 2>/dev/null
}

# the command line after it, run with a new terminal as its controlling
# one on stdin and stdout (the pid stays: it execs)
SRV_PTY_EXEC='
import fcntl, os, sys, termios
m, s = os.openpty()
os.setsid()
fcntl.ioctl(s, termios.TIOCSCTTY, 0)
os.dup2(s, 0)
os.dup2(s, 1)
os.set_inheritable(m, True)  # kept open: no hang-up while the server runs
os.execv(sys.argv[1], sys.argv[1:])'

# srv_ensure POLICY [TAG]: SRV_SOCK is a warm server of POLICY (one per
# policy text and TAG, started at the first need with this shell's
# environment and open files; SRV_WRAP: a command it is started through,
# SRV_PTY=1: with a terminal as stdin and stdout); 125 with the server's
# words in SRV_ERR when it refuses to start
srv_ensure() {
	local key pid i wrap=()
	key=$( (cat "$1" && echo "${2:-}") | sha256sum | cut -c1-16)
	SRV_SOCK=$SRV_DIR/$key.sock
	SRV_ERR=
	if [ -e "$SRV_DIR/$key.pid" ]; then
		return 0
	fi
	cp "$1" "$SRV_DIR/$key.json"
	# shellcheck disable=SC2206 # a command line, one word a word
	[ -z "${SRV_WRAP:-}" ] || wrap=($SRV_WRAP)
	[ -z "${SRV_PTY:-}" ] || wrap+=(/usr/bin/python3 -I -c "$SRV_PTY_EXEC")
	# fd 3 is bats' own: a server holding it would stall the file's end
	"${wrap[@]}" "$TOOLCELL" serve --socket "$SRV_SOCK" --policy "$SRV_DIR/$key.json" \
		</dev/null >/dev/null 2>"$SRV_DIR/$key.err" 3>&- &
	pid=$!
	echo "$pid" >"$SRV_DIR/$key.pid"
	for ((i = 0; i < 600; i++)); do
		if ! [ -e "/proc/$pid" ] || grep -q '^State:.Z' "/proc/$pid/status" 2>/dev/null; then
			wait "$pid" && i=0 || i=$?
			rm -f "$SRV_DIR/$key.pid"
			SRV_ERR=$(cat "$SRV_DIR/$key.err")
			return "$i"
		fi
		[ -S "$SRV_SOCK" ] && srv_warm "$SRV_SOCK" && return 0
		sleep 0.1
	done
	echo "the server for $1 was not warm after 60 s:" >&2
	cat "$SRV_DIR/$key.err" >&2
	return 1
}

# srv_socket [OPTIONS...]: SRV_SOCK is the warm server of `toolcell python
# OPTIONS`
srv_socket() {
	local d
	d=$(mktemp -d "$SRV_DIR/pol.XXXXXX")
	srv_policy "$d/policy.json" "$@" && srv_ensure "$d/policy.json" "${SRV_TAG:-}"
}

# srv_stats SOCKET: the server's stats answer (one line)
srv_stats() {
	printf '{"id": "stats", "kind": "stats"}\n' | timeout 60 /usr/bin/python3 -I \
		"$BATS_TEST_DIRNAME/serveclient.py" "$1"
}

# srv_until_busy SOCKET: until an entry of the server runs a call (30 s)
srv_until_busy() {
	local i
	for ((i = 0; i < 300; i++)); do
		srv_stats "$1" | /usr/bin/python3 -I -c '
import json, sys
sys.exit(not any(p["busy"] for p in json.loads(sys.stdin.read())["pools"]))' && return 0
		sleep 0.1
	done
	return 1
}

# srv_exec SCRIPT [OPTIONS...] [-- SERVECALL-OPTIONS...]: SCRIPT as an exec
# request to the server of `toolcell python OPTIONS`; sets status, output,
# lines, stderr and SRV_OUT (answer.json, record.json)
srv_exec() {
	local script=$1 pol
	shift
	local opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ "${1:-}" != -- ] || shift
	SRV_OUT=$(mktemp -d "$SRV_DIR/call.XXXXXX")
	pol=$SRV_OUT/policy.json
	srv_policy "$pol" "${opts[@]}" || return 1
	status=0
	srv_ensure "$pol" "${SRV_TAG:-}" || status=$?
	if [ "$status" != 0 ]; then
		output=
		lines=()
		stderr=$SRV_ERR
		return 0
	fi
	timeout 300 /usr/bin/python3 -I "$BATS_TEST_DIRNAME/servecall.py" "$SRV_SOCK" "$SRV_OUT" \
		"$script" "$@" || return 1
	# shellcheck disable=SC2034 # what bats' run sets, for the test to read
	status=$(cat "$SRV_OUT/status")
	output=$(cat "$SRV_OUT/stdout")
	# shellcheck disable=SC2034
	stderr=$(cat "$SRV_OUT/stderr")
	# as bats' run makes them: one entry a non-empty line
	# shellcheck disable=SC2034
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# srv_ans PATH: one value of the last answer (dot-separated keys)
srv_ans() {
	/usr/bin/python3 -I -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
' "$SRV_OUT/answer.json" "$1"
}

# ---- a server of the test's own

# srv_test_setup: tc_setup, no server yet; SOCK is $TC_TMP/s.sock, CLIENT
# serveclient.py
srv_test_setup() {
	tc_setup
	SERVER=
	SOCK=$TC_TMP/s.sock
	# shellcheck disable=SC2034 # the test file's
	CLIENT="$BATS_TEST_DIRNAME/serveclient.py"
}

# srv_test_teardown: the server killed (SIGKILL) and reaped, then tc_teardown
srv_test_teardown() {
	if [ -n "$SERVER" ]; then
		kill -KILL "$SERVER" 2>/dev/null || true
		wait "$SERVER" 2>/dev/null || true
	fi
	tc_teardown
}

# srv_start [OPTIONS...]: the server SERVER on $SOCK with $TC_TMP/p.json
# (the file's `policy` makes it when missing), its stderr in
# $TC_TMP/serve.err, once a pool has a ready entry (asked as $AS_CALLER when
# set); with SRV_OPEN=1 or AS_CALLER the socket is 0666, for callers of
# other uids. An ASan build runs it with its quarantine off: the RSS checks
# of serve-attack.bats would take what it holds for memory the server keeps.
srv_start() {
	[ -f "$TC_TMP/p.json" ] || policy
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
		"$TOOLCELL" serve --socket "$SOCK" --policy "$TC_TMP/p.json" "$@" \
		2>"$TC_TMP/serve.err" 3>&- &
	SERVER=$!
	for _ in $(seq 600); do
		[ -z "${SRV_OPEN:-}${AS_CALLER:-}" ] || [ ! -S "$SOCK" ] || chmod 666 "$SOCK"
		if [ -S "$SOCK" ] && srv_warm "$SOCK"; then
			# again: the chmod above may have met the socket of a
			# server before this one (restarted), not this one's
			[ -z "${SRV_OPEN:-}${AS_CALLER:-}" ] || chmod 666 "$SOCK"
			return 0
		fi
		sleep 0.1
	done
	cat "$TC_TMP/serve.err" >&2
	return 1
}

# srv_stat KEY.PATH: one value of a fresh stats answer of the server on $SOCK
srv_stat() {
	srv_stats "$SOCK" | jget "$1"
}

# srv_counts KEY.PATH=VALUE...: one fresh stats answer of the server on
# $SOCK has each value (as jget prints it); stderr names those that differ
srv_counts() {
	local kv got rc=0
	srv_stats "$SOCK" >"$TC_TMP/counts"
	for kv in "$@"; do
		got=$(jget "${kv%%=*}" <"$TC_TMP/counts")
		[ "$got" = "${kv#*=}" ] || {
			echo "stats: ${kv%%=*} is $got, not ${kv#*=}" >&2
			rc=1
		}
	done
	return $rc
}

# srv_until KEY.PATH=VALUE...: until one stats answer of the server on
# $SOCK has each value (within 30 s); false, naming what differs, if none did
srv_until() {
	for _ in $(seq 300); do
		srv_counts "$@" 2>/dev/null && return 0
		sleep 0.1
	done
	srv_counts "$@"
}

# answer ID KEY.PATH: a value of the answer with that id in $TC_TMP/out
answer() {
	/usr/bin/python3 -I -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["id"] == json.loads(sys.argv[2]):
        print(line, end="")
        break
else:
    sys.exit(1)' "$TC_TMP/out" "$1" | jget "$2"
}

# ---- sessions through a server of the test's own

# srv_session_policy [BODY]: $TC_TMP/p.json with a ${TIMEOUT:-5} s timeout, a
# 64K stdout cap, json allowed in sessions (os, time, json and math the most
# a session may add) and BODY's keys
srv_session_policy() {
	printf '{"version": 1, "limits": {"timeout": %s, "stdout_size": "64K"}, "session": {"allowed_imports": ["json"], "max_imports": ["os", "time", "json", "math"]}%s}\n' \
		"${TIMEOUT:-5}" "${1:+, $1}" >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
}

# srv_session OUT [OPTIONS...]: `toolcell session OPTIONS` over $TC_TMP/in;
# answers in $TC_TMP/OUT, with every duration_s (the one figure that differs
# from run to run) as 0; stderr in $TC_TMP/OUT.err, the status in $TC_TMP/OUT.rc
srv_session() {
	local out=$1 rc=0
	shift
	timeout 120 "$TOOLCELL" session "$@" <"$TC_TMP/in" >"$TC_TMP/$out.raw" 2>"$TC_TMP/$out.err" ||
		rc=$?
	echo "$rc" >"$TC_TMP/$out.rc"
	sed -E 's/"duration_s":[0-9]+\.[0-9]{3}/"duration_s":0/' "$TC_TMP/$out.raw" >"$TC_TMP/$out"
}

# srv_marked: the host pids of the processes with the test's $MARK in their
# command line, one a line (never the uid range other sandboxes share)
srv_marked() {
	pgrep -f "$MARK" || true
}
