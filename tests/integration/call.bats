#!/usr/bin/env bats
# `toolcell call TOOL.py < request` (README.md, "The `call` envelope"): one JSON
# request in, exactly one JSON envelope out; run(args) and script-mode tools;
# toolcell's own errors (BadRequest, Timeout, InvalidResponse) against the
# tool's; exit 0 / 1 / 125; and PyRunner-style example tools.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
}

# call TOOL REQUEST [OPTIONS...]: toolcell call OPTIONS TOOL with REQUEST
# (bytes, as given) on stdin; the envelope lands in $TC_TMP/stdout and must
# be exactly one JSON document, whatever happened.
call() {
	local tool=$1 request=$2
	shift 2
	printf '%s' "$request" >"$TC_TMP/request"
	capture "$TOOLCELL" call "$@" "$tool" <"$TC_TMP/request"
	if ! is_one_json "$TC_TMP/stdout"; then
		echo "stdout is not exactly one JSON document:" >&2
		cat "$TC_TMP/stdout" >&2
		return 1
	fi
}

# field KEY: one value of the envelope (see jget)
field() {
	jget "$1" "$TC_TMP/stdout"
}

# envelope_keys: the envelope's top-level keys, sorted, space-separated
envelope_keys() {
	"$PY" -I -c 'import json, sys; print(" ".join(sorted(json.load(open(sys.argv[1])))))' "$TC_TMP/stdout"
}

# rejected_before_sandbox: the record says the request was refused and no
# sandbox was made (status rejected, no exit code, no namespaces)
rejected_before_sandbox() {
	[ "$(jget status "$TC_TMP/record.json")" = rejected ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = null ]
	[ "$(jget isolation.namespaces "$TC_TMP/record.json")" = "[]" ]
}

# ---------------------------------------------------------------- run(args) tools

@test "call: run(args) returning a dict gives {ok: true, data: <the dict>, meta}, exit 0" {
	call "$(fixture call_double.py)" '{"n": 21, "label": "x"}'
	[ "$status" -eq 0 ]
	[ "$(envelope_keys)" = "data meta ok" ]
	[ "$(field ok)" = true ]
	[ "$(field data)" = '{"doubled": 42, "label": "x"}' ]
}

@test "call: meta is a subset of the result record, agreeing with it (status, exit_code, signal, wall_ms)" {
	call "$(fixture call_double.py)" '{"n": 1}' --result "$TC_TMP/record.json"
	[ "$status" -eq 0 ]
	"$PY" -I -c '
import json, sys
meta = json.load(open(sys.argv[1]))["meta"]
record = json.load(open(sys.argv[2]))
assert isinstance(meta, dict) and meta, meta
extra = set(meta) - set(record)
assert not extra, "meta keys not in the record: %s" % extra
for k in ("status", "exit_code", "signal", "wall_ms"):
    assert k in meta, "meta lacks " + k
for k in meta:
    assert meta[k] == record[k], "%s: meta %r, record %r" % (k, meta[k], record[k])
assert meta["status"] == "ok" and meta["exit_code"] == 0 and meta["signal"] is None, meta
' "$TC_TMP/stdout" "$TC_TMP/record.json"
}

@test "call: a list returned by run() is wrapped as data" {
	call "$(fixture call_return_kind.py)" '{"kind": "list"}'
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	[ "$(field data)" = '[1, "two", 3.5, null]' ]
}

@test "call: an int returned by run() is wrapped as data" {
	call "$(fixture call_return_kind.py)" '{"kind": "int"}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = 42 ]
}

@test "call: a str returned by run() is wrapped as data" {
	call "$(fixture call_return_kind.py)" '{"kind": "str"}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = "plain text" ]
	grep -q '"data":"plain text"\|"data": "plain text"' "$TC_TMP/stdout"
}

@test "call: None returned by run() is wrapped as data: null" {
	call "$(fixture call_return_kind.py)" '{"kind": "none"}'
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	[ "$(envelope_keys)" = "data meta ok" ]
	[ "$(field data)" = null ]
}

@test "call: false returned by run() is wrapped as data: false, still ok" {
	call "$(fixture call_return_kind.py)" '{"kind": "bool"}'
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	[ "$(field data)" = false ]
}

@test "call: a tool's own {ok: false, error} passes through with source tool, exit 1" {
	call "$(fixture call_tool_error.py)" '{"id": 5}'
	[ "$status" -eq 1 ]
	[ "$(envelope_keys)" = "error meta ok" ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = NotFound ]
	[ "$(field error.message)" = "no item 5" ]
	[ "$(field error.source)" = tool ]
}

@test "call: a tool claiming source toolcell for its error is still source tool" {
	call "$(fixture call_forge.py)" '{"forge": "source"}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = Timeout ]
	[ "$(field error.source)" = tool ]
	[ "$(field meta.status)" = ok ]
}

@test "call: meta is toolcell's, not the tool's, even when the tool returns a meta of its own" {
	call "$(fixture call_forge.py)" '{"forge": "meta"}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"real": 1}' ]
	[ "$(field meta.status)" = ok ]
	[ "$(field meta.exit_code)" = 0 ]
}

@test "call: ValueError raised in run() becomes error type ValueError, source tool, exit 1" {
	call "$(fixture call_raise.py)" '{"raise": "ValueError"}'
	[ "$status" -eq 1 ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = ValueError ]
	[ "$(field error.source)" = tool ]
	[[ "$(field error.message)" == *"bad value 7"* ]]
}

@test "call: KeyError raised in run() becomes error type KeyError, source tool, exit 1" {
	call "$(fixture call_raise.py)" '{"raise": "KeyError"}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = KeyError ]
	[ "$(field error.source)" = tool ]
	[[ "$(field error.message)" == *missing_key* ]]
}

@test "call: a tool-defined exception class becomes error type = its class name" {
	call "$(fixture call_raise.py)" '{"raise": "custom"}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = QuotaExceeded ]
	[ "$(field error.source)" = tool ]
	[[ "$(field error.message)" == *"over quota"* ]]
}

@test "call: print() and fd-1 writes inside run() go to stderr and leave the envelope intact" {
	call "$(fixture call_print_in_run.py)" '{}'
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	[ "$(field data)" = '{"clean": true}' ]
	grep -q 'stray print from run()' "$TC_TMP/stderr"
	grep -q 'raw fd 1 write' "$TC_TMP/stderr"
	grep -q 'to stderr' "$TC_TMP/stderr"
	! grep -q 'stray print\|Forged\|raw fd 1' "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- script-mode tools

@test "call: a script-mode tool (no run) reads the request on stdin; its printed JSON becomes data" {
	call "$(fixture call_script_mode.py)" '{"name": "Ada"}'
	[ "$status" -eq 0 ]
	[ "$(field ok)" = true ]
	[ "$(field data)" = '{"greeting": "hello Ada", "len": 3}' ]
}

@test "call: a run() defined only inside an if block is not top-level: the tool runs as a script" {
	printf 'import json, sys\nif False:\n    def run(args):\n        return 1\nprint(json.dumps({"mode": "script", "req": json.load(sys.stdin)}))\n' >"$TC_TMP/nested_run.py"
	chmod 644 "$TC_TMP/nested_run.py"
	call "$TC_TMP/nested_run.py" '[1, 2]'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"mode": "script", "req": [1, 2]}' ]
}

# ---------------------------------------------------------------- bytes of data

@test "call: big integers pass through byte-exact (12345678901234567890 in, out, and +1)" {
	call "$(fixture call_bigint.py)" '{"n": 12345678901234567890}'
	[ "$status" -eq 0 ]
	grep -q '12345678901234567890' "$TC_TMP/stdout"
	grep -q '12345678901234567891' "$TC_TMP/stdout"
	[ "$(field data.echo)" = 12345678901234567890 ]
	[ "$(field data.next)" = 12345678901234567891 ]
	[ "$(field data.literal)" = 12345678901234567890 ]
	! grep -q 'e+19\|1.2345678901234568' "$TC_TMP/stdout"
}

@test "call: the bytes of data are the tool's own (escapes, 1.50, 1E400 unchanged)" {
	cat >"$TC_TMP/raw_data.py" <<'EOF'
import sys
sys.stdout.write('{"ok": true, "data": {"s": "caf\\u00e9 \\"q\\"", "f": 1.50, "e": 1E400}}')
EOF
	chmod 644 "$TC_TMP/raw_data.py"
	call "$TC_TMP/raw_data.py" '{}'
	[ "$status" -eq 0 ]
	grep -qF '{"s": "caf\u00e9 \"q\"", "f": 1.50, "e": 1E400}' "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- bad responses

@test "call: a tool printing garbage gives InvalidResponse, source toolcell, exit 1" {
	call "$(fixture call_garbage.py)" '{}'
	[ "$status" -eq 1 ]
	[ "$(envelope_keys)" = "error meta ok" ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = InvalidResponse ]
	[ "$(field error.source)" = toolcell ]
}

@test "call: a tool printing nothing gives InvalidResponse, source toolcell, exit 1" {
	call "$(fixture call_silent.py)" '{}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = InvalidResponse ]
	[ "$(field error.source)" = toolcell ]
}

@test "call: a tool printing two JSON documents gives InvalidResponse, exit 1" {
	call "$(fixture call_two_docs.py)" '{}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = InvalidResponse ]
	[ "$(field error.source)" = toolcell ]
}

@test "call: a script-mode tool that exits 3 after printing nothing is a failure (exit 1), never ok" {
	printf 'import sys\nsys.exit(3)\n' >"$TC_TMP/exit3.py"
	chmod 644 "$TC_TMP/exit3.py"
	call "$TC_TMP/exit3.py" '{}'
	[ "$status" -eq 1 ]
	[ "$(field ok)" = false ]
	[ "$(field meta.exit_code)" = 3 ]
}

@test "call: a tool sleeping past --timeout 0.5 gives Timeout, source toolcell, exit 1, within 2 s" {
	local t0 t1
	t0=$(date +%s%N)
	call "$(fixture call_sleep.py)" '{}' --timeout 0.5
	t1=$(date +%s%N)
	[ "$status" -eq 1 ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = Timeout ]
	[ "$(field error.source)" = toolcell ]
	[ "$(field meta.status)" = timeout ]
	[ $(((t1 - t0) / 1000000)) -lt 2000 ]
}

# ---------------------------------------------------------------- bad requests

# bad_request REQUEST_FILE [OPTIONS...]: the request is refused before a sandbox
bad_request() {
	local req=$1
	shift
	capture "$TOOLCELL" call --result "$TC_TMP/record.json" "$@" "$(fixture call_echo.py)" <"$req"
	is_one_json "$TC_TMP/stdout"
	[ "$status" -eq 125 ]
	[ "$(envelope_keys)" = "error meta ok" ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = BadRequest ]
	[ "$(field error.source)" = toolcell ]
	[ "$(field meta.status)" = rejected ]
	rejected_before_sandbox
}

@test "call: a request that is not JSON is BadRequest, exit 125, no sandbox built" {
	printf 'not json at all' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: an empty request is BadRequest, exit 125, no sandbox built" {
	: >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request with trailing garbage after the value is BadRequest, exit 125" {
	printf '{"a": 1} trailing' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request of two JSON values is BadRequest, exit 125" {
	printf '{"a": 1}\n{"b": 2}\n' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request with duplicate keys is BadRequest, exit 125" {
	printf '{"a": 1, "b": {"c": 1, "c": 2}}' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request nested 65 deep is BadRequest, exit 125" {
	"$PY" -I -c 'import sys; sys.stdout.write("[" * 65 + "]" * 65)' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request nested exactly 64 deep is accepted" {
	call "$(fixture call_depth.py)" "$("$PY" -I -c 'print("[" * 64 + "]" * 64)')"
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"depth": 64}' ]
}

@test "call: a request with invalid UTF-8 is BadRequest, exit 125" {
	printf '{"s": "caf\xe9"}' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

@test "call: a request with an overlong UTF-8 encoding is BadRequest, exit 125" {
	printf '{"s": "\xc0\xaf"}' >"$TC_TMP/req"
	bad_request "$TC_TMP/req"
}

# request_of_size N: a JSON request of exactly N bytes, {"kind": "int", "pad": "xx..."}
request_of_size() {
	"$PY" -I -c '
import sys
head, tail = "{\"kind\": \"int\", \"pad\": \"", "\"}"
sys.stdout.write(head + "x" * (int(sys.argv[1]) - len(head) - len(tail)) + tail)' "$1"
}

@test "call: a request one byte over --request-size 4K is BadRequest, exit 125, no sandbox built" {
	request_of_size 4097 >"$TC_TMP/req"
	[ "$(stat -c %s "$TC_TMP/req")" -eq 4097 ]
	bad_request "$TC_TMP/req" --request-size 4K
}

@test "call: a request of exactly --request-size 4K is accepted" {
	request_of_size 4096 >"$TC_TMP/req"
	[ "$(stat -c %s "$TC_TMP/req")" -eq 4096 ]
	capture "$TOOLCELL" call --request-size 4K "$(fixture call_return_kind.py)" <"$TC_TMP/req"
	[ "$status" -eq 0 ]
	[ "$(field data)" = 42 ]
}

@test "call: a response larger than --request-size is InvalidResponse, source toolcell, exit 1" {
	printf 'def run(args):\n    return "z" * 5000\n' >"$TC_TMP/big_response.py"
	chmod 644 "$TC_TMP/big_response.py"
	call "$TC_TMP/big_response.py" '{}' --request-size 4K
	[ "$status" -eq 1 ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = InvalidResponse ]
	[ "$(field error.source)" = toolcell ]
}

@test "call: a request over --request-size 1K is refused with exit 125 and still one envelope on stdout" {
	"$PY" -I -c 'import sys; sys.stdout.write("[" + ",".join(["1"] * 1000) + "]")' >"$TC_TMP/req"
	capture "$TOOLCELL" call --request-size 1K "$(fixture call_echo.py)" <"$TC_TMP/req"
	[ "$status" -eq 125 ]
	is_one_json "$TC_TMP/stdout"
	[ "$(field ok)" = false ]
	[ "$(field error.source)" = toolcell ]
}

@test "call: a missing tool file is BadRequest, exit 125, one envelope" {
	printf '{}' >"$TC_TMP/req"
	capture "$TOOLCELL" call --result "$TC_TMP/record.json" "$TC_TMP/no-such-tool.py" <"$TC_TMP/req"
	[ "$status" -eq 125 ]
	is_one_json "$TC_TMP/stdout"
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = BadRequest ]
	[ "$(field error.source)" = toolcell ]
	rejected_before_sandbox
}

@test "call: an unknown option still prints one envelope on stdout, exit 125" {
	printf '{}' >"$TC_TMP/req"
	capture "$TOOLCELL" call --no-such-option "$(fixture call_echo.py)" <"$TC_TMP/req"
	[ "$status" -eq 125 ]
	is_one_json "$TC_TMP/stdout"
	[ "$(field ok)" = false ]
	[ "$(field error.source)" = toolcell ]
	grep -q -- '--no-such-option' "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- PyRunner-style examples

@test "example text_stats: word, character, line and unique-word counts" {
	call "$(fixture text_stats.py)" '{"text": "The quick brown fox.\nThe lazy dog jumps!"}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"characters": 40, "characters_no_spaces": 33, "lines": 2, "longest_word": "quick", "unique_words": 7, "words": 8}' ]
}

@test "example list_ops: sum, max and min of a list" {
	local tool
	tool=$(fixture list_ops.py)
	call "$tool" '{"operation": "sum", "numbers": [3, 1, 4, 1, 5, 9, 2, 6]}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"count": 8, "operation": "sum", "result": 31}' ]
	call "$tool" '{"operation": "max", "numbers": [3, -1, 4.5]}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"count": 3, "operation": "max", "result": 4.5}' ]
	call "$tool" '{"operation": "min", "numbers": [3, -1, 4.5]}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"count": 3, "operation": "min", "result": -1}' ]
}

@test "example list_ops: an unknown operation is the tool's UnknownOperation error, exit 1" {
	call "$(fixture list_ops.py)" '{"operation": "median", "numbers": [1, 2]}'
	[ "$status" -eq 1 ]
	[ "$(field ok)" = false ]
	[ "$(field error.type)" = UnknownOperation ]
	[ "$(field error.message)" = "unknown operation: median (known: max, mean, min, sum)" ]
	[ "$(field error.source)" = tool ]
}

@test "example email_validate: re sorts addresses into valid and invalid" {
	call "$(fixture email_validate.py)" '{"emails": ["ada@example.com", "first.last+tag@sub.example.org", "no-at-sign.example.com", "two@@example.com", "user@localhost", "x@y.io"]}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"all_valid": false, "invalid": ["no-at-sign.example.com", "two@@example.com", "user@localhost"], "valid": ["ada@example.com", "first.last+tag@sub.example.org", "x@y.io"]}' ]
}

@test "example math_ops: sqrt, factorial, gcd, power and hypot give exact results" {
	local tool
	tool=$(fixture math_ops.py)
	call "$tool" '{"operation": "sqrt", "x": 144}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"result": 12.0}' ]
	call "$tool" '{"operation": "factorial", "n": 25}'
	[ "$status" -eq 0 ]
	grep -q '15511210043330985984000000' "$TC_TMP/stdout"
	[ "$(field data)" = '{"result": 15511210043330985984000000}' ]
	call "$tool" '{"operation": "gcd", "numbers": [84, 126, 210]}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"result": 42}' ]
	call "$tool" '{"operation": "power", "base": 2, "exponent": 10}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"result": 1024}' ]
	call "$tool" '{"operation": "hypot", "x": 3, "y": 4}'
	[ "$status" -eq 0 ]
	[ "$(field data)" = '{"result": 5.0}' ]
}

@test "example math_ops: an unsupported operation raises ValueError, reported as the tool's error" {
	call "$(fixture math_ops.py)" '{"operation": "log"}'
	[ "$status" -eq 1 ]
	[ "$(field error.type)" = ValueError ]
	[ "$(field error.source)" = tool ]
	[[ "$(field error.message)" == *"unsupported operation: log"* ]]
}
