#!/usr/bin/env bats
# toolcell session --server: a session started from a warm entry of a
# running `toolcell serve`. To its caller it is `toolcell session`: the same
# answers byte for byte (imports, errors, timeouts, caps, a refused import,
# a sandbox that ends), the same exit statuses and errors; each session has
# an entry of its own, used once; a caller that goes away takes its
# sandbox with it; who may connect is the server's policy's.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() {
	srv_test_setup
	MARK="tc-sess-$$-$BATS_TEST_NUMBER-$RANDOM"
	PIDS=()
}

teardown() {
	tc_kill_pids
	srv_test_teardown
}

@test "the same requests through --server give the cold session's answers byte for byte: imports, errors, a timeout, caps, a sandbox that ends" {
	srv_session_policy
	srv_start --pool 2
	# 30K answers (a harness caps stdout at a quarter of stdout_size, not
	# globals): three of them are past the entry's 64K stdout cap
	cat >"$TC_TMP/in" <<'EOF'
{"id": 1, "code": "x = 41\nprint('hello', x + 1)"}
{"id": "two", "code": "print(x)", "return_globals": ["x", "nope"]}
{"id": 3, "code": "import json\nprint(json.dumps({'a': [1, 2]}))"}
{"id": 4, "code": "import time"}
{"id": 5, "code": "print(m.pi, m.e)"}
{"id": 6, "code": "raise ValueError('boom')"}
{"id": 7, "code": "g = 'o' * 30000", "return_globals": ["g"]}
{"id": 8, "code": "g = 'p' * 30000", "return_globals": ["g"]}
{"id": 9, "code": "g = 'q' * 30000", "return_globals": ["g"]}
{"id": 10, "code": "while True: pass", "timeout_s": 0.5}
{"id": 11, "code": "print(x)"}
{"id": 12, "code": "y = 'z' * 70000", "return_globals": ["y"]}
{"id": 13, "code": "print(quit, exit)"}
{"id": 14, "code": "import sys"}
{"id": 15, "code": "open('f.txt', 'w').write('hi'); print(open('f.txt').read())", "output_files": ["f.txt"], "input_files": {"in.bin": "AAEC"}}
{"id": 16, "code": "print(open('in.bin', 'rb').read())"}
{"id": 17, "code": "syntax error here"}
{"id": 18, "timeout_s": 0}
{"id": 19, "code": "1", "timeout_s": 900}
{"id": 20, "op": "reset"}
{"id": 21, "code": "import os\nos._exit(3)"}
{"id": 22, "code": "print('after')"}
{"id": 23, "op": "shutdown"}
{"id": 24, "code": "print('never')"}
EOF
	srv_session cold --policy "$TC_TMP/p.json" --allow-import os --default-import m=math
	srv_session warm --server "$TC_TMP/s.sock" --allow-import os --default-import m=math
	diff "$TC_TMP/cold" "$TC_TMP/warm"
	diff "$TC_TMP/cold.err" "$TC_TMP/warm.err"
	[ "$(cat "$TC_TMP/cold.rc")" = 0 ]
	[ "$(cat "$TC_TMP/warm.rc")" = 0 ]
	# what the answers say, so that the two cannot agree on nothing
	[ "$(wc -l <"$TC_TMP/warm")" = 23 ]
	run -0 jget stdout < <(sed -n 1p "$TC_TMP/warm")
	[ "$output" = "hello 42" ]
	run -0 jget globals < <(sed -n 2p "$TC_TMP/warm")
	[ "$output" = '{"x": 41}' ]
	run -0 jget exception.message < <(sed -n 4p "$TC_TMP/warm")
	[ "$output" = "Import of 'time' is not allowed. Allowed imports: ['json', 'os']" ]
	run -0 jget stdout < <(sed -n 5p "$TC_TMP/warm")
	[ "$output" = "3.141592653589793 2.718281828459045" ]
	for n in 7 8 9; do
		run -0 jget success < <(sed -n ${n}p "$TC_TMP/warm")
		[ "$output" = true ]
	done
	run -0 jget exception.type < <(sed -n 10p "$TC_TMP/warm")
	[ "$output" = Timeout ]
	run -0 jget state_lost < <(sed -n 11p "$TC_TMP/warm")
	[ "$output" = true ]
	run -0 jget exception < <(sed -n 12p "$TC_TMP/warm")
	[ "$output" = '{"message": "the answer was larger than the stdout limit; the session'"'"'s sandbox was ended", "traceback": null, "type": "OutputLimit"}' ]
	run -0 jget exception.type < <(sed -n 13p "$TC_TMP/warm")
	[ "$output" = NameError ]
	run -0 jget output_files < <(sed -n 15p "$TC_TMP/warm")
	[ "$output" = '{"f.txt": "aGk="}' ]
	run -0 jget exception.type < <(sed -n 18p "$TC_TMP/warm")
	[ "$output" = BadRequest ]
	run -0 jget timeout_clamped_to < <(sed -n 19p "$TC_TMP/warm")
	[ "$output" = 5.0 ]
	run -0 jget exception < <(sed -n 21p "$TC_TMP/warm")
	[ "$output" = '{"message": "the session'"'"'s sandbox ended (exit_nonzero) while the request ran; the next request starts a fresh one", "traceback": null, "type": "SandboxExited"}' ]
	run -0 jget stdout < <(sed -n 22p "$TC_TMP/warm")
	[ "$output" = after ]
	# every sandbox of the session was an entry of the server's
	[ "$(srv_stat sessions.started)" -ge 4 ]
}

@test "--server's own limits lower the server's, as a cold session's lower the policy's; options a server sets are refused" {
	srv_session_policy
	srv_start --pool 1
	printf '%s\n' '{"id": 1, "code": "while True: pass", "timeout_s": 3}' \
		'{"id": 2, "code": "print(1)", "timeout_s": 9}' >"$TC_TMP/in"
	srv_session cold --policy "$TC_TMP/p.json" --timeout 1
	srv_session warm --server "$TC_TMP/s.sock" --timeout 1
	diff "$TC_TMP/cold" "$TC_TMP/warm"
	run -0 jget exception.message < <(sed -n 1p "$TC_TMP/warm")
	[[ "$output" == *"its time limit of 1.000 s"* ]]
	run -0 jget timeout_clamped_to < <(sed -n 2p "$TC_TMP/warm")
	[ "$output" = 1.0 ]
	# the server's policy is its own: the command line cannot name another
	run -125 --separate-stderr "$TOOLCELL" session --server "$TC_TMP/s.sock" --policy "$TC_TMP/p.json" </dev/null
	[ "$stderr" = "toolcell: --policy cannot be used with --server: the server's policy sets it (a session may only set its own limits: --timeout, --memory, --cpu-time, --file-size, --open-files, --stdout-size, --stderr-size; and its imports)" ]
	[ -z "$output" ]
	# an import beyond the server's session.max_imports: refused as cold
	srv_session cold --policy "$TC_TMP/p.json" --allow-import subprocess
	srv_session warm --server "$TC_TMP/s.sock" --allow-import subprocess
	[ "$(cat "$TC_TMP/cold.rc")" = 125 ]
	[ "$(cat "$TC_TMP/warm.rc")" = 125 ]
	grep -qF -- "--allow-import subprocess: the policy's session.max_imports does not include subprocess" "$TC_TMP/cold.err"
	grep -qF -- "--allow-import subprocess: the policy's session.max_imports does not include subprocess" "$TC_TMP/warm.err"
}

@test "single use: a second session, started while the first runs, sees none of its globals, /tmp, /dev/shm or processes" {
	srv_session_policy
	srv_start --pool 1
	mkfifo "$TC_TMP/fifo"
	"$TOOLCELL" session --server "$TC_TMP/s.sock" --allow-import os <"$TC_TMP/fifo" >"$TC_TMP/first" 2>&1 &
	PIDS+=($!)
	exec 7>"$TC_TMP/fifo"
	printf '%s\n' "{\"id\": 1, \"code\": \"import os\\nsecret = 'kept'\\nopen('/tmp/marker', 'w').write('1')\\nopen('/dev/shm/marker', 'w').write('1')\\nif os.fork() == 0:\\n    os.execv('/usr/bin/python3', ['python3', '-c', 'import time; time.sleep(300)', '$MARK'])\\nprint(os.getpid())\"}" >&7
	for _ in $(seq 300); do [ -s "$TC_TMP/first" ] && break; sleep 0.1; done
	run -0 jget success <"$TC_TMP/first"
	[ "$output" = true ]
	[ -n "$(srv_marked)" ]
	# the first session still runs (its entry busy): the second gets its own
	printf '%s\n' '{"id": 1, "code": "print(secret)"}' \
		'{"id": 2, "code": "import os\nprint(os.path.exists(\"/tmp/marker\"), os.path.exists(\"/dev/shm/marker\"), [p for p in os.listdir(\"/proc\") if p.isdigit()] == [str(os.getpid())])"}' \
		>"$TC_TMP/in"
	srv_session second --server "$TC_TMP/s.sock" --allow-import os
	[ "$(cat "$TC_TMP/second.rc")" = 0 ]
	run -0 jget exception.message < <(sed -n 1p "$TC_TMP/second")
	[ "$output" = "name 'secret' is not defined" ]
	run -0 jget stdout < <(sed -n 2p "$TC_TMP/second")
	[ "$output" = "False False True" ]
	[ "$(srv_stat sessions.started)" = 2 ]
	[ "$(srv_stat sessions.running)" = 1 ]
	# the first session's end (EOF) ends its sandbox, the srv_marked child too
	exec 7>&-
	wait "${PIDS[0]}"
	PIDS=()
	for _ in $(seq 300); do [ -z "$(srv_marked)" ] && break; sleep 0.1; done
	[ -z "$(srv_marked)" ]
	[ "$(srv_stat sessions.running)" = 0 ]
	[ "$(srv_stat sessions.ended)" = 2 ]
	# sessions are not calls
	[ "$(srv_stat calls.ok)" = 0 ]
}

@test "a caller that disconnects mid-session has its sandbox killed: nothing of it is left" {
	TIMEOUT=300 srv_session_policy
	srv_start --pool 1
	mkfifo "$TC_TMP/fifo"
	"$TOOLCELL" session --server "$TC_TMP/s.sock" --allow-import os --allow-import time \
		<"$TC_TMP/fifo" >"$TC_TMP/out" 2>&1 &
	PIDS+=($!)
	exec 7>"$TC_TMP/fifo"
	# a child in a session of its own, deaf to SIGHUP and SIGTERM, and a
	# request that is still running when the caller goes
	printf '%s\n' "{\"id\": 1, \"code\": \"import os\\nif os.fork() == 0:\\n    os.setsid()\\n    os.execv('/usr/bin/python3', ['python3', '-c', 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)', '$MARK'])\"}" \
		"{\"id\": 2, \"code\": \"import time\\ntime.sleep(250)\\n# $MARK-request\"}" >&7
	for _ in $(seq 300); do [ -n "$(srv_marked)" ] && [ "$(srv_stat sessions.running)" = 1 ] && break; sleep 0.1; done
	mapfile -t child < <(srv_marked)
	[ "${#child[@]}" -ge 1 ]
	[ "$(srv_stat sessions.running)" = 1 ]
	kill -KILL "${PIDS[0]}"
	wait "${PIDS[0]}" || true
	PIDS=()
	exec 7>&-
	for _ in $(seq 300); do [ -z "$(srv_marked)" ] && break; sleep 0.1; done
	[ -z "$(srv_marked)" ]
	for _ in $(seq 300); do [ "$(srv_stat sessions.running)" = 0 ] && break; sleep 0.1; done
	[ "$(srv_stat sessions.running)" = 0 ]
	[ "$(srv_stat calls.abandoned)" = 1 ]
	[ "$(srv_stat pools.0.busy)" = 0 ]
}

@test "a uid the policy does not allow is refused: session --server exits 125 with the server's words" {
	local want="toolcell: the server at $TC_TMP/s.sock refused the session: this uid may not use the server (the policy's serve.allow_uids and serve.allow_gids)"
	echo '{"id": 1, "code": "print(1)"}' >"$TC_TMP/in"
	chmod 644 "$TC_TMP/in"
	if [ "$(id -u)" = 0 ]; then
		# root listed, nobody not
		srv_session_policy '"serve": {"allow_uids": [0], "allow_gids": [0]}'
		srv_start --pool 1
		chmod 666 "$TC_TMP/s.sock"
		# the client alone, where nobody can run it (it reads nothing of the build's)
		cp "$TOOLCELL" "$TC_TMP/toolcell"
		chmod 755 "$TC_TMP/toolcell"
		run -125 --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$TC_TMP/toolcell" session --server "$TC_TMP/s.sock" <"$TC_TMP/in"
	else
		# with a list, the server's own uid is refused unless listed
		srv_session_policy '"serve": {"allow_uids": [4242], "allow_gids": [4242]}'
		"$TOOLCELL" serve --socket "$TC_TMP/s.sock" --policy "$TC_TMP/p.json" --pool 1 \
			2>"$TC_TMP/serve.err" 3>&- &
		SERVER=$!
		for _ in $(seq 300); do [ -S "$TC_TMP/s.sock" ] && break; sleep 0.1; done
		run -125 --separate-stderr "$TOOLCELL" session --server "$TC_TMP/s.sock" <"$TC_TMP/in"
	fi
	[ "$stderr" = "$want" ]
	[ -z "$output" ]
}

@test "no server at the socket: a clear error naming the socket and the fix, exit 125" {
	run -125 --separate-stderr "$TOOLCELL" session --server "$TC_TMP/none.sock" </dev/null
	[ "$stderr" = "toolcell: cannot connect to the server at $TC_TMP/none.sock: No such file or directory (is 'toolcell serve' running? start it with 'toolcell serve --socket $TC_TMP/none.sock', or leave out --server for a session of its own)" ]
	[ -z "$output" ]
	# SOCKET left out: the default socket, named the same way
	if [ "$(id -u)" != 0 ]; then
		XDG_RUNTIME_DIR=$TC_TMP run -125 --separate-stderr "$TOOLCELL" session --server </dev/null
		[ "$stderr" = "toolcell: cannot connect to the server at $TC_TMP/toolcell.sock: No such file or directory (is 'toolcell serve' running? start it with 'toolcell serve --socket $TC_TMP/toolcell.sock', or leave out --server for a session of its own)" ]
	fi
	# a relative path is no socket
	run -125 --separate-stderr "$TOOLCELL" session --server s.sock </dev/null
	[ "$stderr" = "toolcell: session: unexpected argument 's.sock' (see 'toolcell session --help')" ] ||
		[[ "$stderr" == *"s.sock"* ]]
}

@test "SIGTERM while a session's request runs: the request finishes and is answered, the session then ends, the server exits 0" {
	srv_session_policy
	srv_start --pool 1
	mkfifo "$TC_TMP/fifo"
	"$TOOLCELL" session --server "$TC_TMP/s.sock" --allow-import time <"$TC_TMP/fifo" >"$TC_TMP/out" 2>"$TC_TMP/err" &
	PIDS+=($!)
	exec 7>"$TC_TMP/fifo"
	printf '%s\n' '{"id": 1, "code": "import time\ntime.sleep(2)\nprint(\"done\")"}' >&7
	for _ in $(seq 300); do [ "$(srv_stat sessions.running)" = 1 ] && break; sleep 0.1; done
	sleep 0.3
	kill -TERM "$SERVER"
	for _ in $(seq 300); do [ -s "$TC_TMP/out" ] && break; sleep 0.1; done
	run -0 jget stdout < <(sed -n 1p "$TC_TMP/out")
	[ "$output" = done ]
	local rc=0
	wait "$SERVER" || rc=$?
	SERVER=
	cat "$TC_TMP/serve.err"
	[ "$rc" = 0 ]
	printf '%s\n' '{"id": 2, "code": "print(2)"}' >&7
	exec 7>&-
	wait "${PIDS[0]}"
	PIDS=()
	run -0 jget exception.type < <(sed -n 2p "$TC_TMP/out")
	[ "$output" = SandboxExited ]
}

@test "the Python client: Client(socket).session() and Session(server=...) keep globals in a served session" {
	srv_session_policy
	srv_start --pool 1
	run -0 env PYTHONPATH="$(tc_python_dir)" TOOLCELL="$TOOLCELL" "$PY" -I -c '
import os, sys
sys.path.insert(0, os.environ["PYTHONPATH"])
import toolcell_client
with toolcell_client.Client(sys.argv[1]) as c:
    with c.session(toolcell=os.environ["TOOLCELL"], allowed_imports=["os"]) as s:
        a = s.execute("x = 41")
        b = s.execute("print(x + 1)", return_globals=["x"])
        d = s.execute("import time")
    n = c.stats()["sessions"]["started"]
with toolcell_client.Session(toolcell=os.environ["TOOLCELL"], server=sys.argv[1]) as s:
    e = s.execute("print(x)")
print(a.success, b.stdout.strip(), b.globals, d.exception["type"], n)
print(e.exception["type"])
' "$TC_TMP/s.sock"
	[ "${lines[0]}" = "True 42 {'x': 41} ImportError 1" ]
	[ "${lines[1]}" = NameError ]
}

@test "the session request on the wire: its answer carries the id byte for byte, then out chunks, and end after the caller's half-close, then EOF" {
	srv_session_policy
	srv_start --pool 1
	run -0 timeout 60 "$PY" -I -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
rid = "x" * 700 + "\u00e9"
s.sendall(json.dumps({"id": rid, "kind": "session"}).encode() + b"\n")
f = s.makefile("rb")
a = json.loads(f.readline())
print(a["id"] == rid, a["ok"], a["session"])
s.sendall(json.dumps({"nonce": 7, "request": {"code": "print(6 * 7)"}}).encode() + b"\n")
def chunk():
    head = f.read(14)
    return head[:3].decode(), f.read(int(head[4:13]))
tag, body = chunk()
print(tag, json.loads(body)["stdout"].strip(), json.loads(body)["nonce"])
s.shutdown(socket.SHUT_WR)
print(*chunk())
s.settimeout(20)
print(repr(f.read()))  # EOF: the server closes the connection after the end chunk
' "$TC_TMP/s.sock"
	[ "${lines[0]}" = "True True {'timeout_s': 5.0, 'stdout_size': 65536, 'request_size': 1048576}" ]
	[ "${lines[1]}" = "out 42 7" ]
	[ "${lines[2]}" = 'end b'"'"'{"status":"ok","message":""}'"'" ]
	[ "${lines[3]}" = "b''" ]
	[ "${#lines[@]}" = 4 ]
}

@test "SIGKILL of the server while a request runs: answered SandboxExited naming the socket, the next request SandboxError, then session --server says why as when no server is there and exits 125" {
	srv_session_policy
	srv_start --pool 1
	mkfifo "$TC_TMP/fifo"
	"$TOOLCELL" session --server "$TC_TMP/s.sock" --allow-import time <"$TC_TMP/fifo" >"$TC_TMP/out.raw" 2>"$TC_TMP/out.err" &
	PIDS+=($!)
	exec 7>"$TC_TMP/fifo"
	printf '%s\n' '{"id": 1, "code": "x = 1\nprint(x)"}' '{"id": 2, "code": "import time\ntime.sleep(60)"}' >&7
	for _ in $(seq 300); do [ -s "$TC_TMP/out.raw" ] && break; sleep 0.1; done
	# request 2 runs (its sleep is the harness's) when the server dies
	sleep 0.5
	kill -KILL "$SERVER"
	wait "$SERVER" || true
	SERVER=
	for _ in $(seq 300); do [ "$(wc -l <"$TC_TMP/out.raw")" -ge 2 ] && break; sleep 0.1; done
	# one write (cat's; the shell's printf writes a line at a time), so that
	# both are in the pipe before the session ends: a second write would
	# meet EPIPE
	printf '%s\n' '{"id": 3, "code": "print(x)"}' '{"id": 4, "code": "print(4)"}' >"$TC_TMP/more"
	cat "$TC_TMP/more" >&7
	exec 7>&-
	local rc=0
	wait "${PIDS[0]}" || rc=$?
	PIDS=()
	[ "$rc" = 125 ]
	sed -E 's/"duration_s":[0-9]+\.[0-9]{3}/"duration_s":0/' "$TC_TMP/out.raw" >"$TC_TMP/out"
	local refused="cannot connect to the server at $TC_TMP/s.sock: Connection refused (is 'toolcell serve' running? start it with 'toolcell serve --socket $TC_TMP/s.sock', or leave out --server for a session of its own)"
	cat >"$TC_TMP/want" <<WANT
{"id":1,"success":true,"stdout":"1\n","stderr":"","globals":{},"exception":null,"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}
{"id":2,"success":false,"stdout":"","stderr":"","globals":{},"exception":{"type":"SandboxExited","message":"the session's sandbox ended (unknown: the server at $TC_TMP/s.sock closed the session's stream without its end) while the request ran; the next request starts a fresh one","traceback":null},"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}
{"id":3,"success":false,"stdout":"","stderr":"","globals":{},"exception":{"type":"SandboxError","message":"the server gave the session no fresh sandbox ($refused); the session ends","traceback":null},"output_files":{},"timed_out":false,"duration_s":0,"state_lost":true}
WANT
	diff "$TC_TMP/want" "$TC_TMP/out"
	# toolcell's words are those of a session --server that finds no server
	# at its start, byte for byte; request 4 is never read
	[ "$(cat "$TC_TMP/out.err")" = "toolcell: $refused" ]
	run -125 --separate-stderr "$TOOLCELL" session --server "$TC_TMP/s.sock" </dev/null
	[ "$stderr" = "toolcell: $refused" ]
	[ -z "$output" ]
}

# sess_open SOCK ID...: one connection a session request each, held open;
# prints each answer line, then waits for "close N" or "end N" lines on
# stdin (close N: connection N closed; end N: half-closed, its end chunk
# printed) and a last "open ID" asks once more on a new connection
sess_open() {
	"$PY" -I -c '
import json, socket, sys
conns = []
def ask(rid):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(json.dumps({"id": rid, "kind": "session"}).encode() + b"\n")
    f = s.makefile("rb")
    a = json.loads(f.readline())
    print(a["id"], "ok" if a["ok"] else a["error"]["type"] + ": " + a["error"]["message"],
          flush=True)
    conns.append((s, f))
for rid in sys.argv[2:]:
    ask(int(rid))
for line in sys.stdin:
    verb, n = line.split()
    if verb == "close":
        conns[int(n)][0].close()
    elif verb == "open":
        ask(int(n))
' "$@"
}

@test "sessions are bounded: serve.sessions_per_uid for one caller uid, --max-sessions for all; one more is answered Busy naming the bound, and toolcell session --server exits 125 with it; a session that ends frees its place" {
	local uid
	uid=$(id -u)
	srv_session_policy '"serve": {"sessions_per_uid": 2}'
	srv_start --pool 1 --max-sandboxes 6
	# the third of one uid's sessions: its bound, not the server's (3 of 6)
	run -0 sess_open "$TC_TMP/s.sock" 1 2 3 </dev/null
	[ "${lines[0]}" = "1 ok" ]
	[ "${lines[1]}" = "2 ok" ]
	[ "${lines[2]}" = "3 Busy: uid $uid has 2 sessions open, the most the policy's serve.sessions_per_uid (2) allows: end one, or ask again later" ]
	[ "${#lines[@]}" = 3 ]
	kill -TERM "$SERVER"
	wait "$SERVER" || true
	rm -f "$SOCK"
	# the server's bound: sessions_per_uid (default 4) leaves it to --max-sessions
	srv_session_policy
	srv_start --pool 1 --max-sandboxes 6 --max-sessions 1
	echo '{"id": 1, "code": "print(6 * 7)"}' >"$TC_TMP/in"
	chmod 644 "$TC_TMP/in"
	# the first caller holds its session while the CLI asks for another
	mkfifo "$TC_TMP/ctl"
	sess_open "$TC_TMP/s.sock" 1 <"$TC_TMP/ctl" >"$TC_TMP/held" &
	PIDS+=($!)
	exec 7>"$TC_TMP/ctl"
	for _ in $(seq 300); do [ -s "$TC_TMP/held" ] && break; sleep 0.1; done
	[ "$(cat "$TC_TMP/held")" = "1 ok" ]
	run -125 --separate-stderr "$TOOLCELL" session --server "$TC_TMP/s.sock" <"$TC_TMP/in"
	[ "$stderr" = "toolcell: the server at $TC_TMP/s.sock refused the session: the server has 1 session open, the most its --max-sessions allows; try again later" ]
	[ -z "$output" ]
	# it closes: its place is free once the server saw it go
	echo "close 0" >&7
	exec 7>&-
	for _ in $(seq 100); do
		srv_session out1
		[ "$(cat "$TC_TMP/out1.rc")" = 0 ] && break
		sleep 0.1
	done
	[ "$(cat "$TC_TMP/out1")" = '{"id":1,"success":true,"stdout":"42\n","stderr":"","globals":{},"exception":null,"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}' ]
	# none at all
	kill -TERM "$SERVER"
	wait "$SERVER" || true
	rm -f "$SOCK"
	srv_session_policy '"serve": {"sessions_per_uid": 0}'
	srv_start --pool 1
	run -0 sess_open "$TC_TMP/s.sock" 1 </dev/null
	[ "$output" = "1 Busy: the policy's serve.sessions_per_uid is 0: this server runs no sessions" ]
}

@test "the harness's own stderr (fd 2) is capped at --stderr-size for each sandbox of a session, cold and served alike: past it the sandbox is ended as output_limit" {
	srv_session_policy
	srv_start --pool 1
	# 1: past the cap mid-request (ended under it); 2: a fresh sandbox;
	# 3: exactly the cap (it goes on); 4: its state is there
	cat >"$TC_TMP/in" <<'EOF'
{"id": 1, "code": "import os, time\nos.write(2, b'e' * 5000)\ntime.sleep(3)\nprint('never')"}
{"id": 2, "code": "print('fresh')"}
{"id": 3, "code": "import os\nos.write(2, b'f' * 4096)\ny = 7"}
{"id": 4, "code": "print(y)"}
EOF
	local over='{"id":1,"success":false,"stdout":"","stderr":"","globals":{},"exception":{"type":"OutputLimit","message":"the session'"'"'s sandbox ended (output_limit: its stderr went past the limit of 4096 bytes (--stderr-size)) while the request ran; the next request starts a fresh one","traceback":null},"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}'
	local fresh='{"id":2,"success":true,"stdout":"fresh\n","stderr":"","globals":{},"exception":null,"output_files":{},"timed_out":false,"duration_s":0,"state_lost":true}'
	local kept='{"id":4,"success":true,"stdout":"7\n","stderr":"","globals":{},"exception":null,"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}'
	local how
	for how in cold warm; do
		if [ $how = cold ]; then
			srv_session $how --policy "$TC_TMP/p.json" --allow-import os --allow-import time --stderr-size 4K
		else
			srv_session $how --server "$TC_TMP/s.sock" --allow-import os --allow-import time --stderr-size 4K
		fi
		[ "$(cat "$TC_TMP/$how.rc")" = 0 ]
		[ "$(sed -n 1p "$TC_TMP/$how")" = "$over" ]
		[ "$(sed -n 2p "$TC_TMP/$how")" = "$fresh" ]
		run -0 jget success < <(sed -n 3p "$TC_TMP/$how")
		[ "$output" = true ]
		[ "$(sed -n 4p "$TC_TMP/$how")" = "$kept" ]
		# the first sandbox's first 4096 bytes, then the second's whole 4096
		[ "$(cat "$TC_TMP/$how.err")" = "$(printf 'e%.0s' $(seq 4096))$(printf 'f%.0s' $(seq 4096))" ]
	done
	# past the cap from a child after the answer: the next request is told
	# it did not run, and the one after runs fresh
	local idle='{"id":2,"success":false,"stdout":"","stderr":"","globals":{},"exception":{"type":"OutputLimit","message":"the session'"'"'s sandbox ended (output_limit: its stderr went past the limit of 4096 bytes (--stderr-size)) between requests, so this request did not run; the next request starts a fresh one","traceback":null},"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}'
	for how in cold warm; do
		local where=(--policy "$TC_TMP/p.json")
		[ $how = cold ] || where=(--server "$TC_TMP/s.sock")
		{
			echo '{"id": 1, "code": "import os, time\nif os.fork() == 0:\n    time.sleep(0.2)\n    os.write(2, b\"g\" * 5000)\n    os._exit(0)\nz = 1"}'
			sleep 2
			echo '{"id": 2, "code": "print(z)"}'
			echo '{"id": 3, "code": "print(z)"}'
		} | timeout 60 "$TOOLCELL" session "${where[@]}" --allow-import os --allow-import time --stderr-size 4K \
			>"$TC_TMP/$how.idle" 2>"$TC_TMP/$how.idle.err"
		sed -i -E 's/"duration_s":[0-9]+\.[0-9]{3}/"duration_s":0/' "$TC_TMP/$how.idle"
		[ "$(sed -n 2p "$TC_TMP/$how.idle")" = "$idle" ]
		run -0 jget exception.type < <(sed -n 3p "$TC_TMP/$how.idle")
		[ "$output" = NameError ]
		[ "$(cat "$TC_TMP/$how.idle.err")" = "$(printf 'g%.0s' $(seq 4096))" ]
	done
}

@test "a session with no byte either way for serve.session_idle_s (never less than its request timeout) ends: the end chunk says timeout and why; requests and answers keep it alive; toolcell session --server answers the next request so and starts a fresh sandbox" {
	# not shorter than the request's timeout: 3 s here, not 2
	TIMEOUT=3 srv_session_policy '"serve": {"session_idle_s": 2}'
	srv_start --pool 1
	# three requests 2 s apart (6 s in all: past 3 s from the start,
	# never 3 s without a byte), then nothing: the end comes 3 s after the
	# last answer
	run -0 timeout 60 "$PY" -I -c '
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"{\"id\": 1, \"kind\": \"session\"}\n")
f = s.makefile("rb")
print(json.loads(f.readline())["ok"])
def chunk():
    head = f.read(14)
    return head[:3].decode(), f.read(int(head[4:13]))
for i in range(3):
    s.sendall(json.dumps({"nonce": i, "request": {"code": "print(%d)" % i}}).encode() + b"\n")
    tag, body = chunk()
    print(tag, json.loads(body)["stdout"].strip())
    t = time.monotonic()
    if i < 2:
        time.sleep(2)
tag, body = chunk()
print(tag, body.decode(), time.monotonic() - t >= 2.9)
print(repr(f.read()))
' "$TC_TMP/s.sock"
	[ "${lines[0]}" = "True" ]
	[ "${lines[1]}" = "out 0" ]
	[ "${lines[2]}" = "out 1" ]
	[ "${lines[3]}" = "out 2" ]
	[ "${lines[4]}" = 'end {"status":"timeout","message":"the session was idle for 3 s (serve.session_idle_s)"} True' ]
	[ "${lines[5]}" = "b''" ]
	[ "${#lines[@]}" = 6 ]
	# the CLI: the request after the idle end is answered so, the next runs
	# in a fresh sandbox (state_lost), as when a cold session's sandbox ends
	{
		echo '{"id": 1, "code": "x = 5"}'
		sleep 4.5
		echo '{"id": 2, "code": "print(x)"}'
		echo '{"id": 3, "code": "print(x)"}'
	} | timeout 60 "$TOOLCELL" session --server "$TC_TMP/s.sock" >"$TC_TMP/out" 2>"$TC_TMP/err"
	run -0 sed -E 's/"duration_s":[0-9]+\.[0-9]{3}/"duration_s":0/' "$TC_TMP/out"
	[ "${lines[0]}" = '{"id":1,"success":true,"stdout":"","stderr":"","globals":{},"exception":null,"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}' ]
	[ "${lines[1]}" = '{"id":2,"success":false,"stdout":"","stderr":"","globals":{},"exception":{"type":"SessionLimit","message":"the session'"'"'s sandbox ended (timeout: the session was idle for 3 s (serve.session_idle_s)) between requests, so this request did not run; the next request starts a fresh one","traceback":null},"output_files":{},"timed_out":false,"duration_s":0,"state_lost":false}' ]
	[ "$(jget exception.type <<<"${lines[2]}")" = NameError ]
	[ "$(jget state_lost <<<"${lines[2]}")" = true ]
	[ "${#lines[@]}" = 3 ]
	[ ! -s "$TC_TMP/err" ]
}
