#!/usr/bin/env bats
# `toolcell python` is a drop-in for python3 (README.md, toolcell(1)): python3's command
# line, output bytes and exit codes, the script bound read-only at its path,
# the working directory rule, TOOLCELL_* settings, tools/toolcell-python, and
# how a tool's own exit or death shows in toolcell's exit status and record.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
	if [ -n "${VAR_TMP:-}" ]; then
		rm -rf "$VAR_TMP"
	fi
}

# ---------------------------------------------------------------- -c, exit codes

@test "python -c: stdout is python3's, byte for byte, and the exit status is 0" {
	capture "$TOOLCELL" python -c 'print("héllo", 6 * 7); print("second line")'
	[ "$status" -eq 0 ]
	printf 'héllo 42\nsecond line\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	[ ! -s "$TC_TMP/stderr" ]
}

@test "python -c 'sys.exit(3)' exits 3 with nothing on stdout" {
	capture "$TOOLCELL" python -c 'import sys; sys.exit(3)'
	[ "$status" -eq 3 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "python: an uncaught exception exits 1 with python's traceback on stderr" {
	capture "$TOOLCELL" python -c 'def f():
    raise ValueError("boom 17")
f()'
	[ "$status" -eq 1 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "Traceback (most recent call last):" ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "ValueError: boom 17" ]
	grep -q 'in f$' "$TC_TMP/stderr"
}

@test "python: a missing script exits 2 with python3's own message naming its absolute path" {
	capture "$TOOLCELL" python "$TC_TMP/no-such-script.py"
	[ "$status" -eq 2 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(cat "$TC_TMP/stderr")" = "python3: can't open file '$TC_TMP/no-such-script.py': [Errno 2] No such file or directory" ]
}

@test "python: a missing script given relative to the caller's cwd is reported at its absolute path, exit 2" {
	cd "$TC_TMP"
	capture "$TOOLCELL" python no-such-script.py
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "python3: can't open file '$TC_TMP/no-such-script.py': [Errno 2] No such file or directory" ]
}

# ---------------------------------------------------------------- -m, -, --version

@test "python -m json.tool pretty-prints the JSON it reads on stdin" {
	printf '{"b": 1, "a": [true, null, "x"]}' >"$TC_TMP/in.json"
	capture "$TOOLCELL" python -m json.tool <"$TC_TMP/in.json"
	[ "$status" -eq 0 ]
	printf '{\n    "b": 1,\n    "a": [\n        true,\n        null,\n        "x"\n    ]\n}\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

@test "python - reads the program from stdin and passes the arguments after it as sys.argv" {
	capture "$TOOLCELL" python - one 'two words' <<<'import sys, json; print(6 * 7); print(json.dumps(sys.argv))'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = $'42\n["-", "one", "two words"]' ]
}

@test "python with nothing after the options reads the program from stdin" {
	capture "$TOOLCELL" python <<<'print("from stdin")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "from stdin" ]
}

@test "python --version prints python3's version, Python 3.11.x, and exits 0" {
	capture "$TOOLCELL" python --version
	[ "$status" -eq 0 ]
	[[ "$(cat "$TC_TMP/stdout")" =~ ^Python\ 3\.11\.[0-9]+$ ]]
	[ "$(wc -l <"$TC_TMP/stdout")" -eq 1 ]
}

# ---------------------------------------------------------------- the script

@test "python SCRIPT ARGS: sys.argv is the script's absolute path and the arguments untouched" {
	local script
	script=$(fixture argv.py)
	capture "$TOOLCELL" python "$script" plain 'two words' '' --timeout -c 'ü€' '$HOME' '*'
	[ "$status" -eq 0 ]
	run jget '' "$TC_TMP/stdout"
	[ "$output" = "[\"$script\", \"plain\", \"two words\", \"\", \"--timeout\", \"-c\", \"\\u00fc\\u20ac\", \"\$HOME\", \"*\"]" ]
}

@test "python SCRIPT: the script file is visible inside at its absolute path with its exact bytes" {
	local script
	script=$(fixture self_sha.py)
	capture "$TOOLCELL" python "$script"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$TC_TMP/stdout")" = "$script" ]
	[ "$(sed -n 2p "$TC_TMP/stdout")" = "$(sha256sum "$script" | cut -d' ' -f1)" ]
}

@test "python SCRIPT: the script is read-only inside (EROFS or EACCES) and unchanged on the host" {
	local script before
	script=$(fixture write_self.py)
	chmod 666 "$script" # even a world-writable script must not be writable inside
	before=$(sha256sum "$script")
	capture "$TOOLCELL" python "$script"
	[ "$status" -eq 0 ]
	run cat "$TC_TMP/stdout"
	[[ "$output" == EROFS || "$output" == EACCES ]]
	[ "$(sha256sum "$script")" = "$before" ]
}

@test "python SCRIPT: the other files of the script's folder are not visible without --script-dir" {
	local script
	script=$(fixture sibling.py)
	fixture sibling.txt >/dev/null
	capture "$TOOLCELL" python "$script"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = ENOENT ]
}

@test "python --script-dir SCRIPT: the script's folder is visible, so its sibling file reads" {
	local script
	script=$(fixture sibling.py)
	fixture sibling.txt >/dev/null
	capture "$TOOLCELL" python --script-dir "$script"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "READ sibling secret 42" ]
}

@test "python --script-dir: the script's folder is read-only inside, even when world-writable on the host" {
	cat >"$TC_TMP/try_create.py" <<'EOF'
import errno, os
try:
    open(os.path.join(os.path.dirname(__file__), "new-file"), "w")
    print("CREATED")
except OSError as e:
    print(errno.errorcode[e.errno])
EOF
	chmod 644 "$TC_TMP/try_create.py"
	chmod 777 "$TC_TMP"
	capture "$TOOLCELL" python --script-dir "$TC_TMP/try_create.py"
	chmod 755 "$TC_TMP"
	[ "$status" -eq 0 ]
	run cat "$TC_TMP/stdout"
	[[ "$output" == EROFS || "$output" == EACCES ]]
	[ ! -e "$TC_TMP/new-file" ]
}

# ---------------------------------------------------------------- working directory

@test "python: the working directory is / when the caller's cwd is not a bound path" {
	cd "$TC_TMP"
	capture "$TOOLCELL" python -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = / ]
}

@test "python: the working directory stays the caller's when it lies inside a --ro-bind at the same path" {
	# toolcell owns /tmp inside the sandbox, so the folder bound at its own
	# path lives outside /tmp
	VAR_TMP=$(mktemp -d /var/tmp/toolcell-it.XXXXXX) || tc_skip "/var/tmp is not writable here"
	chmod 755 "$VAR_TMP"
	mkdir -p "$VAR_TMP/sub"
	chmod 755 "$VAR_TMP/sub"
	cd "$VAR_TMP/sub"
	capture "$TOOLCELL" python --ro-bind "$VAR_TMP" -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$VAR_TMP/sub" ]
}

@test "python: the working directory is translated into a --ro-bind HOST:INSIDE" {
	mkdir -p "$TC_TMP/data/sub/deeper"
	chmod -R 755 "$TC_TMP/data"
	cd "$TC_TMP/data/sub/deeper"
	capture "$TOOLCELL" python --ro-bind "$TC_TMP/data:/mnt/data" -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = /mnt/data/sub/deeper ]
}

@test "python: the working directory is translated into --workspace (/workspace/...)" {
	mkdir -p "$TC_TMP/ws/project"
	cd "$TC_TMP/ws/project"
	capture "$TOOLCELL" python --workspace "$TC_TMP/ws" -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = /workspace/project ]
}

@test "python: a relative path resolves against the translated working directory" {
	mkdir -p "$TC_TMP/data"
	printf 'relative ok\n' >"$TC_TMP/data/note.txt"
	chmod 755 "$TC_TMP/data"
	chmod 644 "$TC_TMP/data/note.txt"
	cd "$TC_TMP/data"
	capture "$TOOLCELL" python --ro-bind "$TC_TMP/data:/d" -c 'print(open("note.txt").read(), end="")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "relative ok" ]
}

# ---------------------------------------------------------------- py_compile

# src_bind: a folder $TC_TMP/src holding argv.py, to be bound read-only at /src
src_bind() {
	mkdir "$TC_TMP/src"
	chmod 755 "$TC_TMP/src"
	fixture argv.py "$TC_TMP/src" >/dev/null
}

@test "python -m py_compile on a script in a read-only bind succeeds and writes nothing beside it" {
	src_bind
	capture "$TOOLCELL" python --ro-bind "$TC_TMP/src:/src" -m py_compile /src/argv.py
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(ls -A "$TC_TMP/src")" = argv.py ]
}

@test "python: PYTHONPYCACHEPREFIX points into /tmp and compiled bytecode lands there" {
	src_bind
	capture "$TOOLCELL" python --ro-bind "$TC_TMP/src:/src" -c '
import os, py_compile, sys
print(os.environ["PYTHONPYCACHEPREFIX"])
print(py_compile.compile(sys.argv[1], doraise=True))' /src/argv.py
	[ "$status" -eq 0 ]
	[[ "$(sed -n 1p "$TC_TMP/stdout")" == /tmp/* ]]
	[[ "$(sed -n 2p "$TC_TMP/stdout")" == "$(sed -n 1p "$TC_TMP/stdout")"/src/*.pyc ]]
}

@test "python --script-dir: a sibling module imports from the read-only folder, its bytecode cached under /tmp" {
	printf 'VALUE = 7\n' >"$TC_TMP/helper_mod.py"
	printf 'import helper_mod\nprint(helper_mod.VALUE)\nprint(helper_mod.__cached__)\n' >"$TC_TMP/importer.py"
	chmod 644 "$TC_TMP/helper_mod.py" "$TC_TMP/importer.py"
	capture "$TOOLCELL" python --script-dir "$TC_TMP/importer.py"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$TC_TMP/stdout")" = 7 ]
	[[ "$(sed -n 2p "$TC_TMP/stdout")" == /tmp/*"$TC_TMP"/helper_mod.*.pyc ]]
	[ ! -e "$TC_TMP/__pycache__" ]
}

# ---------------------------------------------------------------- stdin / stdout bytes

@test "python: 5 MiB of stdin is relayed whole (sha256 of what sys.stdin.buffer.read() saw)" {
	head -c 5242880 /dev/urandom >"$TC_TMP/big.bin"
	capture "$TOOLCELL" python -c '
import hashlib, sys
data = sys.stdin.buffer.read()
print(len(data), hashlib.sha256(data).hexdigest())' <"$TC_TMP/big.bin"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "5242880 $(sha256sum <"$TC_TMP/big.bin" | cut -d' ' -f1)" ]
}

@test "python: 5 MiB through stdin -> sys.stdin.buffer.read() -> stdout round-trips byte-exact (policy stdout_size 8M)" {
	local script
	script=$(fixture cat_stdin.py)
	# the default policy caps stdout at 1M and forbids raising it: use a
	# policy whose only change is a larger stdout cap
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["limits"]["stdout_size"] = "8M"
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" "$TC_TMP/policy.json"
	chmod 644 "$TC_TMP/policy.json"
	head -c 5242880 /dev/urandom >"$TC_TMP/big.bin"
	capture "$TOOLCELL" python --policy "$TC_TMP/policy.json" "$script" <"$TC_TMP/big.bin"
	[ "$status" -eq 0 ]
	[ "$(sha256sum <"$TC_TMP/stdout")" = "$(sha256sum <"$TC_TMP/big.bin")" ]
}

@test "python: stdout without a trailing newline is kept byte-exact" {
	capture "$TOOLCELL" python -c 'import sys; sys.stdout.write("no newline at the end")'
	[ "$status" -eq 0 ]
	printf 'no newline at the end' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

@test "python: binary stdout carrying all 256 byte values is relayed byte-exact" {
	capture "$TOOLCELL" python -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 3)'
	[ "$status" -eq 0 ]
	"$PY" -I -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 3)' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

@test "python: binary stdin with all 256 byte values reaches the tool byte-exact" {
	local script
	script=$(fixture cat_stdin.py)
	"$PY" -I -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 5)' >"$TC_TMP/in.bin"
	capture "$TOOLCELL" python "$script" <"$TC_TMP/in.bin"
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/in.bin"
}

@test "python: stdout and stderr stay separate streams" {
	capture "$TOOLCELL" python -c 'import sys; print("to out"); print("to err", file=sys.stderr)'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "to out" ]
	[ "$(cat "$TC_TMP/stderr")" = "to err" ]
}

# ---------------------------------------------------------------- TOOLCELL_* settings

@test "TOOLCELL_TIMEOUT=0.5 acts as --timeout: a sleeping script ends with 124 within 10 s, its record's wall clock 0.5 s" {
	local script t0 t1
	script=$(fixture sleeper.py)
	t0=$(date +%s%N)
	TOOLCELL_TIMEOUT=0.5 TOOLCELL_RESULT="$TC_TMP/record.json" capture "$TOOLCELL" python "$script"
	t1=$(date +%s%N)
	[ "$status" -eq 124 ]
	[ ! -s "$TC_TMP/stdout" ]
	# the sleeper sleeps 30 s, the policy's own timeout: well under that, the
	# variable's 0.5 s ended it. 10 s, not 2: the sandbox's set-up and
	# teardown around the 0.5 s took over 1.5 s on a loaded 2-CPU machine
	[ $(((t1 - t0) / 1000000)) -lt 10000 ]
	# the tool's own wall clock is the 0.5 s, set-up left out
	[ "$(jget status "$TC_TMP/record.json")" = timeout ]
	[ "$(jget wall_ms "$TC_TMP/record.json")" -ge 500 ]
	[ "$(jget wall_ms "$TC_TMP/record.json")" -lt 5000 ]
}

@test "TOOLCELL_TIMEOUT with TOOLCELL_RESULT: the record says status timeout" {
	local script
	script=$(fixture sleeper.py)
	TOOLCELL_TIMEOUT=0.5 TOOLCELL_RESULT="$TC_TMP/record.json" capture "$TOOLCELL" python "$script"
	[ "$status" -eq 124 ]
	[ "$(jget status "$TC_TMP/record.json")" = timeout ]
	[ "$(jget limits.timeout.value "$TC_TMP/record.json")" = 500 ]
}

@test "TOOLCELL_MEMORY acts as --memory: the record's memory limit is the variable's value" {
	TOOLCELL_MEMORY=64M TOOLCELL_RESULT="$TC_TMP/record.json" capture "$TOOLCELL" python -c 'print("ok")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = ok ]
	[ "$(jget limits.memory.value "$TC_TMP/record.json")" = 67108864 ]
}

@test "TOOLCELL_MEMORY above the policy's ceiling is refused like --memory: 125, nothing runs" {
	TOOLCELL_MEMORY=1G capture "$TOOLCELL" python -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	grep -q '^toolcell: .*256M' "$TC_TMP/stderr"
}

@test "a command-line option wins over its TOOLCELL_* variable" {
	TOOLCELL_MEMORY=64M TOOLCELL_RESULT="$TC_TMP/record.json" capture "$TOOLCELL" python --memory 32M -c 'pass'
	[ "$status" -eq 0 ]
	[ "$(jget limits.memory.value "$TC_TMP/record.json")" = 33554432 ]
}

@test "TOOLCELL_* variables are never visible to the tool, even with --pass-env" {
	local script
	script=$(fixture env_names.py)
	TOOLCELL_TIMEOUT=20 TOOLCELL_MEMORY=200M TOOLCELL_SCRIPT_DIR=0 TOOLCELL_SECRET=x TC_PLAIN=y \
		capture "$TOOLCELL" python --pass-env TOOLCELL_SECRET --pass-env TOOLCELL_MEMORY --pass-env TC_PLAIN "$script"
	# passing a TOOLCELL_* variable on may be refused (125) but must never show
	if [ "$status" -eq 0 ]; then
		if grep -q '^TOOLCELL' "$TC_TMP/stdout"; then false; fi
		grep -qx TC_PLAIN "$TC_TMP/stdout"
	else
		[ "$status" -eq 125 ]
		[ ! -s "$TC_TMP/stdout" ]
	fi
	TOOLCELL_TIMEOUT=20 TOOLCELL_MEMORY=200M TOOLCELL_RESULT="$TC_TMP/r.json" capture "$TOOLCELL" python "$script"
	[ "$status" -eq 0 ]
	[ -s "$TC_TMP/stdout" ]
	! grep -q '^TOOLCELL' "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- tools/toolcell-python

# wrapper_bin: copy tools/toolcell-python beside a link to the binary in
# $TC_TMP/bin (as an installation would have it); print the wrapper's path
wrapper_bin() {
	local src c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/toolcell-python}" \
		"$BATS_TEST_DIRNAME/../../tools/toolcell-python" \
		"$(dirname "$TOOLCELL")/toolcell-python"; do
		if [ -n "$c" ] && [ -r "$c" ]; then
			src=$c
			break
		fi
	done
	[ -n "$src" ] || return 1
	mkdir -p "$TC_TMP/bin"
	chmod 755 "$TC_TMP/bin"
	cp "$src" "$TC_TMP/bin/toolcell-python"
	chmod 755 "$TC_TMP/bin/toolcell-python"
	ln -s "$(readlink -f "$TOOLCELL")" "$TC_TMP/bin/toolcell"
	echo "$TC_TMP/bin/toolcell-python"
}

@test "tools/toolcell-python works as an interpreter path: script, arguments, stdout and exit code" {
	local w script
	w=$(wrapper_bin) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	script=$(fixture argv.py)
	capture "$w" "$script" a 'b c'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "[\"$script\", \"a\", \"b c\"]" ]
	script=$(fixture exit_with.py)
	capture "$w" "$script" 7
	[ "$status" -eq 7 ]
	[ "$(cat "$TC_TMP/stdout")" = "exiting 7" ]
}

@test "tools/toolcell-python as python3 early in PATH and as a #! interpreter" {
	local w
	w=$(wrapper_bin) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	mkdir "$TC_TMP/pybin"
	chmod 755 "$TC_TMP/pybin"
	ln -s "$w" "$TC_TMP/pybin/python3"
	PATH="$TC_TMP/pybin:$PATH" capture python3 -c 'import os; print(os.getuid(), os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "1000 /" ]
	printf '#!%s\nimport sys\nprint("shebang", sys.argv[1:])\n' "$w" >"$TC_TMP/hashbang"
	chmod 755 "$TC_TMP/hashbang"
	capture "$TC_TMP/hashbang" x y
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "shebang ['x', 'y']" ]
}

@test "tools/toolcell-python takes TOOLCELL_TIMEOUT from the environment (124) and hides it from the tool" {
	local w script
	w=$(wrapper_bin) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	script=$(fixture sleeper.py)
	TOOLCELL_TIMEOUT=0.5 capture "$w" "$script"
	[ "$status" -eq 124 ]
	script=$(fixture env_names.py)
	TOOLCELL_TIMEOUT=9 capture "$w" "$script"
	[ "$status" -eq 0 ]
	! grep -q '^TOOLCELL' "$TC_TMP/stdout"
}

@test "tools/toolcell-python passes an OpenFang JSON-lines exchange through untouched" {
	local w
	w=$(wrapper_bin) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	cat >"$TC_TMP/agent.py" <<'EOF'
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "message":
        print(json.dumps({"type": "response", "text": msg["text"].upper()}), flush=True)
EOF
	chmod 644 "$TC_TMP/agent.py"
	capture "$w" "$TC_TMP/agent.py" <<<$'{"type":"message","text":"hello"}\n{"type":"message","text":"two"}'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = $'{"type": "response", "text": "HELLO"}\n{"type": "response", "text": "TWO"}' ]
}

# ---------------------------------------------------------------- the tool's own end

@test "a script that SIGKILLs itself: toolcell dies by SIGKILL (shell sees 137), record says signaled, signal 9" {
	local script
	script=$(fixture kill_self.py)
	capture "$TOOLCELL" python --result "$TC_TMP/record.json" "$script"
	[ "$status" -eq 137 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(jget status "$TC_TMP/record.json")" = signaled ]
	[ "$(jget signal "$TC_TMP/record.json")" = 9 ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = null ]
}

@test "a tool killed by SIGKILL is seen by Python's subprocess as returncode -9" {
	local script
	script=$(fixture kill_self.py)
	run "$PY" -I -c 'import subprocess, sys; print(subprocess.run(sys.argv[1:]).returncode)' \
		"$TOOLCELL" python "$script"
	[ "$status" -eq 0 ]
	[ "$output" = -9 ]
}

@test "a script killed by SIGTERM: toolcell exits by SIGTERM (143), record signal 15" {
	capture "$TOOLCELL" python --result "$TC_TMP/record.json" -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'
	[ "$status" -eq 143 ]
	[ "$(jget status "$TC_TMP/record.json")" = signaled ]
	[ "$(jget signal "$TC_TMP/record.json")" = 15 ]
}

@test "a script exiting 124, 125, 126 or 127 itself: the same code, and the record says exit_nonzero" {
	local script code
	script=$(fixture exit_with.py)
	for code in 124 125 126 127; do
		capture "$TOOLCELL" python --result "$TC_TMP/record.json" "$script" "$code"
		[ "$status" -eq "$code" ]
		[ "$(cat "$TC_TMP/stdout")" = "exiting $code" ]
		[ "$(jget status "$TC_TMP/record.json")" = exit_nonzero ]
		[ "$(jget exit_code "$TC_TMP/record.json")" = "$code" ]
		[ "$(jget signal "$TC_TMP/record.json")" = null ]
	done
}

@test "a script exiting 0 gets the record status ok, exit_code 0, and the script's sha256 in provenance" {
	local script
	script=$(fixture exit_with.py)
	capture "$TOOLCELL" python --result "$TC_TMP/record.json" "$script" 0
	[ "$status" -eq 0 ]
	[ "$(jget status "$TC_TMP/record.json")" = ok ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = 0 ]
	grep -q "$(sha256sum "$script" | cut -d' ' -f1)" <(jget provenance "$TC_TMP/record.json")
}
