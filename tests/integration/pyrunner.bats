#!/usr/bin/env bats
# PyRunner-style function tools (issue 5, part 2): a tool is Python code with a
# top-level `def run(args)`; the runner hands it a JSON object and reads back
# {"ok": true, "data": ...} or {"ok": false, "error": {"type", "message"}}.
# With `toolcell call` as the runner: the envelope of DESIGN §3, a non-dict
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

@test "pyrunner: a tool past --memory inside Python is error type MemoryError (MemoryLimit where cgroup v2 kills it)" {
	pyrun memory_hog.py '{"mb": 200}' --memory 64M
	[ "$status" -eq 1 ]
	[ "$(result ok)" = false ]
	[ "$(result meta.status)" = memory_limit ]
	if [ "$(jget limits.memory.enforced_by "$TC_TMP/record.json")" = rlimit ]; then
		[ "$(result error.type)" = MemoryError ]
		[ "$(result error.source)" = tool ]
		[ "$(error_keys)" = "message source type" ]
	else
		[[ "$(result error.type)" == MemoryLimit || "$(result error.type)" == MemoryError ]]
	fi
	pyrun memory_hog.py '{"mb": 16}' --memory 64M
	[ "$status" -eq 0 ]
	[ "$(result data.allocated_mb)" = 16 ]
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
