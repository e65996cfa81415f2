#!/usr/bin/env bats
# tools/python/toolcell_client.py, the standard-library client for agent
# frameworks: call() returns the `toolcell call` envelope as a dict, run()
# returns exit code, stdout, stderr and the result record, Session speaks the
# JSON lines of `toolcell session`. The tests are unittest scripts in
# client/, run with Debian's /usr/bin/python3 -I against the real toolcell
# (and, for paths a healthy toolcell does not take, client/fake_toolcell).

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
}

# client_dir: the folder holding toolcell_client.py (the checkout's tools/python)
client_dir() {
	local c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/python}" "$BATS_TEST_DIRNAME/../../tools/python"; do
		if [ -n "$c" ] && [ -r "$c/toolcell_client.py" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# unittest_script NAME: run client/NAME; it must pass every test it has, skip none
unittest_script() {
	local dir
	dir=$(client_dir) || tc_skip "tools/python/toolcell_client.py not found (set TC_SOURCE to the repository)"
	# -B: nothing written into the checkout
	TC_CLIENT_DIR="$dir" capture "$PY" -I -B "$BATS_TEST_DIRNAME/client/$1" -v
	cat "$TC_TMP/stderr" >&2
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = OK ]
	grep -Eq '^Ran [1-9][0-9]* tests? in ' "$TC_TMP/stderr"
	! grep -q 'skipped' "$TC_TMP/stderr"
}

@test "client call(): envelopes as dicts, tool failures and limits as ok false, refusals and a missing binary raise" {
	unittest_script test_call.py
}

@test "client run(): exit code, stdout, stderr and the record; refusals raise, a tool's own 125 does not" {
	unittest_script test_run.py
}

@test "client Session: the JSON-lines protocol, and ToolcellRefused from a toolcell without 'session'" {
	unittest_script test_session.py
}

@test "client: imports nothing outside Python's standard library" {
	local dir
	dir=$(client_dir) || tc_skip "tools/python/toolcell_client.py not found (set TC_SOURCE to the repository)"
	run "$PY" -I -B -c '
import ast, sys
tree = ast.parse(open(sys.argv[1]).read())
names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
print(" ".join(sorted(names - set(sys.stdlib_module_names))))' "$dir/toolcell_client.py"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "client Session against the real toolcell session: state, return_globals, timeout, state_lost, reset" {
	local dir
	dir=$(client_dir) || tc_skip "tools/python/toolcell_client.py not found (set TC_SOURCE to the repository)"
	run env TOOLCELL="$TOOLCELL" "$PY" -I -B -c '
import sys
sys.path.insert(0, sys.argv[1])
import toolcell_client as tc
with tc.Session(memory="256M") as s:
    a = s.execute("x = 6 * 7\nprint(x)")
    print(a["success"], repr(a["stdout"]), a["state_lost"])
    print(s.execute("y = x + 1", return_globals=["y"])["globals"])
    t = s.execute("while True: pass", timeout_s=0.3)
    print(t["timed_out"], t["exception"]["type"])
    print(s.execute("pass")["state_lost"])
    s.execute("z = 1")
    s.reset()
    print(s.execute("print(z)")["exception"]["type"])' "$dir"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf "True '42\\\\n' False\n{'y': 43}\nTrue Timeout\nTrue\nNameError")" ]
}
