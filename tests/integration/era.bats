#!/usr/bin/env bats
# tools/era-wrapper, the ERA microVM wrapper's command line on toolcell
# (README.md, "ThreeGate / ERA"); ThreeGate's runner on top
# of it is threegate.bats.
#
# era-wrapper --language python --cmd CMD --network none [--timeout S
# --cpu N --mem MB] runs one command line in the sandbox: CMD is split into
# words as a POSIX shell would (quotes honoured) and never given to a
# shell; the first word must be python3 (python means python3). Then the
# wrapper becomes `toolcell run` (exec: one toolcell call, nothing of the
# wrapper left running): stdin, stdout and stderr are the command's, byte
# for byte; the exit status is the command's (124 for the time limit,
# 128+N for signal N, 125 when toolcell refused or failed, e.g. a limit
# above the policy's ceiling). Any network but none, any language but
# python, an unquoted shell operator and a malformed limit are refused
# with exit 2 and a one-line reason. --mem MB maps to --memory NM, --cpu N
# to --cpus N, --timeout S to --timeout S; toolcell runs from / with an
# environment of only PATH and LANG.
#
# And the security cases each calling style opens: absolute paths, the
# working directory, the caller's environment, stdin without a newline,
# huge stdin, stdout without a newline, a kill of the wrapper.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	MARK="tc-era-$$-$BATS_TEST_NUMBER-$RANDOM"
	ERA=$(tc_script era-wrapper) || tc_skip "tools/era-wrapper not found (set TC_SOURCE to the repository)"
	PIDS=()
}

teardown() {
	tc_kill_pids
	tc_teardown
}

# era ARGS...: era-wrapper --language python --network none ARGS..., captured
era() {
	capture "$ERA" --language python --network none "$@"
}

# ================================================================ era-wrapper: the CLI contract

@test "era-wrapper: #!/usr/bin/python3 -IS, a short entry point into the toolcell package, and --help names every option" {
	local f pkg
	[ "$(head -n 1 "$ERA")" = "#!/usr/bin/python3 -IS" ]
	! grep -q "SourceFileLoader\|exec(" "$ERA"
	for pkg in "$(dirname "$(readlink -f "$ERA")")/python/toolcell" "$BATS_TEST_DIRNAME/../../tools/python/toolcell"; do
		[ -d "$pkg" ] && break
	done
	for f in "$ERA" "$pkg"/*.py; do
		"$PY" -I -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' \
			"$f" "$TC_TMP/compiled.pyc"
	done
	capture "$ERA" --help
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(head -n 1 "$TC_TMP/stdout")" = "usage: era-wrapper --language python --cmd CMD --network none" ]
	for f in --language --cmd --network --timeout --cpu --mem TOOLCELL_POLICY "Exit status:" 124 125 "128+N"; do
		grep -qF -- "$f" "$TC_TMP/stdout"
	done
}

@test "era-wrapper: the wrapper becomes toolcell: one toolcell call per run, no wrapper process left beside it" {
	cat >"$TC_TMP/shim" <<EOF
#!/bin/sh
echo "\$\$ \$*" >>"$TC_TMP/calls"
exec "$(readlink -f "$TOOLCELL")" "\$@"
EOF
	chmod 755 "$TC_TMP/shim"
	TOOLCELL="$TC_TMP/shim" era --mem 64 --cmd "python3 -c 'print(1)'"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "1" ]
	[ "$(wc -l <"$TC_TMP/calls")" -eq 1 ]
	[ "$(cut -d' ' -f2-4 "$TC_TMP/calls")" = "run --memory 64M" ]
}

@test "era-wrapper: stdout and stderr are the command's, byte for byte, and its exit status is the wrapper's" {
	era --cmd "python3 -c 'import sys; print(\"héllo\", 6 * 7); print(\"err\", file=sys.stderr); sys.exit(3)'"
	[ "$status" -eq 3 ]
	printf 'héllo 42\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	[ "$(cat "$TC_TMP/stderr")" = "err" ]
	era --cmd "python3 -c 'raise ValueError(\"boom 17\")'"
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "ValueError: boom 17" ]
	era --cmd "python -c 'import sys; print(sys.executable, sys.version_info[0])'"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "/usr/bin/python3 3" ]
}

@test "era-wrapper: CMD is split like a POSIX shell splits it, quotes and backslashes honoured" {
	local cmd
	cmd=$(cat <<'EOF'
python3 -c "import json, sys; print(json.dumps(sys.argv[1:]))" 'a b' "c\"d" e\ f '' '$HOME;|&<>' "x\\y" a"b"c
EOF
)
	era --cmd "$cmd"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = '["a b", "c\"d", "e f", "", "$HOME;|&<>", "x\\y", "abc"]' ]
	# the same words as the shell gives them
	eval "set -- $cmd"
	shift 3
	[ "$("$PY" -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@")" = "$(cat "$TC_TMP/stdout")" ]
	# a newline inside quotes is part of the word, as in sh
	era --cmd $'python3 -c \'import sys\nprint(len(sys.argv))\' x'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "2" ]
}

@test "era-wrapper: unquoted shell operators are refused with exit 2 and a reason, and nothing runs" {
	local cmd want
	while IFS='@' read -r cmd want; do
		era --cmd "python3 -c 'print(\"RAN\")'$cmd"
		[ "$status" -eq 2 ] || { echo "not refused: $cmd" >&2; return 1; }
		[ ! -s "$TC_TMP/stdout" ]
		[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd: $want is shell syntax, and the command is never given to a shell (quote it to pass it literally)" ] ||
			{ cat "$TC_TMP/stderr" >&2; return 1; }
	done <<'EOF'
; id@an unquoted ";" at character 26
 && id@an unquoted "&" at character 27
 & id@an unquoted "&" at character 27
 | cat@an unquoted "|" at character 27
 < /etc/passwd@an unquoted "<" at character 27
 > /tmp/x@an unquoted ">" at character 27
 2>&1@an unquoted ">" at character 28
 `id`@command substitution `...` at character 27
 $(id)@command substitution $(...) at character 27
 "$(id)"@command substitution $(...) inside double quotes at character 28
 "`id`"@command substitution `...` inside double quotes at character 28
 $HOME@parameter expansion $HOME at character 27
 "${HOME}"@parameter expansion ${...} inside double quotes at character 28
 *.py@an unquoted "*" (pathname expansion) at character 27
 # comment@a # that starts a word (a comment) at character 27
 ~/x@a ~ that starts a word (tilde expansion) at character 27
 (x)@an unquoted "(" at character 27
EOF
	era --cmd $'python3 -V\nid'
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd: an unquoted newline (a second command) at character 11 is shell syntax, and the command is never given to a shell (quote it to pass it literally)" ]
	era --cmd "python3 -c 'print(1)"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd: the single quote at character 12 is never closed" ]
}

@test "era-wrapper: only python3 runs; network and language other than none and python are refused (exit 2)" {
	era --cmd "sh -c id"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd: the command must start with python3 (the sandbox has only Debian's python3), not \"sh\"" ]
	era --cmd "/usr/bin/python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd: the command must start with python3 (the sandbox has only Debian's python3), not \"/usr/bin/python3\"" ]
	capture "$ERA" --language python --network host --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --network "host": only "none" is supported (the tool never has a network)' ]
	capture "$ERA" --language python --network=bridge --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --network "bridge": only "none" is supported (the tool never has a network)' ]
	capture "$ERA" --language node --network none --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --language \"node\": only \"python\" is supported (the sandbox has only Debian's python3)" ]
	capture "$ERA" --language python --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --network is required (era-wrapper --language python --cmd CMD --network none)" ]
	capture "$ERA" --language python --network none --cmd "python3 -V" --mem
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --mem needs a value" ]
	capture "$ERA" --language python --network none --cmd "python3 -V" --memory 64
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: unknown option "--memory" (see era-wrapper --help)' ]
	capture "$ERA" --language python --network none --cmd "python3 -V" --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cmd is given twice" ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "era-wrapper: --mem MB, --cpu N, --timeout S become --memory NM, --cpus N, --timeout S; toolcell runs from / with only PATH and LANG" {
	# a shim in front of the real toolcell logs how it was called
	cat >"$TC_TMP/shim" <<EOF
#!/usr/bin/python3 -I
import json, os, sys
if sys.argv[1:2] == ["run"]:
    with open("$TC_TMP/shim.log", "w") as f:
        json.dump({"argv": sys.argv[1:], "env": dict(os.environ), "cwd": os.getcwd()}, f)
os.execv("$(readlink -f "$TOOLCELL")", ["toolcell"] + sys.argv[1:])
EOF
	chmod 755 "$TC_TMP/shim"
	local policy
	policy="$(readlink -f "$(dirname "$TOOLCELL")")/policies/default.json"
	SECRET_TOKEN=s3cr3t TOOLCELL="$TC_TMP/shim" TOOLCELL_POLICY="$policy" capture "$ERA" --language python \
		--network none --mem 64 --cpu 0.5 --timeout 2.5 --cmd "python3 -c 'print(1)'"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "1" ]
	[ "$(jget argv "$TC_TMP/shim.log")" = \
		'["run", "--policy", "'"$policy"'", "--timeout", "2.5", "--cpus", "0.5", "--memory", "64M", "--", "/usr/bin/python3", "-c", "print(1)"]' ]
	[ "$(jget env "$TC_TMP/shim.log")" = '{"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}' ]
	[ "$(jget cwd "$TC_TMP/shim.log")" = "/" ]
}

@test "era-wrapper: a limit above the policy's ceiling is toolcell's refusal (125, its reason); one below toolcell's range is refused with exit 2" {
	local policy
	policy="$(readlink -f "$(dirname "$TOOLCELL")")/policies/default.json"
	TOOLCELL_POLICY=$policy era --mem 4096 --cmd "python3 -c 'print(\"RAN\")'"
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --memory 4G is above the policy's ceiling of 256M ($policy: max.memory)" ]
	TOOLCELL_POLICY=$policy era --timeout 31 --cmd "python3 -V"
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --timeout 31s is above the policy's ceiling of 30s ($policy: max.timeout)" ]
	TOOLCELL_POLICY=$policy era --cpu 2 --cmd "python3 -V"
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --cpus 2 is above the policy's ceiling of 1 ($policy: max.cpus)" ]
	era --mem 2 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --mem "2": memory must be a whole number of MiB, at least 4' ]
	era --timeout 1e3 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --timeout "1e3": seconds must be a number of at least 0.001 (30, 2.5)' ]
	era --cpu ٣ --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "era-wrapper: the time limit ends the command with 124 and one line on stderr" {
	era --timeout 0.5 --cmd "python3 -c 'import time; print(\"started\", flush=True); time.sleep(30)'"
	[ "$status" -eq 124 ]
	[ "$(cat "$TC_TMP/stdout")" = "started" ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: the tool reached its time limit (wall clock): toolcell's own limit of 0.5 s, not its caller's (raise --timeout, TOOLCELL_TIMEOUT or the policy's limits.timeout)" ]
}

@test "era-wrapper: a command killed by a signal ends the wrapper with 128+N" {
	era --cmd "python3 -c 'import os; os.kill(os.getpid(), 9)'"
	[ "$status" -eq 137 ]
	era --cmd "python3 -c 'import os; os.kill(os.getpid(), 15)'"
	[ "$status" -eq 143 ]
	[ ! -s "$TC_TMP/stderr" ]
}

@test "era-wrapper: finds toolcell beside its own real path when TOOLCELL is unset" {
	mkdir -m 755 "$TC_TMP/bin" "$TC_TMP/elsewhere" # an installation: bin/ and share/toolcell/python
	cp "$ERA" "$TC_TMP/bin/era-wrapper"
	chmod 755 "$TC_TMP/bin/era-wrapper"
	capture env -u TOOLCELL PATH=/usr/bin:/bin "$TC_TMP/bin/era-wrapper" --help
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: cannot find its package: no toolcell/era.py beside $TC_TMP/bin (python/, ../share/toolcell/python, ../../share/toolcell/python or ../../lib/python3/dist-packages; install it with toolcell)" ]
	mkdir -p "$TC_TMP/share/toolcell/python"
	cp -r "$(dirname "$(readlink -f "$ERA")")/python/toolcell" "$TC_TMP/share/toolcell/python/" 2>/dev/null ||
		cp -r "$BATS_TEST_DIRNAME/../../tools/python/toolcell" "$TC_TMP/share/toolcell/python/"
	chmod -R a+rX "$TC_TMP/share"
	# the package's layout: libexec/toolcell/era-wrapper finds share/toolcell/python too
	mkdir -p "$TC_TMP/libexec/toolcell"
	cp "$ERA" "$TC_TMP/libexec/toolcell/era-wrapper"
	chmod -R a+rX "$TC_TMP/libexec"
	capture "$TC_TMP/libexec/toolcell/era-wrapper" --help
	[ "$status" -eq 0 ]
	ln -s "$(readlink -f "$TOOLCELL")" "$TC_TMP/bin/toolcell"
	ln -s "$TC_TMP/bin/era-wrapper" "$TC_TMP/elsewhere/era"
	capture env -u TOOLCELL PATH=/usr/bin:/bin "$TC_TMP/elsewhere/era" --language python --network none --cmd "python3 -c 'print(7)'"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "7" ]
	rm "$TC_TMP/bin/toolcell"
	capture env -u TOOLCELL PATH=/usr/bin:/bin "$TC_TMP/elsewhere/era" --language python --network none --cmd "python3 -V"
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: cannot find toolcell: not beside $TC_TMP/bin/era-wrapper and not on PATH (set TOOLCELL to the binary)" ]
}

# ================================================================ era-wrapper: security cases

@test "era-wrapper: an absolute path names a file inside the sandbox, never the host's" {
	printf 'print("LEAK from the host")\n' >"$TC_TMP/host.py"
	echo "host secret" >"$TC_TMP/secret"
	chmod 644 "$TC_TMP/host.py" "$TC_TMP/secret"
	era --cmd "python3 $TC_TMP/host.py"
	[ "$status" -eq 2 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(cat "$TC_TMP/stderr")" = "/usr/bin/python3: can't open file '$TC_TMP/host.py': [Errno 2] No such file or directory" ]
	era --cmd "python3 -c 'import sys, errno
try: open(sys.argv[1])
except OSError as e: print(errno.errorcode[e.errno])' $TC_TMP/secret"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "ENOENT" ]
}

@test "era-wrapper: the working directory is / inside, whatever the caller's is" {
	printf 'print("LEAK")\n' >"$TC_TMP/rel.py"
	chmod 644 "$TC_TMP/rel.py"
	cd "$TC_TMP"
	era --cmd "python3 -c 'import os; print(os.getcwd(), os.path.exists(\"rel.py\"))'"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "/ False" ]
	era --cmd "python3 rel.py"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "/usr/bin/python3: can't open file '//rel.py': [Errno 2] No such file or directory" ]
}

@test "era-wrapper: nothing of the caller's environment reaches the command, even through a policy's pass_env" {
	local want='HOME=/tmp LANG=C.UTF-8 MALLOC_ARENA_MAX=2 PATH=/usr/bin PYTHONPYCACHEPREFIX=/tmp/pycache TMPDIR=/tmp'
	local show="python3 -c 'import os; print(\" \".join(k + \"=\" + v for k, v in sorted(os.environ.items())))'"
	SECRET_TOKEN=s3cr3t PYTHONPATH=/evil LD_PRELOAD=/evil.so HOME=/root era --cmd "$show"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$want" ]
	# a policy that passes SECRET_TOKEN on: toolcell never has it to pass
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1])); p["pass_env"] = ["SECRET_TOKEN"]
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" "$TC_TMP/pass.json"
	chmod 644 "$TC_TMP/pass.json"
	SECRET_TOKEN=s3cr3t TOOLCELL_POLICY="$TC_TMP/pass.json" era --cmd "$show"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$want" ]
	# (the same policy given to toolcell directly does pass it: the test can see a leak)
	SECRET_TOKEN=s3cr3t capture "$TOOLCELL" run --policy "$TC_TMP/pass.json" -- /usr/bin/python3 -c 'import os; print(os.environ["SECRET_TOKEN"])'
	[ "$(cat "$TC_TMP/stdout")" = "s3cr3t" ]
}

@test "era-wrapper: stdin without a newline arrives exactly; stdout without a newline leaves exactly" {
	era --cmd "python3 -c 'import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d[::-1] + b\"|%d\" % len(d))'" < <(printf 'abc')
	[ "$status" -eq 0 ]
	printf 'cba|3' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	era --cmd "python3 -c 'print(\"no newline\", end=\"\")'" </dev/null
	[ "$status" -eq 0 ]
	printf 'no newline' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	era --cmd "python3 -c 'import sys; print(repr(sys.stdin.read()))'" < <(printf '')
	[ "$(cat "$TC_TMP/stdout")" = "''" ]
}

@test "era-wrapper: huge stdin is relayed whole to a reader, and does not hang a command that never reads it" {
	head -c 48M /dev/urandom >"$TC_TMP/big"
	era --cmd "python3 -c 'import hashlib, sys; d = sys.stdin.buffer.read(); print(len(d), hashlib.sha256(d).hexdigest())'" <"$TC_TMP/big"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$((48 * 1024 * 1024)) $(sha256sum <"$TC_TMP/big" | cut -d' ' -f1)" ]
	# 1 GiB offered on a pipe to a command that exits at once
	head -c 1G /dev/zero | timeout 60 "$ERA" --language python --network none --cmd "python3 -c 'print(\"done\")'" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr"
	[ "$(cat "$TC_TMP/stdout")" = "done" ]
}

@test "era-wrapper: SIGKILL of the wrapper takes the sandbox down, no process left" {
	"$ERA" --language python --network none \
		--cmd "python3 -c 'import os, time; os.fork(); print(\"ready\", flush=True); time.sleep(60)' $MARK" \
		>"$TC_TMP/out" 2>&1 3>&- &
	PIDS+=($!)
	tc_wait_for "$TC_TMP/out" ready
	[ "$(pgrep -f "$MARK" | wc -l)" -ge 3 ] # toolcell (the wrapper, exec'd), its init, python3 twice
	kill -KILL "${PIDS[0]}"
	tc_gone "$MARK"
}

@test "era-wrapper: SIGTERM to the wrapper ends the sandbox and then the wrapper with 143" {
	"$ERA" --language python --network none \
		--cmd "python3 -c 'import time; print(\"ready\", flush=True); time.sleep(60)' $MARK" \
		>"$TC_TMP/out" 2>"$TC_TMP/err" 3>&- &
	PIDS+=($!)
	tc_wait_for "$TC_TMP/out" ready
	kill -TERM "${PIDS[0]}"
	rc=0
	wait "${PIDS[0]}" || rc=$?
	[ "$rc" -eq 143 ]
	tc_gone "$MARK"
}
