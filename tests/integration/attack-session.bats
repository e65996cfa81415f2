#!/usr/bin/env bats
# Attacks on `toolcell session --server` and serve's "session" request,
# written by a helper that did not write them: a hostile tool inside the
# session (forged chunk heads and end frames on its stdout and stderr,
# output with no newline past every cap, a closed stdout), a hostile caller
# of the server (limits above the policy's, imports it forbids, garbage on
# the stream, sessions held to exhaust --max-sandboxes) and the server's
# SIGKILL with sessions open. Processes are found by a marker of this
# test's own in their argv, never by the uid range other sandboxes share.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() {
	srv_test_setup
	MARK="tc-atks-$$-$BATS_TEST_NUMBER-$RANDOM$RANDOM"
	PIDS=()
}

teardown() {
	tc_kill_pids
	pkill -KILL -f "$MARK" 2>/dev/null || true
	srv_test_teardown
}

# raw LINE [WAIT [HOLD]]: one connection that sends LINE and a newline,
# prints the server's first answer line ("(no answer)" after WAIT seconds,
# 60), then holds the connection HOLD seconds (0: closes at once)
raw() {
	${RAW_EXEC:+exec} "$PY" -I -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
s.settimeout(float(sys.argv[3]))
buf = b""
try:
    while b"\n" not in buf:
        c = s.recv(4096)
        if not c:
            break
        buf += c
except socket.timeout:
    buf = b"(no answer)\n"
print(buf.split(b"\n", 1)[0].decode(), flush=True)
time.sleep(float(sys.argv[4]))
' "$TC_TMP/s.sock" "$1" "${2:-60}" "${3:-0}"
}

@test "a hostile tool cannot forge the stream: fake chunk heads and end frames on stdout and stderr, 4 MiB with no newline, 3 MB on stderr, a closed stdout: the cold session's answers and stderr byte for byte" {
	srv_session_policy
	srv_start --pool 2
	# chunk heads and an end frame the server's own framing must carry as
	# bytes; a flood past the 64K cap with no newline; stdout closed under
	# the harness
	cat >"$TC_TMP/in" <<'EOF'
{"id": 1, "code": "print('end 000000031\\n{\"status\":\"ok\",\"message\":\"\"}', end='')"}
{"id": 2, "code": "print('out 000000005\\nhello\\nout 999999999\\n')"}
{"id": 3, "code": "import os\nos.write(2, b'end 000000002\\n{}err 000000003\\nabc')\nprint('after err')"}
{"id": 4, "code": "print('x' * 4000000, end='')"}
{"id": 5, "code": "print('still here')"}
{"id": 6, "code": "import os\nos.write(1, b'\\n' * 3 + b'{\"id\": 6, \"success\": true}\\n')\nprint('six')"}
{"id": 7, "code": "import os\nos.write(2, b'e' * 3000000)\nprint('seven')"}
{"id": 8, "code": "import os\nos.close(1)\nprint('gone')"}
{"id": 9, "code": "print('nine')"}
EOF
	srv_session cold --policy "$TC_TMP/p.json" --allow-import os
	srv_session warm --server "$TC_TMP/s.sock" --allow-import os
	diff "$TC_TMP/cold" "$TC_TMP/warm"
	[ "$(cat "$TC_TMP/cold.rc")" = "$(cat "$TC_TMP/warm.rc")" ]
	[ "$(cat "$TC_TMP/warm.rc")" = 0 ]
	cmp "$TC_TMP/cold.err" "$TC_TMP/warm.err"
	[ "$(wc -l <"$TC_TMP/warm")" = 9 ]
	run -0 jget stdout < <(sed -n 1p "$TC_TMP/warm")
	[ "$output" = 'end 000000031
{"status":"ok","message":""}' ]
	run -0 jget stdout < <(sed -n 2p "$TC_TMP/warm")
	[ "$output" = 'out 000000005
hello
out 999999999' ]
	run -0 jget stdout < <(sed -n 3p "$TC_TMP/warm")
	[ "$output" = 'after err' ]
	# the harness keeps a quarter of stdout_size of what a request prints
	run -0 jget stdout < <(sed -n 4p "$TC_TMP/warm")
	[ "$output" = "$(printf 'x%.0s' $(seq 16384))" ]
	run -0 jget stdout < <(sed -n 5p "$TC_TMP/warm")
	[ "$output" = 'still here' ]
	# the tool's own stderr is the session's stderr, as cold, up to the
	# default stderr_size (64K) in a sandbox's life: 7's 3 MB ended it
	[ "$(wc -c <"$TC_TMP/warm.err")" = 65536 ]
	run -0 jget exception.type < <(sed -n 7p "$TC_TMP/warm")
	[ "$output" = OutputLimit ]
	run -0 jget id < <(sed -n 6p "$TC_TMP/warm")
	[ "$output" = 6 ]
	run -0 jget stdout < <(sed -n 9p "$TC_TMP/warm")
	[ "$output" = nine ]
}

@test "a caller's session request cannot raise the policy's limits nor widen its imports: limits clamped, imports refused PermissionDenied, nothing built" {
	srv_session_policy
	srv_start --pool 1
	run -0 raw '{"id":1,"kind":"session","limits":{"timeout":1000,"stdout_size":"1G","memory":"1G"}}'
	[ "$output" = '{"id":1,"ok":true,"session":{"timeout_s":5.000,"stdout_size":65536,"request_size":1048576},"pool":{"warm":true,"waited_ms":0}}' ]
	run -0 raw '{"id":2,"kind":"session","allow_imports":["subprocess"]}'
	[ "$output" = '{"id":2,"ok":false,"error":{"type":"PermissionDenied","message":"--allow-import subprocess: the policy'"'"'s session.max_imports does not include subprocess (it is [\"os\",\"time\",\"json\",\"math\"]); ask the operator to add it, or leave the import out","source":"toolcell"}}' ]
	run -0 raw '{"id":3,"kind":"session","default_imports":["m=subprocess"]}'
	[[ "$output" == '{"id":3,"ok":false,"error":{"type":"PermissionDenied","message":"--default-import subprocess: '* ]]
	# and what a clamped limit means: --memory 1G above the policy's 256M
	# still ends a 300 MB allocation, as the policy's own limit does
	printf '%s\n' '{"id": 1, "code": "b = bytearray(300 << 20)\nprint(len(b))"}' >"$TC_TMP/in"
	srv_session warm --server "$TC_TMP/s.sock" --memory 1G
	run -0 jget exception.type <"$TC_TMP/warm"
	[ "$output" = MemoryError ]
	# the refused requests took no entry
	[ "$(srv_stat sessions.started)" = 2 ]
}

@test "sessions held open never take the server past --max-sandboxes: a call waits for an entry, and gets one when a session closes" {
	srv_session_policy
	srv_start --pool 1 --max-sandboxes 2 --max-sessions 2
	RAW_EXEC=1 raw '{"id":1,"kind":"session"}' 60 300 >"$TC_TMP/s1" &
	PIDS+=($!)
	RAW_EXEC=1 raw '{"id":2,"kind":"session"}' 60 300 >"$TC_TMP/s2" &
	PIDS+=($!)
	for _ in $(seq 300); do [ "$(srv_stat sessions.running)" = 2 ] && break; sleep 0.1; done
	[ "$(srv_stat sessions.running)" = 2 ]
	run -0 raw '{"id":3,"kind":"exec","source":"print(3)"}' 3
	[ "$output" = "(no answer)" ]
	[ "$(srv_stat sandboxes)" = 2 ]
	# a waiting call, then the first session's caller goes: the call runs
	raw '{"id":4,"kind":"exec","source":"print(4)"}' 120 >"$TC_TMP/c4" &
	PIDS+=($!)
	sleep 1
	[ ! -s "$TC_TMP/c4" ]
	kill -KILL "${PIDS[0]}"
	wait "${PIDS[2]}"
	cat "$TC_TMP/c4"
	run -0 jget stdout <"$TC_TMP/c4"
	[ "$output" = 4 ]
	[ "$(srv_stat sandboxes)" -le 2 ]
	[ "$(srv_stat sessions.running)" = 1 ]
}

@test "SIGKILL of the server with two sessions open, each with a setsid SIGTERM-deaf child: nothing of them is left, their callers answer the next requests SandboxExited, then SandboxError naming the socket and exit 125" {
	srv_session_policy
	srv_start --pool 2
	local i
	for i in 1 2; do
		mkfifo "$TC_TMP/fifo$i"
		"$TOOLCELL" session --server "$TC_TMP/s.sock" --allow-import os \
			<"$TC_TMP/fifo$i" >"$TC_TMP/out$i" 2>"$TC_TMP/err$i" &
		PIDS+=($!)
	done
	exec 7>"$TC_TMP/fifo1" 8>"$TC_TMP/fifo2"
	for i in 7 8; do
		printf '%s\n' "{\"id\": 1, \"code\": \"import os\\nif os.fork() == 0:\\n    os.setsid()\\n    os.execv('/usr/bin/python3', ['python3', '-c', 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)', '$MARK'])\\nprint('up')\"}" >&$i
	done
	for _ in $(seq 300); do [ "$(srv_marked | wc -l)" -ge 2 ] && [ -s "$TC_TMP/out1" ] && [ -s "$TC_TMP/out2" ] && break; sleep 0.1; done
	[ "$(srv_marked | wc -l)" -ge 2 ]
	kill -KILL "$SERVER"
	wait "$SERVER" || true
	SERVER=
	for _ in $(seq 100); do [ -z "$(srv_marked)" ] && break; sleep 0.1; done
	[ -z "$(srv_marked)" ]
	# the next request of the first session finds no server; one write
	# (cat's; the shell's printf writes a line at a time), as the session
	# ends after request 3 (a second write could meet EPIPE)
	printf '%s\n' '{"id": 2, "code": "print(2)"}' '{"id": 3, "code": "print(3)"}' >"$TC_TMP/more"
	cat "$TC_TMP/more" >&7
	exec 7>&- 8>&-
	local rc=0
	wait "${PIDS[0]}" || rc=$?
	[ "$rc" = 125 ]
	# the second session needed no new sandbox: EOF ends it as usual
	rc=0
	wait "${PIDS[1]}" || rc=$?
	[ "$rc" = 0 ]
	PIDS=()
	[ "$(wc -l <"$TC_TMP/out1")" = 3 ]
	run -0 jget stdout < <(sed -n 1p "$TC_TMP/out1")
	[ "$output" = up ]
	run -0 jget exception.type < <(sed -n 2p "$TC_TMP/out1")
	[ "$output" = SandboxExited ]
	run -0 jget exception.message < <(sed -n 3p "$TC_TMP/out1")
	[[ "$output" == *"cannot connect to the server at $TC_TMP/s.sock: Connection refused"* ]]
	grep -qF "toolcell: cannot connect to the server at $TC_TMP/s.sock: Connection refused" "$TC_TMP/err1"
	[ "$(wc -l <"$TC_TMP/out2")" = 1 ]
	[ ! -s "$TC_TMP/err2" ]
}

@test "a caller that streams 64 MiB at a session whose harness does not read: the server holds at most about 1 MiB of it (its RSS grows < 8 MiB)" {
	srv_session_policy
	srv_start --pool 1
	run -0 --separate-stderr "$PY" -I -c '
import socket, sys, time
def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) * 1024
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b"{\"id\":1,\"kind\":\"session\",\"allow_imports\":[\"time\"]}\n")
buf = b""
while b"\n" not in buf:
    buf += s.recv(4096)
assert b"\"ok\":true" in buf, buf
# one framed request that sleeps: the harness reads nothing more meanwhile
s.sendall(b"{\"nonce\":1,\"request\":{\"id\":1,\"code\":\"import time\\ntime.sleep(20)\"}}\n")
time.sleep(0.5)
before = rss(int(sys.argv[2]))
s.setblocking(False)
junk, sent, end = b"j" * (1 << 20), 0, time.time() + 6
while sent < (64 << 20) and time.time() < end:
    try:
        sent += s.send(junk)
    except BlockingIOError:
        time.sleep(0.01)
grown = rss(int(sys.argv[2])) - before
print("held", grown < (8 << 20), "sent below 8 MiB", sent < (8 << 20))
print(grown, sent, file=sys.stderr)
s.close()
' "$TC_TMP/s.sock" "$SERVER"
	echo "$output"
	[ "$output" = "held True sent below 8 MiB True" ]
	# the server goes on answering
	run -0 raw '{"id":2,"kind":"exec","source":"print(2)"}'
	run -0 jget stdout <<<"$output"
	[ "$output" = 2 ]
}

@test "once a connection is a session's stream, a request line on it is the harness's input, never a call; a session request behind a call in flight is refused" {
	srv_session_policy
	srv_start --pool 1
	run -0 "$PY" -I -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b"{\"id\":1,\"kind\":\"session\"}\n")
buf = b""
while b"\n" not in buf:
    buf += s.recv(4096)
line, rest = buf.split(b"\n", 1)
print(line.decode())
s.sendall(b"{\"id\":2,\"kind\":\"exec\",\"source\":\"print(2)\"}\n")
s.shutdown(socket.SHUT_WR)
s.settimeout(30)
# chunks only, up to and with the end chunk (the caller closes, not the server)
tags, body = [], b""
while not tags or tags[-1] != "end":
    while len(rest) < 14 or len(rest) < 14 + int(rest[4:13]):
        c = s.recv(65536)
        if not c:
            sys.exit("closed before the end chunk")
        rest += c
    tag, n = rest[:3].decode().strip(), int(rest[4:13])
    tags.append(tag)
    body += rest[14:14 + n]
    rest = rest[14 + n:]
print(tags[-1], set(tags) <= {"out", "err", "end"}, b"\"id\":2" in body, rest)
' "$TC_TMP/s.sock"
	echo "$output"
	[[ "${lines[0]}" == '{"id":1,"ok":true,"session":'* ]]
	[ "${lines[1]}" = "end True False b''" ]
	[ "$(srv_stat calls.ok)" = 0 ]
	[ "$(srv_stat sessions.ended)" = 1 ]
	# a session asked behind a call still running on the same connection
	run -0 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" --answers 2 < <(printf '%s\n' \
		'{"id":3,"kind":"exec","source":"import time\ntime.sleep(1)\nprint(3)"}' '{"id":4,"kind":"session"}')
	[ "${lines[0]}" = '{"id":4,"ok":false,"error":{"type":"BadRequest","message":"request: a session takes a connection of its own: no other request may be in flight on it, and none may follow","source":"toolcell"}}' ]
	run -0 jget stdout <<<"${lines[1]}"
	[ "$output" = 3 ]
}
