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
	chmod 777 "$WS"
	printf 'hello\n' >"$WS/a.txt"
	chmod 666 "$WS/a.txt"
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
