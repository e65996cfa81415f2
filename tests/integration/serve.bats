#!/usr/bin/env bats
# toolcell serve: a warm pool of single-use sandboxes on a UNIX socket.
# Every call gets a fresh sandbox (nothing of one call is seen by the next);
# who may connect is the policy's; bad and oversized lines are answered and
# the connection stays usable; a caller that leaves has its sandbox killed;
# SIGTERM drains; SIGKILL of the server leaves no process of its behind.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

setup() { srv_test_setup; }
teardown() { srv_test_teardown; }

# policy BODY: a policy with a 4K request limit, a timeout of $TIMEOUT s (20)
# and BODY's keys
policy() {
	printf '{"version": 1, "limits": {"timeout": %s, "request_size": "4K"}%s}\n' \
		"${TIMEOUT:-20}" "${1:+, $1}" \
		>"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
}

# req ID KIND FILE [ARGS_JSON] [EXTRA_JSON_MEMBERS]: one request line
req() {
	"$PY" -I -c '
import json, sys
i, kind, path = sys.argv[1:4]
d = {"id": int(i), "kind": kind, "source": open(path).read()}
if kind == "call":
    d["args"] = json.loads(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
if len(sys.argv) > 5:
    d.update(json.loads(sys.argv[5]))
print(json.dumps(d))' "$@"
}

# ask LINES...: send the lines on one connection, the answers into $TC_TMP/out
ask() {
	printf '%s\n' "$@" | timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" >"$TC_TMP/out"
}

# gone PID...: true once none of them is alive (within 15 s)
gone() {
	for _ in $(seq 150); do
		local alive=0
		for p in "$@"; do
			[ -d "/proc/$p" ] && alive=1
		done
		[ "$alive" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# ppid PID: its parent's pid
ppid() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f2
}

# runner_of PID: the entry's runner (the server's child) above PID
runner_of() {
	local p=$1
	for _ in $(seq 8); do
		[ "$(ppid "$p")" = "$SERVER" ] && break
		p=$(ppid "$p")
	done
	[ "$(ppid "$p")" = "$SERVER" ] && echo "$p"
}

# alive PID: true while it runs (a zombie has ended)
alive() {
	[ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" != Z ] && [ -d "/proc/$1" ]
}

# nice_of PID: its nice value (nothing when it is gone)
nice_of() {
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f17
}

# a tool that starts a python sleeping under the marker MARK (its argv)
sleeper_tool() {
	cat >"$TC_TMP/sleeper.py" <<'PY'
import os, time
def run(args):
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(120)", args["mark"]])
    time.sleep(args.get("sleep", 0))
    return "slept"
PY
}

@test "a served call in script mode reads its whole request from stdin, as a one-shot call does" {
	srv_start
	cat >"$TC_TMP/echo.py" <<'PY'
import json, sys
args = json.load(sys.stdin)
print(json.dumps({"n": args["n"], "len": len(args["pad"])}))
PY
	for n in 10 3000; do # the test policy takes requests up to 4096 bytes
		"$PY" -I -c 'import json, sys; print(json.dumps({"n": 1, "pad": "x" * int(sys.argv[1])}))' "$n" >"$TC_TMP/req"
		run -0 "$TOOLCELL" call "$TC_TMP/echo.py" <"$TC_TMP/req"
		[ "$(jget data <<<"$output")" = "{\"len\": $n, \"n\": 1}" ]
		run -0 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/echo.py" <"$TC_TMP/req"
		[ "$(jget data <<<"$output")" = "{\"len\": $n, \"n\": 1}" ]
	done
}

@test "toolcell call --server prints the one-shot envelope; the record says the entry was warm" {
	srv_start
	cat >"$TC_TMP/add.py" <<'PY'
def run(args):
    return {"sum": args["a"] + args["b"], "big": 123456789012345678901234567890}
PY
	run -0 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/add.py" <<<'{"a": 40, "b": 2}'
	[ "$(jget data <<<"$output")" = '{"big": 123456789012345678901234567890, "sum": 42}' ]
	[[ "$output" == '{"ok":true,"data":{"sum":42,"big":123456789012345678901234567890},"meta":{"status":"ok",'* ]]
	[ "$(jget meta.exit_code <<<"$output")" = 0 ]
	cat >"$TC_TMP/fail.py" <<'PY'
def run(args):
    raise KeyError("nope")
PY
	run -1 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/fail.py" <<<'{}'
	[ "$(jget error.type <<<"$output")" = KeyError ]
	[ "$(jget error.source <<<"$output")" = tool ]
	# the two calls' refills ready (on a loaded machine they may not be yet)
	srv_until pools.0.ready=2
	ask "$(req 5 call "$TC_TMP/add.py" '{"a": 1, "b": 1}')"
	[ "$(answer 5 data.sum)" = 2 ]
	[ "$(answer 5 record.pool.warm)" = true ]
	[ "$(answer 5 record.pool.waited_ms)" = 0 ]
	[ "$(answer 5 record.status)" = ok ]
	[ "$(answer 5 record.verb)" = call ]
	[ "$(answer 5 record.caller_uid)" = "$(id -u)" ]
	# no delegated cgroup v2 here: the record says the peak includes the warm-up
	[[ "$(answer 5 record.unknown.warm_up)" == "without cgroup v2 memory_peak_bytes is the sandbox's resident peak, which includes the warm entry's start"* ]]
	[ "$(answer 5 record.isolation.namespaces)" = '["user", "mount", "pid", "net", "ipc", "uts", "cgroup"]' ]
	[ "$(answer 5 record.provenance.tool.sha256)" = "$(sha256sum <"$TC_TMP/add.py" | cut -d' ' -f1)" ]
}

@test "a served call's record is the one-shot run's: its keys in their order plus pool, the same limits (a call's own too), isolation, provenance and reasons; its meta is its record's" {
	srv_start
	cat >"$TC_TMP/add.py" <<'PY'
def run(args):
    return {"sum": args["a"] + args["b"]}
PY
	for lim in "" "--memory 64M --timeout 5"; do
		# shellcheck disable=SC2086 # the options split on purpose
		run -0 "$TOOLCELL" call --policy "$TC_TMP/p.json" $lim --result "$TC_TMP/one${lim:+-low}.json" \
			"$TC_TMP/add.py" <<<'{"a": 1, "b": 2}'
		printf '%s\n' "$output" >"$TC_TMP/env${lim:+-low}.json"
	done
	local low='{"limits": {"memory": "64M", "timeout": 5}}'
	# one at a time, so each answer's record is built after the last one
	ask "$(req 1 call "$TC_TMP/add.py" '{"a": 1, "b": 2}')"
	mv "$TC_TMP/out" "$TC_TMP/out1"
	ask "$(req 2 call "$TC_TMP/add.py" '{"a": 1, "b": 2}' "$low")"
	mv "$TC_TMP/out" "$TC_TMP/out2"
	ask "$(req 3 call "$TC_TMP/add.py" '{"a": 1, "b": 2}')"
	mv "$TC_TMP/out" "$TC_TMP/out3"
	# the same again: the server's record memo gives its parts (record-tree.h)
	ask "$(req 4 call "$TC_TMP/add.py" '{"a": 1, "b": 2}')"
	run -0 "$PY" -I -c '
import json, sys
d = sys.argv[1]
one, low, env, envlow = (json.load(open(f"{d}/{n}.json"))
                        for n in ("one", "one-low", "env", "env-low"))
out = [json.loads(open(f"{d}/{n}").read()) for n in ("out1", "out2", "out3", "out")]
same = ("record_version", "verb", "caller_uid", "status", "status_inferred", "exit_code",
        "signal", "signal_name", "stdout_bytes", "stderr_bytes", "stdout_truncated",
        "stderr_truncated", "denied_syscall", "denied_syscalls", "limits", "workspace", "error",
        "toolcell_version")
for a, want, wenv in zip(out, (one, low, one, one), (env, envlow, env, env)):
    r = a["record"]
    assert list(r) == list(want) + ["pool"], (list(r), list(want))
    for k in same:
        assert r[k] == want[k], (a["id"], k, r[k], want[k])
    assert list(r["isolation"]) == list(want["isolation"]), a["id"]
    for k, v in want["isolation"].items():  # the host ids and a leaf: each sandbox has its own
        if k in ("uid_host", "gid_host") or (k == "cgroup" and v):
            assert type(r["isolation"][k]) == type(v), (a["id"], k)
        else:
            assert r["isolation"][k] == v, (a["id"], k, r["isolation"][k], v)
    p, wp = r["provenance"], want["provenance"]
    assert list(p) == list(wp) and p["policy"] == wp["policy"], a["id"]
    assert p["rootfs_manifest"] == wp["rootfs_manifest"], a["id"]
    assert p["tool"] == {"path": None, "sha256": wp["tool"]["sha256"]}, a["id"]
    for k, v in want["unknown"].items():  # pids_peak: known when a sample came
        assert k == "pids_peak" or r["unknown"][k] == v, (a["id"], k)
    assert "warm_up" in r["unknown"] and "warm_up" not in want["unknown"]
    assert list(a) == ["id"] + list(wenv) + ["record"], (list(a), list(wenv))
    assert list(a["meta"]) == list(wenv["meta"]), a["id"]
    assert all(a["meta"][k] == r[k] for k in a["meta"]), a["id"]
    assert a["data"] == wenv["data"] == {"sum": 3}, a["id"]
print("alike")' "$TC_TMP"
	[ "$output" = alike ]
}

@test "a tool's mode is the one-shot run's: run() nested in if, try, a class or a function, decorated, async, a lambda, a class run, errors of the parser and of the compiler" {
	srv_start
	mkdir "$TC_TMP/cases"
	"$PY" -I "$BATS_TEST_DIRNAME/tools/entry_cases.py" --write "$TC_TMP/cases"
	chmod -R a+rX "$TC_TMP/cases"
	# each case one-shot and through the server: toolcell's exit status, the
	# answer (ok, data, error) and the tool's status and exit code alike
	run -0 "$PY" -I -c '
import glob, json, subprocess, sys
toolcell, sock = sys.argv[1:3]
n = 0
for f in sorted(glob.glob(sys.argv[3] + "/case*.py")):
    seen = []
    for server in ([], ["--server", sock]):
        p = subprocess.run([toolcell, "call", *server, f], input=b"{\"n\": 1}",
                           capture_output=True, timeout=60)
        env = json.loads(p.stdout or "{}")
        meta = env.get("meta", {})
        seen.append((p.returncode, env.get("ok"), env.get("data"), env.get("error"),
                     meta.get("status"), meta.get("exit_code"), not p.stdout))
    if seen[0] != seen[1]:
        print(f, seen[0], "served:", seen[1])
    n += seen[0] == seen[1]
print(n, "alike")' "$TOOLCELL" "$SOCK" "$TC_TMP/cases"
	[ "$output" = "66 alike" ]
}

@test "a call's frame and request arrive whole at any size, stdin at its EOF after; atexit runs its handlers and is not imported, as in a one-shot run" {
	echo '{"version": 1, "limits": {"timeout": 20, "request_size": "1M"}}' >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
	srv_start
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import hashlib, sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
tool = """import hashlib, sys
def run(args):
    s = args["s"]
    return [len(s), hashlib.sha256(s.encode()).hexdigest()[:12], sys.stdin.read(), len(__doc__)]
"""
with toolcell_client.Client(sys.argv[1]) as c:
    # the frame under, across and over one read (64 KiB), the request after it
    for doc, n in ((10, 10), (65400, 200), (70000, 300000), (200, 70000)):
        s = "".join(chr(48 + i % 40) for i in range(n))
        a = c.call(chr(34) * 3 + "d" * doc + chr(34) * 3 + "\n" + tool, {"s": s})
        print(a["data"] == [n, hashlib.sha256(s.encode()).hexdigest()[:12], "", doc] or a)
    e = c.exec("""import sys
print("atexit" in sys.modules)
import atexit
atexit.register(print, "bye")
del sys.modules["atexit"]
""")
    print(repr(e["stdout"]), e["exit_code"])
' "$TC_TMP/s.sock"
	[ "$output" = "$(printf 'True\nTrue\nTrue\nTrue\n%s 0' "'False\\nbye\\n'")" ]
	printf 'import sys\nprint("atexit" in sys.modules)\nimport atexit\natexit.register(print, "bye")\ndel sys.modules["atexit"]\n' >"$TC_TMP/ae.py"
	run -0 "$TOOLCELL" python "$TC_TMP/ae.py"
	[ "$output" = "$(printf 'False\nbye')" ]
}

@test "a frame around its 4096-byte block, in run mode and script mode, leaves the request whole on stdin" {
	echo '{"version": 1, "limits": {"timeout": 20, "request_size": "1M"}}' >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
	srv_start
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
run_mode = """import sys
def run(args):
    return [args["s"], sys.stdin.read()]
"""
script_mode = """import json, sys
print(json.dumps({"ok": True, "data": [json.load(sys.stdin)["s"], sys.stdin.read()]}))
"""
seen = set()
with toolcell_client.Client(sys.argv[1]) as c:
    # the frame (34 bytes of head, about 40 of meta, the source) from
    # under to over the block, byte by byte; the request after it
    for tool in (run_mode, script_mode):
        for n in range(3900, 4000):
            a = c.call("#" * n + "\n" + tool, {"s": "r" * 300})
            seen.add(repr(a.get("data")) if a.get("ok") else repr(a))
print(seen)' "$TC_TMP/s.sock"
	[ "$output" = "{\"['$(printf 'r%.0s' $(seq 300))', '']\"}" ]
}

@test "a served call's response is written where a one-shot run writes it: an exit that atexit, a thread or a flush ends at once still has it" {
	srv_start
	mkdir "$TC_TMP/ends"
	# after run() returned: an atexit handler, a thread joined at the exit
	# and sys.stderr's flush each end the process with their own status
	cat >"$TC_TMP/ends/atexit.py" <<'PY'
import atexit, os
def run(args):
    atexit.register(os._exit, 7)
    return "atexit"
PY
	cat >"$TC_TMP/ends/thread.py" <<'PY'
import os, threading, time
def run(args):
    threading.Thread(target=lambda: (time.sleep(0.2), os._exit(6))).start()
    return "thread"
PY
	cat >"$TC_TMP/ends/flush.py" <<'PY'
import os, sys
class Ends:
    def write(self, s):
        return len(s)
    def flush(self):
        os._exit(5)
def run(args):
    sys.stderr = Ends()
    return "flush"
PY
	cat >"$TC_TMP/ends/plain.py" <<'PY'
def run(args):
    return "plain"
PY
	# what tool code writes after the response reaches no response: a
	# one-shot run has closed it by then
	cat >"$TC_TMP/ends/late.py" <<'PY'
import atexit, os
def late():
    for fd in range(3, 8):
        try:
            os.write(fd, b"LATE\n")
        except OSError:
            pass
def run(args):
    atexit.register(late)
    return "late"
PY
	# the last code of the tool's own runs at its own priority (the exit's
	# nice 19 comes after it): 40 plus its nice, the test's
	cat >"$TC_TMP/ends/nice.py" <<'PY'
import atexit, os
def run(args):
    atexit.register(lambda: os._exit(40 + os.getpriority(os.PRIO_PROCESS, 0)))
    return "nice"
PY
	chmod -R a+rX "$TC_TMP/ends"
	run -0 "$PY" -I -c '
import glob, json, subprocess, sys
toolcell, sock = sys.argv[1:3]
for f in sorted(glob.glob(sys.argv[3] + "/*.py")):
    seen = []
    for server in ([], ["--server", sock]):
        p = subprocess.run([toolcell, "call", *server, f], input=b"{}", capture_output=True,
                           timeout=60)
        env = json.loads(p.stdout or "{}")
        meta = env.get("meta", {})
        seen.append((p.returncode, env.get("ok"), meta.get("status"), meta.get("exit_code"),
                     meta.get("stdout_bytes")))
    print(f.rsplit("/", 1)[1], *seen[0], "alike" if seen[0] == seen[1] else seen[1])
' "$TOOLCELL" "$SOCK" "$TC_TMP/ends"
	# (the response: {"ok":true,"data":"NAME"}, 27 or 28 bytes)
	[ "$output" = "$(printf '%s\n' \
		"atexit.py 1 False exit_nonzero 7 28 alike" \
		"flush.py 1 False exit_nonzero 5 27 alike" \
		"late.py 0 True ok 0 26 alike" \
		"nice.py 1 False exit_nonzero $((40 + $(nice))) 26 alike" \
		"plain.py 0 True ok 0 27 alike" \
		"thread.py 1 False exit_nonzero 6 28 alike")" ]
}

@test "a served tool's compile warning is shown once, as in a one-shot run" {
	srv_start
	printf 'def run(args):\n    x = 1\n    return x is 1\n' >"$TC_TMP/w.py"
	run -0 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/w.py" <<<'{}'
	# (no source line under it: nothing is at /tool/w.py for the C warning
	# printer to read)
	local warning='/tool/w.py:3: SyntaxWarning: "is" with a literal. Did you mean "=="?\n'
	[ "$(jget data <<<"$output")" = true ]
	[ "$(jget meta.stderr_bytes <<<"$output")" = "$(printf "$warning" | wc -c)" ]
}

@test "a served tool's lines reach linecache when it is first imported, decoded from UTF-8" {
	srv_start
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
probe = b"""import sys
def f():
    return 1  # %s
print(getattr(sys.meta_path[0], "__name__", "?"), "linecache" in sys.modules)
import inspect
print(repr(inspect.getsource(f)))
"""
with toolcell_client.Client(sys.argv[1]) as c:
    for source in (probe % b"plain", probe % "é ✓".encode(),
                   b"# -*- coding: latin-1 -*-\n" + probe % "é".encode("latin-1")):
        e = c.exec_bytes(source.decode("latin-1") if b"latin-1" in source else source.decode())
        print(e["exit_code"], e["stdout"].decode("utf-8", "replace").rstrip())
' "$TC_TMP/s.sock"
	# (a served source is JSON text, so UTF-8: the cookie is the compiler's)
	local want="" comment
	for comment in plain "é ✓" é; do
		want+="0 _Remembered False"$'\n'"'def f():\\n    return 1  # $comment\\n'"$'\n'
	done
	[ "$output" = "${want%$'\n'}" ]
}

@test "single use: a file in /tmp and /dev/shm, a global and a forked child are gone at the next call" {
	srv_start
	cat >"$TC_TMP/leave.py" <<'PY'
import builtins, os
def run(args):
    open("/tmp/marker", "w").write("x")
    open("/dev/shm/f", "w").write("x")
    builtins.LEFT_BEHIND = 1
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(120)", args["mark"]])
    return sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
PY
	cat >"$TC_TMP/look.py" <<'PY'
import builtins, os
def run(args):
    return {"tmp": os.path.exists("/tmp/marker"), "shm": os.path.exists("/dev/shm/f"),
            "global": hasattr(builtins, "LEFT_BEHIND"),
            "others": [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]}
PY
	mark="serve-single-use-$$-$RANDOM"
	ask "$(req 1 call "$TC_TMP/leave.py" "{\"mark\": \"$mark\"}")"
	[ "$(answer 1 ok)" = true ]
	# the child ran beside the tool, then died with the call's PID namespace
	[ "$(answer 1 data)" = "[2, 3]" ] || [ "$(answer 1 data)" = "[1, 2, 3]" ]
	run ! pgrep -f "$mark"
	ask "$(req 2 call "$TC_TMP/look.py")"
	[ "$(answer 2 data)" = '{"global": false, "others": [], "shm": false, "tmp": false}' ]
}

@test "the warm-up's objects are the collector's as in a one-shot run: it is on, nothing is frozen, referrers are found" {
	srv_start
	cat >"$TC_TMP/gc.py" <<'PY'
import gc, json
def run(args):
    return {"enabled": gc.isenabled(), "frozen": gc.get_freeze_count(),
            "referrers": any(r is vars(json) for r in gc.get_referrers(json.loads))}
PY
	want='{"enabled": true, "frozen": 0, "referrers": true}'
	run -0 "$TOOLCELL" call "$TC_TMP/gc.py" <<<'{}'
	[ "$(jget data <<<"$output")" = "$want" ]
	ask "$(req 1 call "$TC_TMP/gc.py")"
	[ "$(answer 1 record.pool.warm)" = true ]
	[ "$(answer 1 data)" = "$want" ]
}

@test "a warm entry starts with re's cache as importing json fills it (the rootfs's re-cache file): the one-shot run's patterns, each as compiling it makes it" {
	srv_start
	# the rootfs's file: json's six patterns, made by its own interpreter
	rootfs=$(env -u TOOLCELL_ROOTFS "$TOOLCELL" version --paths rootfs)
	run -0 "$PY" -I -c '
import marshal, sys, _sre
version, magic, table = marshal.loads(open(sys.argv[1], "rb").read())
print(version == sys.version, magic == _sre.MAGIC, len(table))' "$rootfs/usr/lib/toolcell/serve-re.marshal"
	[ "$output" = "True True 6" ]
	cat >"$TC_TMP/rc.py" <<'PY'
import json, re
def run(args):
    return [[repr(k[1]), k[2], p == re._compiler.compile(k[1], k[2])] for k, p in re._cache.items()]
PY
	run -0 "$TOOLCELL" call "$TC_TMP/rc.py" <<<'{}'
	want=$(jget data <<<"$output")
	[[ "$want" == '[["'* ]]
	[[ "$want" != *false* ]]
	ask "$(req 1 call "$TC_TMP/rc.py")"
	[ "$(answer 1 record.pool.warm)" = true ]
	[ "$(answer 1 data)" = "$want" ]
}

@test "a warm entry's preimported modules are a one-shot run's: the same files, specs, loaders and search paths (the rootfs's import-map file), and the warm-up's finder gone before the call" {
	srv_start
	# the rootfs's file: the 19 modules of the default preimports, each
	# where this interpreter (the rootfs's is the same build) finds it
	rootfs=$(env -u TOOLCELL_ROOTFS "$TOOLCELL" version --paths rootfs)
	run -0 "$PY" -I -c '
import marshal, sys
version, table = marshal.loads(open(sys.argv[1], "rb").read())
print(version == sys.version, len(table), table["json"], table["_json"][2])' \
		"$rootfs/usr/lib/toolcell/serve-imports.marshal"
	[ "$output" = "True 19 ('/usr/lib/python3.11/json/__init__.py', ['/usr/lib/python3.11/json'], False) True" ]
	cat >"$TC_TMP/specs.py" <<'PY'
import collections, datetime, hashlib, json, math, re, sys
NAMES = ("json", "json.decoder", "json.scanner", "json.encoder", "_json", "re", "re._compiler",
         "re._parser", "re._constants", "re._casefix", "enum", "functools", "collections",
         "keyword", "operator", "reprlib", "types", "copyreg", "datetime")
def run(args):
    out = []
    for name in NAMES:
        m = sys.modules[name]
        s = m.__spec__
        out.append([name, s.name, s.origin, s.cached, s.parent, s.has_location,
                    type(s.loader).__name__, s.loader.name, s.loader.path,
                    s.submodule_search_locations, s.loader_state, m.__file__,
                    getattr(m, "__cached__", None), getattr(m, "__path__", None),
                    type(m.__loader__).__name__, m.__loader__ is s.loader])
    # all of it as a digest (the answer's limit is 4K), json's in full
    return {"digest": hashlib.sha256(repr(out).encode()).hexdigest(), "json": out[0],
            "meta_path": [f.__name__ for f in sys.meta_path]}
PY
	run -0 "$TOOLCELL" call "$TC_TMP/specs.py" <<<'{}'
	want=$(jget data <<<"$output")
	[ "$(jget json <<<"$want")" = '["json", "json", "/usr/lib/python3.11/json/__init__.py", "/usr/lib/python3.11/json/__pycache__/__init__.cpython-311.pyc", "json", true, "SourceFileLoader", "json", "/usr/lib/python3.11/json/__init__.py", ["/usr/lib/python3.11/json"], null, "/usr/lib/python3.11/json/__init__.py", "/usr/lib/python3.11/json/__pycache__/__init__.cpython-311.pyc", ["/usr/lib/python3.11/json"], "SourceFileLoader", true]' ]
	[ "$(jget meta_path <<<"$want")" = '["BuiltinImporter", "FrozenImporter", "PathFinder"]' ]
	ask "$(req 1 call "$TC_TMP/specs.py")"
	[ "$(answer 1 record.pool.warm)" = true ]
	[ "$(answer 1 data.digest)" = "$(jget digest <<<"$want")" ]
	[ "$(answer 1 data.json)" = "$(jget json <<<"$want")" ]
	# the warm-up's finder is gone; serve.py's _Remembered (the tool's
	# source for tracebacks) goes first, as before
	[ "$(answer 1 data.meta_path)" = '["_Remembered", "BuiltinImporter", "FrozenImporter", "PathFinder"]' ]
}

@test "the warm-up's rehearsal of a call leaves nothing a tool can find: no object of its module, no function it made" {
	srv_start
	cat >"$TC_TMP/trace.py" <<'PY'
import gc, sys
def run(args):
    found = [repr(o)[:80] for o in gc.get_objects()
             if getattr(o, "__module__", None) == "toolcell_rehearsal"
             or (type(o) is dict and o.get("__name__") == "toolcell_rehearsal")]
    return {"found": found, "module": "toolcell_rehearsal" in sys.modules}
PY
	ask "$(req 1 call "$TC_TMP/trace.py")"
	[ "$(answer 1 record.pool.warm)" = true ]
	[ "$(answer 1 data)" = '{"found": [], "module": false}' ]
}

@test "a uid the policy does not list is refused at connect; a listed one is served" {
	policy '"serve": {"allow_uids": [4242]}'
	"$TOOLCELL" serve --socket "$TC_TMP/s.sock" --policy "$TC_TMP/p.json" 2>"$TC_TMP/serve.err" &
	SERVER=$!
	for _ in $(seq 100); do [ -S "$TC_TMP/s.sock" ] && break; sleep 0.1; done
	echo 'def run(a): return 1' >"$TC_TMP/one.py"
	run -125 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/one.py" <<<'{}'
	[[ "$output" == *'{"ok":false,"error":{"type":"PermissionDenied",'* ]]
	[[ "$output" == *"may not use the server (the policy's serve.allow_uids and serve.allow_gids)"* ]]
	if [ "$(id -u)" = 0 ]; then
		kill "$SERVER"
		wait "$SERVER" || true
		policy '"serve": {"allow_uids": [65534]}'
		AS_CALLER="setpriv --reuid=nobody --regid=nogroup --clear-groups" srv_start
		chmod 644 "$TC_TMP/one.py"
		run -0 setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/one.py" <<<'{}'
		[ "$(jget data <<<"$output")" = 1 ]
		run -125 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/one.py" <<<'{}'
		[[ "$output" == *'{"ok":false,"error":{"type":"PermissionDenied",'* ]]
		# each caller uid has its own pool: nobody's entries are nobody's
		echo '{"id":9,"kind":"stats"}' | setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$PY" -I "$CLIENT" "$TC_TMP/s.sock" >"$TC_TMP/out"
		"$PY" -I -c 'import json,sys; d=json.load(open(sys.argv[1])); assert 65534 in [p["uid"] for p in d["pools"]], d' "$TC_TMP/out"
	fi
}

@test "a malformed line is answered BadRequest and the connection goes on" {
	srv_start
	echo 'def run(a): return a' >"$TC_TMP/echo.py"
	ask 'not json' '{"id": 3, "kind": "call"}' '{"id": "x", "kind": "dance", "source": ""}' \
		"$(req 4 call "$TC_TMP/echo.py" '[1, 2]')"
	[ "$(sed -n 1p "$TC_TMP/out" | jget error.type)" = BadRequest ]
	[ "$(sed -n 1p "$TC_TMP/out" | jget id)" = null ]
	[ "$(answer 3 error.message)" = 'request: "source" is missing (the tool'"'"'s source text; the server never reads a file for a caller)' ]
	[ "$(answer '"x"' error.message)" = 'request: "kind" must be "call", "exec", "session" or "stats"' ]
	[ "$(answer 4 data)" = "[1, 2]" ]
}

@test "a key the protocol does not define is refused, naming it and the keys its kind may have; nothing is built and the connection goes on" {
	srv_start
	echo 'def run(a): return a' >"$TC_TMP/echo.py"
	# a misspelt limit would otherwise run the call without it
	ask "$(req 1 call "$TC_TMP/echo.py" '"x"' '{"timeout": 1}')" \
		'{"id": "s", "kind": "stats", "verbose": true}' \
		"$(req 2 exec "$TC_TMP/echo.py" '' '{"env": {"A": "1"}, "argv": []}')" \
		"$(req 3 call "$TC_TMP/echo.py" '"after"')"
	# answered at once, in the order sent, before the call's answer
	head -3 "$TC_TMP/out" >"$TC_TMP/refused"
	diff - "$TC_TMP/refused" <<'EOF'
{"id":1,"ok":false,"error":{"type":"BadRequest","message":"request: unknown key \"timeout\" (known for \"call\": id, kind, source, args, name, timeout_s, limits)","source":"toolcell"}}
{"id":"s","ok":false,"error":{"type":"BadRequest","message":"request: unknown key \"verbose\" (known for \"stats\": id, kind)","source":"toolcell"}}
{"id":2,"ok":false,"error":{"type":"BadRequest","message":"request: unknown key \"env\" (known for \"exec\": id, kind, source, argv, stdin, name, timeout_s, limits, stdin_base64)","source":"toolcell"}}
EOF
	[ "$(answer 3 data)" = after ]
	srv_counts calls.bad_request=3 calls.ok=1 dispatch_ms.n=1
}

@test "a line over the request limit is refused before anything is built; the next line is served" {
	srv_start
	echo 'def run(a): return "after"' >"$TC_TMP/after.py"
	# request_size 4K: a line may have 12 * 4096 + 65536 bytes
	big=$("$PY" -I -c 'print("{\"id\": 1, \"kind\": \"call\", \"source\": \"" + "x" * 200000 + "\"}")')
	ask "$big" "$(req 2 call "$TC_TMP/after.py")"
	[ "$(sed -n 1p "$TC_TMP/out" | jget error.message)" = "request: longer than the 114688-byte limit (one request per line)" ]
	[ "$(answer 2 data)" = after ]
	ask '{"id": 7, "kind": "stats"}'
	[ "$(answer 7 calls.bad_request)" = 1 ]
	[ "$(answer 7 calls.ok)" = 1 ]
	[ "$(answer 7 calls.warm)" = 1 ]
	[ "$(answer 7 calls.cold)" = 0 ]
}

@test "a caller that disconnects mid-call has its sandbox killed" {
	# far beyond the test's waits: only the hang-up can end the call in time
	TIMEOUT=300 policy
	srv_start
	sleeper_tool
	mark="serve-hangup-$$-$RANDOM"
	# (the line is made first: its maker's argv holds the mark too)
	req 1 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 60}" >"$TC_TMP/req"
	timeout 30 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" --hangup-after 3 <"$TC_TMP/req" &
	client=$!
	for _ in $(seq 300); do pgrep -f "$mark" >/dev/null && break; sleep 0.1; done
	pgrep -f "$mark"
	wait "$client"
	# the caller is gone; its sandbox (the marked child in it) follows
	for _ in $(seq 150); do pgrep -f "$mark" >/dev/null || break; sleep 0.1; done
	run ! pgrep -f "$mark"
	ask '{"id": 2, "kind": "stats"}'
	[ "$(answer 2 calls.abandoned)" = 1 ]
	[ "$(answer 2 pools.0.busy)" = 0 ]
}

@test "a call past its timeout_s is a Timeout, counted from dispatch" {
	srv_start
	sleeper_tool
	mark="serve-timeout-$$-$RANDOM"
	ask "$(req 1 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 30}" '{"timeout_s": 1}')"
	[ "$(answer 1 error.type)" = Timeout ]
	[ "$(answer 1 error.source)" = toolcell ]
	[ "$(answer 1 record.status)" = timeout ]
	[ "$(answer 1 record.limits.timeout.value)" = 1000 ]
	wall=$(answer 1 record.wall_ms)
	[ "$wall" -ge 1000 ] && [ "$wall" -lt 10000 ]
	run ! pgrep -f "$mark"
}

@test "exec runs a script with argv and stdin: stdout, stderr, exit code and the record" {
	srv_start
	cat >"$TC_TMP/s.py" <<'PY'
import sys
data = sys.stdin.read()
print(sys.argv[1:], data.upper())
print("to stderr", file=sys.stderr)
sys.exit(3)
PY
	ask "$(req 1 exec "$TC_TMP/s.py" '' '{"argv": ["a", "b c"], "stdin": "hello"}')"
	[ "$(answer 1 stdout)" = "['a', 'b c'] HELLO" ]
	[ "$(answer 1 stderr)" = "to stderr" ]
	[ "$(answer 1 exit_code)" = 3 ]
	[ "$(answer 1 status)" = exit_nonzero ]
	[ "$(answer 1 record.verb)" = exec ]
	[ "$(answer 1 record.exit_code)" = 3 ]
}

@test "the answer at the tool's exit has the whole run's figures: exit code, signal, CPU, peak memory" {
	srv_start
	cat >"$TC_TMP/burn.py" <<'PY'
import sys, time
t = time.process_time()
while time.process_time() - t < 0.3:
    pass
b = bytearray(96 << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
del b
print(round((time.process_time() - t) * 1000))
sys.exit(4)
PY
	cat >"$TC_TMP/die.py" <<'PY'
import os, signal
os.kill(os.getpid(), signal.SIGKILL)
PY
	ask "$(req 1 exec "$TC_TMP/burn.py")" "$(req 2 exec "$TC_TMP/die.py")"
	[ "$(answer 1 exit_code)" = 4 ]
	[ "$(answer 1 record.status)" = exit_nonzero ]
	[ "$(answer 1 record.exit_code)" = 4 ]
	# the record counts at least what the tool counted of itself (each
	# figure rounded down to the ms)
	used=$(answer 1 stdout)
	cpu=$(($(answer 1 record.cpu_user_ms) + $(answer 1 record.cpu_system_ms)))
	[ "$cpu" -ge $((used - 2)) ]
	[ "$(answer 1 record.memory_peak_bytes)" -ge $((96 << 20)) ]
	[ "$(answer 2 record.status)" = signaled ]
	[ "$(answer 2 record.signal_name)" = SIGKILL ]
	[ "$(answer 2 exit_code)" = null ]
}

@test "a call's CPU counts from dispatch to the ms: the warm-up's is left out exactly, not to a clock tick" {
	srv_start
	# the warm-up's CPU (~20 ms a process) read in whole clock ticks was up
	# to 10 ms short a figure, and the call's that much long
	printf '%s\n' 'import time' 't = time.process_time()' \
		'while time.process_time() - t < 0.04:' '    pass' \
		'print(round((time.process_time() - t) * 1000))' >"$TC_TMP/burn40.py"
	local lines=() i used cpu
	for i in 1 2 3 4 5 6; do lines+=("$(req "$i" exec "$TC_TMP/burn40.py")"); done
	ask "${lines[@]}"
	for i in 1 2 3 4 5 6; do
		used=$(answer "$i" stdout)
		cpu=$(($(answer "$i" record.cpu_user_ms) + $(answer "$i" record.cpu_system_ms)))
		echo "call $i: the tool counted $used ms, the record $cpu" >&3
		[ "$cpu" -ge $((used - 2)) ]
		[ "$cpu" -le $((used + 8)) ]
	done
}

@test "a call that does almost nothing counts almost no CPU: the base taken when its entry became ready leaves the warm-up out" {
	policy
	srv_start
	# the warm-up's imports cost ~20 ms; the base is read once the entry
	# is ready (not at dispatch), and kept only if nothing ran since
	printf 'import json, re, math, datetime, collections\n' >"$TC_TMP/warm.py"
	"$TOOLCELL" python --policy "$TC_TMP/p.json" --result "$TC_TMP/r.json" "$TC_TMP/warm.py"
	local warm cpu i
	warm=$(($(jget cpu_user_ms <"$TC_TMP/r.json") + $(jget cpu_system_ms <"$TC_TMP/r.json")))
	echo pass >"$TC_TMP/nothing.py"
	ask "$(req 1 exec "$TC_TMP/nothing.py")" "$(req 2 call "$TC_TMP/nothing.py" '{}')" \
		"$(req 3 exec "$TC_TMP/nothing.py")"
	for i in 1 2 3; do
		[ "$(answer "$i" record.status)" = ok ]
		cpu=$(($(answer "$i" record.cpu_user_ms) + $(answer "$i" record.cpu_system_ms)))
		echo "call $i: $cpu ms; a one-shot warm-up's: $warm ms" >&3
		[ "$cpu" -le 3 ]
		[ $((cpu * 4)) -lt "$warm" ]
	done
}

@test "a child left running by the tool: the answer waits for the sandbox's end, counts its CPU, leaves nothing" {
	srv_start
	mark="serve-orphan-$$-$RANDOM"
	# the child burns 0.3 s of CPU with its stdio closed, tells the tool,
	# and goes on burning; the tool exits at our SIGUSR1: its output is
	# over, its sandbox is not
	cat >"$TC_TMP/orphan.py" <<'PY'
import os, signal, sys, time
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
r, w = os.pipe()
if os.fork() == 0:
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    t = time.process_time()
    while time.process_time() - t < 0.3:
        pass
    os.write(w, b"x")
    os.execv("/usr/bin/python3", ["python3", "-c", "while True: pass", sys.argv[1]])
os.close(w)
os.read(r, 1)
signal.sigwait({signal.SIGUSR1})
print("left")
PY
	req 1 exec "$TC_TMP/orphan.py" '' "{\"argv\": [\"$mark\"]}" >"$TC_TMP/req"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req" >"$TC_TMP/out" &
	client=$!
	for _ in $(seq 300); do pgrep -f "$mark" >/dev/null && break; sleep 0.1; done
	child=$(pgrep -f "$mark")
	tool=$(ppid "$child")
	# the entry's runner (the server's child) counts the child's CPU once
	# the tool has exited: stopped, it cannot before we let it go on
	runner=$(runner_of "$tool")
	kill -STOP "$runner"
	kill -USR1 "$tool"
	gone "$tool"
	# the init waits for the runner: its exit would take the child with it
	# (and the child's CPU, never reaped into the init's figures)
	for _ in $(seq 20); do
		alive "$child"
		sleep 0.1
	done
	kill -CONT "$runner"
	wait "$client"
	[ "$(answer 1 stdout)" = left ]
	[ "$(answer 1 exit_code)" = 0 ]
	# counted from /proc in clock ticks before the kill: 10 ms a process
	cpu=$(($(answer 1 record.cpu_user_ms) + $(answer 1 record.cpu_system_ms)))
	[ "$cpu" -ge 250 ]
	run ! pgrep -f "$mark"
}

# The quick end (HACKING.md, serve): at the EOF of the tool's stdout and
# stderr the runner reads its peak, sends the go (SIGURG) and looks for its
# exit. A tool that imitates any part of it gets the record it would get
# without it.

@test "the quick end: a tool that closes its stdout and stderr and runs on is reported at its exit, with its status and CPU" {
	srv_start
	cat >"$TC_TMP/closer.py" <<'PY'
import os, time
os.close(1)
os.close(2)
t = time.process_time()
while time.process_time() - t < 0.3:
    pass
os._exit(5)
PY
	echo 'print("clean")' >"$TC_TMP/next.py"
	ask "$(req 1 exec "$TC_TMP/closer.py")" "$(req 2 exec "$TC_TMP/next.py")"
	[ "$(answer 1 record.status)" = exit_nonzero ]
	[ "$(answer 1 record.exit_code)" = 5 ]
	[ "$(answer 1 exit_code)" = 5 ]
	cpu=$(($(answer 1 record.cpu_user_ms) + $(answer 1 record.cpu_system_ms)))
	[ "$cpu" -ge 280 ]
	[ "$(answer 1 record.wall_ms)" -ge 290 ]
	[ "$(answer 2 stdout)" = clean ]
	[ "$(answer 2 record.status)" = ok ]
}

@test "the quick end: a tool whose output ends before its runner's begin and that runs on has its init told of the call once" {
	srv_start --pool 1
	# the output ends at once, so the runner begins at its end (not 2 ms
	# after the dispatch), sends the go, watches 2 ms for an exit that
	# does not come, and only then tells the init of the call (its
	# backstop: child.h): one wake-up of the init, which waits in
	# sigtimedwait with no child to reap until the tool exits
	local p init=""
	for p in $(pgrep -P "$SERVER"); do
		[ "$(cat "/proc/$p/comm")" = toolcell-spawn ] || init=$(pgrep -P "$p")
	done
	woken() { sed -n 's/^voluntary_ctxt_switches:\s*//p' "/proc/$init/status"; }
	before=$(woken)
	cat >"$TC_TMP/runs-on.py" <<'PY'
import os, time
os.close(1)
os.close(2)
time.sleep(1.5)
os._exit(3)
PY
	req 1 exec "$TC_TMP/runs-on.py" >"$TC_TMP/req"
	timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req" >"$TC_TMP/out" &
	client=$!
	sleep 0.7
	after=$(woken)
	wait "$client"
	[ "$(answer 1 record.exit_code)" = 3 ]
	[ $((after - before)) = 1 ]
}

@test "the quick end: a tool that waits for the go as the harness does and then grows its memory has those pages in its peak" {
	srv_start
	# 2 MiB more, written within the runner's watch for the exit (2 ms): a
	# page faulted in after the peak was read voids that reading
	for grow in 0 1; do
		cat >"$TC_TMP/grow$grow.py" <<PY
import os, _signal
go = (_signal.SIGURG,)
_signal.pthread_sigmask(_signal.SIG_BLOCK, go)
os.close(1)
os.close(2)
_signal.sigtimedwait(go, 5)
b = b"\1" * ($grow << 21)
os._exit(3)
PY
	done
	ask "$(req 1 exec "$TC_TMP/grow0.py")" "$(req 2 exec "$TC_TMP/grow1.py")"
	[ "$(answer 1 record.exit_code)" = 3 ]
	[ "$(answer 2 record.exit_code)" = 3 ]
	small=$(answer 1 record.memory_peak_bytes)
	big=$(answer 2 record.memory_peak_bytes)
	echo "peaks: $small, $big" >&3
	[ $((big - small)) -ge $((3 << 19)) ]
}

@test "the quick end: a tool that leaves a child with its stdio closed has the child's CPU counted and nothing left" {
	srv_start
	mark="serve-quick-$$-$RANDOM"
	cat >"$TC_TMP/leaver.py" <<'PY'
import os, sys, time
# posix_spawn (vfork): no page of the tool's left copy-on-write, whose
# first write would void the quick end before its check of other processes.
# The child burns 0.15 s of CPU, says so on fd 9, and burns on.
burn = """import os, time
t = time.process_time()
while time.process_time() - t < 0.15:
    pass
os.write(9, b"x")
while True:
    pass
"""
null = os.open("/dev/null", os.O_RDWR)
r, w = os.pipe()
acts = [(os.POSIX_SPAWN_DUP2, null, fd) for fd in (0, 1, 2)] + [(os.POSIX_SPAWN_DUP2, w, 9)]
os.posix_spawn("/usr/bin/python3", ["python3", "-c", burn, sys.argv[1]], {}, file_actions=acts)
os.close(w)
os.read(r, 1)
print("done")
PY
	echo 'print("clean")' >"$TC_TMP/next.py"
	ask "$(req 1 exec "$TC_TMP/leaver.py" '' "{\"argv\": [\"$mark\"]}")" \
		"$(req 2 exec "$TC_TMP/next.py")"
	[ "$(answer 2 stdout)" = clean ]
	[ "$(answer 1 stdout)" = done ]
	[ "$(answer 1 exit_code)" = 0 ]
	# the child's 0.15 s of CPU (and more) is the sandbox's, counted before
	# the kill, which only the init's report of a tool not alone gives (the
	# reaped tool's own CPU comes in whole clock ticks then, up to two
	# short of the base that was exact: 1 ms without the child's)
	cpu=$(($(answer 1 record.cpu_user_ms) + $(answer 1 record.cpu_system_ms)))
	echo "cpu $cpu ms" >&3
	[ "$cpu" -ge 100 ]
	for _ in $(seq 50); do pgrep -f "$mark" >/dev/null || break; sleep 0.1; done
	run ! pgrep -f "$mark"
}

@test "a ready entry waits for its call at the server's priority, and its call runs at it" {
	# its warm-up at nice 19 (where the server may set it back,
	# CAP_SYS_NICE): the next test. Ready, every process of an entry (the
	# runner, the init, the warm interpreter) is back at the server's 0,
	# so the dispatch sets nothing on the call's path
	srv_start
	srv_until pools.0.ready=2
	# a process on its way out (a helper not reaped yet) may still show
	# the warm-up's 19 for a moment: what stays there fails
	for _ in $(seq 30); do
		n=0 high=
		for p in $(srv_descendants "$SERVER"); do
			comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
			[ "$comm" = toolcell-spawn ] && continue
			[ "$comm" = python3 ] && n=$((n + 1))
			ni=$(nice_of "$p")
			[ -z "$ni" ] || [ "$ni" = 0 ] ||
				high="$high $p:$comm:$ni:$(sed 's/.*) //' "/proc/$p/stat" | cut -d' ' -f1,2)"
		done
		[ -z "$high" ] && break
		echo "above the server's priority:$high"
		sleep 0.1
	done
	[ -z "$high" ]
	[ "$n" = 2 ]
	cat >"$TC_TMP/prio.py" <<'PY'
import os
def run(args):
    return os.getpriority(os.PRIO_PROCESS, 0)
PY
	ask "$(req 1 call "$TC_TMP/prio.py")" "$(req 2 call "$TC_TMP/prio.py")"
	[ "$(answer 1 data)" = 0 ]
	[ "$(answer 2 data)" = 0 ]
}

@test "a call that waits for an entry still warming makes it warm at the server's priority from then on" {
	# one entry runs a held call; its refill warms (at nice 19 where the
	# server may set it back, CAP_SYS_NICE) and is stopped before ready
	srv_start --pool 1 --max-sandboxes 2
	low=19
	[ "$(id -u)" = 0 ] || low=0 # without it entries warm at ours
	echo 'def run(args): __import__("time").sleep(300)' >"$TC_TMP/hold.py"
	echo 'def run(args): return "waited"' >"$TC_TMP/w.py"
	# the server's next new child (the refill's runner), stopped once it
	# has taken its warm-up priority
	"$PY" -I -c '
import os, signal, sys, time
server, low = sys.argv[1], sys.argv[2]
kids = lambda: set(open(f"/proc/{server}/task/{server}/children").read().split())
nice = lambda p: open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[16]
old = kids()
for _ in range(60000):
    new = kids() - old
    if new:
        p = new.pop()
        for _ in range(1000):
            if nice(p) == low:
                break
            time.sleep(0.001)
        os.kill(int(p), signal.SIGSTOP)
        print(p)
        sys.exit(0)
    time.sleep(0.001)
sys.exit(1)' "$SERVER" "$low" >"$TC_TMP/runner" &
	catcher=$!
	req 1 call "$TC_TMP/hold.py" >"$TC_TMP/req1"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req1" >/dev/null &
	held=$!
	wait "$catcher"
	runner=$(cat "$TC_TMP/runner")
	[ "$(nice_of "$runner")" = "$low" ]
	ask '{"id": 9, "kind": "stats"}'
	[ "$(answer 9 pools.0.starting)" = 1 ]
	[ "$(answer 9 pools.0.busy)" = 1 ]
	# a call comes and finds no ready entry (and no room for another): it
	# waits for the one warming, which goes on at our priority
	req 2 call "$TC_TMP/w.py" >"$TC_TMP/req2"
	timeout 120 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req2" >"$TC_TMP/out2" &
	waiter=$!
	srv_until queue=1
	[ "$(nice_of "$runner")" = 0 ]
	# and so does what of its sandbox runs already
	for p in $(srv_descendants "$runner"); do
		[ "$(nice_of "$p")" = 0 ] || [ -z "$(nice_of "$p")" ]
	done
	kill -CONT "$runner"
	wait "$waiter"
	[ "$(jget data <"$TC_TMP/out2")" = waited ]
	[ "$(jget record.pool.warm <"$TC_TMP/out2")" = false ]
	kill "$held"
}

@test "a served call runs at the server's own priority: under nice -n 5 the tool's nice is the server's, never above it" {
	printf '#!/bin/sh\nexec nice -n 5 "%s" "$@"\n' "$TOOLCELL" >"$TC_TMP/niced"
	chmod 755 "$TC_TMP/niced"
	TOOLCELL="$TC_TMP/niced" srv_start --pool 1
	echo 'def run(args): return __import__("os").getpriority(0, 0)' >"$TC_TMP/prio.py"
	run -0 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/prio.py" <<<'{}'
	[ "$(jget data <<<"$output")" = "$(($(nice) + 5))" ]
}

@test "an idle entry's runner sleeps until its call: no samples, no clock" {
	srv_start
	cat >"$TC_TMP/cs.py" <<'PY'
import os, sys, time
def switches(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
pids = [int(p) for p in sys.argv[1:]]
before = [switches(p) for p in pids]
time.sleep(1)
print(max(switches(p) - b for p, b in zip(pids, before)))
PY
	# both entries of the pool ready (none still warming)
	srv_until pools.0.ready=2
	# the runners: the server's children; a sampling one would wake 100
	# times in that second
	runners=$(pgrep -P "$SERVER")
	[ -n "$runners" ]
	run -0 "$PY" -I "$TC_TMP/cs.py" $runners
	[ "$output" -le 5 ]
}

@test "a full queue answers Busy at once; the queued calls still run" {
	srv_start --pool 1 --max-sandboxes 1 --queue 1
	sleeper_tool
	mark="serve-busy-$$-$RANDOM"
	ask "$(req 1 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 2}")" \
		"$(req 2 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 0}")" \
		"$(req 3 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 0}")"
	[ "$(sed -n 1p "$TC_TMP/out" | jget id)" = 3 ]
	[ "$(answer 3 error.type)" = Busy ]
	[ "$(answer 1 data)" = slept ]
	[ "$(answer 2 data)" = slept ]
	[ "$(answer 2 record.pool.warm)" = false ]
}

@test "SIGTERM drains: calls in flight finish and are answered, then the server exits 0 with nothing left" {
	srv_start
	sleeper_tool
	mark="serve-term-$$-$RANDOM"
	req 1 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 3}" >"$TC_TMP/req"
	timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req" >"$TC_TMP/out" &
	client=$!
	for _ in $(seq 300); do pgrep -f "$mark" >/dev/null && break; sleep 0.1; done
	pgrep -f "$mark"
	mapfile -t kids < <(srv_descendants "$SERVER")
	kill -TERM "$SERVER"
	wait "$client"
	[ "$(answer 1 data)" = slept ]
	run -0 wait "$SERVER"
	SERVER=
	[ ! -e "$TC_TMP/s.sock" ]
	gone "${kids[@]}"
	run ! pgrep -f "$mark"
}

@test "SIGKILL of the server leaves no sandbox and no runner alive" {
	TIMEOUT=300 policy
	srv_start --pool 2
	sleeper_tool
	mark="serve-kill-$$-$RANDOM"
	req 1 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 60}" >"$TC_TMP/req"
	timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req" >"$TC_TMP/out" &
	for _ in $(seq 300); do pgrep -f "$mark" >/dev/null && break; sleep 0.1; done
	pgrep -f "$mark"
	mapfile -t kids < <(srv_descendants "$SERVER")
	# runners, their sandboxes' inits, the warm harnesses, the busy tool, its child
	[ "${#kids[@]}" -ge 7 ]
	kill -KILL "$SERVER"
	wait "$SERVER" || true
	SERVER=
	gone "${kids[@]}"
	run ! pgrep -f "$mark"
}

@test "the server forks no runner: one spawner per policy makes them all as the server's children, and SIGKILL of the server still ends every one" {
	command -v strace >/dev/null || tc_skip "strace is not installed"
	TIMEOUT=300 policy
	# the server alone is traced (no -f): the processes it makes itself
	strace -qq -o "$TC_TMP/trace" -e trace=fork,vfork,clone,clone3 -e signal=none \
		"$TOOLCELL" serve --socket "$SOCK" --policy "$TC_TMP/p.json" --pool 2 \
		2>"$TC_TMP/serve.err" 3>&- &
	tracer=$!
	for _ in $(seq 600); do [ -S "$SOCK" ] && srv_warm "$SOCK" && break; sleep 0.1; done
	SERVER=$(pgrep -P "$tracer")
	echo 'def run(args): return args' >"$TC_TMP/echo.py"
	calls() {
		local lines=() i
		for i in $(seq "$1" "$2"); do lines+=("$(req "$i" call "$TC_TMP/echo.py" "$i")"); done
		ask "${lines[@]}"
		for i in $(seq "$1" "$2"); do [ "$(answer "$i" data)" = "$i" ]; done
	}
	calls 1 12
	spawner=$(srv_spawner "$SERVER")
	[ -n "$spawner" ]
	# a reload: the old spawner ends once the new policy's entries are asked for
	kill -HUP "$SERVER"
	for _ in $(seq 300); do grep -q 'SIGHUP: loaded' "$TC_TMP/serve.err" && break; sleep 0.1; done
	calls 13 20
	srv_until pools.0.ready=2
	[ "$(srv_spawner "$SERVER")" != "$spawner" ]
	[ -n "$(srv_spawner "$SERVER")" ]
	# 20 calls and their refills, and the server made two processes: the
	# spawner of each policy, never a runner; a call a signal interrupted
	# shows as "= ? ERESTARTNOINTR" and is made again, so only the calls
	# that returned a pid are counted
	cat "$TC_TMP/trace"
	[ "$(grep -cE '^(fork|vfork|clone|clone3)\(.* = [0-9]+$' "$TC_TMP/trace")" = 2 ]
	# the ready entries' runners are the server's children all the same
	mapfile -t runners < <(srv_runners "$SERVER")
	[ "${#runners[@]}" = 2 ]
	sleeper_tool
	mark="serve-spawn-$$-$RANDOM"
	req 21 call "$TC_TMP/sleeper.py" "{\"mark\": \"$mark\", \"sleep\": 60}" >"$TC_TMP/req"
	timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/req" >"$TC_TMP/out" &
	for _ in $(seq 300); do pgrep -f "$mark" >/dev/null && break; sleep 0.1; done
	pgrep -f "$mark"
	mapfile -t kids < <(srv_descendants "$SERVER")
	# the spawner, three runners, their inits and harnesses, the busy tool's child
	echo "below the server: ${kids[*]}"
	[ "${#kids[@]}" -ge 8 ]
	kill -KILL "$SERVER"
	wait "$tracer" || true
	SERVER=
	gone "${kids[@]}"
	run ! pgrep -f "$mark"
}

@test "a spawner killed while it owes a runner: the server makes a new one, the entry it owed is asked again, calls are answered and nothing is left" {
	srv_start --pool 1 --max-sandboxes 2
	spawner=$(srv_spawner "$SERVER")
	[ -n "$spawner" ]
	echo 'def run(args): return args' >"$TC_TMP/echo.py"
	# stopped, it takes the refill's request and never answers it
	kill -STOP "$spawner"
	ask "$(req 1 call "$TC_TMP/echo.py" 1)"
	[ "$(answer 1 data)" = 1 ]
	srv_until pools.0.starting=1 pools.0.ready=0
	kill -KILL "$spawner"
	srv_until pools.0.ready=1
	[ -n "$(srv_spawner "$SERVER")" ]
	[ "$(srv_spawner "$SERVER")" != "$spawner" ]
	ask "$(req 2 call "$TC_TMP/echo.py" 2)" "$(req 3 call "$TC_TMP/echo.py" 3)"
	[ "$(answer 2 data)" = 2 ]
	[ "$(answer 3 data)" = 3 ]
	srv_until pools.0.ready=1 pools.0.busy=0 pools.0.ending=0
	# the server's children: its spawner and one runner, none a zombie
	[ "$(pgrep -c -P "$SERVER")" = 2 ]
	[ "$(ps -o stat= --ppid "$SERVER" | grep -c Z)" = 0 ]
	grep -qx 'toolcell: serve: the spawner ended (killed by signal 9); a new one makes the next pool entries' \
		"$TC_TMP/serve.err"
}

@test "32 concurrent clients each get their own answer; every call had a fresh sandbox" {
	srv_start --pool 4 --max-sandboxes 8 --queue 64
	cat >"$TC_TMP/double.py" <<'PY'
import os
def run(args):
    first = not os.path.exists("/tmp/used")
    open("/tmp/used", "w").write("x")
    return {"n": args["n"] * 2, "fresh": first}
PY
	pids=()
	for i in $(seq 32); do
		timeout 120 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/double.py" \
			<<<"{\"n\": $i}" >"$TC_TMP/c$i.out" 2>"$TC_TMP/c$i.err" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p"
	done
	for i in $(seq 32); do
		[ "$(jget data <"$TC_TMP/c$i.out")" = "{\"fresh\": true, \"n\": $((2 * i))}" ]
	done
	srv_counts calls.ok=32 calls.busy=0 queue=0 pools.0.busy=0 dispatch_ms.n=32
}

@test "the Python client: Client(socket) with call, call_file, exec and stats over one connection" {
	srv_start
	echo 'def run(args): return {"got": args}' >"$TC_TMP/echo.py"
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
with toolcell_client.Client(sys.argv[1]) as c:
    a = c.call("def run(args):\n    return args[\"a\"] + 1\n", {"a": 41})
    b = c.call_file(sys.argv[2], [1, "x"])
    e = c.exec("import sys; print(sys.argv[1:], sys.stdin.read())", argv=["p"], stdin="in")
    t = c.call("def run(args):\n    import time; time.sleep(30)\n", timeout_s=0.5)
    s = c.stats()
print(a["id"], a["data"], a["record"]["pool"]["warm"])
print(b["data"], b["record"]["provenance"]["tool"]["sha256"] is not None)
print(e["exit_code"], repr(e["stdout"]))
print(t["ok"], t["error"]["type"], t["record"]["status"])
print(s["calls"]["ok"], s["calls"]["timeout"])
' "$TC_TMP/s.sock" "$TC_TMP/echo.py"
	[ "${lines[0]}" = "1 42 True" ]
	[ "${lines[1]}" = "{'got': [1, 'x']} True" ]
	[ "${lines[2]}" = "0 \"['p'] in\\n\"" ]
	[ "${lines[3]}" = "False Timeout timeout" ]
	[ "${lines[4]}" = "3 1" ]
	# a refused caller gets ToolcellRefused, never a hang
	kill "$SERVER"
	wait "$SERVER" || true
	policy '"serve": {"allow_uids": [4242]}'
	"$TOOLCELL" serve --socket "$TC_TMP/s.sock" --policy "$TC_TMP/p.json" 2>"$TC_TMP/serve.err" &
	SERVER=$!
	for _ in $(seq 100); do [ -S "$TC_TMP/s.sock" ] && break; sleep 0.1; done
	run -0 env PYTHONPATH="$(tc_python_dir)" "$PY" -I -c '
import sys
sys.path.insert(0, __import__("os").environ["PYTHONPATH"])
import toolcell_client
try:
    toolcell_client.Client(sys.argv[1]).call("def run(a): return 1")
except toolcell_client.ToolcellRefused as e:
    print("refused", e.type)
' "$TC_TMP/s.sock"
	[ "$output" = "refused PermissionDenied" ]
}

@test "socket activation: a socket passed by systemd (LISTEN_FDS) is served, and READY=1 goes to NOTIFY_SOCKET once warm" {
	command -v systemd-socket-activate >/dev/null || tc_skip "systemd-socket-activate is not installed"
	policy
	# the notify socket: a datagram socket of our own that keeps what comes
	"$PY" -I -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(120)
open(sys.argv[2], "wb").write(s.recv(4096))
' "$TC_TMP/notify.sock" "$TC_TMP/notified" &
	listener=$!
	for _ in $(seq 100); do [ -S "$TC_TMP/notify.sock" ] && break; sleep 0.1; done
	NOTIFY_SOCKET="$TC_TMP/notify.sock" systemd-socket-activate -l "$TC_TMP/act.sock" \
		-E NOTIFY_SOCKET "$TOOLCELL" serve --socket "$TC_TMP/unused.sock" \
		--policy "$TC_TMP/p.json" 2>"$TC_TMP/serve.err" &
	SERVER=$!
	for _ in $(seq 100); do [ -S "$TC_TMP/act.sock" ] && break; sleep 0.1; done
	# the first connection starts the server (systemd-socket-activate's way),
	# which takes the socket with the connection waiting on it
	echo 'def run(a): return "activated"' >"$TC_TMP/a.py"
	run -0 "$TOOLCELL" call --server "$TC_TMP/act.sock" "$TC_TMP/a.py" <<<'{}'
	[ "$(jget data <<<"$output")" = activated ]
	wait "$listener"
	[ "$(cat "$TC_TMP/notified")" = "$(printf 'READY=1\nSTATUS=the pool is warm')" ]
	# systemd's socket, not one of its own
	[ ! -e "$TC_TMP/unused.sock" ]
}

@test "SIGHUP replaces the warm entries: the ready ones end, new ones are made" {
	srv_start --pool 2
	mapfile -t before < <(srv_descendants "$SERVER")
	kill -HUP "$SERVER"
	gone "${before[@]}"
	srv_until pools.0.ready=2
	echo 'def run(a): return "after"' >"$TC_TMP/h.py"
	run -0 "$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/h.py" <<<'{}'
	[ "$(jget data <<<"$output")" = after ]
}
