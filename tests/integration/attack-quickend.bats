#!/usr/bin/env bats
# Attacks on a served call's quick end (HACKING.md, "A served call's quick
# end"), written as a hostile tool's author: the tool closes its stdout and
# stderr itself, or holds them elsewhere, and then runs on, forks, starts
# threads, allocates, exits later or from a thread, dies by a signal or by
# seccomp, execs, catches or blocks SIGURG, or races the runner. Each record
# must be what the kernel says happened (status, exit code or signal, CPU
# and peak never below what the tool burnt or touched), no process of the
# call may outlive its answer (looked for by the call's own host uid and by
# a mark in its children's command lines, never by a uid range other
# sandboxes share), and the call after it on the same server is clean.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() {
	srv_test_setup
	MARK="tc-qattack-$$-$BATS_TEST_NUMBER-$RANDOM"
	printf 'import sys\nprint("clean", len(sys.argv))\n' >"$TC_TMP/next.py"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	srv_test_teardown
}

# policy [LIMITS]: a policy with a 1M request limit, a 20 s timeout and
# LIMITS' keys ("memory": "128M")
policy() {
	printf '{"version": 1, "limits": {"timeout": 20, "request_size": "1M"%s}}\n' \
		"${1:+, $1}" >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
}

# req ID FILE: an exec request of FILE's text, MARK its argument
req() {
	"$PY" -I -c '
import json, sys
i, path, mark = sys.argv[1:4]
print(json.dumps({"id": int(i), "kind": "exec", "source": open(path).read(), "argv": [mark]}))' \
		"$1" "$2" "$MARK"
}

# attack FILE: FILE as call 1, then next.py as call 2 on the same
# connection; the answers in $TC_TMP/out
attack() {
	printf '%s\n' "$(req 1 "$1")" "$(req 2 "$TC_TMP/next.py")" |
		timeout 60 "$PY" -I "$CLIENT" "$SOCK" >"$TC_TMP/out"
}

# answer ID KEY.PATH: a value of the answer with that id in $TC_TMP/out
answer() {
	"$PY" -I -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["id"] == int(sys.argv[2]):
        print(line, end="")
        break
else:
    sys.exit(1)' "$TC_TMP/out" "$1" | jget "$2"
}

# cpu ID: the call's CPU in ms (user + system)
cpu() {
	echo $(($(answer "$1" record.cpu_user_ms) + $(answer "$1" record.cpu_system_ms)))
}

# ended ID STATUS EXIT_CODE SIGNAL: the call's record says exactly that
# (null for the one of exit code and signal that does not apply)
ended() {
	local got
	got="$(answer "$1" record.status) $(answer "$1" record.exit_code) $(answer "$1" record.signal)"
	[ "$got" = "$2 $3 $4" ] || {
		echo "call $1 ended '$got', not '$2 $3 $4'" >&2
		return 1
	}
}

# strays: the processes below our server, inside a sandbox, that no warm
# entry has (a warm entry is its init, pid 1 in its namespace, and the
# harness, pid 2): "PID NSPID" a line
strays() {
	local p
	for p in $(srv_descendants "$SERVER"); do
		awk -v p="$p" '/^NSpid:/ && NF > 2 && ($NF > 2 || NF > 3) { print p, $NF }' \
			"/proc/$p/status" 2>/dev/null
	done
}

# no_survivors: within 10 s of call 1's answer no process of it is left (as
# root its own host uid, no other sandbox's; for anyone MARK in a command
# line, and no process below our server in a sandbox beyond the warm
# entries' two), and call 2 ran clean in another sandbox
no_survivors() {
	local uid left
	uid=$(answer 1 record.isolation.uid_host)
	[ "$(answer 2 stdout)" = "clean 2" ]
	ended 2 ok 0 null
	# without a uid pool (not root) every sandbox runs as the caller
	[ "$uid" = "$(id -u)" ] || [ "$(answer 2 record.isolation.uid_host)" != "$uid" ]
	for _ in $(seq 100); do
		left="$(strays)$(pgrep -a -f "$MARK" || true)"
		[ "$uid" = "$(id -u)" ] || left+=$(pgrep -a -u "$uid" || true)
		[ -n "$left" ] || return 0
		sleep 0.1
	done
	echo "left behind: $left" >&2
	return 1
}

# CLOSE: the lines that close the tool's stdout and stderr as the harness
# does (its own close: no go awaited unless the tool asks)
CLOSE='import os, sys, time, signal
os.close(1)
os.close(2)
'

@test "quick end attack: closes its output, then burns 0.25 s of CPU and returns" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
t = time.process_time()
while time.process_time() - t < 0.25:
    pass
PY
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	[ "$(cpu 1)" -ge 250 ]
	[ "$(answer 1 record.wall_ms)" -ge 250 ]
	no_survivors
}

@test "quick end attack: closes its output, then exits 9 at once (os._exit), 7 later (sys.exit)" {
	srv_start
	printf '%sos._exit(9)\n' "$CLOSE" >"$TC_TMP/t.py"
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 9 null
	no_survivors
	printf '%stime.sleep(0.05)\nsys.exit(7)\n' "$CLOSE" >"$TC_TMP/t.py"
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 7 null
	[ "$(answer 1 record.wall_ms)" -ge 50 ]
	no_survivors
}

@test "quick end attack: closes its output, forks a child that burns 0.2 s and lives on" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
r, w = os.pipe()
if os.fork() == 0:
    t = time.process_time()
    while time.process_time() - t < 0.2:
        pass
    os.write(w, b"x")
    while True:
        pass
os.read(r, 1)
PY
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	# the child's 0.2 s, less at most two clock ticks: the tool, reaped by
	# the init before the child is counted and killed, counts in whole
	# ticks (its user and system time each cut), its base at dispatch exactly
	[ "$(cpu 1)" -ge 180 ]
	no_survivors
}

@test "quick end attack: closes its output, spawns a marked child that outlives it" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os, sys
burn = "import os, time\nt = time.process_time()\nwhile time.process_time() - t < 0.2:\n    pass\nos.write(9, b'x')\nwhile True:\n    pass\n"
r, w = os.pipe()
null = os.open("/dev/null", os.O_RDWR)
os.close(1)
os.close(2)
acts = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
        (os.POSIX_SPAWN_DUP2, null, 2), (os.POSIX_SPAWN_DUP2, w, 9)]
os.posix_spawn("/usr/bin/python3", ["python3", "-c", burn, sys.argv[1]], {}, file_actions=acts)
os.read(r, 1)
os._exit(4)
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 4 null
	# the child's 0.2 s, less at most two clock ticks (as above)
	[ "$(cpu 1)" -ge 180 ]
	no_survivors
}

@test "quick end attack: closes its output, a thread burns 0.25 s and is joined; a daemon thread still burns at the exit" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
import threading
def burn(s):
    t = time.thread_time()
    while time.thread_time() - t < s:
        pass
threading.Thread(target=burn, args=(0.25,)).start()
threading.Thread(target=burn, args=(100,), daemon=True).start()
PY
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	[ "$(cpu 1)" -ge 250 ]
	no_survivors
}

@test "quick end attack: a thread that burnt 0.25 s and ended before the exit has all of it counted, five calls in a row" {
	srv_start
	# the kernel keeps an ended thread's CPU for its process in whole clock
	# ticks only, each of user and system cut: counted from them, a call
	# came out 11 to 15 ms short (235, 239 ms) in one of eight to one of five
	cat >"$TC_TMP/t.py" <<'PY'
import threading, time
def burn():
    t = time.thread_time()
    while time.thread_time() - t < 0.25:
        pass
th = threading.Thread(target=burn)
th.start()
th.join()
PY
	for _ in 1 2 3 4 5; do
		attack "$TC_TMP/t.py"
		ended 1 ok 0 null
		echo "cpu $(cpu 1)" >&3
		[ "$(cpu 1)" -ge 250 ]
		no_survivors
	done
}

@test "quick end attack: closes its output, then allocates 48 MiB (with and without waiting for the go): the peak has them" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/small.py"
	attack "$TC_TMP/small.py"
	ended 1 ok 0 null
	small=$(answer 1 record.memory_peak_bytes)
	for go in 0 1; do
		printf '%s' "$CLOSE" >"$TC_TMP/t.py"
		[ "$go" = 0 ] || cat >>"$TC_TMP/t.py" <<'PY'
signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGURG,))
signal.sigtimedwait((signal.SIGURG,), 5)
PY
		printf 'b = b"\\1" * (48 << 20)\nos._exit(3)\n' >>"$TC_TMP/t.py"
		attack "$TC_TMP/t.py"
		ended 1 exit_nonzero 3 null
		big=$(answer 1 record.memory_peak_bytes)
		echo "go $go: peaks $small, $big" >&3
		[ $((big - small)) -ge $((47 << 20)) ]
		no_survivors
	done
}

@test "quick end attack: a child that peaks at 56 MiB and is reaped before the tool closes its output: the peak has it" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os
# a file in the sandbox's /tmp, mapped by the child: its resident set grows
# by 56 MiB within a few ms and falls at its exit, between two of the
# runner's samples; the kernel keeps the child's peak for its parent
with open("/tmp/big", "wb") as f:
    for _ in range(56):
        f.write(b"\1" * (1 << 20))
code = """import mmap, os
fd = os.open("/tmp/big", os.O_RDONLY)
m = mmap.mmap(fd, 0, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
for i in range(0, len(m), 65536):
    m[i]
os._exit(0)
"""
pid = os.posix_spawn("/usr/bin/python3", ["python3", "-c", code], {})
_, status, ru = os.wait4(pid, 0)
print(status, ru.ru_maxrss)
PY
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	read -r st kib <<<"$(answer 1 stdout)"
	[ "$st" = 0 ]
	[ "$kib" -ge $((56 << 10)) ]
	peak=$(answer 1 record.memory_peak_bytes)
	echo "child's peak $((kib << 10)), the record's $peak" >&3
	[ "$peak" -ge $((kib << 10)) ]
	no_survivors
}

@test "quick end attack: a grandchild that peaks at 56 MiB as the init's orphan and is reaped by it: the peak has it" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os, signal, time
# SIGCHLD ignored: the middle child is reaped by the kernel, nothing of it
# kept for the tool; the grandchild, the init's orphan, is the init's to
# reap, and its peak is in the init's rusage alone
with open("/tmp/big", "wb") as f:
    for _ in range(56):
        f.write(b"\1" * (1 << 20))
code = """import mmap, os, resource
fd = os.open("/tmp/big", os.O_RDONLY)
m = mmap.mmap(fd, 0, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
for i in range(0, len(m), 65536):
    m[i]
os.write(9, b"%d" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
os._exit(0)
"""
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
r, w = os.pipe()
# posix_spawn (vfork): no page of the tool's left copy-on-write, whose
# first write would void the quick end before its check of other processes
middle = "import os, sys\nos.posix_spawn('/usr/bin/python3', ['python3', '-c', sys.argv[1]], {})\n"
os.posix_spawn("/usr/bin/python3", ["python3", "-c", middle, code], {},
               file_actions=[(os.POSIX_SPAWN_DUP2, w, 9)])
os.close(w)
kib = os.read(r, 32)
os.read(r, 1)  # its EOF: the grandchild's exit
time.sleep(0.2)  # the init reaps it
print(kib.decode())
PY
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	kib=$(answer 1 stdout)
	[ "$kib" -ge $((56 << 10)) ]
	peak=$(answer 1 record.memory_peak_bytes)
	echo "grandchild's peak $((kib << 10)), the record's $peak" >&3
	[ "$peak" -ge $((kib << 10)) ]
	no_survivors
}

@test "quick end attack: closes its output, then is ended by its memory limit (MemoryError), by seccomp (chroot), by its own SIGTERM" {
	policy '"memory": "128M"'
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
keep = []
while True:
    keep.append(b"\1" * (8 << 20))
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 1 null
	# its stderr is closed: no MemoryError line to name the limit by, but
	# the pages it touched are in the peak
	[ "$(answer 1 record.memory_peak_bytes)" -ge $((64 << 20)) ]
	no_survivors
	printf '%sos.chroot("/tmp")\n' "$CLOSE" >"$TC_TMP/t.py"
	attack "$TC_TMP/t.py"
	ended 1 syscall_denied null 31
	[ "$(answer 1 record.denied_syscall.name)" = chroot ]
	no_survivors
	printf '%sos.kill(os.getpid(), signal.SIGTERM)\ntime.sleep(5)\n' "$CLOSE" >"$TC_TMP/t.py"
	attack "$TC_TMP/t.py"
	ended 1 signaled null 15
	no_survivors
}

@test "quick end attack: closes its output, then execs another program that burns 0.2 s and exits 4" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
burn = "import os, time\nt = time.process_time()\nwhile time.process_time() - t < 0.2:\n    pass\nos._exit(4)\n"
os.execv("/usr/bin/python3", ["python3", "-c", burn, sys.argv[1]])
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 4 null
	[ "$(cpu 1)" -ge 200 ]
	no_survivors
}

@test "quick end attack: closes its output, a thread calls os._exit(6) while the main thread burns" {
	srv_start
	for delay in 0 0.05; do
		printf '%s' "$CLOSE" >"$TC_TMP/t.py"
		cat >>"$TC_TMP/t.py" <<PY
import threading
def end():
    time.sleep($delay)
    os._exit(6)
threading.Thread(target=end).start()
while True:
    pass
PY
		attack "$TC_TMP/t.py"
		ended 1 exit_nonzero 6 null
		no_survivors
	done
}

@test "quick end attack: a SIGURG handler of the tool's own sees the go and picks the exit code" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os, signal, time
signal.signal(signal.SIGURG, lambda *a: os._exit(11))
os.close(1)
os.close(2)
t = time.monotonic()
while time.monotonic() - t < 5:
    pass
os._exit(12)
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 11 null
	no_survivors
}

@test "quick end attack: SIGURG blocked, or sent by the tool to itself, changes nothing of the record" {
	srv_start
	printf '%s' "$CLOSE" >"$TC_TMP/t.py"
	cat >>"$TC_TMP/t.py" <<'PY'
signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGURG,))
os.kill(os.getpid(), signal.SIGURG)
t = time.process_time()
while time.process_time() - t < 0.2:
    pass
os._exit(13)
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 13 null
	[ "$(cpu 1)" -ge 200 ]
	no_survivors
	printf 'import os, signal\nos.kill(os.getpid(), signal.SIGURG)\nprint("still here")\n' \
		>"$TC_TMP/t.py"
	attack "$TC_TMP/t.py"
	ended 1 ok 0 null
	[ "$(answer 1 stdout)" = "still here" ]
	no_survivors
}

@test "quick end attack: stdout and stderr dup()ed before the harness closes them: what comes after still arrives" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import atexit, os, threading, time
out, err = os.dup(1), os.dup(2)
def late():
    time.sleep(0.2)
    os.write(out, b"late out\n")
    os.write(err, b"late err\n")
threading.Thread(target=late).start()
print("early", flush=True)
raise SystemExit(3)
PY
	attack "$TC_TMP/t.py"
	ended 1 exit_nonzero 3 null
	[ "$(answer 1 stdout)" = "$(printf 'early\nlate out')" ]
	[ "$(answer 1 stderr)" = "late err" ]
	[ "$(answer 1 record.wall_ms)" -ge 200 ]
	no_survivors
}

@test "quick end attack: a child holds the output past the tool's exit; a grandchild reparented to the init writes last" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os, sys, time
if os.fork() == 0:
    if os.fork() == 0:
        time.sleep(0.3)  # the init's child by now
        os.write(1, b"grandchild\n")
        os._exit(0)
    os._exit(0)
os.wait()
child = "import os, time\ntime.sleep(0.1)\nos.write(1, b'child\\n')\n"
os.posix_spawn("/usr/bin/python3", ["python3", "-c", child, sys.argv[1]], {})
print("tool", flush=True)
os._exit(5)
PY
	attack "$TC_TMP/t.py"
	# the tool's exit ends the call; what its processes wrote before the
	# end was counted, and none of them outlives the answer
	ended 1 exit_nonzero 5 null
	[ "$(answer 1 stdout | head -1)" = tool ]
	no_survivors
}

@test "quick end attack: 50 calls in a row, each exact (exit codes, signals, own closes) with nothing left" {
	srv_start
	cat >"$TC_TMP/t.py" <<'PY'
import os, signal, sys
n = int(sys.argv[2])
kind = n % 5
if kind == 0:
    print(n)
elif kind == 1:
    os.close(1)
    os.close(2)
    os._exit(n)
elif kind == 2:
    sys.exit(n)
elif kind == 3:
    os.close(1)
    os.close(2)
    os.kill(os.getpid(), signal.SIGKILL)
else:
    print(n, flush=True)
    os.kill(os.getpid(), signal.SIGTERM)
PY
	"$PY" -I -c '
import json, sys
src = open(sys.argv[1]).read()
for i in range(50):
    print(json.dumps({"id": i, "kind": "exec", "source": src, "argv": [sys.argv[2], str(i)]}))
' "$TC_TMP/t.py" "$MARK" | timeout 120 "$PY" -I "$CLIENT" "$SOCK" >"$TC_TMP/out"
	"$PY" -I -c '
import json, sys
want = {0: ("ok", 0, None), 1: ("exit_nonzero", None, None), 2: ("exit_nonzero", None, None),
        3: ("signaled", None, 9), 4: ("signaled", None, 15)}
seen, bad = set(), []
for line in open(sys.argv[1]):
    d = json.loads(line)
    i, r = d["id"], d["record"]
    st, code, sig = want[i % 5]
    if code is None and sig is None:
        code = i
    got = (r["status"], r["exit_code"], r["signal"])
    if got != (st, code, sig):
        bad.append(f"call {i}: {got}, not {(st, code, sig)}")
    seen.add(i)
    print(r["isolation"]["uid_host"])
if bad or seen != set(range(50)):
    sys.exit("\n".join(bad) or f"answers: {sorted(seen)}")
' "$TC_TMP/out" >"$TC_TMP/uids"
	# as root each call had a host uid of its own; without a uid pool all
	# are the caller's
	own=$(id -u)
	[ "$(sort -u "$TC_TMP/uids" | wc -l)" = 50 ] || [ "$(sort -u "$TC_TMP/uids")" = "$own" ]
	for _ in $(seq 100); do
		left="$(strays)$(pgrep -a -f "$MARK" || true)"
		while read -r uid; do
			[ "$uid" = "$own" ] || left+=$(pgrep -a -u "$uid" || true)
		done <"$TC_TMP/uids"
		[ -n "$left" ] || break
		sleep 0.1
	done
	[ -z "$left" ]
}
