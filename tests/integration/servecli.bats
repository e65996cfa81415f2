#!/usr/bin/env bats
# The clients and protocol of toolcell serve: `toolcell python --server`
# gives a script's stdout, stderr and exit status (signals included) as
# `toolcell python` does; a call's own limits (the request's "limits", the
# clients' limit options and keywords) only tighten the server's, are
# clamped and said so above them, refused when malformed or fixed at an
# entry's start, and hold with the exact outcome; the Python client raises
# toolcell's refusals with the server's words; stats is complete.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() {
	srv_test_setup
	printf '{"version": 1, "limits": {"timeout": 20, "request_size": "4K"}}\n' >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
}

teardown() {
	srv_test_teardown
}

# ask JSON...: the requests (Python dict literals; "source" read from the
# file named by its "file" key), their answers in $TC_TMP/out
ask() {
	"$PY" -I -c '
import json, sys
for arg in sys.argv[1:]:
    d = eval(arg)
    if "file" in d:
        d["source"] = open(d.pop("file")).read()
    print(json.dumps(d))' "$@" | timeout 60 "$PY" -I "$CLIENT" "$SOCK" >"$TC_TMP/out"
}

# field ID EXPR: a Python expression over the answer `a` with that id
field() {
	"$PY" -I -c '
import json, sys
for line in open(sys.argv[1]):
    a = json.loads(line)
    if a["id"] == int(sys.argv[2]):
        v = eval(sys.argv[3])
        print(" ".join(map(str, v)) if isinstance(v, tuple) else v)' "$TC_TMP/out" "$1" "$2"
}

@test "python --server: the script's stdout, stderr, argv, stdin bytes and exit status, as toolcell python gives them" {
	srv_start
	cat >"$TC_TMP/s.py" <<'PY'
import sys
data = sys.stdin.buffer.read()
sys.stdout.buffer.write(b"argv=%r in=%r\n" % (sys.argv[1:], data))
sys.stdout.buffer.write(bytes([0xff, 0x00, 0x80]))
sys.stderr.write("to stderr\n")
sys.exit(7)
PY
	printf 'a\xff\x00b' >"$TC_TMP/in"
	local rc=0
	"$TOOLCELL" python --server "$SOCK" "$TC_TMP/s.py" x "y z" <"$TC_TMP/in" >"$TC_TMP/o1" 2>"$TC_TMP/e1" || rc=$?
	[ "$rc" = 7 ]
	rc=0
	"$TOOLCELL" python --policy "$TC_TMP/p.json" "$TC_TMP/s.py" x "y z" <"$TC_TMP/in" >"$TC_TMP/o2" 2>"$TC_TMP/e2" || rc=$?
	[ "$rc" = 7 ]
	cmp "$TC_TMP/o1" "$TC_TMP/o2"
	cmp "$TC_TMP/e1" "$TC_TMP/e2"
	[ "$(cat "$TC_TMP/e1")" = "to stderr" ]
	"$PY" -I -c 'import sys; sys.stdout.buffer.write(b"argv=%r in=%r\n\xff\x00\x80" % (["x", "y z"], b"a\xff\x00b"))' |
		cmp - "$TC_TMP/o1"
}

@test "python --server: a signal ends toolcell as it ended the script, a time limit is 124, toolcell's own failures 125" {
	srv_start
	printf 'import os, signal\nos.kill(os.getpid(), signal.SIGUSR1)\n' >"$TC_TMP/sig.py"
	run -138 "$TOOLCELL" python --server "$SOCK" "$TC_TMP/sig.py" </dev/null
	run -138 "$TOOLCELL" python --policy "$TC_TMP/p.json" "$TC_TMP/sig.py" </dev/null
	printf 'import time\ntime.sleep(30)\n' >"$TC_TMP/slow.py"
	run -124 "$TOOLCELL" python --server "$SOCK" --timeout 0.5 "$TC_TMP/slow.py" </dev/null
	[ "$output" = "toolcell: the tool reached its time limit (wall clock): toolcell's own limit of 0.5 s, not its caller's (raise --timeout, TOOLCELL_TIMEOUT or the policy's limits.timeout)" ]
	# stdin over the server's request limit (4K): the server's refusal
	head -c 5000 /dev/zero | tr '\0' x >"$TC_TMP/big"
	run -125 "$TOOLCELL" python --server "$SOCK" "$TC_TMP/sig.py" <"$TC_TMP/big"
	[ "$output" = 'toolcell: request: "stdin" is longer than the 4096-byte limit' ]
	# what a server cannot take, and no server at all
	run -125 "$TOOLCELL" python --server "$SOCK" --pids 3 "$TC_TMP/sig.py" </dev/null
	[[ "$output" == "toolcell: --pids cannot be used with --server: the server's policy sets it ("* ]]
	run -125 "$TOOLCELL" python --server "$SOCK" --policy "$TC_TMP/p.json" "$TC_TMP/sig.py" </dev/null
	[[ "$output" == "toolcell: --policy cannot be used with --server"* ]]
	run -125 "$TOOLCELL" python --server "$SOCK" -c 'print(1)' </dev/null
	[ "$output" = "toolcell: python --server runs a script file: toolcell python --server SOCKET SCRIPT [ARGS] (python3's own options, such as -c, cannot be sent to a server)" ]
	run -125 "$TOOLCELL" python --server "$SOCK" </dev/null
	[ "$output" = "toolcell: python --server needs a script file: toolcell python --server SOCKET SCRIPT [ARGS] (stdin is the script's, not its source)" ]
	run -125 "$TOOLCELL" python --server "$TC_TMP/none.sock" "$TC_TMP/sig.py" </dev/null
	[ "$output" = "toolcell: cannot connect to the server at $TC_TMP/none.sock: No such file or directory (is 'toolcell serve' running?)" ]
	run -125 "$TOOLCELL" python --server relative.sock "$TC_TMP/sig.py" </dev/null
	[[ "$output" == *"--server expects the server's socket as an absolute path"* ]]
}

@test "a call's own limits hold: memory, CPU time, file size, open files, stdout; the record names them" {
	srv_start
	printf 'l = []\nwhile True:\n    l.append(bytearray(1 << 20))\n' >"$TC_TMP/mem.py"
	run -1 "$TOOLCELL" python --server "$SOCK" --memory 64M --result "$TC_TMP/r.json" "$TC_TMP/mem.py" </dev/null
	[ "${lines[-1]}" = "toolcell: the tool reached its memory limit (inferred from its last words)" ]
	[ "$(jget status <"$TC_TMP/r.json")" = memory_limit ]
	[ "$(jget limits.memory.value <"$TC_TMP/r.json")" = 67108864 ]
	# it stopped at the call's 64M, not at the server's 256M
	[ "$(jget memory_peak_bytes <"$TC_TMP/r.json")" -lt $((80 << 20)) ]
	# without the call's limit the same script lives (256M): it is the call's
	printf 'l = [bytearray(100 << 20)]\nprint("ok")\n' >"$TC_TMP/mem100.py"
	run -0 "$TOOLCELL" python --server "$SOCK" "$TC_TMP/mem100.py" </dev/null
	[ "$output" = ok ]
	printf 'while True:\n    pass\n' >"$TC_TMP/spin.py"
	run -124 "$TOOLCELL" python --server "$SOCK" --cpu-time 1 --result "$TC_TMP/r.json" "$TC_TMP/spin.py" </dev/null
	[ "$(jget status <"$TC_TMP/r.json")" = timeout ]
	[ "$(jget signal_name <"$TC_TMP/r.json")" = SIGXCPU ]
	[ "$(jget limits.cpu_time.value <"$TC_TMP/r.json")" = 1000 ]
	cat >"$TC_TMP/files.py" <<'PY'
import os
try:
    open("/tmp/f", "wb").write(b"x" * 16384)
except OSError as e:
    print("write", e.errno)
fds = []
try:
    while True:
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print("open", e.errno, max(fds) < 32)
PY
	run -0 "$TOOLCELL" python --server "$SOCK" --file-size 8K --open-files 32 "$TC_TMP/files.py" </dev/null
	[ "${lines[0]}" = "write 27" ]
	[ "${lines[1]}" = "open 24 True" ]
	run -0 "$TOOLCELL" python --server "$SOCK" "$TC_TMP/files.py" </dev/null
	[ "$output" = "" ] || [ "${lines[0]}" = "open 24 False" ]
	printf 'import sys\nsys.stdout.write("x" * 10000)\nsys.stdout.flush()\nimport time\ntime.sleep(30)\n' >"$TC_TMP/loud.py"
	run -137 --separate-stderr "$TOOLCELL" python --server "$SOCK" --stdout-size 4K --result "$TC_TMP/r.json" "$TC_TMP/loud.py" </dev/null
	[ "${#output}" = 4096 ]
	[ "$stderr" = "toolcell: the tool exceeded its output limit and was stopped (stdout)" ]
	[ "$(jget status <"$TC_TMP/r.json")" = output_limit ]
	[ "$(jget stdout_truncated <"$TC_TMP/r.json")" = true ]
}

@test "limits above the server's are clamped and the answer says so; malformed or fixed ones are BadRequest" {
	srv_start
	echo 'def run(args): return args' >"$TC_TMP/t.py"
	ask "{'id': 1, 'kind': 'call', 'file': '$TC_TMP/t.py', 'args': 1, 'limits': {'timeout': 999, 'memory': '1G', 'stdout_size': 4096}}" \
		"{'id': 2, 'kind': 'call', 'file': '$TC_TMP/t.py', 'limits': {'memory': 'lots'}}" \
		"{'id': 3, 'kind': 'call', 'file': '$TC_TMP/t.py', 'limits': {'pids': 4}}" \
		"{'id': 4, 'kind': 'call', 'file': '$TC_TMP/t.py', 'limits': {'memry': 4}}" \
		"{'id': 5, 'kind': 'call', 'file': '$TC_TMP/t.py', 'timeout_s': 1, 'limits': {'timeout': 2}}" \
		"{'id': 6, 'kind': 'call', 'file': '$TC_TMP/t.py', 'limits': {'memory': 1024}}" \
		"{'id': 7, 'kind': 'call', 'file': '$TC_TMP/t.py', 'limits': [1]}" \
		"{'id': 8, 'kind': 'exec', 'file': '$TC_TMP/t.py', 'stdin_base64': 'not base64!'}" \
		"{'id': 9, 'kind': 'call', 'file': '$TC_TMP/t.py', 'timeout_s': 100000}"
	[ "$(field 1 'a["ok"], a["data"], a["limits_clamped_to"]')" = "True 1 {'memory': 268435456, 'timeout': 20.0}" ]
	[ "$(field 1 'a["record"]["limits"]["stdout_size"]["value"], a["record"]["limits"]["timeout"]["value"]')" = "4096 20000" ]
	[ "$(field 2 'a["error"]["type"], a["error"]["message"]')" = 'BadRequest request: limits.memory: expected a size such as "256M"' ]
	[ "$(field 3 'a["error"]["message"]')" = "request: limits.pids cannot be set per call: a pool entry is built with it (a call may set memory, timeout, cpu_time, file_size, open_files, stdout_size, stderr_size; the server's policy sets the rest)" ]
	[ "$(field 4 'a["error"]["message"]')" = 'request: limits: unknown limit "memry" (a call may set memory, timeout, cpu_time, file_size, open_files, stdout_size, stderr_size)' ]
	[ "$(field 5 'a["error"]["message"]')" = 'request: "timeout_s" and limits.timeout are the same limit: give one' ]
	[ "$(field 6 'a["error"]["message"]')" = "request: limits.memory: below toolcell's minimum of 4M" ]
	[ "$(field 7 'a["error"]["message"]')" = 'request: "limits" must be an object' ]
	[ "$(field 8 'a["error"]["message"]')" = 'request: "stdin_base64" must be a base64 string (RFC 4648, padded)' ]
	[ "$(field 9 'a["error"]["message"]')" = 'request: "timeout_s" must be a number above 0 (seconds; the server'"'"'s limit is 20.000 s)' ]
	# toolcell call --server sends its limit options the same way
	echo 1 | "$TOOLCELL" call --server "$SOCK" --timeout 999 --result "$TC_TMP/r.json" "$TC_TMP/t.py" >"$TC_TMP/env"
	[ "$(jget data <"$TC_TMP/env")" = 1 ]
	[ "$(jget limits.timeout.value <"$TC_TMP/r.json")" = 20000 ]
	echo 'def run(args):\n    import time; time.sleep(30)' | sed 's/\\n/\n/' >"$TC_TMP/slow.py"
	run -1 "$TOOLCELL" call --server "$SOCK" --timeout 0.5 "$TC_TMP/slow.py" <<<'null'
	[ "$(jget error.type <<<"$output")" = Timeout ]
}

@test "the Python client: call and exec with a call's own limits and bytes; toolcell's refusals raise with the server's words" {
	srv_start
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
with toolcell_client.Client(sys.argv[1]) as c:
    a = c.call("def run(args):\n    return args\n", 5, memory="64M", timeout=999)
    print(a["data"], a["limits_clamped_to"], a["record"]["limits"]["memory"]["value"])
    e = c.exec_bytes("import sys; sys.stdout.buffer.write(sys.stdin.buffer.read()[::-1])",
                     stdin=b"\xff\x00a")
    print(e["stdout"], e["exit_code"])
    o = c.exec("print(\"y\" * 9000)", stdout_size="4K")
    print(o["status"], len(o["stdout"]))
    try:
        c.call("def run(a): return 1", pids=3)
    except TypeError as x:
        print("TypeError", x)
    try:
        c.call("def run(a): return 1", memory="lots")
    except toolcell_client.ToolcellRefused as x:
        print(x.type, x.message)
    s = c.stats()
    print(sorted(s), sorted(s["dispatch_ms"]), s["calls"]["bad_request"])
' "$SOCK"
	diff - <(echo "$output") <<'EOF'
5 {'timeout': 20.0} 67108864
b'a\x00\xff' 0
output_limit 4096
TypeError unknown limit 'pids' (a call may set: timeout, memory, cpu_time, file_size, open_files, stdout_size, stderr_size)
BadRequest request: limits.memory: expected a size such as "256M"
['calls', 'dispatch_ms', 'id', 'ok', 'pools', 'queue', 'sandboxes', 'sessions'] ['n', 'p50', 'p90', 'p99'] 1
EOF
}
