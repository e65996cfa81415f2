#!/usr/bin/env bats
# The ThreeGate / ERA family (DESIGN section 3, "Compatibility front ends"):
# tools/era-wrapper and tools/toolcell-tool-exec.
#
# era-wrapper --language python --cmd CMD --network none [--timeout S
# --cpu N --mem MB] runs one command line in the sandbox: CMD is split into
# words as a POSIX shell would (quotes honoured) and never given to a
# shell; the first word must be python3 (python means python3); stdin,
# stdout and stderr are the wrapper's own, byte for byte; the exit status
# is the command's (124 for the time limit, 128+N for signal N, 125 when
# toolcell failed). Any network but none, any language but python, an
# unquoted shell operator and a limit above the policy's ceiling are
# refused with exit 2 and a one-line reason. --mem MB maps to --memory NM,
# --cpu N to --cpus N, --timeout S to --timeout S; toolcell runs from /
# with an environment of only PATH and LANG.
#
# toolcell-tool-exec --request TR.md --results-dir DIR reads a Markdown
# Tool Request, validates it (exit 2, every error listed, nothing written),
# runs it with the inputs read-only at /in and the out folder as the
# workspace (/out, the working directory), and writes
# TS-<time>-<request_id>.md with front matter result_id, request_id,
# status, exit_code, runtime_sec, network_used: none, limits, artifacts
# (sha256 of stdout, stderr and each collected output) and
# outputs_missing, then Summary / Provenance / Outputs / Safety Notes.
# Exit 0 accepted, 2 rejected, 3 runtime error. Outputs are collected by
# name only, regular files only, never through a symbolic link.
#
# And the security cases each calling style opens: absolute paths, the
# working directory, the caller's environment, stdin without a newline,
# huge stdin, stdout without a newline, a kill of the wrapper.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	MARK="tc-era-$$-$BATS_TEST_NUMBER-$RANDOM"
	ERA=$(script_path era-wrapper) || tc_skip "tools/era-wrapper not found (set TC_SOURCE to the repository)"
	EXEC=$(script_path toolcell-tool-exec) || tc_skip "tools/toolcell-tool-exec not found (set TC_SOURCE)"
	mkdir -m 755 "$TC_TMP/req" "$TC_TMP/res" "$TC_TMP/tmp"
	export TMPDIR="$TC_TMP/tmp"
	PIDS=()
}

teardown() {
	local p
	for p in "${PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	tc_teardown
}

# script_path NAME: the script under test, from the source tree, else
# beside the binary (the build tree and the unprivileged stage have it)
script_path() {
	local c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/$1}" "$BATS_TEST_DIRNAME/../../tools/$1" \
		"$(dirname "$TOOLCELL")/$1"; do
		if [ -n "$c" ] && [ -r "$c" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# era ARGS...: era-wrapper --language python --network none ARGS..., captured
era() {
	capture "$ERA" --language python --network none "$@"
}

# request NAME: write stdin to $TC_TMP/req/NAME (mode 644)
request() {
	cat >"$TC_TMP/req/$1"
	chmod 644 "$TC_TMP/req/$1"
}

# tool_exec NAME: run toolcell-tool-exec on $TC_TMP/req/NAME into $TC_TMP/res
tool_exec() {
	capture "$EXEC" --request "$TC_TMP/req/$1" --results-dir "$TC_TMP/res"
}

# fm PATH: one value of the Tool Result's front matter ($RESULT), as jget
# prints it. The front matter is read with its own small reader: top-level
# "key: JSON", a mapping of "  key: JSON", a list of "  - key: JSON" items
# continued by "    key: JSON", or "key: []".
fm() {
	"$PY" -I -c '
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[0] == "---", "no front matter"
end = lines.index("---", 1)
doc, key = {}, None
for ln in lines[1:end]:
    if ln.startswith("    "):
        k, v = ln.strip().split(": ", 1)
        doc[key][-1][k] = json.loads(v)
    elif ln.startswith("  - "):
        k, v = ln[4:].split(": ", 1)
        doc[key].append({k: json.loads(v)})
    elif ln.startswith("  "):
        k, v = ln.strip().split(": ", 1)
        doc[key][k] = json.loads(v)
    elif ln.endswith(":"):
        key = ln[:-1]
        doc[key] = {} if key == "limits" else []
    else:
        key, v = ln.split(": ", 1)
        doc[key] = json.loads(v)
print(json.dumps(doc))
' "$RESULT" | jget "$1"
}

# result: set $RESULT to the one Tool Result in $TC_TMP/res
result() {
	local f
	f=$(ls "$TC_TMP/res"/TS-*.md)
	[ "$(echo "$f" | wc -l)" -eq 1 ]
	RESULT=$f
}

# gone MARK: succeed once no process has MARK in its command line (5 s)
gone() {
	local i
	for i in $(seq 50); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	pgrep -fa "$1" >&2
	return 1
}

# wait_for FILE TEXT: until FILE holds TEXT (10 s)
wait_for() {
	local i
	for i in $(seq 100); do
		grep -qs "$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}

# ================================================================ era-wrapper: the CLI contract

@test "both scripts: #!/usr/bin/python3 -I, compile with py_compile, and --help names every option" {
	local f
	for f in "$ERA" "$EXEC"; do
		[ "$(head -n 1 "$f")" = "#!/usr/bin/python3 -I" ]
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
	capture "$EXEC" -h
	[ "$status" -eq 0 ]
	[ "$(head -n 1 "$TC_TMP/stdout")" = "usage: toolcell-tool-exec --request TR.md --results-dir DIR [--inputs-dir DIR]" ]
	for f in --request --results-dir --inputs-dir request_id outputs_expected timeout_sec mem_mb \
		result_id runtime_sec network_used artifacts outputs_missing "Safety Notes" "Exit status:"; do
		grep -qF -- "$f" "$TC_TMP/stdout"
	done
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
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --network host: only "none" is supported (the tool never has a network)' ]
	capture "$ERA" --language python --network=bridge --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --network bridge: only "none" is supported (the tool never has a network)' ]
	capture "$ERA" --language node --network none --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --language node: only \"python\" is supported (the sandbox has only Debian's python3)" ]
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
	[ "$(jget argv "$TC_TMP/shim.log" | sed -E 's/"--result-fd", "[0-9]+"/"--result-fd", "N"/')" = \
		'["run", "--quiet", "--result-fd", "N", "--policy", "'"$policy"'", "--timeout", "2.5", "--cpus", "0.5", "--memory", "64M", "--", "/usr/bin/python3", "-c", "print(1)"]' ]
	[ "$(jget env "$TC_TMP/shim.log")" = '{"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}' ]
	[ "$(jget cwd "$TC_TMP/shim.log")" = "/" ]
}

@test "era-wrapper: a limit above the policy's ceiling or below toolcell's range is refused with exit 2" {
	era --mem 4096 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --mem 4096 is above the policy's ceiling of 256 MiB (max.memory)" ]
	era --timeout 31 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --timeout 31 is above the policy's ceiling of 30 seconds (max.timeout)" ]
	era --cpu 2 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: --cpu 2 is above the policy's ceiling of 1 CPU (max.cpus)" ]
	era --mem 2 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --mem "2": memory must be a whole number of MiB, at least 4' ]
	era --timeout 1e3 --cmd "python3 -V"
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = 'era-wrapper: --timeout "1e3": seconds must be a number of at least 0.001 (30, 2.5)' ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "era-wrapper: the time limit ends the command with 124 and one line on stderr" {
	era --timeout 0.5 --cmd "python3 -c 'import time; print(\"started\", flush=True); time.sleep(30)'"
	[ "$status" -eq 124 ]
	[ "$(cat "$TC_TMP/stdout")" = "started" ]
	[ "$(cat "$TC_TMP/stderr")" = "era-wrapper: the command reached its time limit (0.5 s)" ]
}

@test "era-wrapper: a command killed by a signal ends the wrapper with 128+N" {
	era --cmd "python3 -c 'import os; os.kill(os.getpid(), 9)'"
	[ "$status" -eq 137 ]
	era --cmd "python3 -c 'import os; os.kill(os.getpid(), 15)'"
	[ "$status" -eq 143 ]
	[ ! -s "$TC_TMP/stderr" ]
}

@test "era-wrapper: finds toolcell beside its own real path when TOOLCELL is unset" {
	mkdir -m 755 "$TC_TMP/bin" "$TC_TMP/elsewhere"
	cp "$ERA" "$TC_TMP/bin/era-wrapper"
	chmod 755 "$TC_TMP/bin/era-wrapper"
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
	wait_for "$TC_TMP/out" ready
	[ "$(pgrep -f "$MARK" | wc -l)" -ge 4 ] # wrapper, toolcell, its init, python3 twice
	kill -KILL "${PIDS[0]}"
	gone "$MARK"
}

@test "era-wrapper: SIGTERM to the wrapper ends the sandbox and then the wrapper with 143" {
	"$ERA" --language python --network none \
		--cmd "python3 -c 'import time; print(\"ready\", flush=True); time.sleep(60)' $MARK" \
		>"$TC_TMP/out" 2>"$TC_TMP/err" 3>&- &
	PIDS+=($!)
	wait_for "$TC_TMP/out" ready
	kill -TERM "${PIDS[0]}"
	rc=0
	wait "${PIDS[0]}" || rc=$?
	[ "$rc" -eq 143 ]
	gone "$MARK"
}

# ================================================================ toolcell-tool-exec

# a request that uses inputs, writes an output and names a missing one
good_request() {
	printf 'import sys, os\nrows = open(sys.argv[1]).read().splitlines()\nopen(sys.argv[2], "w").write("rows=%%d\\n" %% len(rows))\nprint("cwd", os.getcwd(), "in", sorted(os.listdir("/in")), end="")\nprint("to stderr", file=sys.stderr)\n' >"$TC_TMP/req/count.py"
	printf 'a,1\nb,2\nc,3\n' >"$TC_TMP/req/data.csv"
	chmod 644 "$TC_TMP/req/count.py" "$TC_TMP/req/data.csv"
	request TR-0001.md <<'EOF'
---
request_id: TR-0001
language: python
network: none
title: count the rows   # free text
inputs:
  - count.py
  - data.csv
outputs_expected: [report.txt, "never.txt"]
limits:
  timeout_sec: 10
  cpu: 1
  mem_mb: 200
---
# Count rows

Counts the rows of data.csv.

## Command

```sh
python3 /in/count.py /in/data.csv report.txt
```

## Notes

Nothing else.
EOF
}

@test "tool-exec: an accepted run writes the Tool Result, prints its path and exits 0" {
	good_request
	tool_exec TR-0001.md
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	result
	[ "$(cat "$TC_TMP/stdout")" = "$RESULT" ]
	local id
	id=$(basename "$RESULT" .md)
	[[ "$id" =~ ^TS-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-TR-0001$ ]]
	[ "$(fm result_id)" = "$id" ]
	[ "$(fm request_id)" = "TR-0001" ]
	[ "$(fm status)" = "ok" ]
	[ "$(fm exit_code)" = "0" ]
	[ "$(fm network_used)" = "none" ]
	[ "$(fm limits)" = '{"cpu": 1, "mem_mb": 200, "timeout_sec": 10}' ]
	run fm runtime_sec
	[[ "$output" =~ ^0\.[0-9]{1,3}$|^[1-9][0-9]*\.[0-9]{1,3}$ ]]
	# the front matter's keys, exactly, in order
	[ "$(sed -n '2,/^---$/p' "$RESULT" | grep -Eo '^[a-z_]+:' | tr -d : | tr '\n' ' ')" = \
		"result_id request_id status exit_code runtime_sec network_used limits artifacts outputs_missing " ]
	# the sections, in order
	[ "$(grep -E '^##? ' "$RESULT" | tr '\n' '|')" = "# Tool Result $id|## Summary|## Provenance|## Outputs|## Safety Notes|" ]
	# what the command printed and wrote
	[ "$(cat "$TC_TMP/res/$id.stdout")" = "cwd /out in ['count.py', 'data.csv']" ]
	[ "$(cat "$TC_TMP/res/$id.stderr")" = "to stderr" ]
	[ "$(cat "$TC_TMP/res/$id.out/report.txt")" = "rows=3" ]
	[ "$(ls "$TC_TMP/res/$id.out")" = "report.txt" ]
	[ "$(fm outputs_missing)" = '[{"name": "never.txt", "reason": "not found in the out folder"}]' ]
	grep -qF '1 of 2 expected outputs collected.' "$RESULT"
	# nothing left behind in TMPDIR
	[ -z "$(ls -A "$TC_TMP/tmp")" ]
}

@test "tool-exec: every artifact's sha256 and size match the file written" {
	good_request
	tool_exec TR-0001.md
	[ "$status" -eq 0 ]
	result
	[ "$(fm artifacts.0.kind) $(fm artifacts.1.kind) $(fm artifacts.2.kind) $(fm artifacts.2.name)" = "stdout stderr output report.txt" ]
	run fm artifacts.3
	[ "$status" -ne 0 ]
	local i path
	for i in 0 1 2; do
		path="$TC_TMP/res/$(fm artifacts.$i.path)"
		[ "$(fm artifacts.$i.sha256)" = "$(sha256sum "$path" | cut -d' ' -f1)" ]
		[ "$(fm artifacts.$i.bytes)" = "$(stat -c %s "$path")" ]
	done
	[ "$(fm artifacts.0.truncated)" = false ]
	# and the request and inputs are in the provenance, by sha256
	grep -qF "sha256 \`$(sha256sum "$TC_TMP/req/TR-0001.md" | cut -d' ' -f1)\`" "$RESULT"
	grep -qF "input \`data.csv\`: 12 bytes, sha256 \`$(sha256sum "$TC_TMP/req/data.csv" | cut -d' ' -f1)\`, at \`/in/data.csv\`" "$RESULT"
}

@test "tool-exec: the command's failure or time limit is its result (exit 0), not tool-exec's" {
	request TR-fail.md <<'EOF'
---
request_id: TR-fail
language: python
network: none
---
## Command
`python3 -c 'import sys; sys.exit(5)'`
EOF
	tool_exec TR-fail.md
	[ "$status" -eq 0 ]
	result
	[ "$(fm status) $(fm exit_code)" = "exit_nonzero 5" ]
	rm -rf "$TC_TMP/res"/*
	request TR-slow.md <<'EOF'
---
request_id: TR-slow
language: python
network: none
limits:
  timeout_sec: 0.5
---
## Command
```
python3 -c 'import time; time.sleep(30)'
```
EOF
	tool_exec TR-slow.md
	[ "$status" -eq 0 ]
	result
	[ "$(fm status) $(fm exit_code) $(fm limits.timeout_sec)" = "timeout 124 0.5" ]
	run fm runtime_sec
	"$PY" -c "import sys; assert 0.5 <= float(sys.argv[1]) < 5" "$output"
	grep -qF 'was stopped: the command reached its time limit (0.5 s) (exit status 124)' "$RESULT"
}

@test "tool-exec: a bad request is rejected with exit 2, every error listed, nothing written" {
	printf 'x' >"$TC_TMP/req/data.csv"
	ln -s /etc/passwd "$TC_TMP/req/passwd"
	request TR-bad.md <<'EOF'
---
request_id: ../../etc/x
language: ruby
network: host
inputs:
  - /etc/shadow
  - ../up.txt
  - passwd
  - nothere.csv
  - data.csv
  - data.csv
outputs_expected: [a/b, ".hidden", ok.txt]
limits:
  timeout_sec: 60
  mem_mb: lots
  gpu: 1
colour: blue
---
## Command
```
python3 -c 'print(1)' | sh
```
EOF
	tool_exec TR-bad.md
	[ "$status" -eq 2 ]
	[ ! -s "$TC_TMP/stdout" ]
	local r="toolcell-tool-exec: $TC_TMP/req/TR-bad.md"
	local name="is not a plain file name (A-Z a-z 0-9 . _ -, not starting with '.', at most 128; no '/' or '..')"
	cat >"$TC_TMP/want" <<EOF
$r:2: request_id "../../etc/x": 1 to 128 of A-Z a-z 0-9 . _ -, starting with a letter or digit
$r:3: language "ruby": only "python" is supported (the sandbox has only Debian's python3)
$r:4: network "host": only "none" is supported (the tool never has a network)
$r:6: inputs: "/etc/shadow" $name
$r:7: inputs: "../up.txt" $name
$r:11: inputs: "data.csv" is listed twice
$r:12: outputs_expected: "a/b" $name
$r:12: outputs_expected: ".hidden" $name
$r:14: limits.timeout_sec 60 is above the policy's ceiling of 30 seconds (max.timeout)
$r:15: limits.mem_mb "lots": memory must be a whole number of MiB, at least 4
$r:16: unknown limit "gpu" (known: timeout_sec, cpu, mem_mb)
$r:17: unknown key "colour" (known: request_id, language, network, inputs, outputs_expected, limits, title, purpose, description, created_at, requested_by, notes)
$r:21: Command: an unquoted "|" at character 23 is shell syntax, and the command is never given to a shell (quote it to pass it literally)
$r: input "passwd" is a symbolic link; name the real file
$r: input "nothere.csv": No such file or directory in $TC_TMP/req
$r: rejected: 15 errors
EOF
	diff "$TC_TMP/want" "$TC_TMP/stderr"
	[ -z "$(ls -A "$TC_TMP/res")" ]
	[ -z "$(ls -A "$TC_TMP/tmp")" ]
}

@test "tool-exec: a request over 1 MiB, a symbolic link or no front matter is rejected (exit 2)" {
	head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' a >"$TC_TMP/req/big.md"
	tool_exec big.md
	[ "$status" -eq 2 ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/big.md: larger than 1048576 bytes (1 MiB), the most a Tool Request may hold" ]
	good_request
	ln -s TR-0001.md "$TC_TMP/req/link.md"
	tool_exec link.md
	[ "$status" -eq 2 ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/link.md: is a symbolic link; name the real file" ]
	printf '## Command\npython3 -V\n' | request plain.md
	tool_exec plain.md
	[ "$status" -eq 2 ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/plain.md:1: a Tool Request starts with its front matter: a first line \"---\"" ]
	printf -- '---\nrequest_id: x\nlanguage: python\nnetwork: none\n---\nno command\n' | request nocmd.md
	tool_exec nocmd.md
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/nocmd.md: no \"## Command\" section
toolcell-tool-exec: $TC_TMP/req/nocmd.md: rejected: 1 error" ]
	[ -z "$(ls -A "$TC_TMP/res")" ]
}

@test "tool-exec: inputs are private copies, read-only at /in: writes fail with EROFS (EACCES for O_APPEND as root)" {
	echo original >"$TC_TMP/req/keep.txt"
	chmod 644 "$TC_TMP/req/keep.txt"
	request TR-ro.md <<'EOF'
---
request_id: TR-ro
language: python
network: none
inputs: [keep.txt]
---
## Command
```
python3 -c 'import errno, os
def try_(what, f):
    try:
        f(); print(what, "WROTE")
    except OSError as e:
        print(what, errno.errorcode[e.errno])
try_("create", lambda: open("/in/new.txt", "w"))
try_("truncate", lambda: open("/in/keep.txt", "w"))
try_("append", lambda: open("/in/keep.txt", "a"))
try_("unlink", lambda: os.unlink("/in/keep.txt"))
try_("chmod", lambda: os.chmod("/in/keep.txt", 0o777))
print(open("/in/keep.txt").read().strip())'
```
EOF
	tool_exec TR-ro.md
	[ "$status" -eq 0 ]
	result
	local id append
	id=$(basename "$RESULT" .md)
	# as root the tool is "other" to the copy (0644): the permission check
	# comes first for a plain open; unprivileged it owns it and meets EROFS
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then append=EROFS; else append=EACCES; fi
	[ "$(cat "$TC_TMP/res/$id.stdout")" = "create EROFS
truncate EROFS
append $append
unlink EROFS
chmod EROFS
original" ]
	[ "$(cat "$TC_TMP/req/keep.txt")" = original ]
}

@test "tool-exec: an output that is a symbolic link, a FIFO or a folder is refused, never followed; a missing one is reported" {
	echo "host secret" >"$TC_TMP/req/secret.txt"
	chmod 644 "$TC_TMP/req/secret.txt"
	request TR-links.md <<'EOF'
---
request_id: TR-links
language: python
network: none
inputs: [secret.txt]
outputs_expected:
  - to_etc
  - to_in
  - fifo
  - folder
  - real.txt
  - absent.txt
---
## Command
```
python3 -c 'import os
os.symlink("/etc/passwd", "to_etc")
os.symlink("/in/secret.txt", "to_in")
os.mkfifo("fifo")
os.mkdir("folder")
open("real.txt", "w").write("real")'
```
EOF
	run timeout 60 "$EXEC" --request "$TC_TMP/req/TR-links.md" --results-dir "$TC_TMP/res"
	[ "$status" -eq 0 ]
	result
	local id
	id=$(basename "$RESULT" .md)
	[ "$(fm outputs_missing)" = '[{"name": "to_etc", "reason": "a symbolic link, never followed"}, {"name": "to_in", "reason": "a symbolic link, never followed"}, {"name": "fifo", "reason": "a FIFO, not a regular file"}, {"name": "folder", "reason": "a folder, not a regular file"}, {"name": "absent.txt", "reason": "not found in the out folder"}]' ]
	[ "$(ls "$TC_TMP/res/$id.out")" = "real.txt" ]
	[ "$(fm artifacts.2.name) $(fm artifacts.2.bytes)" = "real.txt 4" ]
	grep -qF '1 of 6 expected outputs collected.' "$RESULT"
}

@test "tool-exec: absolute paths, the working directory and the environment: only /in, /out and the policy's variables" {
	echo "host secret" >"$TC_TMP/secret"
	chmod 644 "$TC_TMP/secret"
	request TR-env.md <<EOF
---
request_id: TR-env
language: python
network: none
---
## Command
\`\`\`
python3 -c 'import os, sys
print(os.getcwd(), os.path.exists(sys.argv[1]), sorted(os.listdir("/in")), sorted(os.listdir(".")))
print(" ".join(sorted(os.environ)))' $TC_TMP/secret
\`\`\`
EOF
	cd "$TC_TMP"
	SECRET_TOKEN=s3cr3t PYTHONPATH=/evil tool_exec TR-env.md
	[ "$status" -eq 0 ]
	result
	local id
	id=$(basename "$RESULT" .md)
	[ "$(cat "$TC_TMP/res/$id.stdout")" = "/out False [] []
HOME LANG MALLOC_ARENA_MAX PATH PYTHONPYCACHEPREFIX TMPDIR" ]
	run grep -rlF s3cr3t "$TC_TMP/res"
	[ "$status" -eq 1 ]
}

@test "tool-exec: a limit above the policy's ceiling is rejected; a policy without workspace is a runtime error (3)" {
	request TR-big.md <<'EOF'
---
request_id: TR-big
language: python
network: none
limits: {}
---
## Command
python3 -V
EOF
	tool_exec TR-big.md
	[ "$status" -eq 2 ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/TR-big.md:5: unsupported YAML in \"{}\" (quote the value)" ]
	request TR-big.md <<'EOF'
---
request_id: TR-big
language: python
network: none
limits:
  mem_mb: 1024
  cpu: 4
---
## Command
python3 -V
EOF
	tool_exec TR-big.md
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell-tool-exec: $TC_TMP/req/TR-big.md:6: limits.mem_mb 1024 is above the policy's ceiling of 256 MiB (max.memory)
toolcell-tool-exec: $TC_TMP/req/TR-big.md:7: limits.cpu 4 is above the policy's ceiling of 1 CPU (max.cpus)
toolcell-tool-exec: $TC_TMP/req/TR-big.md: rejected: 2 errors" ]
	good_request
	local prod
	prod="$(readlink -f "$(dirname "$TOOLCELL")")/policies/production.json"
	sed -i 's/mem_mb: 200/mem_mb: 100/' "$TC_TMP/req/TR-0001.md"
	TOOLCELL_POLICY="$prod" tool_exec TR-0001.md
	[ "$status" -eq 3 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell-tool-exec: the policy $prod does not allow --ro-bind (allow.ro_bind), which the read-only /in needs" ]
	TOOLCELL=/nonexistent/toolcell tool_exec TR-0001.md
	[ "$status" -eq 3 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell-tool-exec: TOOLCELL=/nonexistent/toolcell is not an executable file" ]
	[ -z "$(ls -A "$TC_TMP/res")" ]
}

@test "tool-exec: SIGKILL mid-run leaves no process, no temporary folder and no partial result" {
	request TR-kill.md <<EOF
---
request_id: TR-kill
language: python
network: none
outputs_expected: [partial.txt]
---
## Command
\`\`\`
python3 -c 'import os, time; open("partial.txt", "w").write("x"); os.fork(); print("ready", flush=True); time.sleep(60)' $MARK
\`\`\`
EOF
	"$EXEC" --request "$TC_TMP/req/TR-kill.md" --results-dir "$TC_TMP/res" >"$TC_TMP/out" 2>&1 3>&- &
	PIDS+=($!)
	local i
	for i in $(seq 100); do
		grep -qs ready "$TC_TMP"/res/*.stdout && break
		sleep 0.1
	done
	[ -n "$(ls -A "$TC_TMP/tmp")" ]
	[ "$(pgrep -f "$MARK" | wc -l)" -ge 3 ]
	kill -KILL "${PIDS[0]}"
	gone "$MARK"
	for i in $(seq 50); do
		[ -z "$(ls -A "$TC_TMP/res" "$TC_TMP/tmp" | grep -v ':$' | grep -v '^$')" ] && break
		sleep 0.1
	done
	[ -z "$(ls -A "$TC_TMP/res")" ]
	[ -z "$(ls -A "$TC_TMP/tmp")" ]
}

@test "tool-exec: SIGTERM mid-run is a runtime error (3), and everything is cleaned up" {
	request TR-term.md <<EOF
---
request_id: TR-term
language: python
network: none
---
## Command
\`\`\`
python3 -c 'import time; print("ready", flush=True); time.sleep(60)' $MARK
\`\`\`
EOF
	"$EXEC" --request "$TC_TMP/req/TR-term.md" --results-dir "$TC_TMP/res" >"$TC_TMP/out" 2>"$TC_TMP/err" 3>&- &
	PIDS+=($!)
	local i rc=0
	for i in $(seq 100); do
		grep -qs ready "$TC_TMP"/res/*.stdout && break
		sleep 0.1
	done
	kill -TERM "${PIDS[0]}"
	wait "${PIDS[0]}" || rc=$?
	[ "$rc" -eq 3 ]
	[ "$(cat "$TC_TMP/err")" = "toolcell-tool-exec: interrupted by SIGTERM" ]
	gone "$MARK"
	[ -z "$(ls -A "$TC_TMP/res")" ]
	[ -z "$(ls -A "$TC_TMP/tmp")" ]
}
