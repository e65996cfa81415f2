#!/usr/bin/env bats
# toolcell session: the Rustic-style PythonExecExecutor contract. One
# long-lived sandbox per agent, JSON lines in and out; state persists across
# requests; toolcell owns id, timed_out, duration_s and state_lost; a request
# past its time ends the sandbox and the next one says state_lost.

load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
}

# session [OPTIONS...]: run a session over $TC_TMP/in, answers in $TC_TMP/out
session() {
	status=0
	timeout 60 "$TOOLCELL" session "$@" <"$TC_TMP/in" >"$TC_TMP/out" 2>"$TC_TMP/err" || status=$?
}

# answer N KEY.PATH: a value of the Nth answer (1-based)
answer() {
	sed -n "${1}p" "$TC_TMP/out" | jget "$2"
}

# policy BODY: a policy file with the default limits and BODY's keys
policy() {
	printf '{"version": 1, "limits": {"timeout": 5}, %s}\n' "$1" >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
}

@test "state (variables, functions, classes) persists across requests; output is per request" {
	cat >"$TC_TMP/in" <<'REQ'
{"id": 1, "code": "x = 41\nprint('one')"}
{"id": 2, "code": "def f(v):\n    return v + 1\nclass C:\n    k = 'kept'\nprint('two'); import sys"}
{"id": 3, "code": "x = f(x)\nprint(C.k)", "return_globals": ["x"]}
{"id": 4, "code": "y = x * 2", "globals": {"z": [1, 2]}, "return_globals": ["y", "z", "nope"]}
REQ
	session
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$TC_TMP/out")" -eq 4 ]
	[ "$(answer 1 stdout)" = "one" ]
	[ "$(answer 1 success)" = true ]
	[ "$(answer 2 stdout)" = "two" ]
	[ "$(answer 2 success)" = false ]
	[ "$(answer 2 exception.type)" = ImportError ]
	[ "$(answer 3 stdout)" = "kept" ]
	[ "$(answer 3 globals)" = '{"x": 42}' ]
	[ "$(answer 4 globals)" = '{"y": 84, "z": [1, 2]}' ]
	for n in 1 2 3 4; do
		[ "$(answer $n id)" = "$n" ]
		[ "$(answer $n timed_out)" = false ]
		[ "$(answer $n state_lost)" = false ]
	done
}

@test "the answer's id is the request's, byte for byte (big numbers, strings, objects)" {
	cat >"$TC_TMP/in" <<'REQ'
{"id": 123456789012345678901234567890, "code": "pass"}
{"id": "a\"b", "code": "pass"}
{"id": {"agent": [1, 2.50]}, "code": "pass"}
{"code": "pass"}
REQ
	session
	[ "$status" -eq 0 ]
	[[ "$(sed -n 1p "$TC_TMP/out")" == '{"id":123456789012345678901234567890,'* ]]
	[[ "$(sed -n 2p "$TC_TMP/out")" == '{"id":"a\"b",'* ]]
	[[ "$(sed -n 3p "$TC_TMP/out")" == '{"id":{"agent": [1, 2.50]},'* ]]
	[[ "$(sed -n 4p "$TC_TMP/out")" == '{"id":null,'* ]]
}

@test "a request past its time: timed_out, the sandbox ends, the next starts fresh with state_lost" {
	cat >"$TC_TMP/in" <<'REQ'
{"id": 1, "code": "kept = 'yes'"}
{"id": 2, "code": "while True: pass", "timeout_s": 0.5}
{"id": 3, "code": "print(kept)"}
{"id": 4, "code": "print('fresh')"}
REQ
	session
	[ "$status" -eq 0 ]
	[ "$(answer 2 timed_out)" = true ]
	[ "$(answer 2 success)" = false ]
	[ "$(answer 2 exception.type)" = Timeout ]
	/usr/bin/python3 -I -c "import sys; d = float(sys.argv[1]); assert 0.5 <= d < 1.5, d" "$(answer 2 duration_s)"
	[ "$(answer 3 state_lost)" = true ]
	[ "$(answer 3 exception.type)" = NameError ]
	[ "$(answer 3 timed_out)" = false ]
	[ "$(answer 4 state_lost)" = false ]
	[ "$(answer 4 stdout)" = fresh ]
}

@test "timeout_s not above 0, a bad op, no code, bad JSON, a non-object: BadRequest, and the session goes on" {
	policy '"session": {}'
	printf '%s\n' '{"id": 1, "code": "pass", "timeout_s": -1}' '{"id": 2, "op": "restart"}' \
		'{"id": 3}' 'not json' '[1, 2]' '{"id": 6, "code": "print(6)"}' >"$TC_TMP/in"
	session --policy "$TC_TMP/p.json"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$TC_TMP/out")" -eq 6 ]
	[ "$(answer 1 exception.message)" = 'request: "timeout_s" must be a number above 0 (seconds; the session'"'"'s limit is 5.000 s)' ]
	[ "$(answer 2 exception.message)" = 'request: "op" must be "reset" or "shutdown" (or absent, with "code")' ]
	[ "$(answer 3 exception.message)" = 'request: "code" must be a string' ]
	[ "$(answer 4 exception.message)" = 'request: not valid JSON near byte 1' ]
	[ "$(answer 4 id)" = null ]
	[ "$(answer 5 exception.message)" = 'request: expected a JSON object' ]
	for n in 1 2 3 4 5; do [ "$(answer $n exception.type)" = BadRequest ]; done
	[ "$(answer 6 stdout)" = 6 ]
}

@test "timeout_s above the session's limit runs with the limit, and the answer says timeout_clamped_to" {
	policy '"session": {}'
	printf '%s\n' '{"id": 1, "code": "print(1)", "timeout_s": 60}' '{"id": 2, "code": "print(2)", "timeout_s": 2}' \
		'{"id": 3, "code": "while True: pass", "timeout_s": 1e999}' >"$TC_TMP/in"
	session --policy "$TC_TMP/p.json" --timeout 2
	[ "$status" -eq 0 ]
	[ "$(answer 1 success)" = true ]
	[ "$(answer 1 timeout_clamped_to)" = 2.0 ]
	[ "$(sed -n 1p "$TC_TMP/out" | grep -o '"timeout_clamped_to":[0-9.]*')" = '"timeout_clamped_to":2.000' ]
	# at or below the limit: no such key
	[ "$(sed -n 2p "$TC_TMP/out" | grep -c timeout_clamped_to)" = 0 ]
	[ "$(answer 2 stdout)" = 2 ]
	# a clamped request really ends at the session's limit
	[ "$(answer 3 exception.type)" = Timeout ]
	[ "$(answer 3 timeout_clamped_to)" = 2.0 ]
	"$PY" -c 'import json,sys; d=json.loads(sys.argv[1])["duration_s"]; sys.exit(not 1.9 <= d < 10)' "$(sed -n 3p "$TC_TMP/out")"
}

@test "a request longer than request_size is refused; the next line is served" {
	{
		printf '{"id": 1, "code": "x = %s"}\n' "$(head -c 5000 /dev/zero | tr '\0' 1)"
		printf '{"id": 2, "code": "x = %s"}\n' "$(head -c 200000 /dev/zero | tr '\0' 1)"
		printf '%s\n' '{"id": 3, "code": "print(3)"}'
	} >"$TC_TMP/in"
	session --request-size 4K
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$TC_TMP/out")" -eq 3 ]
	[ "$(answer 1 exception.message)" = "request: 5025 bytes is larger than the 4096-byte limit" ]
	[ "$(answer 2 exception.message)" = "request: longer than the 4096-byte limit (one request per line)" ]
	[ "$(answer 3 stdout)" = 3 ]
}

@test "reset: a fresh sandbox, state cleared, not reported as lost; shutdown ends the session" {
	printf '%s\n' '{"id": 1, "code": "a = 1"}' '{"id": 2, "op": "reset"}' '{"id": 3, "code": "print(a)"}' \
		'{"id": 4, "op": "shutdown"}' '{"id": 5, "code": "print(5)"}' >"$TC_TMP/in"
	session
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$TC_TMP/out")" -eq 4 ]
	[ "$(answer 2 success)" = true ]
	[ "$(answer 3 exception.type)" = NameError ]
	[ "$(answer 3 state_lost)" = false ]
	[ "$(answer 4 success)" = true ]
	[ "$(answer 4 id)" = 4 ]
}

@test "imports: none by default, with the exact refusal; the policy's allow-list and default_imports" {
	printf '%s\n' '{"id": 1, "code": "import json"}' >"$TC_TMP/in"
	session
	[ "$(answer 1 exception.message)" = "Import of 'json' is not allowed. Allowed imports: [] (__import__ not found: this session allows no imports)" ]
	policy '"session": {"allowed_imports": ["math", "json"], "default_imports": {"m": "math", "p": "os.path"}}'
	printf '%s\n' '{"id": 1, "code": "import json\nr = (m.sqrt(16), json.dumps([1]), p.basename(\"/a/b\"))", "return_globals": ["r"]}' \
		'{"id": 2, "code": "from os import path"}' '{"id": 3, "code": "import math.nope"}' >"$TC_TMP/in"
	session --policy "$TC_TMP/p.json"
	[ "$status" -eq 0 ]
	[ "$(answer 1 globals.r)" = '[4.0, "[1]", "b"]' ]
	[ "$(answer 2 exception.message)" = "Import of 'os' is not allowed. Allowed imports: ['json', 'math']" ]
	[ "$(answer 3 exception.type)" = ModuleNotFoundError ]
	"$TOOLCELL" policy check "$TC_TMP/p.json" >"$TC_TMP/eff"
	[ "$(jget session "$TC_TMP/eff")" = '{"allowed_imports": ["math", "json"], "default_imports": {"m": "math", "p": "os.path"}, "max_imports": []}' ]
}

@test "policy session keys are checked" {
	policy '"session": {"allowed_imports": ["os", "a-b"]}'
	run "$TOOLCELL" session --policy "$TC_TMP/p.json" </dev/null
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: $TC_TMP/p.json: session.allowed_imports[1]: expected a module name such as \"json\" or \"matplotlib.pyplot\", got \"a-b\"" ]
	policy '"session": {"default_imports": {"np": 3}}'
	run "$TOOLCELL" session --policy "$TC_TMP/p.json" </dev/null
	[ "$status" -eq 125 ]
	[[ "$output" == *'session.default_imports.np: expected a module name such as "numpy" or "os.path", got 3' ]]
}

@test "input and output files: base64 in, base64 out; a symlink, a folder or a missing file is null" {
	printf '%s\n' '{"id": 1, "code": "import_ok = 1\nopen(\"out.txt\", \"w\").write(open(\"in.txt\").read().upper())\n__builtins__[\"__import__\"]", "input_files": {"in.txt": "aGVsbG8gd29ybGQ="}, "output_files": ["out.txt", "missing.txt"]}' \
		'{"id": 2, "code": "open(\"/tmp/real\", \"w\").write(\"x\")", "output_files": ["../tmp/real", "pycache"]}' \
		'{"id": 3, "code": "pass", "input_files": {"../escape": "eA=="}}' >"$TC_TMP/in"
	session
	[ "$status" -eq 0 ]
	[ "$(answer 1 output_files)" = '{"missing.txt": null, "out.txt": "SEVMTE8gV09STEQ="}' ]
	[ "$(answer 2 output_files)" = '{"../tmp/real": null, "pycache": null}' ]
	[ "$(answer 3 exception.type)" = ValueError ]
	[[ "$(answer 3 exception.message)" == "input file name '../escape': a plain file name, no '/'" ]]
}

@test "code that takes traceback and base64 away, or puts something else in their place, still gets its answers, and the session goes on" {
	# the harness imports them at the first exception and the first request
	# with files (not at its start): an import the code made fail is said,
	# never the harness's end
	policy '"session": {"allowed_imports": ["sys"]}'
	cat >"$TC_TMP/in" <<'REQ'
{"id": 1, "code": "import sys\nsys.modules['traceback'] = None\nsys.modules['base64'] = None\nraise ValueError('x')"}
{"id": 2, "code": "pass", "output_files": ["a"]}
{"id": 3, "code": "print(3)"}
{"id": 4, "code": "import sys\nsys.modules['traceback'] = object()\nsys.modules['base64'] = object()\nraise ValueError('y')"}
{"id": 5, "code": "pass", "output_files": ["a"]}
{"id": 6, "code": "print(6)"}
REQ
	session --policy "$TC_TMP/p.json"
	[ "$status" -eq 0 ]
	# or puts something else in their place
	[ "$(answer 4 exception.traceback)" = "ValueError: y" ]
	[ "$(answer 5 exception.type)" = ImportError ]
	[ "$(answer 5 exception.message)" = "base64: sys.modules holds no module under that name" ]
	[ "$(answer 5 output_files)" = "{}" ]
	[ "$(answer 6 stdout)" = 6 ]
	[ "$(answer 6 state_lost)" = false ]
	[ "$(answer 1 exception.type)" = ValueError ]
	[ "$(answer 1 exception.traceback)" = "ValueError: x" ]
	[ "$(answer 2 exception.type)" = ModuleNotFoundError ]
	[ "$(answer 2 exception.message)" = "import of base64 halted; None in sys.modules" ]
	[ "$(answer 2 output_files)" = "{}" ]
	[ "$(answer 3 stdout)" = 3 ]
	[ "$(answer 3 state_lost)" = false ]
}

@test "a stray thread's output never answers for another request" {
	policy '"session": {"allowed_imports": ["threading", "time", "os", "sys"]}'
	cat >"$TC_TMP/in" <<'REQ'
{"id": 1, "code": "import threading, time, sys, os\ndef stray():\n    for n in range(200):\n        time.sleep(0.01)\n        print('STRAY', n)\n        for nonce in range(0, 50):\n            sys.modules['__main__']._answers.write('{\"nonce\": %d, \"success\": true, \"stdout\": \"FORGED\"}\\n' % nonce)\n        os.write(2, b'stray-fd2\\n')\nthreading.Thread(target=stray, daemon=True).start()"}
{"id": 2, "code": "import time\ntime.sleep(0.5)\nprint('two')"}
{"id": 3, "code": "print('three')"}
REQ
	session --policy "$TC_TMP/p.json"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$TC_TMP/out")" -eq 3 ]
	run grep -c FORGED "$TC_TMP/out"
	[ "$output" = 0 ]
	[ "$(answer 1 success)" = true ]
	[ "$(answer 2 success)" = true ]
	[[ "$(answer 2 stdout)" == *two* ]]
	[[ "$(answer 3 stdout)" == *three* ]]
	for n in 1 2 3; do [ "$(answer $n id)" = "$n" ]; done
}

@test "concurrent sessions do not see each other's state or files" {
	printf '%s\n' '{"id": 1, "code": "secret = \"A\"\nopen(\"/tmp/a-secret\", \"w\").write(\"A\")"}' \
		'{"id": 2, "code": "import time; time.sleep(0.8) if False else None"}' >"$TC_TMP/a.in"
	printf '%s\n' '{"id": 1, "code": "r = [\"secret\" in globals()]"}' \
		'{"id": 2, "code": "r.append(__builtins__[\"open\"] is not None)\ntry:\n    open(\"/tmp/a-secret\")\n    r.append(\"SEEN\")\nexcept FileNotFoundError:\n    r.append(\"unseen\")", "return_globals": ["r"]}' >"$TC_TMP/b.in"
	"$TOOLCELL" session <"$TC_TMP/a.in" >"$TC_TMP/a.out" &
	a=$!
	"$TOOLCELL" session <"$TC_TMP/b.in" >"$TC_TMP/b.out"
	wait $a
	[ "$(sed -n 2p "$TC_TMP/b.out" | jget globals.r)" = '[false, true, "unseen"]' ]
	[ "$(sed -n 1p "$TC_TMP/a.out" | jget success)" = true ]
}

# harnesses_under PID: the session harnesses among PID's descendants
harnesses_under() {
	local c
	for c in $(pgrep -P "$1"); do
		grep -qs 'toolcell/session.pyc' "/proc/$c/cmdline" && echo "$c"
		harnesses_under "$c"
	done
}

# still_harness PID...: succeed while one of them is still a session harness
still_harness() {
	local p
	for p in "$@"; do
		grep -qs 'toolcell/session.pyc' "/proc/$p/cmdline" && return 0
	done
	return 1
}

@test "a sandbox that cannot be started again answers that this request did not run, and the next request tries again" {
	mkdir "$TC_TMP/src"
	{
		echo '{"id": 1, "code": "import os\nos._exit(3)"}'
		sleep 1
		rmdir "$TC_TMP/src" # the bind's source is gone: the next start fails
		echo '{"id": 2, "code": "print(2)"}'
		sleep 1
		mkdir "$TC_TMP/src"
		echo '{"id": 3, "code": "print(3)"}'
	} | timeout 60 "$TOOLCELL" session --allow-import os --ro-bind "$TC_TMP/src:/data" >"$TC_TMP/out"
	[ "$(answer 1 exception.type)" = SandboxExited ]
	[ "$(answer 2 exception.type)" = SandboxError ]
	[ "$(answer 2 exception.message)" = "the session's sandbox could not be started (cannot bind $TC_TMP/src: No such file or directory); this request did not run, and the next request tries again" ]
	[ "$(answer 3 success)" = true ]
	[ "$(answer 3 stdout)" = 3 ]
}

@test "SIGKILL of the session process ends its sandbox at once; EOF ends the session with 0" {
	marker="tc-session-$$-$RANDOM"
	mkfifo "$TC_TMP/fifo"
	chmod 666 "$TC_TMP/fifo"
	"$TOOLCELL" session <"$TC_TMP/fifo" >"$TC_TMP/out" 2>&1 &
	pid=$!
	exec 7>"$TC_TMP/fifo"
	printf '{"id": 1, "code": "import_me = \\"%s\\"\\nwhile True: pass"}\n' "$marker" >&7
	# this session's harness: a descendant of this toolcell (other sessions
	# may run on the machine at the same time)
	local mine=""
	for _ in $(seq 50); do
		mine=$(harnesses_under "$pid")
		[ -z "$mine" ] || break
		sleep 0.1
	done
	[ -n "$mine" ]
	kill -KILL "$pid"
	wait "$pid" || true
	exec 7>&-
	for _ in $(seq 50); do still_harness $mine || break; sleep 0.1; done
	run still_harness $mine
	[ "$status" -eq 1 ]
	# EOF: the session ends by itself
	printf '%s' '{"id": 1, "code": "print(1)"}' >"$TC_TMP/in"
	session
	[ "$status" -eq 0 ]
	[ "$(answer 1 stdout)" = 1 ]
}

@test "the workspace: what a request writes is in the host folder before the next request" {
	mkdir "$TC_TMP/ws"
	chmod 777 "$TC_TMP/ws"
	mkfifo "$TC_TMP/fifo"
	chmod 666 "$TC_TMP/fifo"
	"$TOOLCELL" session --workspace "$TC_TMP/ws" <"$TC_TMP/fifo" >"$TC_TMP/out" 2>"$TC_TMP/err" &
	pid=$!
	exec 7>"$TC_TMP/fifo"
	printf '%s\n' '{"id": 1, "code": "open(\"made.txt\", \"w\").write(\"one\")"}' >&7
	for _ in $(seq 300); do [ -s "$TC_TMP/out" ] && break; sleep 0.1; done
	[ "$(answer 1 success)" = true ]
	# the session and its sandbox still run: the file is on the host already
	[ "$(cat "$TC_TMP/ws/made.txt")" = one ]
	printf '%s\n' '{"id": 2, "code": "open(\"made.txt\", \"w\").write(\"two\")\nopen(\"b.txt\", \"w\").write(\"b\")"}' >&7
	for _ in $(seq 300); do [ "$(wc -l <"$TC_TMP/out")" -ge 2 ] && break; sleep 0.1; done
	[ "$(answer 2 success)" = true ]
	[ "$(cat "$TC_TMP/ws/made.txt")" = two ]
	[ "$(cat "$TC_TMP/ws/b.txt")" = b ]
	exec 7>&-
	wait "$pid"
	[ "$(cat "$TC_TMP/ws/made.txt")" = two ]
}

@test "the memory limit: a MemoryError is the code's exception and the session goes on" {
	printf '%s\n' '{"id": 1, "code": "keep = 7"}' '{"id": 2, "code": "b = bytearray(600 * 2**20)"}' \
		'{"id": 3, "code": "print(keep)"}' >"$TC_TMP/in"
	session --memory 128M
	[ "$status" -eq 0 ]
	[ "$(answer 2 success)" = false ]
	[ "$(answer 2 exception.type)" = MemoryError ]
	[ "$(answer 3 stdout)" = 7 ]
	[ "$(answer 3 state_lost)" = false ]
}

@test "output that is not valid UTF-8 (lone surrogates) and NaN globals still make valid answers" {
	printf '%s\n' '{"id": 1, "code": "print(\"\\ud800 \\u00e9\")"}' \
		'{"id": 2, "code": "s = \"\\ud800\"; n = float(\"nan\")", "return_globals": ["s", "n"]}' \
		'{"id": 3, "code": "print(3)"}' >"$TC_TMP/in"
	session
	[ "$status" -eq 0 ]
	[ "$(answer 1 stdout)" = "? é" ]
	[ "$(answer 2 globals)" = '{"n": "nan", "s": "?"}' ]
	[ "$(answer 3 state_lost)" = false ]
	[ "$(answer 3 stdout)" = 3 ]
}

@test "a harness that stops reading cannot hold toolcell past the request's time" {
	# request 1 stops the interpreter (SIGSTOP) once it has answered; request
	# 2, sent after that, is larger than a pipe holds, so only a
	# deadline-bound write gets by
	printf '%s\n' '{"id": 1, "code": "g = __builtins__[\"__import__\"].__globals__\nos, th = g[\"os\"], g[\"_real_import\"](\"threading\")\nt = g[\"_real_import\"](\"time\")\ndef f():\n    t.sleep(0.3)\n    os.kill(os.getpid(), 19)\nth.Thread(target=f, daemon=True).start()"}' >"$TC_TMP/in1"
	{
		printf '{"id": 2, "timeout_s": 2, "code": "x = %s"}\n' "$(head -c 900000 /dev/zero | tr '\0' 1)"
		printf '%s\n' '{"id": 3, "code": "print(3)"}'
	} >"$TC_TMP/in2"
	SECONDS=0
	status=0
	{ cat "$TC_TMP/in1"; sleep 1; cat "$TC_TMP/in2"; } |
		timeout 60 "$TOOLCELL" session >"$TC_TMP/out" 2>"$TC_TMP/err" || status=$?
	[ "$status" -eq 0 ]
	[ "$SECONDS" -lt 15 ]
	[ "$(answer 2 timed_out)" = true ]
	[ "$(answer 2 exception.type)" = Timeout ]
	[ "$(answer 3 state_lost)" = true ]
	[ "$(answer 3 stdout)" = 3 ]
}

@test "a line with a NUL byte on the answer channel is no answer; CRLF requests are served" {
	printf '%s\n' '{"id": 1, "code": "g = __builtins__[\"__import__\"].__globals__\ng[\"os\"].write(g[\"_answers\"].fileno(), b\"\\0\" + b\"A\" * 5000 + b\"\\n\")\nprint(1)"}' >"$TC_TMP/in"
	printf '{"id": 2, "code": "print(2)", "timeout_s": 2}\r\n' >>"$TC_TMP/in"
	session
	[ "$status" -eq 0 ]
	[ "$(answer 1 success)" = true ]
	[ "$(answer 1 stdout)" = 1 ]
	[ "$(answer 2 stdout)" = 2 ]
	[ "$(answer 2 timed_out)" = false ]
}

@test "an allowed package of the rootfs's site-packages is found (numpy in the data rootfs); exit and help stay out" {
	local root="$TC_BUILD/rootfs-data"
	[ -f "$root/usr/lib/toolcell/manifest.txt" ] ||
		tc_skip "no data rootfs: cmake --build build --target rootfs-data"
	policy '"rootfs": "data", "session": {"max_imports": ["numpy"]}'
	cat >"$TC_TMP/in" <<'REQ'
{"id": 1, "code": "import numpy\nprint(numpy.array([1, 2]).sum())"}
{"id": 2, "code": "import pandas"}
{"id": 3, "code": "exit, help"}
REQ
	session --policy "$TC_TMP/p.json" --allow-import numpy
	[ "$status" -eq 0 ]
	[ "$(answer 1 success)" = true ]
	[ "$(answer 1 stdout)" = 3 ]
	[ "$(answer 2 exception.type)" = ImportError ]
	[ "$(answer 3 exception.type)" = NameError ]
	[ "$(answer 3 exception.message)" = "name 'exit' is not defined" ]
}

@test "session --help is complete; arguments are refused" {
	run "$TOOLCELL" session --help
	[ "$status" -eq 0 ]
	for word in '"id"' '"code"' '"globals"' '"return_globals"' '"timeout_s"' '"input_files"' \
		'"output_files"' '"reset"' '"shutdown"' '"timed_out"' '"duration_s"' '"state_lost"' \
		allowed_imports default_imports BadRequest --memory --timeout --workspace; do
		[[ "$output" == *"$word"* ]] || { echo "missing $word"; false; }
	done
	[[ "$output" != *"--result FILE"* ]]
	run "$TOOLCELL" session extra
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: session: unexpected argument 'extra'; requests come on stdin, one JSON object per line" ]
}
