#!/usr/bin/env bats
# Workspace mode (formal-ai's AgentWorkspace): policies/workspace.json on the
# rootfs-workspace variant. --workspace DIR is the only writable place
# besides /tmp and the working directory; `run` starts only the policy's
# programs, by name; an absolute path or a '..' that climbs out is refused;
# the environment is the policy's alone; the utilities are real.

load helpers

setup() {
	tc_setup
	POLICY="$TC_BUILD/policies/workspace.json"
	[ -x "$TC_BUILD/rootfs-workspace/usr/bin/toolcell-utils" ] ||
		tc_skip "no workspace rootfs: cmake --build build --target rootfs-workspace"
	WS="$TC_TMP/ws"
	mkdir "$WS"
	printf 'hello\n' >"$WS/a.txt"
}

teardown() {
	tc_teardown
}

ws() {
	capture "$TOOLCELL" run --policy "$POLICY" --workspace "$WS" --result "$TC_TMP/r.json" -- "$@"
}

@test "the workspace is the working directory; the listed utilities run for real" {
	ws pwd
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = /workspace ]
	ws cat a.txt
	[ "$(cat "$TC_TMP/stdout")" = hello ]
	ws ls
	[ "$(cat "$TC_TMP/stdout")" = a.txt ]
	ws printf '%s=%d\n' x 42
	[ "$(cat "$TC_TMP/stdout")" = x=42 ]
	ws echo one two
	[ "$(cat "$TC_TMP/stdout")" = "one two" ]
	ws python3 -c 'open("made.txt", "w").write("by python")'
	[ "$status" -eq 0 ]
	[ "$(cat "$WS/made.txt")" = "by python" ]
}

@test "env inside shows exactly the policy's environment: a secret of the caller's is not there" {
	TC_SECRET_TOKEN=hunter2 AWS_SECRET_ACCESS_KEY=leak ws env
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$(printf 'PATH=/usr/bin\nHOME=/workspace\nTMPDIR=/tmp\nLANG=C.UTF-8\nPYTHONPYCACHEPREFIX=/tmp/pycache\nMALLOC_ARENA_MAX=2')" ]
	run grep -c 'hunter2\|leak' "$TC_TMP/stdout"
	[ "$output" = 0 ]
	# the policy lets no caller add to it either
	run "$TOOLCELL" run --policy "$POLICY" --workspace "$WS" --pass-env HOME -- env
	[ "$status" -eq 125 ]
}

@test "a program off the list, or named by a path, is refused with 125 and the list" {
	ws cp a.txt b.txt
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: 'cp' is not one of the programs $POLICY allows (python3, cat, ls, printf, env, echo, pwd)" ]
	ws /usr/bin/cat a.txt
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: '/usr/bin/cat': in a workspace a program is run by its name (one of: python3, cat, ls, printf, env, echo, pwd), not by a path" ]
	ws toolcell-utils
	[ "$status" -eq 125 ]
	[ ! -e "$TC_TMP/r.json" ] || [ ! -s "$TC_TMP/r.json" ] || [ "$(jget status "$TC_TMP/r.json")" = rejected ]
}

@test "an absolute path or a '..' that climbs out is refused before any sandbox is built" {
	ws cat /etc/passwd
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: argument 1 ('/etc/passwd') is an absolute path; in a workspace paths are relative to it" ]
	ws cat sub/../../x
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: argument 1 ('sub/../../x') climbs out with '..'; in a workspace paths stay inside it" ]
	ws python3 -c 'print(1)' /etc/passwd
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: argument 3 ('/etc/passwd') is an absolute path; in a workspace paths are relative to it" ]
	ws ls ..
	[ "$status" -eq 125 ]
	# names that only contain dots are files like any other
	ws cat ..a.txt
	[ "$status" -eq 1 ]
	[ "$(cat "$TC_TMP/stderr")" = "cat: ..a.txt: No such file or directory" ]
}

@test "a workspace policy without --workspace is refused" {
	run "$TOOLCELL" run --policy "$POLICY" -- ls
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: $POLICY is a workspace policy: give the run a workspace (--workspace DIR)" ]
}

@test "the workspace is the only writable place besides /tmp" {
	ws python3 -c '
import errno
for path in ("/usr/x", "/etc/x", "/x", "/dev/x", "/proc/x", "/workspace/../x"):
    try:
        open(path, "w"); print(path, "WROTE")
    except OSError as e:
        print(path, errno.errorcode[e.errno])
open("/tmp/t", "w").write("t"); print("/tmp ok")
open("w.txt", "w").write("w"); print("workspace ok")'
	[ "$status" -eq 0 ]
	run grep -c WROTE "$TC_TMP/stdout"
	[ "$output" = 0 ]
	grep -qx '/tmp ok' "$TC_TMP/stdout"
	grep -qx 'workspace ok' "$TC_TMP/stdout"
	[ -f "$WS/w.txt" ]
}

@test "timeout is reported only when the program had not exited at the deadline" {
	# exits well before the deadline, leaving a sleeper that holds stdout open
	ws python3 -c '
import os, subprocess, time
subprocess.Popen(["python3", "-c", "import time; time.sleep(30)"], start_new_session=True)
print("done", flush=True)'
	[ "$status" -eq 0 ]
	[ "$(jget status "$TC_TMP/r.json")" = ok ]
	[ "$(jget wall_ms "$TC_TMP/r.json")" -lt 5000 ]
	# still running at the deadline
	capture "$TOOLCELL" run --policy "$POLICY" --workspace "$WS" --timeout 0.5 --result "$TC_TMP/r.json" -- python3 -c 'import time; time.sleep(5)'
	[ "$status" -eq 124 ]
	[ "$(jget status "$TC_TMP/r.json")" = timeout ]
}

@test "the workspace rootfs adds toolcell-utils and its names, and no shell" {
	local root="$TC_BUILD/rootfs-workspace"
	run find -H "$root" -type f -perm /111 -printf '%P\n'
	[ "$(sort <<<"$output")" = $'usr/bin/python3.11\nusr/bin/toolcell-utils\nusr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\nusr/lib/x86_64-linux-gnu/libc.so.6' ]
	for n in cat ls printf env echo pwd; do
		[ "$(readlink "$root/usr/bin/$n")" = toolcell-utils ]
	done
	[ ! -e "$root/usr/bin/sh" ] && [ ! -e "$root/bin/sh" ]
	# as any other name it refuses
	run "$root/usr/bin/toolcell-utils"
	[ "$status" -eq 2 ]
	[ "$output" = "toolcell-utils: run me as cat, ls, printf, env, echo or pwd (a symlink's name), not as 'toolcell-utils'" ]
}

@test "policy check: rootfs and programs round trip; bad programs are refused" {
	"$TOOLCELL" policy check "$POLICY" >"$TC_TMP/eff.json"
	[ "$(jget rootfs "$TC_TMP/eff.json")" = workspace ]
	[ "$(jget programs "$TC_TMP/eff.json")" = '["python3", "cat", "ls", "printf", "env", "echo", "pwd"]' ]
	printf '{"version": 1, "programs": ["cat", "/bin/sh"]}\n' >"$TC_TMP/p.json"
	run "$TOOLCELL" policy check "$TC_TMP/p.json"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: $TC_TMP/p.json: programs[1]: expected a program's bare name such as \"cat\" (no '/'), got \"/bin/sh\"" ]
	printf '{"version": 1, "rootfs": "Big"}\n' >"$TC_TMP/p.json"
	run "$TOOLCELL" policy check "$TC_TMP/p.json"
	[ "$status" -eq 125 ]
	[[ "$output" == *'rootfs: expected "default", "workspace" (the rootfs with toolcell-utils) or a variant'"'"'s name such as "data" ([a-z0-9][a-z0-9_-]*, at most 32; built by '"'"'toolcell rootfs build --name NAME'"'"'), got "Big"' ]]
}

@test "--workspace DIR:INSIDE shows the workspace elsewhere (ThreeGate's /out); INSIDE is checked like a bind's" {
	capture "$TOOLCELL" run --workspace "$WS:/out" -- /usr/bin/python3 -c 'import os; print(os.getcwd()); open("/out/o.txt", "w").write("x"); print(os.path.exists("/workspace"))'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$(printf '/out\nFalse')" ]
	[ "$(cat "$WS/o.txt")" = x ]
	run "$TOOLCELL" run --workspace "$WS:/usr/out" -- /usr/bin/python3 -c 1
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --workspace ...:/usr/out: inside path is at or beneath /usr, which the launcher owns" ]
	run "$TOOLCELL" run --workspace "$WS:/out" --ro-bind "$TC_TMP:/out/in" -- /usr/bin/python3 -c 1
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: cannot bind /out/in inside the bind at /out (its mount point would be made in that host folder)" ]
}

@test "TOOLCELL_WORKSPACE takes DIR[:INSIDE] like --workspace" {
	TOOLCELL_WORKSPACE="$WS:/work" capture "$TOOLCELL" python -c 'import os; print(os.getcwd(), sorted(os.listdir(".")))'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "/work ['a.txt']" ]
	TOOLCELL_WORKSPACE="$WS" capture "$TOOLCELL" python -c 'import os; print(os.getcwd())'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = /workspace ]
	TOOLCELL_WORKSPACE="ws:/work" capture "$TOOLCELL" python -c 'pass'
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: TOOLCELL_WORKSPACE: expected an absolute DIR, got 'ws'" ]
}

@test "--workspace DIR:/tmp/x is refused naming the inside path, not the host folder" {
	run "$TOOLCELL" run --workspace "$WS:/tmp/x" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --workspace ...:/tmp/x: inside path is beneath /tmp, the sandbox's own scratch tmpfs, where a workspace cannot show; use another inside path, such as /workspace (the default)" ]
	TOOLCELL_WORKSPACE="$WS:/tmp" capture "$TOOLCELL" python -c pass
	[ "$status" -eq 125 ]
	grep -q 'inside path is /tmp itself' "$TC_TMP/stderr"
}

# ---------------------------------------------------------------- coreutils' output

# utils_dirs: $TC_TMP/ours and $TC_TMP/core hold cat, ls, printf, env, echo
# and pwd: links to the workspace rootfs's toolcell-utils (a static binary,
# so it runs on the host too) and to Debian's coreutils
utils_dirs() {
	mkdir -p "$TC_TMP/ours" "$TC_TMP/core"
	for u in cat ls printf env echo pwd; do
		ln -sf "$TC_BUILD/rootfs-workspace/usr/bin/toolcell-utils" "$TC_TMP/ours/$u"
		ln -sf "/usr/bin/$u" "$TC_TMP/core/$u"
	done
}

# fixed_tree: files with fixed modes and times (old, recent, future), a
# symlink, a folder, a FIFO, a dot file, a file without a final newline
fixed_tree() {
	cd "$WS" || return 1
	printf 'alpha\nbeta\n\ngamma' >notes.txt
	printf 'x\n' >.hidden
	head -c 5000 /dev/zero >big.bin
	mkdir sub
	ln -s notes.txt link
	mkfifo pipe
	chmod 644 notes.txt
	chmod 604 .hidden
	chmod 4755 big.bin
	chmod 1777 sub
	touch -d '2020-01-02 03:04:05 UTC' notes.txt
	touch -d "$(date -u -d '-3 days' '+%Y-%m-%d 10:11:12') UTC" big.bin sub
	touch -h -d '2021-06-07 08:09:10 UTC' link
	touch -d '2037-01-01 00:00:00 UTC' .hidden pipe a.txt
	touch -d '2019-05-05 05:05:05 UTC' .
}

# same_as_coreutils UTIL ARGS...: stdout, stderr and status of ours and of
# Debian's, run by name in $WS (TZ=UTC, LC_ALL=C.UTF-8), byte for byte
same_as_coreutils() {
	local side rc
	for side in ours core; do
		rc=0
		(cd "$WS" && env TZ=UTC LC_ALL=C.UTF-8 PATH="$TC_TMP/$side" "$@") \
			>"$TC_TMP/$side.out" 2>"$TC_TMP/$side.err" </dev/null || rc=$?
		echo "$rc" >"$TC_TMP/$side.rc"
	done
	for f in out err rc; do
		cmp "$TC_TMP/ours.$f" "$TC_TMP/core.$f" || {
			echo "$* differs in $f:" >&2
			diff "$TC_TMP/core.$f" "$TC_TMP/ours.$f" >&2
			return 1
		}
	done
}

@test "ls -1 -a -A -l, alone and together, print what coreutils' ls prints" {
	utils_dirs
	fixed_tree
	for args in "" "-1" "-a" "-A" "-l" "-la" "-1al" "-l -A" "-l notes.txt link sub" \
		"sub notes.txt" "-a sub ." "-l missing notes.txt" "link" "-l link" "-l $WS/sub"; do
		# shellcheck disable=SC2086 # the words are the test's
		same_as_coreutils ls $args
	done
	# an option coreutils has and the workspace's ls has not fails as it would
	same_as_coreutils ls -z
}

@test "cat -n, echo -n -e -E, env -i NAME=VALUE, printf, pwd print what coreutils prints" {
	utils_dirs
	fixed_tree
	same_as_coreutils cat notes.txt
	same_as_coreutils cat -n notes.txt .hidden notes.txt
	same_as_coreutils cat missing notes.txt
	same_as_coreutils echo one two
	same_as_coreutils echo -n no newline
	same_as_coreutils echo -e 'tab\there\nnl \x41\x4g \0101 \101 \\ \q'
	same_as_coreutils echo -ne 'a\cb'
	same_as_coreutils echo -E 'raw\t'
	same_as_coreutils echo -nx literal
	same_as_coreutils echo -- -n
	same_as_coreutils env -i A=1 B=two
	same_as_coreutils env -i A=1 A=2
	same_as_coreutils env -i
	same_as_coreutils env -i -u A B=1
	same_as_coreutils printf '%s=%d\n' a 1 b 2 c
	same_as_coreutils printf '%5.2f|%-4s|%04d|%x|%X|%o|%e|%g|%c|%i|%u\n' 3.14159 ab 42 255 255 8 1234.5 0.0001 xyz -5 7
	same_as_coreutils printf '%d %d %d\n' abc 12x "'A"
	same_as_coreutils printf '\101\x42\u00e9\t\\\n'
	same_as_coreutils printf '%b|%s\n' 'a\tb\0101' 'a\tb'
	same_as_coreutils printf '%b\n' 'stop\cnever'
	same_as_coreutils printf '%*d|%.*f|%-*s|\n' 5 42 2 3.14159 3 x
	same_as_coreutils printf 'plain\n' excess
	same_as_coreutils printf '%s %s\n' only
	same_as_coreutils printf '%%\n'
	same_as_coreutils printf
	same_as_coreutils pwd
	same_as_coreutils pwd -P
}

@test "inside the sandbox the utilities print what coreutils prints on the host for the same workspace" {
	utils_dirs
	fixed_tree
	cd /tmp || return 1
	ws ls -1 -a
	[ "$status" -eq 0 ]
	(cd "$WS" && LC_ALL=C.UTF-8 /usr/bin/ls -1 -a) >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	ws cat -n notes.txt
	(cd "$WS" && /usr/bin/cat -n notes.txt) >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	ws env -i A=1 B=2
	printf 'A=1\nB=2\n' >"$TC_TMP/want"
	same_bytes "$TC_TMP/stdout" "$TC_TMP/want"
	# ls -l: every column but owner and group, which inside are the
	# sandbox's ids (the host's owner is not mapped in: the overflow id)
	ws ls -l
	[ "$status" -eq 0 ]
	(cd "$WS" && TZ=UTC LC_ALL=C.UTF-8 /usr/bin/ls -l) >"$TC_TMP/want"
	cut_owner() { awk '{ if (NF > 4) { $3 = "-"; $4 = "-" } print }' "$1"; }
	[ "$(cut_owner "$TC_TMP/stdout")" = "$(cut_owner "$TC_TMP/want")" ]
}

@test "formal-ai's own assertions: a planned run mutates only the workspace, ls once, no escape, a cleared env, python3, no shell" {
	# planned_prompt_mutates_only_workspace_files: the framework writes the
	# files (create report.txt alpha, modify to beta, create and delete
	# scratch.tmp), then run_command("cat report.txt")
	printf 'alpha' >"$WS/report.txt"
	printf 'beta' >"$WS/report.txt"
	printf 'tmp' >"$WS/scratch.tmp"
	rm "$WS/scratch.tmp"
	chmod 644 "$WS/report.txt"
	ws cat report.txt
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = beta ]
	[ "$(cat "$WS/report.txt")" = beta ]
	[ ! -e "$WS/scratch.tmp" ]
	# run_terminal_command_is_planned_once: `ls` runs once, lists the workspace
	ws ls
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "$(printf 'a.txt\nreport.txt')" ]
	# parent_paths_are_rejected: ../escape.txt never lands outside
	ws python3 -c 'open("../escape.txt", "w").write("x")' ../escape.txt
	[ "$status" -eq 125 ]
	[ ! -e "$TC_TMP/escape.txt" ]
	ws python3 -c 'open("../escape.txt", "w").write("x")'
	[ "$status" -eq 1 ]
	[ ! -e "$TC_TMP/escape.txt" ]
	# command_environment_is_cleared, spawned for real (the seed's env is a
	# builtin that spawns nothing): the caller's secret is not there
	FORMAL_AI_TEST_SECRET=s3cret ws env
	[ "$status" -eq 0 ]
	[ "$(grep -c FORMAL_AI_TEST_SECRET "$TC_TMP/stdout")" = 0 ]
	grep -qx 'TMPDIR=/tmp' "$TC_TMP/stdout"
	# python3_command_runs_from_allowlisted_resolved_path
	printf 'print("agent_python_ok")\n' >"$WS/script.py"
	chmod 644 "$WS/script.py"
	ws python3 script.py
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = agent_python_ok ]
	# unsupported_commands_are_rejected: sh -c echo blocked
	ws sh -c echo blocked
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: 'sh' is not one of the programs $POLICY allows (python3, cat, ls, printf, env, echo, pwd)" ]
	[ ! -s "$TC_TMP/stdout" ]
}
