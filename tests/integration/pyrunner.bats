#!/usr/bin/env bats
# PyRunner-style function tools (issue 5, part 2): a tool is Python code with a
# top-level `def run(args)`; the runner hands it a JSON object and reads back
# {"ok": true, "data": ...} or {"ok": false, "error": {"type", "message"}}.
# With `toolcell call` as the runner: the envelope of README.md, a non-dict
# result wrapped as data, an exception named by its Python type (MemoryError
# when the tool reaches its memory limit inside Python), a wall-clock limit
# as {"type": "Timeout"}, and a tool that still calls resource.setrlimit
# itself. The example tools such runners document (tools/pyrunner/) pass,
# asserted as a PyRunner test asserts them: result.ok, result.data.*,
# result.error.type / .message. call.bats covers the envelope's mechanics.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
}

# tool NAME: copy tools/pyrunner/NAME into $TC_TMP (mode 644), print its path
tool() {
	cp "$BATS_TEST_DIRNAME/tools/pyrunner/$1" "$TC_TMP/$1"
	chmod 644 "$TC_TMP/$1"
	echo "$TC_TMP/$1"
}

# pyrun NAME ARGS_JSON [OPTIONS...]: toolcell call OPTIONS tools/pyrunner/NAME
# with ARGS_JSON on stdin, the record in $TC_TMP/record.json; the envelope
# must be exactly one JSON document
pyrun() {
	local name=$1 args=$2 path
	shift 2
	path=$(tool "$name")
	printf '%s' "$args" >"$TC_TMP/args.json"
	capture "$TOOLCELL" call --result "$TC_TMP/record.json" "$@" "$path" <"$TC_TMP/args.json"
	is_one_json "$TC_TMP/stdout" || {
		echo "not one JSON document:" >&2
		cat "$TC_TMP/stdout" >&2
		return 1
	}
}

# result KEY: one value of the envelope (see jget)
result() {
	jget "$1" "$TC_TMP/stdout"
}

# error_keys: the error object's keys, sorted, space-separated
error_keys() {
	"$PY" -I -c 'import json, sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["error"])))' "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- text statistics

@test "pyrunner text_stats: result.ok and the statistics in result.data" {
	pyrun text_stats.py '{"text": "The cat sat.\nThe cat ran; the dog sat!"}'
	[ "$status" -eq 0 ]
	[ "$(result ok)" = true ]
	[ "$(result data.wordCount)" = 9 ]
	[ "$(result data.characterCount)" = 38 ]
	[ "$(result data.lineCount)" = 2 ]
	[ "$(result data.averageWordLength)" = 3.0 ]
	[ "$(result data.mostCommonWord)" = the ]
	[ "$(result data.mostCommonCount)" = 3 ]
	[ "$(result meta.status)" = ok ]
}

@test "pyrunner text_stats: its own error without a type comes back typed ToolError, source tool, exit 1" {
	pyrun text_stats.py '{"text": ""}'
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.message)" = "Missing required parameter: text" ]
	[ "$(result error.type)" = ToolError ]
	[ "$(result error.source)" = tool ]
	[ "$(error_keys)" = "message source type" ]
}

# ---------------------------------------------------------------- list operations

@test "pyrunner list_ops: sum, max, min and average; the bare number returned is wrapped as data" {
	pyrun list_ops.py '{"operation": "sum", "numbers": [4, 8, 15, 16, 23, 42]}'
	[ "$status" -eq 0 ]
	[ "$(result ok)" = true ]
	[ "$(result data)" = 108 ]
	pyrun list_ops.py '{"operation": "max", "numbers": [4, -8, 15.5]}'
	[ "$(result data)" = 15.5 ]
	pyrun list_ops.py '{"operation": "min", "numbers": [4, -8, 15.5]}'
	[ "$(result data)" = -8 ]
	pyrun list_ops.py '{"operation": "average", "numbers": [1, 2, 3, 4]}'
	[ "$status" -eq 0 ]
	[ "$(result data)" = 2.5 ]
	grep -q '"data":2.5' "$TC_TMP/stdout"
}

@test "pyrunner list_ops: an unknown operation is error {type: ValueError, message: 'Unknown operation: median'}" {
	pyrun list_ops.py '{"operation": "median", "numbers": [1, 2, 3]}'
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.type)" = ValueError ]
	[ "$(result error.message)" = "Unknown operation: median" ]
	[ "$(result error.source)" = tool ]
	[ "$(error_keys)" = "message source type" ]
	# the traceback went to stderr, not into the envelope
	grep -q 'ValueError: Unknown operation: median' "$TC_TMP/stderr"
}

@test "pyrunner list_ops: max of an empty list is Python's own ValueError message" {
	pyrun list_ops.py '{"operation": "max", "numbers": []}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = ValueError ]
	[ "$(result error.message)" = "max() arg is an empty sequence" ]
}

@test "pyrunner list_ops: a missing key is KeyError with the key as its message" {
	pyrun list_ops.py '{"numbers": [1]}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = KeyError ]
	[ "$(result error.message)" = "'operation'" ]
}

# ---------------------------------------------------------------- e-mail validation

@test "pyrunner email_validator: re sorts addresses; a dict without ok is wrapped as data" {
	pyrun email_validator.py '{"emails": ["ada@example.com", "Grace.Hopper+navy@Mail.Example.ORG", "plain.example.com", "x@-bad.com", "a@b.c", "ünï@example.com"]}'
	[ "$status" -eq 0 ]
	[ "$(result ok)" = true ]
	[ "$(result data.validCount)" = 2 ]
	[ "$(result data.results.0)" = '{"domain": "example.com", "email": "ada@example.com", "valid": true}' ]
	[ "$(result data.results.1.domain)" = mail.example.org ]
	[ "$(result data.results.2.valid)" = false ]
	[ "$(result data.results.3.valid)" = false ]
	[ "$(result data.results.4.valid)" = false ]
	[ "$(result data.results.5)" = '{"domain": null, "email": "\u00fcn\u00ef@example.com", "valid": false}' ]
}

@test "pyrunner email_validator: an address that is not a string is TypeError" {
	pyrun email_validator.py '{"emails": ["ok@example.com", 42]}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = TypeError ]
	[ "$(result error.message)" = "email must be a string, not int" ]
}

# ---------------------------------------------------------------- math operations

@test "pyrunner math_ops: add, subtract, multiply, divide, power, sqrt and factorial" {
	pyrun math_ops.py '{"operation": "add", "a": 2, "b": 40}'
	[ "$(result data)" = '{"operation": "add", "result": 42}' ]
	pyrun math_ops.py '{"operation": "subtract", "a": 2.5, "b": 0.5}'
	[ "$(result data.result)" = 2.0 ]
	pyrun math_ops.py '{"operation": "multiply", "a": 6, "b": 7}'
	[ "$(result data.result)" = 42 ]
	pyrun math_ops.py '{"operation": "divide", "a": 1, "b": 8}'
	[ "$(result data.result)" = 0.125 ]
	pyrun math_ops.py '{"operation": "power", "a": 2, "b": 100}'
	[ "$status" -eq 0 ]
	grep -q '"result":1267650600228229401496703205376' "$TC_TMP/stdout"
	pyrun math_ops.py '{"operation": "sqrt", "a": 2}'
	[ "$(result data.result)" = 1.4142135623730951 ]
	pyrun math_ops.py '{"operation": "factorial", "a": 20}'
	[ "$status" -eq 0 ]
	[ "$(result data.result)" = 2432902008176640000 ]
}

@test "pyrunner math_ops: division by zero is ZeroDivisionError, sqrt(-1) ValueError 'math domain error'" {
	pyrun math_ops.py '{"operation": "divide", "a": 1, "b": 0}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = ZeroDivisionError ]
	[ "$(result error.message)" = "division by zero" ]
	pyrun math_ops.py '{"operation": "sqrt", "a": -1}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = ValueError ]
	[ "$(result error.message)" = "math domain error" ]
	pyrun math_ops.py '{"operation": "modulo", "a": 1, "b": 2}'
	[ "$(result error.message)" = "Unknown operation: modulo" ]
}

# ---------------------------------------------------------------- limits

@test "pyrunner: a tool filling memory past --memory is MemoryError, status memory_limit (the measured peak at the limit)" {
	pyrun memory_hog.py '{"mb": 200, "step_mb": 1}' --memory 64M
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result meta.status)" = memory_limit ]
	if [ "$(jget limits.memory.enforced_by "$TC_TMP/record.json")" = rlimit ]; then
		[ "$(result error.type)" = MemoryError ]
		[ "$(result error.message)" = "" ]
		[ "$(result error.source)" = tool ]
		[ "$(error_keys)" = "message source type" ]
		[ "$(result meta.status_inferred)" = true ]
		[ "$(result meta.memory_peak_bytes)" -ge $((48 << 20)) ]
	else
		[[ "$(result error.type)" == MemoryLimit || "$(result error.type)" == MemoryError ]]
	fi
}

@test "pyrunner: one allocation the address-space limit refuses is the tool's MemoryError, not a measured memory_limit" {
	pyrun memory_hog.py '{"mb": 200}' --memory 64M
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.type)" = MemoryError ]
	[ "$(result error.message)" = "" ]
	[ "$(result error.source)" = tool ]
	if [ "$(jget limits.memory.enforced_by "$TC_TMP/record.json")" = rlimit ]; then
		# toolcell never saw the memory in use: it says what it measured
		[ "$(result meta.status)" = ok ]
		[ "$(result meta.memory_peak_bytes)" -lt $((48 << 20)) ]
	fi
	pyrun memory_hog.py '{"mb": 16}' --memory 64M
	[ "$status" -eq 0 ]
	[ "$(result data.allocated_mb)" = 16 ]
}

@test "pyrunner: one allocation RLIMIT_AS refuses, uncaught or caught by the tool, is recorded as measured: exit_nonzero or ok, not inferred" {
	# the kernel keeps no count of a refused mmap and the peak stays far
	# below the limit: toolcell records what it measured, as for a tool's own
	# raise MemoryError (Arium 1.6), which it cannot tell apart
	capture "$TOOLCELL" python --memory 64M --result "$TC_TMP/record.json" -c 'bytearray(200 << 20)'
	[ "$(jget limits.memory.enforced_by "$TC_TMP/record.json")" = rlimit ] ||
		tc_skip "memory enforced by $(jget limits.memory.enforced_by "$TC_TMP/record.json") here: a cgroup OOM kill (tests/vm/guest/t-memory.sh)"
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = MemoryError ]
	[ "$(jget status "$TC_TMP/record.json")" = exit_nonzero ]
	[ "$(jget status_inferred "$TC_TMP/record.json")" = false ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = 1 ]
	[ "$(jget memory_peak_bytes "$TC_TMP/record.json")" -lt $((48 << 20)) ]
	capture "$TOOLCELL" python --memory 64M --result "$TC_TMP/record.json" -c '
try:
    bytearray(200 << 20)
except MemoryError:
    print("caught")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = caught ]
	[ "$(jget status "$TC_TMP/record.json")" = ok ]
	[ "$(jget status_inferred "$TC_TMP/record.json")" = false ]
	[ "$(jget memory_peak_bytes "$TC_TMP/record.json")" -lt $((48 << 20)) ]
}

@test "pyrunner (Arium 1.6 'should handle MemoryError'): a tool's own raise MemoryError keeps type and message; no memory_limit" {
	printf 'def run(args):\n    raise MemoryError("Memory limit exceeded")\n' >"$TC_TMP/raise_mem.py"
	chmod 644 "$TC_TMP/raise_mem.py"
	capture "$TOOLCELL" call --memory 64M --result "$TC_TMP/record.json" "$TC_TMP/raise_mem.py" < <(printf '{}')
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.type)" = MemoryError ]
	[ "$(result error.message)" = "Memory limit exceeded" ]
	[ "$(result error.source)" = tool ]
	[ "$(result meta.status)" = ok ]
	[ "$(jget status "$TC_TMP/record.json")" = ok ]
	# the same under toolcell python: exit 1 with the traceback, status exit_nonzero
	capture "$TOOLCELL" python --memory 64M --result "$TC_TMP/record.json" -c 'raise MemoryError("mine")'
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "MemoryError: mine" ]
	[ "$(jget status "$TC_TMP/record.json")" = exit_nonzero ]
}

@test "pyrunner: a tool with a SyntaxError answers {ok: false, error: {type: SyntaxError}} with the line, not InvalidResponse" {
	printf 'import json\n\ndef run(args)\n    return 1\n' >"$TC_TMP/syntax.py"
	chmod 644 "$TC_TMP/syntax.py"
	capture "$TOOLCELL" call "$TC_TMP/syntax.py" < <(printf '{}')
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.type)" = SyntaxError ]
	[ "$(result error.message)" = "expected ':' (syntax.py, line 3)" ]
	[ "$(result error.source)" = tool ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "  File \"$TC_TMP/syntax.py\", line 3" ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "SyntaxError: expected ':'" ]
	# a script-mode tool too, and IndentationError keeps its own name
	printf 'print(1)\n  print(2)\n' >"$TC_TMP/indent.py"
	chmod 644 "$TC_TMP/indent.py"
	capture "$TOOLCELL" call "$TC_TMP/indent.py" < <(printf '{}')
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = IndentationError ]
	[ "$(result error.message)" = "unexpected indent (indent.py, line 2)" ]
}

@test "pyrunner 8b9ee80: default(args) is called when the tool has no run(); run() wins when both" {
	printf 'def default(args):\n    return {"via": "default", "n": args["n"]}\n' >"$TC_TMP/dflt.py"
	printf 'def default(args):\n    return "default"\n\ndef run(args):\n    return "run"\n' >"$TC_TMP/both.py"
	chmod 644 "$TC_TMP/dflt.py" "$TC_TMP/both.py"
	capture "$TOOLCELL" call "$TC_TMP/dflt.py" < <(printf '{"n": 7}')
	[ "$status" -eq 0 ]
	[ "$(result data)" = '{"n": 7, "via": "default"}' ]
	capture "$TOOLCELL" call "$TC_TMP/both.py" < <(printf '{}')
	[ "$(result data)" = run ]
}

@test "pyrunner: a tool that sets its own RLIMIT_AS (as PyRunner's wrapper does) gets MemoryError at its own limit" {
	pyrun memory_hog.py '{"mb": 150, "limit_mb": 96}'
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = MemoryError ]
	[ "$(result error.source)" = tool ]
	pyrun memory_hog.py '{"mb": 16, "limit_mb": 96}'
	[ "$status" -eq 0 ]
	[ "$(result data.allocated_mb)" = 16 ]
}

@test "pyrunner: resource.setrlimit inside the tool lowers its limits and cannot raise them past toolcell's" {
	pyrun setrlimit_probe.py '{"as_mb": 100}' --memory 128M
	[ "$status" -eq 0 ]
	[ "$(result data.as_now)" = "[104857600, 104857600]" ]
	[ "$(result data.nofile_now)" = "[32, 32]" ]
	[ "$(result data.raise_back)" = ValueError ]
	if [ "$(jget limits.memory.enforced_by "$TC_TMP/record.json")" = rlimit ]; then
		[ "$(result data.as_before)" = "[134217728, 134217728]" ]
	fi
}

@test "pyrunner: a CPU-bound tool past --timeout 0.5 is {type: Timeout, source: toolcell}, exit 1, within 2 s" {
	local t0 t1
	t0=$(date +%s%N)
	pyrun busy_loop.py '{}' --timeout 0.5
	t1=$(date +%s%N)
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result error.type)" = Timeout ]
	[ "$(result error.source)" = toolcell ]
	[ "$(result meta.status)" = timeout ]
	[ "$(jget status "$TC_TMP/record.json")" = timeout ]
	[ $(((t1 - t0) / 1000000)) -lt 2000 ]
}

# ---------------------------------------------------------------- interpreter path

# wrapper: tools/toolcell-python beside a link to the binary, in $TC_TMP/bin
wrapper() {
	local c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/toolcell-python}" "$BATS_TEST_DIRNAME/../../tools/toolcell-python"; do
		if [ -n "$c" ] && [ -r "$c" ]; then
			mkdir -p "$TC_TMP/bin"
			chmod 755 "$TC_TMP/bin"
			cp "$c" "$TC_TMP/bin/toolcell-python"
			chmod 755 "$TC_TMP/bin/toolcell-python"
			ln -s "$(readlink -f "$TOOLCELL")" "$TC_TMP/bin/toolcell"
			echo "$TC_TMP/bin/toolcell-python"
			return 0
		fi
	done
	return 1
}

@test "pyrunner: with toolcell-python as its interpreter, a runner's own wrapper file runs unchanged" {
	local w dir
	w=$(wrapper) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	dir="$TC_TMP/arium-py-7"
	mkdir "$dir"
	chmod 755 "$dir"
	cp "$BATS_TEST_DIRNAME/tools/pyrunner/wrapped_tool.py" "$dir/tool.py"
	chmod 644 "$dir/tool.py"
	printf '{"items": ["pear", "Apple", "fig"]}' >"$TC_TMP/args.json"
	status=0
	(cd /tmp && PYTHONUNBUFFERED=1 "$w" "$dir/tool.py") <"$TC_TMP/args.json" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 0 ]
	printf '{\n  "ok": true,\n  "data": [\n    "Apple",\n    "fig",\n    "pear"\n  ]\n}\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	printf '{"items": ["pear", 7]}' >"$TC_TMP/args.json"
	status=0
	(cd /tmp && "$w" "$dir/tool.py") <"$TC_TMP/args.json" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 1 ]
	[ "$(result error.type)" = TypeError ]
	# the same bytes bare python3 prints
	(cd /tmp && "$PY" "$dir/tool.py") <"$TC_TMP/args.json" >"$TC_TMP/want" 2>/dev/null || true
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

# arium TOOL_CODE MAX_MB: Arium HEAD's generated tool.py around TOOL_CODE in
# a fresh $TC_TMP/arium-py-N/, printed
arium() {
	local dir
	dir=$(mktemp -d "$TC_TMP/arium-py-XXXXXX")
	chmod 755 "$dir"
	printf '%s' "$1" | "$PY" -I "$BATS_TEST_DIRNAME/tools/pyrunner/arium_head_wrapper.py" "$2" >"$dir/tool.py"
	chmod 644 "$dir/tool.py"
	echo "$dir/tool.py"
}

# arium_run PATH_DIR TOOL.py ARGS_JSON: `python3 TOOL.py` as Arium HEAD
# spawns it (PATH lookup, node's cwd, JSON without newline on stdin)
arium_run() {
	printf '%s' "$3" >"$TC_TMP/args.json"
	status=0
	(cd /tmp && PATH="$1:$PATH" python3 "$2") <"$TC_TMP/args.json" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
}

# The contract's observed answers (CLIENTS.md 002), through a folder on PATH
# whose python3 is a link to toolcell-python: bytes as bare python3's
arium_contract() {
	local bin=$1 t
	t=$(arium '
    def run(args):
        return {"wordCount": len(args["text"].split())}
' 256)
	arium_run "$bin" "$t" '{"text": "a b c"}'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = '{"ok": true, "data": {"wordCount": 3}}' ]
	t=$(arium 'def run(args): return "plain"' 256)
	arium_run "$bin" "$t" ''
	[ "$(cat "$TC_TMP/stdout")" = '{"ok": true, "data": "plain"}' ]
	t=$(arium 'def run(args): raise ValueError("bad")' 256)
	arium_run "$bin" "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = '{"ok": false, "error": {"type": "ValueError", "message": "bad"}}' ]
	# Arium's own test 1.6: an indented raise MemoryError (dedented by the runner)
	t=$(arium '
        def run(args):
            raise MemoryError("Memory limit exceeded")
' 64)
	arium_run "$bin" "$t" '{}'
	[ "$(cat "$TC_TMP/stdout")" = '{"ok": false, "error": {"type": "MemoryError", "message": "Memory limit exceeded"}}' ]
	grep -q 'resource.setrlimit' "$t"
	grep -q '64 \* 1024 \* 1024' "$t"
	t=$(arium 'def run(args): return len(bytearray(200 * 1024 * 1024))' 64)
	arium_run "$bin" "$t" '{}'
	[ "$(cat "$TC_TMP/stdout")" = '{"ok": false, "error": {"type": "MemoryError", "message": ""}}' ]
	t=$(arium 'import sys
def run(args): sys.exit(3)' 256)
	arium_run "$bin" "$t" '{}'
	[ "$status" -eq 3 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "Arium HEAD: python3 found on PATH is a link to an installed toolcell-python; the contract's answers hold" {
	local w
	w=$(wrapper) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	mkdir "$TC_TMP/pybin"
	chmod 755 "$TC_TMP/pybin"
	ln -s "$w" "$TC_TMP/pybin/python3"
	# it is toolcell that runs it: the sandbox's hostname, not the host's
	printf 'import socket\nprint(socket.gethostname())\n' >"$TC_TMP/host.py"
	chmod 644 "$TC_TMP/host.py"
	[ "$(PATH="$TC_TMP/pybin:$PATH" python3 "$TC_TMP/host.py")" = toolcell ]
	arium_contract "$TC_TMP/pybin"
}

@test "Arium HEAD: the same link to tools/toolcell-python in a source tree runs build/toolcell" {
	local src=${TC_SOURCE:-$BATS_TEST_DIRNAME/../..}
	[ -x "$src/tools/toolcell-python" ] && [ -x "$src/build/toolcell" ] && [ -d "$src/build/rootfs" ] ||
		tc_skip "no source tree with build/ (set TC_SOURCE)"
	mkdir "$TC_TMP/pybin"
	chmod 755 "$TC_TMP/pybin"
	ln -s "$src/tools/toolcell-python" "$TC_TMP/pybin/python3"
	printf 'import socket\nprint(socket.gethostname())\n' >"$TC_TMP/host.py"
	chmod 644 "$TC_TMP/host.py"
	[ "$(cd /tmp && env -i PATH="$TC_TMP/pybin:/usr/bin:/bin" python3 "$TC_TMP/host.py")" = toolcell ]
	arium_contract "$TC_TMP/pybin"
}

@test "Arium 8b9ee80: validate() is pythonPath -m py_compile FILE through toolcell-python" {
	local w
	w=$(wrapper) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	printf 'def run(args):\n    return 1\n' >"$TC_TMP/good.py"
	printf 'def run(args)\n    return 1\n' >"$TC_TMP/bad.py"
	chmod 644 "$TC_TMP/good.py" "$TC_TMP/bad.py"
	capture "$w" -m py_compile "$TC_TMP/good.py"
	[ "$status" -eq 0 ]
	capture "$w" -m py_compile "$TC_TMP/bad.py"
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "SyntaxError: expected ':'" ]
}
