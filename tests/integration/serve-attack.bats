#!/usr/bin/env bats
# Attacks on `toolcell serve`, held to what README ("A warm pool") and
# `toolcell serve --help` promise: a call leaves nothing for the next one;
# each caller uid has its own entries and a uid the policy does not list is
# refused at connect; 32 callers at once, a caller that leaves mid-call, one
# that never reads, a malformed line, an oversized one, SIGTERM with calls
# in flight and SIGKILL of the server, each with its exact outcome and no
# process of ours left (by the marks in our tools' command lines and the
# pids below our own server, never by uid ranges other sandboxes share).

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() {
	srv_test_setup
	SRV_OPEN=1
	MARK="tc-attack-$$-$BATS_TEST_NUMBER-$RANDOM"
	PIDS=()
}

teardown() {
	tc_kill_pids
	pkill -KILL -f "$MARK" 2>/dev/null || true
	srv_test_teardown
}

# policy [BODY]: the default policy with a 4K request limit and BODY's keys
policy() {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["limits"]["request_size"] = "4K"
p.update(json.loads("{" + sys.argv[3] + "}"))
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" \
		"$TC_TMP/p.json" "${1:-}"
	chmod 644 "$TC_TMP/p.json"
}

# ask LINE...: the lines on one connection; the answers (as many as lines)
# into $TC_TMP/out
ask() {
	printf '%s\n' "$@" | timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" >"$TC_TMP/out"
}

# stats KEY.PATH: one value of a fresh stats answer
stats() {
	srv_stats "$TC_TMP/s.sock" | jget "$1"
}

# exec_line ID FILE [EXTRA_JSON]: an exec request of FILE's text
exec_line() {
	"$PY" -I -c '
import json, sys
d = {"id": json.loads(sys.argv[1]), "kind": "exec", "source": open(sys.argv[2]).read()}
d.update(json.loads(sys.argv[3]) if len(sys.argv) > 3 else {})
print(json.dumps(d))' "$@"
}

# marked: the host pids of our marked processes, one a line
marked() {
	pgrep -f "$MARK" || true
}

# until_marked: until a marked process runs (30 s)
until_marked() {
	for _ in $(seq 300); do
		[ -z "$(marked)" ] || return 0
		sleep 0.1
	done
	return 1
}

# a script that starts a marked sleeper (its own session, deaf to SIGHUP and
# SIGTERM) and sleeps $SLEEP s; the mark comes as argv[1]
sleeper() {
	cat >"$TC_TMP/sleeper.py" <<'PY'
import os, signal, sys, time
if os.fork() == 0:
    os.setsid()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(300)", sys.argv[1]])
time.sleep(float(sys.argv[2]))
print("slept")
PY
}

# ---------------------------------------------------------------- single use

@test "single use: /tmp, /dev/shm, globals, the environment and a forked child of one call are gone at the next, even in the one entry a server may have" {
	# one entry at a time: the next call cannot run before this one's ended
	srv_start --pool 1 --max-sandboxes 1
	cat >"$TC_TMP/leave.py" <<'PY'
import builtins, json, os, signal, sys, time
open("/tmp/marker", "w").write("x")
open("/dev/shm/marker", "w").write("x")
builtins.LEFT = json.LEFT = 1
sys.modules["left_behind"] = sys
os.environ["LEFT"] = "1"
if os.fork() == 0:
    os.setsid()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(300)", sys.argv[1]])
time.sleep(3)
print("left")
PY
	cat >"$TC_TMP/look.py" <<'PY'
import builtins, json, os, sys
print(os.path.exists("/tmp/marker"), os.listdir("/dev/shm"), hasattr(builtins, "LEFT"),
      hasattr(json, "LEFT"), "left_behind" in sys.modules, "LEFT" in os.environ,
      [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()])
PY
	exec_line 1 "$TC_TMP/leave.py" "{\"argv\": [\"$MARK\"]}" >"$TC_TMP/l1"
	exec_line 2 "$TC_TMP/look.py" >"$TC_TMP/l2"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/l1" >"$TC_TMP/a1" &
	PIDS+=($!)
	until_marked
	mapfile -t child < <(marked)
	[ "${#child[@]}" -eq 1 ]
	wait "${PIDS[0]}"
	[ "$(jget stdout <"$TC_TMP/a1")" = left ]
	[ "$(jget status <"$TC_TMP/a1")" = ok ]
	# the sleeper died with its call's PID namespace, before any answer
	# could be sent
	! [ -e "/proc/${child[0]}" ] || grep -q '^State:.Z' "/proc/${child[0]}/status"
	[ -z "$(marked)" ]
	# the next call, on another connection and on the same one
	ask "$(cat "$TC_TMP/l2")"
	[ "$(answer 2 stdout)" = "False [] False False False False []" ]
	ask "$(exec_line 3 "$TC_TMP/leave.py" "{\"argv\": [\"$MARK\"]}")" "$(exec_line 4 "$TC_TMP/look.py")"
	[ "$(answer 3 stdout)" = left ]
	[ "$(answer 4 stdout)" = "False [] False False False False []" ]
	[ -z "$(marked)" ]
	[ "$(stats calls.ok)" = 4 ]
}

# ---------------------------------------------------------------- callers

@test "callers of two uids (root and nobody, SO_PEERCRED) never share an entry: nobody's first call waits for an entry made for it" {
	if [ "$(id -u)" != 0 ]; then
		# one uid only: an unprivileged server's callers are itself
		srv_start
		ask "$(echo 'import os; print(os.getuid())' >"$TC_TMP/u.py" && exec_line 1 "$TC_TMP/u.py")"
		[ "$(answer 1 record.caller_uid)" = "$(id -u)" ]
		[ "$(stats pools.0.uid)" = "$(id -u)" ]
		[ "$(stats pools)" = "$(stats pools | "$PY" -I -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[:1], sort_keys=True))')" ]
		return
	fi
	policy '"serve": {"allow_uids": [0, 65534]}'
	srv_start --pool 2
	# the start of the entry's interpreter, in clock ticks since boot (no
	# time namespace: the host's clock)
	cat >"$TC_TMP/born.py" <<'PY'
print(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19])
PY
	chmod 644 "$TC_TMP/born.py"
	exec_line 1 "$TC_TMP/born.py" >"$TC_TMP/l1"
	chmod 644 "$TC_TMP/l1"
	sleep 1
	before=$("$PY" -I -c 'import os; print(int(float(open("/proc/uptime").read().split()[0]) * os.sysconf("SC_CLK_TCK")))')
	# root's entries are warm and older than $before; nobody has none yet
	[ "$(stats pools.0.uid)" = 0 ]
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/l1" >"$TC_TMP/out"
	[ "$(answer 1 record.caller_uid)" = 65534 ]
	[ "$(answer 1 record.pool.warm)" = false ]
	born=$(answer 1 stdout)
	echo "nobody's entry born at $born, nobody connected after $before"
	[ "$born" -ge "$before" ]
	# root's call takes one of root's warm entries, born before nobody came
	ask "$(cat "$TC_TMP/l1")"
	[ "$(answer 1 record.caller_uid)" = 0 ]
	[ "$(answer 1 record.pool.warm)" = true ]
	[ "$(answer 1 stdout)" -lt "$before" ]
	# a pool per uid
	srv_stats "$TC_TMP/s.sock" >"$TC_TMP/st"
	"$PY" -I -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(p["uid"] for p in d["pools"]) == [0, 65534], d["pools"]' "$TC_TMP/st"
}

# refused AS...: connect as the command prefix AS (none: ourselves), send a
# request and print all that comes back until the server closes
refused() {
	"$@" "$PY" -I -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(60)
s.connect(sys.argv[1])
try:
    s.sendall(open(sys.argv[2], "rb").read())
except OSError:
    pass
got = b""
while True:
    try:
        c = s.recv(65536)
    except ConnectionResetError:
        break
    if not c:
        break
    got += c
sys.stdout.write(got.decode())' "$TC_TMP/s.sock" "$TC_TMP/l1"
}

# restart BODY: our server again, with the policy of BODY and --pool 1
restart() {
	kill "$SERVER"
	wait "$SERVER" || true
	policy "$1"
	srv_start --pool 1
}

@test "a uid the policy does not allow is refused at connect with the exact answer and the connection closed; nothing is built for it" {
	local no='{"id":null,"ok":false,"error":{"type":"PermissionDenied","message":"this uid may not use the server (the policy'"'"'s serve.allow_uids and serve.allow_gids)","source":"toolcell"}}'
	echo 'print("ran")' >"$TC_TMP/ran.py"
	exec_line 1 "$TC_TMP/ran.py" >"$TC_TMP/l1"
	chmod 644 "$TC_TMP/ran.py" "$TC_TMP/l1"
	# with a list, the server's own uid is refused unless listed (README)
	policy '"serve": {"allow_uids": [4242], "allow_gids": [4242]}'
	"$TOOLCELL" serve --socket "$TC_TMP/s.sock" --policy "$TC_TMP/p.json" --pool 1 \
		2>"$TC_TMP/serve.err" &
	SERVER=$!
	for _ in $(seq 300); do [ -S "$TC_TMP/s.sock" ] && break; sleep 0.1; done
	run -0 refused
	[ "$output" = "$no" ]
	[ "$(id -u)" = 0 ] || return 0
	# root listed, nobody not
	restart '"serve": {"allow_uids": [0], "allow_gids": [0]}'
	run -0 refused setpriv --reuid=nobody --regid=nogroup --clear-groups
	[ "$output" = "$no" ]
	# no pool, no entry and no call for nobody
	srv_stats "$TC_TMP/s.sock" >"$TC_TMP/st"
	[ "$(jget pools <"$TC_TMP/st" | "$PY" -I -c 'import json,sys; print([p["uid"] for p in json.load(sys.stdin)])')" = "[0]" ]
	[ "$(jget calls.ok <"$TC_TMP/st")" = 0 ]
	[ "$(jget dispatch_ms.n <"$TC_TMP/st")" = 0 ]
	# a listed gid lets nobody in (nogroup: 65534)
	restart '"serve": {"allow_uids": [0], "allow_gids": [65534]}'
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/l1" >"$TC_TMP/out"
	[ "$(answer 1 stdout)" = ran ]
	[ "$(answer 1 record.caller_uid)" = 65534 ]
	# with a socket anyone may open (0666), a caller without a listed uid or
	# group is refused by the server
	restart '"serve": {"allow_uids": [0], "allow_gids": [4243]}'
	run -0 refused setpriv --reuid=nobody --regid=nogroup --clear-groups
	[ "$output" = "$no" ]
	# the socket as the package's (0660, its group the one allowed): a
	# caller whose only way in is a supplementary group (not its uid, not
	# its primary group) passes the mode and serve.allow_gids (SO_PEERGROUPS)
	chgrp 4243 "$SOCK"
	chmod 660 "$SOCK"
	[ "$(stat -c '%a %u %g' "$SOCK")" = "660 0 4243" ]
	rm -f "$TC_TMP/out"
	setpriv --reuid=nobody --regid=nogroup --groups=4243 \
		timeout 120 "$PY" -I "$CLIENT" "$SOCK" <"$TC_TMP/l1" >"$TC_TMP/out"
	[ "$(answer 1 stdout)" = ran ]
	[ "$(answer 1 record.caller_uid)" = 65534 ]
	# without the group the kernel refuses the connect itself: toolcell
	# says so (the client alone, where nobody can run it)
	cp "$TOOLCELL" "$TC_TMP/toolcell"
	chmod 755 "$TC_TMP/toolcell"
	run -125 --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$TC_TMP/toolcell" session --server "$SOCK" </dev/null
	[ "$stderr" = "toolcell: cannot connect to the server at $SOCK: Permission denied (the socket's owner, group and mode do not let this caller in: ask for its group, or leave out --server for a session of its own)" ]
	[ -z "$output" ]
	run -125 --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$TC_TMP/toolcell" call --server "$SOCK" "$TC_TMP/ran.py" <<<'{}'
	[ "$stderr" = "toolcell: cannot connect to the server at $SOCK: Permission denied (the socket's owner, group and mode do not let this caller in: ask for its group)" ]
	[ -z "$output" ]
	# and the server saw none of it: one call, nobody's
	[ "$(srv_stat calls.ok)" = 1 ]
}

# ---------------------------------------------------------------- load

@test "32 concurrent clients each get their own answer from a fresh sandbox, and leave nothing running" {
	srv_start --pool 4 --max-sandboxes 8 --queue 64
	cat >"$TC_TMP/n.py" <<'PY'
import os, sys, time
fresh = not os.path.exists("/tmp/used")
open("/tmp/used", "w").write(sys.argv[1])
if os.fork() == 0:
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(300)", sys.argv[2]])
time.sleep(0.2)
print(sys.argv[1], fresh, sys.stdin.read())
PY
	run -0 timeout 600 "$PY" -I -c '
import json, socket, sys, threading
path, src, mark = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
res = {}
def one(i):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(json.dumps({"id": i, "kind": "exec", "source": src, "argv": [str(i), mark],
                          "stdin": "in%d" % i}).encode() + b"\n")
    buf = b""
    while b"\n" not in buf:
        c = s.recv(1 << 20)
        if not c:
            break
        buf += c
    res[i] = json.loads(buf)
ts = [threading.Thread(target=one, args=(i,)) for i in range(32)]
[t.start() for t in ts]
[t.join() for t in ts]
bad = [(i, a.get("status"), a.get("stdout"), a.get("stderr")) for i, a in sorted(res.items())
       if (a["id"], a["status"], a["stdout"]) != (i, "ok", "%d True in%d\n" % (i, i))]
print(len(res), bad)' "$TC_TMP/s.sock" "$TC_TMP/n.py" "$MARK"
	[ "$output" = "32 []" ]
	tc_gone "$MARK"
	srv_counts calls.ok=32 calls.busy=0 queue=0 pools.0.busy=0 dispatch_ms.n=32
}

@test "a client that disconnects mid-call: its sandbox is killed, its runner ends, nothing of it is left" {
	policy '"limits": {"timeout": 300}'
	srv_start --pool 1
	sleeper
	exec_line 1 "$TC_TMP/sleeper.py" "{\"argv\": [\"$MARK\", \"250\"]}" >"$TC_TMP/l1"
	"$PY" -I -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(open(sys.argv[2], "rb").read())
open(sys.argv[3], "w").write("sent")
time.sleep(300)' "$TC_TMP/s.sock" "$TC_TMP/l1" "$TC_TMP/sent" &
	PIDS+=($!)
	until_marked
	# everything our server runs now: runners, inits, harnesses, the tool
	# (its spawner aside, which stays)
	mapfile -t before < <(srv_descendants "$SERVER" | grep -vx "$(srv_spawner "$SERVER")")
	mapfile -t child < <(marked)
	[ "$(stats pools.0.busy)" = 1 ]
	kill -KILL "${PIDS[0]}"
	wait "${PIDS[0]}" || true
	PIDS=()
	srv_gone 300 "${child[@]}"
	[ -z "$(marked)" ]
	# of what ran before, only the warm entry's processes are left
	for _ in $(seq 300); do [ "$(stats pools.0.busy)" = 0 ] && break; sleep 0.1; done
	[ "$(stats calls.abandoned)" = 1 ]
	[ "$(stats pools.0.busy)" = 0 ]
	[ "$(stats pools.0.ending)" = 0 ]
	mapfile -t after < <(srv_descendants "$SERVER")
	left=0
	for p in "${before[@]}"; do
		[[ " ${after[*]} " == *" $p "* ]] && left=$((left + 1))
	done
	# one warm entry: its runner, its init and its harness
	echo "before ${#before[@]}: ${before[*]}; after ${#after[*]}: ${after[*]}; kept $left"
	[ "$left" -le 3 ]
}

@test "a tool that reads none of its 900 KB request and keeps its output open holds no other caller: the server's ends of its pipes never block" {
	policy '"limits": {"request_size": "1M", "timeout": 60}'
	srv_start --pool 2 --max-sandboxes 4
	# the server writes the request into the tool's stdin and reads its
	# output itself (no runner between): the pipe takes 64 KiB of the
	# 900 KB, and the tool writes a line and then nothing, its pipes open
	cat >"$TC_TMP/hold.py" <<'PY'
import os, sys
sys.stdout.write("held\n"); sys.stdout.flush()
sys.stderr.write("err\n"); sys.stderr.flush()
# the same process, marked, with the same stdio
os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)", sys.argv[1]])
PY
	echo 'print("small")' >"$TC_TMP/small.py"
	"$PY" -I -c '
import json, sys
print(json.dumps({"id": 1, "kind": "exec", "source": open(sys.argv[1]).read(),
                  "argv": [sys.argv[2]], "stdin": "z" * 900000}))' \
		"$TC_TMP/hold.py" "$MARK" >"$TC_TMP/l1"
	"$PY" -I -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(open(sys.argv[2], "rb").read())
buf = b""
while not buf.endswith(b"\n"):
    c = s.recv(1 << 20)
    if not c:
        break
    buf += c
open(sys.argv[3], "wb").write(buf)' "$TC_TMP/s.sock" "$TC_TMP/l1" "$TC_TMP/a1" &
	PIDS+=($!)
	until_marked || {
		cat "$TC_TMP/a1" 2>/dev/null
		srv_stats "$TC_TMP/s.sock"
		false
	}
	# its call runs, its stdin full, its output open
	for _ in $(seq 300); do [ "$(stats pools.0.busy)" = 1 ] && break; sleep 0.1; done
	[ "$(stats pools.0.busy)" = 1 ]
	# another caller is answered, call after call, while it holds on
	for i in 1 2 3; do
		ask "$(exec_line "$i" "$TC_TMP/small.py")"
		[ "$(answer "$i" stdout)" = small ]
	done
	[ ! -e "$TC_TMP/a1" ]
	[ -n "$(marked)" ]
	# its end, from a server that never waited on it
	kill -TERM "$(marked | head -1)"
	wait "${PIDS[0]}"
	PIDS=()
	[ "$(jget status <"$TC_TMP/a1")" = signaled ]
	[ "$(jget stdout <"$TC_TMP/a1")" = held ]
	[ "$(jget stderr <"$TC_TMP/a1")" = err ]
	[ "$(jget record.stdout_bytes <"$TC_TMP/a1")" = 5 ]
	[ "$(jget record.stderr_bytes <"$TC_TMP/a1")" = 4 ]
}

@test "a client that never reads: the others are answered, the server stops reading it, its answers wait for it whole" {
	srv_start --pool 2 --max-sandboxes 4
	echo 'import sys; sys.stdout.write("x" * 1000000)' >"$TC_TMP/big.py"
	echo 'print("small")' >"$TC_TMP/small.py"
	rss0=$(awk '/^VmRSS/ {print $2}' "/proc/$SERVER/status")
	# 12 answers of a million bytes each, asked for and never read (yet)
	for i in $(seq 12); do exec_line "$i" "$TC_TMP/big.py"; done >"$TC_TMP/slow"
	"$PY" -I -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(sys.argv[1])
s.sendall(open(sys.argv[2], "rb").read())
while not os.path.exists(sys.argv[3]):
    time.sleep(0.1)
buf = b""
while buf.count(b"\n") < 12:
    c = s.recv(1 << 20)
    if not c:
        break
    buf += c
open(sys.argv[4], "wb").write(buf)' "$TC_TMP/s.sock" "$TC_TMP/slow" "$TC_TMP/go" "$TC_TMP/slow.out" &
	PIDS+=($!)
	# another caller is answered meanwhile, call after call
	for i in 1 2 3; do
		ask "$(exec_line "$i" "$TC_TMP/small.py")"
		[ "$(answer "$i" stdout)" = small ]
	done
	# the slow caller's calls all ran; their answers wait in the server
	for _ in $(seq 600); do
		[ "$(stats calls.ok)" = 15 ] && break
		sleep 0.1
	done
	[ "$(stats calls.ok)" = 15 ]
	rss1=$(awk '/^VmRSS/ {print $2}' "/proc/$SERVER/status")
	echo "server RSS ${rss0} KiB before, ${rss1} KiB with 12 MB of answers unread"
	# what bounds it: the answers of the calls it asked (at most --queue plus
	# --max-sandboxes at once, each within its output caps), and no more
	# lines read from it while over 1 MiB of answers wait
	[ "$rss1" -lt $((rss0 + 64 * 1024)) ]
	touch "$TC_TMP/go"
	wait "${PIDS[0]}"
	PIDS=()
	"$PY" -I -c '
import json, sys
a = [json.loads(l) for l in open(sys.argv[1], "rb").read().splitlines()]
assert sorted(x["id"] for x in a) == list(range(1, 13)), [x["id"] for x in a]
assert all(x["status"] == "ok" and x["stdout"] == "x" * 1000000 for x in a)' "$TC_TMP/slow.out"
}

@test "malformed lines are each answered BadRequest with the id when it could be read; the connection goes on" {
	srv_start --pool 1
	echo 'print("after")' >"$TC_TMP/after.py"
	deep=$("$PY" -I -c 'print("[" * 1000 + "]" * 1000)')
	printf '%s\n' 'not json' '[1, 2]' '{"id": {"a": 1}, "kind": "stats"}' '{"id": 1}' \
		'{"id": 2, "kind": "exec", "source": 5}' '{"id": 3, "kind": "exec", "source": "print(1)", "timeout_s": -1}' \
		'{"id": 4, "kind": "exec", "source": "x", "argv": [1]}' '{"id": 5, "id": 6, "kind": "stats"}' \
		"$deep" '' >"$TC_TMP/bad"
	printf '\xff\xfe\n{"id": 7, "kind": "exec", "source": "\xc3\x28"}\n\0\n' >>"$TC_TMP/bad"
	exec_line 8 "$TC_TMP/after.py" >>"$TC_TMP/bad"
	# 13 lines answered (the empty one is skipped), in the order sent
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" --answers 13 <"$TC_TMP/bad" >"$TC_TMP/out"
	"$PY" -I -c '
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
for x in a[:-1]:
    assert (x["ok"], x["error"]["type"], x["error"]["source"]) == (False, "BadRequest", "toolcell"), x
    print(json.dumps(x["id"]), x["error"]["message"])
print(a[-1]["id"], a[-1]["status"], a[-1]["stdout"], end="")' "$TC_TMP/out" >"$TC_TMP/said"
	cat "$TC_TMP/said"
	diff - "$TC_TMP/said" <<'EOF'
null request: not valid JSON near byte 1
null request: expected a JSON object
null request: "id" must be a string or a number
1 request: "kind" must be "call", "exec", "session" or "stats"
2 request: "source" must be a string
3 request: "timeout_s" must be a number above 0 (seconds; the server's limit is 30.000 s)
4 request: "argv" must be an array of strings
null request: duplicate key "id" in an object
null request: nesting deeper than 64 levels
null request: not valid UTF-8 at byte 0
null request: not valid UTF-8 at byte 37
null request: not valid JSON near byte 0
8 ok after
EOF
	[ "$(stats calls.bad_request)" = 12 ]
	# one sandbox ran a call (the exec); its entry is counted until its
	# runner has torn it down, then the pool's one entry is all there is
	[ $(($(stats calls.warm) + $(stats calls.cold))) = 1 ]
	srv_until sandboxes=1
}

@test "an oversized line is refused before its end arrives and before anything is built; its rest is skipped, the next line served" {
	srv_start --pool 1
	echo 'print("after")' >"$TC_TMP/after.py"
	exec_line 2 "$TC_TMP/after.py" >"$TC_TMP/l2"
	run -0 timeout 300 "$PY" -I -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(60)
# request_size 4K: a line may have 12 * 4096 + 65536 = 114688 bytes; send
# one byte more and no newline: the refusal must come all the same
head = b"{\"id\": 1, \"kind\": \"exec\", \"source\": \""
s.sendall(head + b"x" * (114688 + 1 - len(head)))
buf = b""
while b"\n" not in buf:
    buf += s.recv(65536)
print(buf.decode(), end="")
# the rest of that line, 64 MiB of it, then a newline and a good request
chunk = b"y" * (1 << 20)
for _ in range(64):
    s.sendall(chunk)
s.sendall(b"\"}\n" + open(sys.argv[2], "rb").read())
buf = b""
while b"\n" not in buf:
    buf += s.recv(65536)
print(json.loads(buf)["id"], json.loads(buf)["stdout"], end="")' "$TC_TMP/s.sock" "$TC_TMP/l2"
	[ "${lines[0]}" = '{"id":null,"ok":false,"error":{"type":"BadRequest","message":"request: longer than the 114688-byte limit (one request per line)","source":"toolcell"}}' ]
	[ "${lines[1]}" = "2 after" ]
	[ "$(stats calls.bad_request)" = 1 ]
	[ "$(stats calls.ok)" = 1 ]
	# the 64 MiB were skipped as they came, never held
	rss=$(awk '/^VmRSS/ {print $2}' "/proc/$SERVER/status")
	echo "server RSS $rss KiB"
	[ "$rss" -lt $((32 * 1024)) ]
}

@test "--max-connections: one caller more is answered Busy and closed; once one leaves, the next is served" {
	srv_start --pool 1 --max-connections 2
	run -0 timeout 120 "$PY" -I -c '
import sys
sys.path.insert(0, sys.argv[2])
from serveclient import conn, line
held = [conn(sys.argv[1]), conn(sys.argv[1])]
for s in held:
    s.sendall(b"{\"id\": 1, \"kind\": \"stats\"}\n")
    print(line(s).split(",")[0])
third = conn(sys.argv[1])
print(line(third), end="")
print(line(third))
held[0].close()
for _ in range(100):
    s = conn(sys.argv[1])
    s.sendall(b"{\"id\": 2, \"kind\": \"stats\"}\n")
    got = line(s)
    if "Busy" not in got:
        break
    s.close()
print(got.split(",")[0])' "$TC_TMP/s.sock" "$BATS_TEST_DIRNAME"
	diff - <(echo "$output") <<'EOF'
{"id":1
{"id":1
{"id":null,"ok":false,"error":{"type":"Busy","message":"the server has as many callers as its --max-connections allows; try again later","source":"toolcell"}}
<EOF>
{"id":2
EOF
}

@test "the unfinished lines of all callers together are bounded: the caller that would pass the bound is answered Busy, its line skipped, its connection still served" {
	srv_start --pool 1
	run -0 timeout 120 "$PY" -I -c '
import json, socket, sys, time
sys.path.insert(0, sys.argv[2])
from serveclient import conn, line
# request_size 4K: a line may have 114688 bytes; 16 of them are the bound
part = b"{\"id\": 1, \"kind\": \"stats\", \"pad\": \"" + b"x" * 110000
held = []
for _ in range(16):
    s = conn(sys.argv[1])
    s.sendall(part)
    held.append(s)
time.sleep(2)
last = conn(sys.argv[1])
last.sendall(part)
print(line(last), end="")
# the rest of that line is skipped; the next one is served
last.sendall(b"\"}\n{\"id\": 7, \"kind\": \"stats\"}\n")
print(json.loads(line(last))["id"])
# the 16 others were within the bound: none was answered
for s in held:
    s.settimeout(0.2)
    try:
        print("answered:", s.recv(100))
    except socket.timeout:
        pass' "$TC_TMP/s.sock" "$BATS_TEST_DIRNAME"
	[ "${lines[0]}" = '{"id":null,"ok":false,"error":{"type":"Busy","message":"the server holds too many unfinished request lines of its callers; send this request again later","source":"toolcell"}}' ]
	[ "${lines[1]}" = 7 ]
	[ "${#lines[@]}" -eq 2 ]
}

# ---------------------------------------------------------------- the server's end

@test "SIGTERM with calls in flight: each ends within its limits and is answered, a new caller is answered Busy, the server exits 0 and nothing is left" {
	srv_start --pool 2
	sleeper
	exec_line 1 "$TC_TMP/sleeper.py" "{\"argv\": [\"$MARK\", \"3\"]}" >"$TC_TMP/l"
	exec_line 2 "$TC_TMP/sleeper.py" "{\"argv\": [\"$MARK\", \"250\"], \"timeout_s\": 4}" >>"$TC_TMP/l"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/l" >"$TC_TMP/out" &
	PIDS+=($!)
	for _ in $(seq 300); do [ "$(marked | wc -l)" -ge 2 ] && break; sleep 0.1; done
	[ "$(marked | wc -l)" -ge 2 ]
	mapfile -t kids < <(srv_descendants "$SERVER")
	kill -TERM "$SERVER"
	# a caller that comes during the drain is told so
	echo 'print("late")' >"$TC_TMP/late.py"
	run -0 timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <<<"$(exec_line 3 "$TC_TMP/late.py")"
	[ "$output" = '{"id":3,"ok":false,"error":{"type":"Busy","message":"the server is shutting down","source":"toolcell"}}' ]
	wait "${PIDS[0]}"
	PIDS=()
	[ "$(answer 1 status)" = ok ]
	[ "$(answer 1 stdout)" = slept ]
	[ "$(answer 2 status)" = timeout ]
	wall=$(answer 2 record.wall_ms)
	[ "$wall" -ge 4000 ] && [ "$wall" -lt 30000 ]
	run -0 wait "$SERVER"
	SERVER=
	[ ! -e "$TC_TMP/s.sock" ]
	srv_gone 150 "${kids[@]}"
	[ -z "$(marked)" ]
}

@test "SIGKILL of the server: every runner, init, warm harness and tool of it dies (PDEATHSIG chain)" {
	policy '"limits": {"timeout": 300}'
	srv_start --pool 2
	sleeper
	exec_line 1 "$TC_TMP/sleeper.py" "{\"argv\": [\"$MARK\", \"250\"]}" >"$TC_TMP/l1"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/l1" >"$TC_TMP/out" &
	PIDS+=($!)
	until_marked
	for _ in $(seq 300); do [ "$(stats pools.0.ready)" = 2 ] && break; sleep 0.1; done
	mapfile -t kids < <(srv_descendants "$SERVER")
	# three entries (two warm, one busy) of a runner, an init and python
	# each, and the busy tool's sleeper
	echo "below the server: ${kids[*]}"
	[ "${#kids[@]}" -ge 10 ]
	kill -KILL "$SERVER"
	wait "$SERVER" || true
	SERVER=
	srv_gone 150 "${kids[@]}"
	[ -z "$(marked)" ]
	# the caller learns of it: the connection ends with no answer
	run -3 wait "${PIDS[0]}"
	PIDS=()
}
