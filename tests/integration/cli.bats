#!/usr/bin/env bats
# toolcell's command line (toolcell(1), README.md): help texts, refusals (exit 125 with a
# message naming what was refused), `run`'s 126/127, the result record and
# how it is written, `policy check`, the policy's ceilings on options, and
# that toolcell prints nothing of its own on stdout in run and python modes.

bats_require_minimum_version 1.5.0
load helpers

PY3=/usr/bin/python3 # the interpreter's path inside the rootfs

setup() {
	tc_setup
	DEFAULT_POLICY="$(dirname "$TOOLCELL")/policies/default.json"
}

teardown() {
	tc_teardown
}

# The common options of toolcell(1), and one option per limit of the policy
COMMON_OPTIONS=(--policy --rootfs --timeout --memory --cpus --pids --ro-bind --bind
	--workspace --env --pass-env --result --result-fd --quiet --verbose)

limit_options() {
	"$PY" -I -c '
import json, sys
for k in json.load(open(sys.argv[1]))["limits"]:
    print("--" + k.replace("_", "-"))' "$DEFAULT_POLICY"
}

# mentions_all FILE OPTION...: every OPTION occurs in FILE as a whole word
mentions_all() {
	local file=$1 opt missing=()
	shift
	for opt in "$@"; do
		grep -qE -- "(^|[^-[:alnum:]])$opt([^-[:alnum:]]|$)" "$file" || missing+=("$opt")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "not mentioned in $file: ${missing[*]}" >&2
		return 1
	fi
}

# one_diag: stderr is exactly one line, prefixed "toolcell: "
one_diag() {
	[ "$(wc -l <"$TC_TMP/stderr")" -eq 1 ] || {
		cat "$TC_TMP/stderr" >&2
		return 1
	}
	grep -q '^toolcell: ' "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- help

@test "toolcell --help exits 0, on stdout, naming every command and every common option" {
	capture "$TOOLCELL" --help
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stderr" ]
	mentions_all "$TC_TMP/stdout" run python call check policy version
	mentions_all "$TC_TMP/stdout" "${COMMON_OPTIONS[@]}"
}

@test "toolcell -h and toolcell help print the same text as toolcell --help" {
	"$TOOLCELL" --help >"$TC_TMP/want"
	capture "$TOOLCELL" -h
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	capture "$TOOLCELL" help
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
}

@test "toolcell help run and toolcell run --help are the same text, exit 0, naming every option and limit" {
	local -a limits
	mapfile -t limits < <(limit_options)
	[ ${#limits[@]} -ge 10 ]
	capture "$TOOLCELL" help run
	[ "$status" -eq 0 ]
	cp "$TC_TMP/stdout" "$TC_TMP/help-run"
	mentions_all "$TC_TMP/help-run" "${COMMON_OPTIONS[@]}" "${limits[@]}"
	capture "$TOOLCELL" run --help
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/help-run"
}

@test "toolcell help python and toolcell python --help: exit 0, every option, --script-dir and the TOOLCELL_* variables" {
	local -a limits
	mapfile -t limits < <(limit_options)
	capture "$TOOLCELL" help python
	[ "$status" -eq 0 ]
	cp "$TC_TMP/stdout" "$TC_TMP/help-python"
	mentions_all "$TC_TMP/help-python" "${COMMON_OPTIONS[@]}" "${limits[@]}" --script-dir \
		TOOLCELL_POLICY TOOLCELL_MEMORY TOOLCELL_TIMEOUT TOOLCELL_RO_BIND TOOLCELL_RESULT TOOLCELL_SCRIPT_DIR
	capture "$TOOLCELL" python --help
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/help-python"
}

@test "toolcell help call and toolcell call --help: exit 0, every option and every toolcell error type" {
	local -a limits
	mapfile -t limits < <(limit_options)
	capture "$TOOLCELL" help call
	[ "$status" -eq 0 ]
	cp "$TC_TMP/stdout" "$TC_TMP/help-call"
	mentions_all "$TC_TMP/help-call" "${COMMON_OPTIONS[@]}" "${limits[@]}" \
		BadRequest Timeout MemoryLimit OutputLimit InvalidResponse SyscallDenied SandboxError
	capture "$TOOLCELL" call --help
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/help-call"
}

@test "toolcell help of an unknown command exits 125 naming it" {
	capture "$TOOLCELL" help frobnicate
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q frobnicate "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- refusals

@test "toolcell with no arguments exits 125 with usage on stderr and nothing on stdout" {
	capture "$TOOLCELL"
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	grep -q '^toolcell: ' "$TC_TMP/stderr"
	mentions_all "$TC_TMP/stderr" run python call --help
}

@test "an unknown option before the command exits 125 and the message names it" {
	capture "$TOOLCELL" --frobnicate run "$PY3" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--frobnicate' "$TC_TMP/stderr"
}

@test "an unknown option of run exits 125, names it, and runs nothing" {
	capture "$TOOLCELL" run --frobnicate "$PY3" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--frobnicate' "$TC_TMP/stderr"
}

@test "a mistyped toolcell option of python (--memroy) is refused with 125, not given to python3" {
	capture "$TOOLCELL" python --memroy 64M -c 'print(1)'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--memroy' "$TC_TMP/stderr"
}

@test "an unknown command exits 125 naming it" {
	capture "$TOOLCELL" frobnicate
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q frobnicate "$TC_TMP/stderr"
}

@test "an option missing its value, or with a malformed one, exits 125 naming the option" {
	capture "$TOOLCELL" run --memory
	[ "$status" -eq 125 ]
	one_diag
	grep -q -- '--memory' "$TC_TMP/stderr"
	capture "$TOOLCELL" run --memory=lots "$PY3" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--memory' "$TC_TMP/stderr"
	grep -q lots "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- version

@test "toolcell version prints 'toolcell X.Y.Z', exit 0, the same as the record's toolcell_version" {
	capture "$TOOLCELL" version
	[ "$status" -eq 0 ]
	[[ "$(cat "$TC_TMP/stdout")" =~ ^toolcell\ [0-9]+\.[0-9]+\.[0-9]+ ]]
	[ "$(wc -l <"$TC_TMP/stdout")" -eq 1 ]
	cp "$TC_TMP/stdout" "$TC_TMP/version"
	capture "$TOOLCELL" --version
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/version"
	"$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'pass'
	[ "toolcell $(jget toolcell_version "$TC_TMP/record.json")" = "$(cat "$TC_TMP/version")" ]
}

# ---------------------------------------------------------------- run

@test "run /usr/bin/python3 -c 'print(1)' prints exactly '1\\n', exit 0" {
	capture "$TOOLCELL" run "$PY3" -c 'print(1)'
	[ "$status" -eq 0 ]
	printf '1\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	[ ! -s "$TC_TMP/stderr" ]
}

@test "run finds a bare program name on the sandbox's PATH" {
	capture "$TOOLCELL" run python3 -c 'print(2)'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = 2 ]
}

@test "run passes the program's exit status through unchanged (0, 1, 42, 255)" {
	local code
	for code in 0 1 42 255; do
		capture "$TOOLCELL" run "$PY3" -c "import sys; sys.exit($code)"
		[ "$status" -eq "$code" ]
	done
}

@test "run passes arguments through untouched, after '--' too" {
	capture "$TOOLCELL" run -- "$PY3" -c 'import sys, json; print(json.dumps(sys.argv[1:]))' -- --memory 'a b' ''
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = '["--", "--memory", "a b", ""]' ]
}

@test "run of a program missing inside the sandbox exits 127 with a message naming it" {
	capture "$TOOLCELL" run no-such-program-xyz --flag
	[ "$status" -eq 127 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q no-such-program-xyz "$TC_TMP/stderr"
	capture "$TOOLCELL" run /usr/bin/no-such-program-xyz
	[ "$status" -eq 127 ]
	one_diag
	grep -q /usr/bin/no-such-program-xyz "$TC_TMP/stderr"
}

@test "run of a program that exists on the host but not in the rootfs exits 127 (looked up inside)" {
	[ -x /usr/bin/env ] || tc_skip "no /usr/bin/env on this host"
	[ ! -e "$(dirname "$TOOLCELL")/rootfs/usr/bin/env" ] || tc_skip "the rootfs has /usr/bin/env"
	capture "$TOOLCELL" run /usr/bin/env
	[ "$status" -eq 127 ]
	[ ! -s "$TC_TMP/stdout" ]
	grep -q /usr/bin/env "$TC_TMP/stderr"
}

@test "run of a non-executable file exits 126 with a message naming it" {
	capture "$TOOLCELL" run /etc/passwd
	[ "$status" -eq 126 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q /etc/passwd "$TC_TMP/stderr"
}

@test "run of a bound file without execute permission exits 126" {
	mkdir "$TC_TMP/bin"
	printf '#!/usr/bin/python3\nprint("ran")\n' >"$TC_TMP/bin/tool"
	chmod 755 "$TC_TMP/bin"
	chmod 644 "$TC_TMP/bin/tool"
	capture "$TOOLCELL" run --ro-bind "$TC_TMP/bin:/opt/bin" /opt/bin/tool
	[ "$status" -eq 126 ]
	[ ! -s "$TC_TMP/stdout" ]
	grep -q /opt/bin/tool "$TC_TMP/stderr"
	chmod 755 "$TC_TMP/bin/tool"
	capture "$TOOLCELL" run --ro-bind "$TC_TMP/bin:/opt/bin" /opt/bin/tool
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = ran ]
}

@test "run of a directory exits 126" {
	capture "$TOOLCELL" run /usr
	[ "$status" -eq 126 ]
	[ ! -s "$TC_TMP/stdout" ]
}

# ---------------------------------------------------------------- the record

@test "--result FILE: the record has every key README.md requires, with the right values for an ok run" {
	capture "$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'print("hello")'
	[ "$status" -eq 0 ]
	is_one_json "$TC_TMP/record.json"
	"$PY" -I -c '
import json, sys
r = json.load(open(sys.argv[1]))
required = """status status_inferred exit_code signal wall_ms cpu_user_ms cpu_system_ms
memory_peak_bytes oom_kills pids_peak stdout_bytes stderr_bytes stdout_truncated
stderr_truncated denied_syscall denied_syscalls limits isolation provenance error
toolcell_version""".split()
missing = [k for k in required if k not in r]
assert not missing, "missing keys: %s" % missing
assert r["status"] == "ok", r["status"]
assert r["status_inferred"] is False
assert r["exit_code"] == 0 and r["signal"] is None
for k in ("wall_ms", "cpu_user_ms", "cpu_system_ms"):
    assert isinstance(r[k], int) and r[k] >= 0, (k, r[k])
assert r["stdout_bytes"] == 6, r["stdout_bytes"]
assert r["stderr_bytes"] == 0, r["stderr_bytes"]
assert r["stdout_truncated"] is False and r["stderr_truncated"] is False
assert r["denied_syscall"] is None
assert isinstance(r["denied_syscalls"], dict)
assert r["error"] is None
assert isinstance(r["toolcell_version"], str) and r["toolcell_version"]
for k in ("memory_peak_bytes", "oom_kills", "pids_peak"):
    assert r[k] is None or (isinstance(r[k], int) and r[k] >= 0), (k, r[k])
' "$TC_TMP/record.json"
}

@test "--result: a null measurement comes with a reason" {
	"$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'pass'
	"$PY" -I -c '
import json, sys
r = json.load(open(sys.argv[1]))
text = json.dumps(r)
for k in ("memory_peak_bytes", "oom_kills", "pids_peak"):
    if r[k] is None:
        # the reason: a string somewhere in the record that names the key
        reasons = [v for v in r.values() if isinstance(v, dict) and isinstance(v.get(k), str) and v[k]]
        assert reasons, "%s is null with no reason" % k
' "$TC_TMP/record.json"
}

@test "--result: limits name each limit in force and what enforced it (cgroup2, rlimit, toolcell or none)" {
	"$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'pass'
	"$PY" -I -c '
import json, sys
r = json.load(open(sys.argv[1]))
policy = json.load(open(sys.argv[2]))
limits = r["limits"]
assert isinstance(limits, dict)
for name in policy["limits"]:
    assert name in limits, "limit %s missing from the record" % name
    enforcers = {"cgroup2", "rlimit", "toolcell", "none"}
    found = [v for v in json.dumps(limits[name]).split("\"") if v in enforcers]
    assert found, "limit %s: no enforcer in %r" % (name, limits[name])
' "$TC_TMP/record.json" "$DEFAULT_POLICY"
}

@test "--result: isolation lists namespaces, seccomp, landlock, no_new_privs and capabilities" {
	"$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'pass'
	"$PY" -I -c '
import json, sys
iso = json.load(open(sys.argv[1]))["isolation"]
keys = " ".join(iso)
for word in ("namespace", "seccomp", "landlock", "no_new_privs", "capabilit"):
    assert word in keys, "isolation lacks %s: %s" % (word, keys)
assert iso["no_new_privs"] is True
ns = iso.get("namespaces")
for n in ("user", "mount", "pid", "net"):
    assert n in json.dumps(ns), "namespace %s not listed: %r" % (n, ns)
' "$TC_TMP/record.json"
}

@test "--result: provenance holds the sha256 of the policy file, the tool file and the rootfs manifest" {
	local script policy
	cp "$DEFAULT_POLICY" "$TC_TMP/policy.json"
	chmod 644 "$TC_TMP/policy.json"
	policy=$(sha256sum "$TC_TMP/policy.json" | cut -d' ' -f1)
	script=$(fixture argv.py)
	"$TOOLCELL" python --policy "$TC_TMP/policy.json" --result "$TC_TMP/record.json" "$script" >/dev/null
	run jget provenance "$TC_TMP/record.json"
	[[ "$output" == *"$policy"* ]]
	[[ "$output" == *"$(sha256sum "$script" | cut -d' ' -f1)"* ]]
	local manifest
	manifest="$(dirname "$TOOLCELL")/rootfs/usr/lib/toolcell/manifest.txt"
	[ -f "$manifest" ]
	[[ "$output" == *"$(sha256sum "$manifest" | cut -d' ' -f1)"* ]]
}

@test "--result: a tool exiting 3 is recorded as exit_nonzero, exit_code 3" {
	capture "$TOOLCELL" run --result "$TC_TMP/record.json" "$PY3" -c 'import sys; sys.exit(3)'
	[ "$status" -eq 3 ]
	[ "$(jget status "$TC_TMP/record.json")" = exit_nonzero ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = 3 ]
	[ "$(jget signal "$TC_TMP/record.json")" = null ]
}

@test "--result with a refused option: exit 125, and a record, if written, says rejected with no exit code" {
	capture "$TOOLCELL" run --result "$TC_TMP/record.json" --memory 1G "$PY3" -c 'print(1)'
	[ "$status" -eq 125 ]
	if [ -s "$TC_TMP/record.json" ]; then
		[ "$(jget status "$TC_TMP/record.json")" = rejected ]
		[ "$(jget exit_code "$TC_TMP/record.json")" = null ]
	fi
}

@test "--result refuses a symlink (O_NOFOLLOW): exit 125, nothing runs, the link's target is not created" {
	ln -s "$TC_TMP/target.json" "$TC_TMP/link.json"
	capture "$TOOLCELL" run --result "$TC_TMP/link.json" "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ ! -e "$TC_TMP/target.json" ]
	[ -L "$TC_TMP/link.json" ]
	one_diag
	grep -q link.json "$TC_TMP/stderr"
}

@test "--result refuses a symlink to an existing file and leaves that file unchanged" {
	printf 'precious\n' >"$TC_TMP/target.json"
	ln -s "$TC_TMP/target.json" "$TC_TMP/link.json"
	capture "$TOOLCELL" run --result "$TC_TMP/link.json" "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(cat "$TC_TMP/target.json")" = precious ]
}

@test "--result-fd 3 with 3>FILE writes the record to that descriptor" {
	capture "$TOOLCELL" run --result-fd 3 "$PY3" -c 'import sys; sys.exit(5)' 3>"$TC_TMP/record.json"
	[ "$status" -eq 5 ]
	is_one_json "$TC_TMP/record.json"
	[ "$(jget status "$TC_TMP/record.json")" = exit_nonzero ]
	[ "$(jget exit_code "$TC_TMP/record.json")" = 5 ]
}

@test "--result-fd=4 (the = form) writes the record to descriptor 4" {
	capture "$TOOLCELL" run --result-fd=4 "$PY3" -c 'print("x")' 4>"$TC_TMP/record.json"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = x ]
	[ "$(jget status "$TC_TMP/record.json")" = ok ]
	[ "$(jget stdout_bytes "$TC_TMP/record.json")" = 2 ]
}

@test "--result and --result-fd together are refused with 125" {
	capture "$TOOLCELL" run --result "$TC_TMP/record.json" --result-fd 3 "$PY3" -c 'print(1)' 3>"$TC_TMP/fd.json"
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
}

@test "--result-fd of a descriptor that is not open is refused with 125" {
	capture "$TOOLCELL" run --result-fd 9 "$PY3" -c 'print(1)' 9>&-
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
}

# ---------------------------------------------------------------- policy check

@test "policy check default.json prints JSON that is itself a valid policy, and a fixpoint" {
	capture "$TOOLCELL" policy check "$DEFAULT_POLICY"
	[ "$status" -eq 0 ]
	is_one_json "$TC_TMP/stdout"
	cp "$TC_TMP/stdout" "$TC_TMP/effective.json"
	chmod 644 "$TC_TMP/effective.json"
	capture "$TOOLCELL" policy check "$TC_TMP/effective.json"
	[ "$status" -eq 0 ]
	same_bytes "$TC_TMP/stdout" "$TC_TMP/effective.json"
	# the printed policy keeps default.json's limits
	"$PY" -I -c '
import json, sys
a = json.load(open(sys.argv[1]))["limits"]
b = json.load(open(sys.argv[2]))["limits"]
assert a == b, (a, b)' "$DEFAULT_POLICY" "$TC_TMP/effective.json"
}

@test "the effective policy printed by policy check runs a tool as --policy" {
	"$TOOLCELL" policy check "$DEFAULT_POLICY" >"$TC_TMP/effective.json"
	chmod 644 "$TC_TMP/effective.json"
	capture "$TOOLCELL" run --policy "$TC_TMP/effective.json" "$PY3" -c 'print("under the effective policy")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "under the effective policy" ]
}

@test "policy check of a policy with an unknown key: 125, the message names the file and the key" {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["limits"]["frobnication"] = 3
json.dump(p, open(sys.argv[2], "w"))' "$DEFAULT_POLICY" "$TC_TMP/unknown-key.json"
	capture "$TOOLCELL" policy check "$TC_TMP/unknown-key.json"
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q unknown-key.json "$TC_TMP/stderr"
	grep -q frobnication "$TC_TMP/stderr"
}

@test "policy check of a policy with a wrong type: 125, the message names the file and the key" {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["limits"]["pids"] = "many"
json.dump(p, open(sys.argv[2], "w"))' "$DEFAULT_POLICY" "$TC_TMP/wrong-type.json"
	capture "$TOOLCELL" policy check "$TC_TMP/wrong-type.json"
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q wrong-type.json "$TC_TMP/stderr"
	grep -q pids "$TC_TMP/stderr"
}

@test "run --policy with an invalid policy is refused with 125 naming the file and key, nothing runs" {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["allow"]["ro_bind"] = "yes"
json.dump(p, open(sys.argv[2], "w"))' "$DEFAULT_POLICY" "$TC_TMP/bad-allow.json"
	chmod 644 "$TC_TMP/bad-allow.json"
	capture "$TOOLCELL" run --policy "$TC_TMP/bad-allow.json" "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q bad-allow.json "$TC_TMP/stderr"
	grep -q ro_bind "$TC_TMP/stderr"
}

@test "policy check of a file that is not JSON, or missing, is refused with 125 naming the file" {
	printf '{"version": 1,' >"$TC_TMP/truncated.json"
	capture "$TOOLCELL" policy check "$TC_TMP/truncated.json"
	[ "$status" -eq 125 ]
	one_diag
	grep -q truncated.json "$TC_TMP/stderr"
	capture "$TOOLCELL" policy check "$TC_TMP/absent.json"
	[ "$status" -eq 125 ]
	one_diag
	grep -q absent.json "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- the policy's ceilings

@test "--memory 1G above default.json's ceiling: 125, the message names the ceiling (256M), nothing runs" {
	capture "$TOOLCELL" run --memory 1G "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--memory' "$TC_TMP/stderr"
	grep -q '256M' "$TC_TMP/stderr"
}

@test "--memory below the ceiling is accepted and recorded" {
	capture "$TOOLCELL" run --memory 128M --result "$TC_TMP/record.json" "$PY3" -c 'print("ran")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = ran ]
	[ "$(jget limits.memory.value "$TC_TMP/record.json")" = 134217728 ]
}

@test "--timeout above default.json's ceiling (30 s) is refused with 125" {
	capture "$TOOLCELL" run --timeout 31 "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--timeout' "$TC_TMP/stderr"
}

@test "--bind is refused by default.json: 125, the message names --bind" {
	mkdir "$TC_TMP/rw"
	chmod 777 "$TC_TMP/rw"
	capture "$TOOLCELL" run --bind "$TC_TMP/rw:/rw" "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--bind' "$TC_TMP/stderr"
}

@test "--ro-bind / is refused with 125" {
	capture "$TOOLCELL" run --ro-bind / "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
	one_diag
	grep -q -- '--ro-bind' "$TC_TMP/stderr"
	capture "$TOOLCELL" run --ro-bind /:/host "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "--ro-bind /proc is refused with 125, at its own path or elsewhere, and beneath it" {
	local b
	for b in /proc /proc:/p /proc/self /proc/1:/x; do
		capture "$TOOLCELL" run --ro-bind "$b" "$PY3" -c 'print("ran")'
		[ "$status" -eq 125 ]
		[ ! -s "$TC_TMP/stdout" ]
		grep -q /proc "$TC_TMP/stderr"
	done
}

@test "--ro-bind of /sys, /dev and /run is refused with 125" {
	local b
	for b in /sys /dev /run; do
		capture "$TOOLCELL" run --ro-bind "$b:/x" "$PY3" -c 'print("ran")'
		[ "$status" -eq 125 ]
		[ ! -s "$TC_TMP/stdout" ]
		grep -q "$b" "$TC_TMP/stderr"
	done
}

@test "--ro-bind of a relative path is refused with 125" {
	cd "$TC_TMP"
	mkdir rel
	capture "$TOOLCELL" run --ro-bind rel "$PY3" -c 'print("ran")'
	[ "$status" -eq 125 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "--ro-bind HOST:INSIDE shows the folder read-only at INSIDE" {
	mkdir "$TC_TMP/data"
	printf 'bound bytes\n' >"$TC_TMP/data/f.txt"
	chmod 755 "$TC_TMP/data"
	chmod 644 "$TC_TMP/data/f.txt"
	capture "$TOOLCELL" run --ro-bind "$TC_TMP/data:/data" "$PY3" -c '
import errno
print(open("/data/f.txt").read(), end="")
try:
    open("/data/new", "w")
    print("WRITABLE")
except OSError as e:
    print(errno.errorcode[e.errno])'
	[ "$status" -eq 0 ]
	run cat "$TC_TMP/stdout"
	[ "${lines[0]}" = "bound bytes" ]
	[[ "${lines[1]}" == EROFS || "${lines[1]}" == EACCES ]]
}

@test "--ro-bind of a folder under /tmp at its own path is accepted (only /, /proc, /sys, /dev, /run, home roots, sockets, devices are refused)" {
	mkdir "$TC_TMP/data"
	printf 'in tmp\n' >"$TC_TMP/data/f.txt"
	chmod 755 "$TC_TMP/data"
	chmod 644 "$TC_TMP/data/f.txt"
	capture "$TOOLCELL" run --ro-bind "$TC_TMP/data" "$PY3" -c 'import sys; print(open(sys.argv[1]).read(), end="")' "$TC_TMP/data/f.txt"
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "in tmp" ]
}

# ---------------------------------------------------------------- stdout belongs to the tool

@test "run: a tool that prints nothing leaves stdout empty, even with --verbose (diagnostics go to stderr)" {
	capture "$TOOLCELL" run "$PY3" -c 'pass'
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stdout" ]
	capture "$TOOLCELL" run --verbose "$PY3" -c 'pass'
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ -s "$TC_TMP/stderr" ]
	! grep -v '^toolcell: ' "$TC_TMP/stderr"
}

@test "python: a tool that prints nothing leaves stdout empty, even with --verbose and a record" {
	capture "$TOOLCELL" python --verbose --result "$TC_TMP/record.json" -c 'pass'
	[ "$status" -eq 0 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ "$(jget stdout_bytes "$TC_TMP/record.json")" = 0 ]
}

@test "run and python: a tool that fails, times out or is not found leaves stdout empty" {
	capture "$TOOLCELL" run "$PY3" -c 'import sys; sys.exit(9)'
	[ "$status" -eq 9 ]
	[ ! -s "$TC_TMP/stdout" ]
	capture "$TOOLCELL" python --timeout 0.3 -c 'import time; time.sleep(10)'
	[ "$status" -eq 124 ]
	[ ! -s "$TC_TMP/stdout" ]
	grep -q '^toolcell: ' "$TC_TMP/stderr"
	capture "$TOOLCELL" run no-such-program-xyz
	[ "$status" -eq 127 ]
	[ ! -s "$TC_TMP/stdout" ]
}

@test "--quiet drops the limit notice on stderr but keeps exit 124" {
	capture "$TOOLCELL" python --quiet --timeout 0.3 -c 'import time; time.sleep(10)'
	[ "$status" -eq 124 ]
	[ ! -s "$TC_TMP/stdout" ]
	[ ! -s "$TC_TMP/stderr" ]
}
