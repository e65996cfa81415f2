#!/usr/bin/env bats
# tools/python/toolcell/client.py (also imported as toolcell_client, its
# first name), the standard-library client for agent
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

@test "client call(): envelopes as dicts, tool failures and limits as ok false, refusals and a missing binary raise" {
	tc_unittest "$BATS_TEST_DIRNAME/client/test_call.py"
}

@test "client run(): exit code, stdout, stderr and the record; refusals raise, a tool's own 125 does not" {
	tc_unittest "$BATS_TEST_DIRNAME/client/test_run.py"
}

@test "client Session: the JSON-lines protocol, and ToolcellRefused from a toolcell without 'session'" {
	tc_unittest "$BATS_TEST_DIRNAME/client/test_session.py"
}

@test "serve client: the request line is json.dumps's; answers are json.loads's however they arrive; a bad one says json.loads's words" {
	tc_unittest "$BATS_TEST_DIRNAME/client/test_serve_client.py" 3
}

@test "client: the package imports nothing outside Python's standard library and itself; toolcell_client is toolcell.client" {
	local dir
	dir=$(tc_python_dir) || tc_skip "tools/python/toolcell not found (set TC_SOURCE to the repository)"
	run "$PY" -I -B -c '
import ast, glob, os, sys
names = set()
for f in glob.glob(os.path.join(sys.argv[1], "toolcell", "*.py")) + [os.path.join(sys.argv[1], "toolcell_client.py")]:
    tree = ast.parse(open(f).read())
    names |= {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
print(" ".join(sorted(names - set(sys.stdlib_module_names) - {"toolcell"})))
sys.path.insert(0, sys.argv[1])
import toolcell_client, toolcell.client
print(toolcell_client is toolcell.client, toolcell_client.Session is toolcell.client.Session)' "$dir"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '\nTrue True')" ]
}

@test "client Session against the real toolcell session: state, return_globals, timeout, state_lost, reset" {
	local dir
	dir=$(tc_python_dir) || tc_skip "tools/python/toolcell not found (set TC_SOURCE to the repository)"
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
