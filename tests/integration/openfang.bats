#!/usr/bin/env bats
# tools/toolcell-python as OpenFang's Python interpreter path (issue 5, part 1).
# OpenFang's Python runtime runs `INTERPRETER script.py` in the agent's
# working directory with the environment cleared but OPENFANG_AGENT_ID,
# OPENFANG_MESSAGE, PATH, HOME (and PYTHONPATH, VIRTUAL_ENV and the agent's
# allowed_env_vars when set), writes one JSON line
# {"type":"message","agent_id":...,"message":...,"context":{...}} and EOF on
# stdin, reads the script's JSON lines from stdout (the last
# {"type":"response","text":...} is the answer), keeps the exit code and
# stderr of a failure, and on its timeout SIGKILLs the interpreter. These tests
# play OpenFang's side with `env -i` and the agents in tools/openfang/.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	WRAPPER=$(of_wrapper) || tc_skip "tools/toolcell-python not found (set TC_SOURCE to the repository)"
	AGENTS="$TC_TMP/agents"
	mkdir "$AGENTS"
	chmod 755 "$AGENTS"
}

teardown() {
	tc_teardown
}

# of_wrapper: tools/toolcell-python copied beside a link to the binary under
# test in $TC_TMP/bin (as an installation has it); print the wrapper's path
of_wrapper() {
	local src c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/toolcell-python}" \
		"$BATS_TEST_DIRNAME/../../tools/toolcell-python"; do
		if [ -n "$c" ] && [ -r "$c" ]; then
			src=$c
			break
		fi
	done
	[ -n "${src:-}" ] || return 1
	mkdir -p "$TC_TMP/bin"
	chmod 755 "$TC_TMP/bin"
	cp "$src" "$TC_TMP/bin/toolcell-python"
	chmod 755 "$TC_TMP/bin/toolcell-python"
	ln -s "$(readlink -f "$TOOLCELL")" "$TC_TMP/bin/toolcell"
	echo "$TC_TMP/bin/toolcell-python"
}

# agent NAME: copy tools/openfang/NAME into $AGENTS (mode 644), print its path
agent() {
	cp "$BATS_TEST_DIRNAME/tools/openfang/$1" "$AGENTS/$1"
	chmod 644 "$AGENTS/$1"
	echo "$AGENTS/$1"
}

# message AGENT_ID MESSAGE [CONTEXT_JSON]: write the line OpenFang sends to
# $TC_TMP/input, as serde_json prints it (compact, keys in order), plus "\n"
message() {
	"$PY" -I -c '
import json, sys
line = json.dumps({"type": "message", "agent_id": sys.argv[1], "message": sys.argv[2],
                   "context": json.loads(sys.argv[3])}, sort_keys=True,
                  separators=(",", ":"), ensure_ascii=False)
sys.stdout.write(line + "\n")' "$1" "$2" "${3:-{\}}" >"$TC_TMP/input"
}

# openfang DIR SCRIPT [NAME=VALUE...]: run SCRIPT as OpenFang does, with the
# wrapper as interpreter: working directory DIR, the environment cleared but
# OPENFANG_AGENT_ID and OPENFANG_MESSAGE (from $TC_TMP/input), PATH, HOME and
# the NAME=VALUE given; $TC_TMP/input on stdin; output as `capture` leaves it
openfang() {
	local dir=$1 script=$2 id msg
	shift 2
	id=$(jget agent_id "$TC_TMP/input")
	msg=$(jget message "$TC_TMP/input")
	status=0
	env -i -C "$dir" OPENFANG_AGENT_ID="$id" OPENFANG_MESSAGE="$msg" PATH="$PATH" HOME="${HOME:-/}" \
		"$@" "$WRAPPER" "$script" <"$TC_TMP/input" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
}

# response: the line OpenFang takes as the answer, the last one of stdout
response() {
	tail -n 1 "$TC_TMP/stdout"
}

# pass_env_policy: default.json with pass_env for OpenFang's four variables,
# written to $TC_TMP/policy.json
pass_env_policy() {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["pass_env"] = ["OPENFANG_AGENT_ID", "OPENFANG_MESSAGE", "PYTHONPATH", "PYTHONIOENCODING"]
json.dump(p, open(sys.argv[2], "w"), indent=1)' "$(dirname "$TOOLCELL")/policies/default.json" "$TC_TMP/policy.json"
	chmod 644 "$TC_TMP/policy.json"
}

# ---------------------------------------------------------------- the exchange

@test "openfang: message line in, the script's JSON lines out byte for byte as bare python3 prints them, response last" {
	local script
	script=$(agent bytes_agent.py)
	message agent-1 "ping é"
	openfang / "$script"
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	env -i "$PY" -I "$script" <"$TC_TMP/input" >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	[ "$(wc -l <"$TC_TMP/stdout")" -eq 8 ]
	grep -q $'"s":"a\\\\r\\\\nb\\\\tc"}\r$' "$TC_TMP/stdout"
	[ "$(response)" = '{"type": "response", "text": "done: ping é"}' ]
}

@test "openfang: agent_id, message and context reach the script intact (UTF-8, newlines, quotes, nested context)" {
	local script
	script=$(agent echo_agent.py)
	message "agent-ü-7" $'two\nlines "quoted" \\ back € 😀' '{"channel":"cli","history":[{"role":"user","n":1}],"big":12345678901234567890}'
	openfang / "$script"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$TC_TMP/stdout")" = "Loading model..." ]
	[ "$(sed -n 2p "$TC_TMP/stdout")" = '{"type": "progress", "step": 1}' ]
	[ "$(wc -l <"$TC_TMP/stdout")" -eq 3 ]
	response | jget type | grep -qx response
	[ "$(response | jget text)" = "agent-ü-7 heard: $(jget message "$TC_TMP/input")" ]
	[ "$(response | jget metadata.received)" = "$(jget '' "$TC_TMP/input")" ]
	[ "$(response | jget metadata.line_ends_with_newline)" = true ]
	grep -q 12345678901234567890 "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- environment

@test "openfang: a pass_env policy carries OPENFANG_AGENT_ID, OPENFANG_MESSAGE, PYTHONPATH, PYTHONIOENCODING; the caller's secret stays out" {
	local script
	script=$(agent env_agent.py)
	mkdir "$TC_TMP/lib"
	printf 'VALUE = "helper from PYTHONPATH"\n' >"$TC_TMP/lib/openfang_helper.py"
	chmod 755 "$TC_TMP/lib"
	chmod 644 "$TC_TMP/lib/openfang_helper.py"
	pass_env_policy
	message agent-42 "what is the weather"
	# TOOLCELL_* and the secret come as the agent's allowed_env_vars would
	openfang / "$script" PYTHONPATH="$TC_TMP/lib" PYTHONIOENCODING=latin-1 \
		TOOLCELL_POLICY="$TC_TMP/policy.json" TOOLCELL_RO_BIND="$TC_TMP/lib" \
		OPENFANG_API_SECRET=s3cr3t-5f1d9c OTHER_SECRET=hunter2-77ab
	[ "$status" -eq 0 ]
	[ "$(response | jget env.OPENFANG_AGENT_ID)" = agent-42 ]
	[ "$(response | jget env.OPENFANG_MESSAGE)" = "what is the weather" ]
	[ "$(response | jget text)" = "what is the weather" ]
	[ "$(response | jget env.PYTHONPATH)" = "$TC_TMP/lib" ]
	[ "$(response | jget helper)" = "helper from PYTHONPATH" ]
	[ "$(response | jget env.PYTHONIOENCODING)" = latin-1 ]
	[ "$(response | jget stdout_encoding)" = iso8859-1 ]
	# exactly the policy's env plus the four: nothing else of the caller's
	[ "$(response | "$PY" -I -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["env"])))')" = \
		"HOME LANG MALLOC_ARENA_MAX OPENFANG_AGENT_ID OPENFANG_MESSAGE PATH PYTHONIOENCODING PYTHONPATH PYTHONPYCACHEPREFIX TMPDIR" ]
	[ "$(response | jget env.HOME)" = /tmp ]
	[ "$(response | jget env.PATH)" = /usr/bin ]
	# nowhere the script can look: its environment or any /proc/*/environ
	! grep -q 's3cr3t-5f1d9c\|hunter2-77ab\|OPENFANG_API_SECRET\|OTHER_SECRET\|TOOLCELL_' "$TC_TMP/stdout"
}

@test "openfang: with the default policy the environment is the policy's alone; OpenFang's variables do not pass" {
	local script
	script=$(agent env_agent.py)
	message agent-1 hello
	openfang / "$script" PYTHONPATH=/nonexistent SECRET_TOKEN=tok-0c4e
	[ "$status" -eq 0 ]
	[ "$(response | "$PY" -I -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["env"])))')" = \
		"HOME LANG MALLOC_ARENA_MAX PATH PYTHONPYCACHEPREFIX TMPDIR" ]
	! grep -q 'OPENFANG_\|tok-0c4e\|SECRET_TOKEN' "$TC_TMP/stdout"
}

@test "openfang: TOOLCELL_PASS_ENV carries OpenFang's variables under the default policy" {
	local script
	script=$(agent env_agent.py)
	message agent-9 "via the pass list"
	openfang / "$script" TOOLCELL_PASS_ENV=OPENFANG_AGENT_ID,OPENFANG_MESSAGE SECRET_TOKEN=tok-91aa
	[ "$status" -eq 0 ]
	[ "$(response | jget env.OPENFANG_AGENT_ID)" = agent-9 ]
	[ "$(response | jget env.OPENFANG_MESSAGE)" = "via the pass list" ]
	! grep -q 'tok-91aa\|SECRET_TOKEN\|TOOLCELL_' "$TC_TMP/stdout"
}

# ---------------------------------------------------------------- failure

@test "openfang: a script exiting 3 keeps its code, its stderr byte for byte, and the stdout it printed first" {
	local script
	script=$(agent fail_agent.py)
	message agent-1 "exit 3"
	openfang / "$script"
	[ "$status" -eq 3 ]
	[ "$(cat "$TC_TMP/stdout")" = '{"type": "progress", "text": "about to fail"}' ]
	printf 'agent failed: giving up with 3\nsecond line \xc3\xa9\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stderr" "$TC_TMP/want"
	message agent-1 "exit 77"
	openfang / "$script"
	[ "$status" -eq 77 ]
}

@test "openfang: an uncaught exception exits 1 with python's traceback on stderr" {
	local script
	script=$(agent fail_agent.py)
	message agent-1 raise
	openfang / "$script"
	[ "$status" -eq 1 ]
	[ "$(head -n 1 "$TC_TMP/stderr")" = "Traceback (most recent call last):" ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "RuntimeError: model backend unreachable (42)" ]
	grep -q "File \"$script\", line .*, in answer" "$TC_TMP/stderr"
}

@test "openfang: SIGKILL of the wrapper (OpenFang's timeout) takes the sandbox down at once; the caller's reads end" {
	local script marker report
	script=$(agent hang_agent.py)
	marker="of-kill-$$-$RANDOM-$(date +%s%N)"
	run -0 "$PY" -I "$BATS_TEST_DIRNAME/tools/openfang/kill_driver.py" "$WRAPPER" "$script" "$marker"
	report=$output
	echo "$report"
	# the agent was running (its first line came) with its forked child
	[[ "$(jget first <<<"$report")" == '{"type": "progress", "pid": '* ]]
	# the wrapper execs toolcell: the SIGKILL hits toolcell itself
	[ "$(jget comm <<<"$report")" = toolcell ]
	# toolcell, the sandbox's init, the agent and its child carried the marker
	[ "$(jget before <<<"$report")" -ge 3 ]
	[ "$(jget returncode <<<"$report")" = -9 ]
	# stdout and stderr reach EOF within 1 s (null: not within 5 s)
	[ "$(jget stdout_eof_ms <<<"$report")" != null ]
	[ "$(jget stdout_eof_ms <<<"$report")" -lt 1000 ]
	[ "$(jget stderr_eof_ms <<<"$report")" != null ]
	[ "$(jget stderr_eof_ms <<<"$report")" -lt 1000 ]
	# and no process with the marker is left
	[ "$(jget left <<<"$report")" = "[]" ]
	[ "$(jget gone_ms <<<"$report")" -lt 2000 ]
}

# ---------------------------------------------------------------- stdin / stdout bytes

@test "openfang: a message line without its newline, then EOF, is read whole" {
	local script
	script=$(agent echo_agent.py)
	message agent-1 "no newline here"
	printf '%s' "$(cat "$TC_TMP/input")" >"$TC_TMP/input.nonl"
	mv "$TC_TMP/input.nonl" "$TC_TMP/input"
	[ "$(tail -c 1 "$TC_TMP/input")" = "}" ]
	openfang / "$script"
	[ "$status" -eq 0 ]
	[ "$(response | jget text)" = "agent-1 heard: no newline here" ]
	[ "$(response | jget metadata.line_ends_with_newline)" = false ]
}

@test "openfang: a 6 MiB message line reaches the script whole (size and sha256 of its stdin)" {
	local script size msglen
	script=$(agent big_agent.py)
	"$PY" -I -c '
import base64, json, os, sys
msg = base64.b64encode(os.urandom(9 << 19)).decode()  # 6 MiB of text
sys.stdout.write(json.dumps({"agent_id": "agent-1", "context": {}, "message": msg, "type": "message"},
                            separators=(",", ":")) + "\n")' >"$TC_TMP/input"
	size=$(stat -c %s "$TC_TMP/input")
	msglen=$("$PY" -I -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["message"]))' "$TC_TMP/input")
	[ "$msglen" -eq $((6 * 1024 * 1024)) ]
	# OPENFANG_MESSAGE, an environment variable, would be far too long here:
	# play OpenFang with the stdin only
	status=0
	env -i PATH="$PATH" "$WRAPPER" "$script" <"$TC_TMP/input" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 0 ]
	[ "$(response | jget text)" = "$size $(sha256sum <"$TC_TMP/input" | cut -d' ' -f1) $msglen newline" ]
}

@test "openfang: a response without a trailing newline is delivered byte for byte" {
	local script
	script=$(agent nonl_agent.py)
	message agent-1 "abc déf"
	openfang / "$script"
	[ "$status" -eq 0 ]
	printf '{"type": "response", "text": "f\\u00e9d cba"}' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

# ---------------------------------------------------------------- working directory

@test "openfang: started in the agent's folder without TOOLCELL_SCRIPT_DIR, the script runs in / (the folder is not bound)" {
	local script
	script=$(agent cwd_agent.py)
	printf 'agent notes\n' >"$AGENTS/notes.txt"
	chmod 644 "$AGENTS/notes.txt"
	message agent-1 where
	openfang "$AGENTS" "$script"
	[ "$status" -eq 0 ]
	[ "$(response | jget text)" = / ]
	[ "$(response | jget notes)" = ENOENT ]
}

@test "openfang: TOOLCELL_SCRIPT_DIR=1 binds the agent's folder read-only and the script runs in it, named relatively" {
	local script
	script=$(agent cwd_agent.py)
	printf 'agent notes\n' >"$AGENTS/notes.txt"
	chmod 644 "$AGENTS/notes.txt"
	chmod 777 "$AGENTS" # even a world-writable folder is read-only inside
	message agent-1 where
	openfang "$AGENTS" cwd_agent.py TOOLCELL_SCRIPT_DIR=1
	chmod 755 "$AGENTS"
	[ "$status" -eq 0 ]
	[ "$(response | jget text)" = "$AGENTS" ]
	[ "$(response | jget notes)" = "agent notes" ]
	[ "$(response | jget argv0)" = "$script" ]
	run response
	[[ "$(jget create <<<"$output")" == EROFS || "$(jget create <<<"$output")" == EACCES ]]
	[ ! -e "$AGENTS/created-by-agent.txt" ]
}

# ---------------------------------------------------------------- -m py_compile

# toolcell python binds only the script python3 would run; after -m nothing
# is bound, so FILE must lie in a bind already (the next test). This one
# asks for FILE to be seen as python3 would see it (issue 5: "-m py_compile
# FILE works").
@test "openfang: -m py_compile FILE through the wrapper, as a framework validates a script: 0 for good, 1 with the SyntaxError for bad" {
	# PyRunner-style runners write the tool into a fresh folder under /tmp
	# and run `INTERPRETER -m py_compile FILE` before using it
	mkdir "$TC_TMP/arium-py-1"
	chmod 755 "$TC_TMP/arium-py-1"
	printf 'def run(args):\n    return args\n' >"$TC_TMP/arium-py-1/tool.py"
	printf 'def run(args:\n    return args\n' >"$TC_TMP/arium-py-1/bad.py"
	chmod 644 "$TC_TMP/arium-py-1/tool.py" "$TC_TMP/arium-py-1/bad.py"
	capture env -i PATH="$PATH" "$WRAPPER" -m py_compile "$TC_TMP/arium-py-1/tool.py"
	cat "$TC_TMP/stderr" >&2
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	capture env -i PATH="$PATH" "$WRAPPER" -m py_compile "$TC_TMP/arium-py-1/bad.py"
	[ "$status" -eq 1 ]
	grep -q "^  File \"$TC_TMP/arium-py-1/bad.py\", line 1" "$TC_TMP/stderr"
	grep -q '^SyntaxError: ' "$TC_TMP/stderr"
	[ "$(ls -A "$TC_TMP/arium-py-1" | tr '\n' ' ')" = "bad.py tool.py " ]
}

@test "openfang: -m py_compile on a relative FILE in a folder bound with TOOLCELL_RO_BIND, from that folder" {
	printf 'import json\nprint(json.dumps({"type": "response", "text": "ok"}))\n' >"$AGENTS/good.py"
	printf 'print("unclosed\n' >"$AGENTS/broken.py"
	chmod 644 "$AGENTS/good.py" "$AGENTS/broken.py"
	status=0
	env -i -C "$AGENTS" PATH="$PATH" TOOLCELL_RO_BIND="$AGENTS" "$WRAPPER" -m py_compile good.py \
		>"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	status=0
	env -i -C "$AGENTS" PATH="$PATH" TOOLCELL_RO_BIND="$AGENTS" "$WRAPPER" -m py_compile broken.py \
		>"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 1 ]
	grep -q '^  File "broken.py", line 1' "$TC_TMP/stderr"
	[ "$(ls -A "$AGENTS" | tr '\n' ' ')" = "broken.py good.py " ]
}

# ---------------------------------------------------------------- policies/openfang.json and the README recipe

# openfang_policy: the shipped policies/openfang.json (the build tree's copy)
openfang_policy() {
	echo "$(readlink -f "$(dirname "$TOOLCELL")")/policies/openfang.json"
}

# sdk_layout: a clean-room stand-in of OpenFang's layout in $TC_TMP/openfang:
# sdk/python/openfang_sdk.py (read_input, respond, log, Agent) and
# sdk/python/examples/echo_agent.py, which puts its folder's parent on
# sys.path to import the SDK, as OpenFang's own example does
sdk_layout() {
	SDK="$TC_TMP/openfang/sdk/python"
	mkdir -p "$SDK/examples"
	cat >"$SDK/openfang_sdk.py" <<'EOF'
import json, os, sys


def read_input():
    line = sys.stdin.readline()
    if not line.strip():
        return {"type": "message", "agent_id": os.environ.get("OPENFANG_AGENT_ID", ""),
                "message": os.environ.get("OPENFANG_MESSAGE", ""), "context": {}}
    return json.loads(line)


def respond(text, metadata=None):
    out = {"type": "response", "text": text}
    if metadata is not None:
        out["metadata"] = metadata
    print(json.dumps(out), flush=True)


def log(msg, level="INFO"):
    print("[%s] %s" % (level, msg), file=sys.stderr, flush=True)


class Agent:
    def __init__(self):
        self.handler = None

    def on_message(self, fn):
        self.handler = fn
        return fn

    def run(self):
        msg = read_input()
        try:
            got = self.handler(msg.get("message", ""), msg.get("context", {}))
        except Exception as e:
            log(str(e), "ERROR")
            respond("Error: %s" % e)
            sys.exit(1)
        respond(got if isinstance(got, str) else got.get("text", ""))
EOF
	cat >"$SDK/examples/echo_agent.py" <<'EOF'
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from openfang_sdk import Agent

agent = Agent()


@agent.on_message
def handle(message, context):
    agent_id = context.get("agent_id", os.environ.get("OPENFANG_AGENT_ID", "unknown"))
    return "Hello from Python agent %s! You said: %s" % (agent_id, message)


agent.run()
EOF
	chmod -R a+rX "$TC_TMP/openfang"
}

# recipe_wrapper: README's /usr/local/bin/openfang-python, here in $TC_TMP/bin
recipe_wrapper() {
	cat >"$TC_TMP/bin/openfang-python" <<EOF
#!/bin/sh
# the interpreter path given to OpenFang (README: "OpenFang")
export TOOLCELL_POLICY=$(openfang_policy) TOOLCELL_SCRIPT_DIR=1 TOOLCELL_RO_BIND=$SDK
exec $WRAPPER "\$@"
EOF
	chmod 755 "$TC_TMP/bin/openfang-python"
	echo "$TC_TMP/bin/openfang-python"
}

@test "openfang: policies/openfang.json is OpenFang's own sandbox defaults and passes OpenFang's six variables" {
	local p
	p=$(openfang_policy)
	capture "$TOOLCELL" policy check "$p"
	[ "$status" -eq 0 ]
	[ "$(jget limits.memory "$TC_TMP/stdout")" = 536870912 ] || [ "$(jget limits.memory "$TC_TMP/stdout")" = 512M ]
	[ "$(jget limits.cpus "$TC_TMP/stdout")" = 1 ]
	[ "$(jget limits.timeout "$TC_TMP/stdout")" = 60 ]
	[ "$(jget limits.pids "$TC_TMP/stdout")" = 100 ]
	[ "$(jget limits.tmp_size "$TC_TMP/stdout")" = 67108864 ] || [ "$(jget limits.tmp_size "$TC_TMP/stdout")" = 64M ]
	[ "$(jget network "$TC_TMP/stdout")" = none ]
	[ "$(jget pass_env "$TC_TMP/stdout")" = '["OPENFANG_AGENT_ID", "OPENFANG_MESSAGE", "PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV"]' ]
	[ "$(jget warn_env_not_passed "$TC_TMP/stdout")" = true ]
	# and a run under it has them in force
	local script
	script=$(agent env_agent.py)
	message agent-7 limits
	openfang / "$script" TOOLCELL_POLICY="$p" TOOLCELL_RESULT="$TC_TMP/r.json" PYTHONPATH=/opt/lib VIRTUAL_ENV=/opt/venv
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(jget limits.memory.value "$TC_TMP/r.json")" = 536870912 ]
	[ "$(jget limits.timeout.value "$TC_TMP/r.json")" = 60000 ]
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 100 ]
	[ "$(response | jget env.OPENFANG_AGENT_ID)" = agent-7 ]
	[ "$(response | jget env.PYTHONPATH)" = /opt/lib ]
	[ "$(response | jget env.VIRTUAL_ENV)" = /opt/venv ]
	[ "$(response | jget env.PATH)" = "$PATH" ]
	[ "$(response | jget env.HOME)" = "${HOME:-/}" ]
}

@test "openfang: the README recipe runs OpenFang's sdk/python/examples/echo_agent.py layout, the SDK imported from the script's parent folder" {
	sdk_layout
	local wrapper
	wrapper=$(recipe_wrapper)
	message a-1 hi '{"agent_name":"echo","system_prompt":"be brief"}'
	# OpenFang: absolute script path, working directory the script's folder,
	# the environment cleared but its own variables
	status=0
	env -i -C "$SDK/examples" OPENFANG_AGENT_ID=a-1 OPENFANG_MESSAGE=hi PATH="$PATH" HOME="${HOME:-/}" \
		"$wrapper" "$SDK/examples/echo_agent.py" <"$TC_TMP/input" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 0 ] || { cat "$TC_TMP/stderr" >&2; return 1; }
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(cat "$TC_TMP/stdout")" = '{"type": "response", "text": "Hello from Python agent a-1! You said: hi"}' ]
	# without the SDK's folder bound, the import fails as OpenFang would report it
	sed -i 's/ TOOLCELL_RO_BIND=[^ ]*$//' "$wrapper"
	status=0
	env -i -C "$SDK/examples" OPENFANG_AGENT_ID=a-1 OPENFANG_MESSAGE=hi PATH="$PATH" HOME="${HOME:-/}" \
		"$wrapper" "$SDK/examples/echo_agent.py" <"$TC_TMP/input" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
	[ "$status" -eq 1 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = "ModuleNotFoundError: No module named 'openfang_sdk'" ]
}

@test "openfang: a variable of the agent's allowed_env_vars that the policy drops is named in one stderr line, never silently" {
	local script
	script=$(agent env_agent.py)
	message agent-3 hello
	openfang / "$script" TOOLCELL_POLICY="$(openfang_policy)" MY_API_KEY=k-1 OTHER=o-2
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: not passed to the tool, as the policy's pass_env does not list them: MY_API_KEY, OTHER (add them to pass_env if the tool needs them)" ]
	! grep -q 'k-1\|o-2' "$TC_TMP/stdout"
	# passed on (TOOLCELL_PASS_ENV, as the agent's wrapper may ask), it reaches the tool and no line is printed
	openfang / "$script" TOOLCELL_POLICY="$(openfang_policy)" TOOLCELL_PASS_ENV=MY_API_KEY MY_API_KEY=k-1
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(response | jget env.MY_API_KEY)" = k-1 ]
	# a policy without warn_env_not_passed (default.json) stays silent, as python3 would
	openfang / "$script" MY_API_KEY=k-1
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
}

@test "openfang: toolcell's own timeout firing before OpenFang's says so in one stderr line (exit 124)" {
	local script
	script=$(agent hang_agent.py)
	message agent-5 wait
	openfang / "$script" TOOLCELL_POLICY="$(openfang_policy)" TOOLCELL_TIMEOUT=0.5
	[ "$status" -eq 124 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: the tool reached its time limit (wall clock): toolcell's own limit of 0.5 s, not its caller's (raise --timeout, TOOLCELL_TIMEOUT or the policy's limits.timeout)" ]
}

@test "openfang: OpenFang's parse_python_output cases end to end: the last response line wins, plain lines are joined, no output is an error" {
	local a="$AGENTS/out_agent.py"
	printf 'import sys\nsys.stdin.readline()\nmode = sys.argv[1]\nif mode == "json":\n    print("Loading model...")\n    print("{\\"type\\": \\"response\\", \\"text\\": \\"Hello from Python!\\"}")\nelif mode == "plain":\n    print("Hello from Python!")\n    print("Line two   ")\n' >"$a"
	chmod 644 "$a"
	message agent-2 x
	# OpenFang's parse_python_output, clean-room: the last line that is a
	# JSON response with a string text wins; else all lines, each trim_end'ed,
	# joined with \n; nothing at all is an error
	parse() {
		"$PY" -I -c '
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
for ln in reversed(lines):
    try:
        v = json.loads(ln)
    except ValueError:
        continue
    if isinstance(v, dict) and v.get("type") == "response" and isinstance(v.get("text"), str):
        print(v["text"], end=""); sys.exit(0)
text = "\n".join(ln.rstrip() for ln in lines)
if not text:
    sys.exit("Invalid response: Script produced no output")
print(text, end="")' "$TC_TMP/stdout"
	}
	env -i -C "$AGENTS" PATH="$PATH" "$WRAPPER" "$a" json <"$TC_TMP/input" >"$TC_TMP/stdout"
	[ "$(parse)" = "Hello from Python!" ]
	env -i -C "$AGENTS" PATH="$PATH" "$WRAPPER" "$a" plain <"$TC_TMP/input" >"$TC_TMP/stdout"
	[ "$(parse)" = "Hello from Python!
Line two" ]
	env -i -C "$AGENTS" PATH="$PATH" "$WRAPPER" "$a" none <"$TC_TMP/input" >"$TC_TMP/stdout"
	run parse
	[ "$status" -eq 1 ]
	[ "$output" = "Invalid response: Script produced no output" ]
	# test_run_python_missing_script: python3's own message and exit code 2
	capture env -i PATH="$PATH" "$WRAPPER" /nonexistent/script.py
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "python3: can't open file '/nonexistent/script.py': [Errno 2] No such file or directory" ]
}
