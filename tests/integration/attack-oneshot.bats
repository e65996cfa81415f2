#!/usr/bin/env bats
# Attacks on the one-shot early end (a run is over at the tool's end, the
# namespaces torn down while toolcell writes its record, the init reaped
# before toolcell exits): the instant `toolcell run`, `call` or `python`
# has returned, no process of its sandbox is alive, however the run ended
# (the tool's exit with children left behind, its own signal, a limit,
# toolcell's SIGTERM or SIGINT); and the record's figures stay complete.
# Each test finds its processes by a marker of its own in their argv, never
# by the uid range other sandboxes share.

bats_require_minimum_version 1.5.0

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-atk1.XXXXXX)
	chmod 755 "$T"
	MARK="tc-atk1-$$-$BATS_TEST_NUMBER-$RANDOM$RANDOM"
	export TOOLCELL T MARK
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	rm -rf "$T"
}

# the driver: drive.py VERB-LIST ROUNDS MODE runs toolcell with a tool whose
# children (forked, setsid, SIGTERM ignored, one level deeper too) carry
# $MARK in argv, as do toolcell's and so its init's, and lists what of
# them is alive the instant toolcell is reaped; MODE is alone (the tool
# exits 0 with no child: the early end), exit (the tool exits 0), kill (the tool SIGKILLs itself),
# cpu (its children spin to the --cpu-time limit), term / int (toolcell gets
# the signal once the children run)
driver() {
	cat >"$T/drive.py" <<'PY'
import ctypes, os, signal, subprocess, sys, time
# a subreaper: a process of the sandbox that outlived toolcell, even as a
# zombie with no argv left, becomes our child
assert ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
tc, t, mark = os.environ["TOOLCELL"], os.environ["T"], os.environ["MARK"]
verbs, rounds, mode = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3]
spin = "while True: pass" if mode == "cpu" else "time.sleep(60)"
body = f"""
import os, signal, sys, time
def leave():
    if "{mode}" == "alone":
        print("ready", flush=True)
        return
    for i in range(3):
        if os.fork() == 0:
            os.setsid()
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-S", "-c", "import time\\n{spin}", "{mark}"])
            os.execv(sys.executable, [sys.executable, "-S", "-c", "import time\\n{spin}", "{mark}"])
    time.sleep(0.2)
    print("ready", flush=True)
    if "{mode}" == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if "{mode}" in ("term", "int"):
        time.sleep(60)
    if "{mode}" == "cpu":
        {spin}
"""
with open(os.path.join(t, mark + ".py"), "w") as f:
    f.write(body + "\ndef run(args):\n    leave()\n    return {}\n")
os.chmod(os.path.join(t, mark + ".py"), 0o644)
with open(os.path.join(t, mark + "-s.py"), "w") as f:
    f.write(body + "\nleave()\n")
os.chmod(os.path.join(t, mark + "-s.py"), 0o644)
lim = ["--cpu-time", "1"] if mode == "cpu" else []
argvs = {"python": [tc, "python"] + lim + [os.path.join(t, mark + "-s.py")],
         "run": [tc, "run"] + lim + ["--", "python3", "-S", "-c", body + "\nleave()\n"],
         "call": [tc, "call"] + lim + [os.path.join(t, mark + ".py")]}

def alive():
    found = []
    for p in filter(str.isdigit, os.listdir("/proc")):
        if int(p) == os.getpid():
            continue
        try:
            cmd = open(f"/proc/{p}/cmdline", "rb").read()
            st = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark.encode() in cmd:
            found.append(f"{p}:{st}")
    try:
        while True:
            w = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG)
            if w is None:
                found.append("a child of ours still running")
                break
            found.append(f"{w.si_pid}:reaped by us")
    except ChildProcessError:
        pass
    return found

statuses = set()
for r in range(rounds):
    for v in verbs:
        p = subprocess.Popen(argvs[v], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        if v == "call":
            p.stdin.write(b"{}")
        p.stdin.close()
        if mode in ("term", "int"):
            line = p.stdout.readline()
            if line != b"ready\n":
                sys.exit(f"{v}: no ready line: {line!r}")
            p.send_signal(signal.SIGTERM if mode == "term" else signal.SIGINT)
        p.stdout.read()
        rc = p.wait()
        left = alive()  # at once: toolcell is reaped, its sandbox must be gone
        statuses.add(f"{v}={rc}")
        if left:
            sys.exit(f"round {r} {v} (status {rc}): left {left}")
print(" ".join(sorted(statuses)))
PY
}

@test "a tool that ends alone (the early end): its init is gone the instant run, call or python returns (30 rounds each)" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run,call 30 alone
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "call=0 python=0 run=0" ]
}

@test "a tool that leaves setsid, SIGTERM-ignoring children: none of them is alive the instant run, call or python returns (10 rounds each)" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run,call 10 exit
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "call=0 python=0 run=0" ]
}

@test "a tool that SIGKILLs itself with children running: toolcell ends by SIGKILL as the tool did, and leaves none of them" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run 5 kill
	echo "$output"
	[ "$status" -eq 0 ]
	# subprocess reports a process ended by signal N as -N
	[ "$output" = "python=-9 run=-9" ]
}

@test "children spinning to --cpu-time: toolcell returns 124 and none of them is alive" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run 2 cpu
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "python=124 run=124" ]
}

@test "SIGTERM to toolcell mid-run: it ends by that signal and leaves no process of the sandbox" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run 4 term
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "python=-15 run=-15" ]
}

@test "SIGINT to toolcell mid-run: it ends by that signal and leaves no process of the sandbox" {
	driver
	run /usr/bin/python3 -I "$T/drive.py" python,run 4 int
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "python=-2 run=-2" ]
}

@test "a run over early still records the tool's whole CPU, its memory peak and its status" {
	# 0.4 s of CPU in a child that the tool waits for, then 64 MiB touched
	# by the tool itself; both figures must be in the record written while
	# the namespaces are torn down
	cat >"$T/s.py" <<'EOF'
import os, time
pid = os.fork()
if pid == 0:
    end = time.process_time() + 0.4
    while time.process_time() < end:
        pass
    os._exit(0)
os.waitpid(pid, 0)
b = bytearray(64 << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
print("done")
EOF
	chmod 644 "$T/s.py"
	for n in 1 2 3; do
		run -0 "$TOOLCELL" python --result "$T/r$n.json" "$T/s.py"
		[ "$output" = done ]
		run /usr/bin/python3 -I -c '
import json, sys
r = json.load(open(sys.argv[1]))
cpu = r["cpu_user_ms"] + r["cpu_system_ms"]
print(r["status"], r["exit_code"], r["signal"], cpu >= 380, r["memory_peak_bytes"] >= 64 << 20,
      r["ended_at"] is not None, r["wall_ms"] >= 400)' "$T/r$n.json"
		echo "$output"
		[ "$status" -eq 0 ]
		[ "$output" = "ok 0 None True True True True" ]
	done
}

@test "the tool and its init hold no capability in any set and the securebits locked: no KEEP_CAPS, no securebits reset, no file capability written where it may write" {
	cat >"$T/caps.py" <<'EOF'
import ctypes, errno, os, shutil, sys, time
libc = ctypes.CDLL(None, use_errno=True)
def err(r):
    return "ok" if r == 0 else errno.errorcode[ctypes.get_errno()]
print("securebits", hex(libc.prctl(27, 0, 0, 0, 0)))  # PR_GET_SECUREBITS
print("keepcaps", err(libc.prctl(8, 1, 0, 0, 0)))  # PR_SET_KEEPCAPS
print("securebits reset", err(libc.prctl(28, 0, 0, 0, 0)))  # PR_SET_SECUREBITS
print("ambient raise", err(libc.prctl(47, 2, 21, 0, 0)))  # PR_CAP_AMBIENT_RAISE CAP_SYS_ADMIN
shutil.copy(sys.executable, "/tmp/py")
try:
    # v2 file capabilities: CAP_SYS_ADMIN permitted and effective
    os.setxattr("/tmp/py", "security.capability",
                bytes.fromhex("01000002" "00002000" "00000000" "00000000" "00000000"))
    print("file caps written")
except OSError as e:
    print("file caps", errno.errorcode[e.errno])
print("ready", flush=True)
time.sleep(30)
EOF
	chmod 644 "$T/caps.py"
	"$TOOLCELL" python "$T/caps.py" "$MARK" >"$T/out" 2>"$T/err" &
	local tc=$! tool= init=
	for _ in $(seq 300); do grep -q ready "$T/out" && break; sleep 0.1; done
	# the init is toolcell's child, the tool the init's
	local p
	for p in $(pgrep -f -- "$MARK"); do
		case $(awk '/^PPid:/ { print $2 }' "/proc/$p/status") in
		"$tc") init=$p ;;
		esac
	done
	[ -n "$init" ]
	for p in $(pgrep -f -- "$MARK"); do
		case $(awk '/^PPid:/ { print $2 }' "/proc/$p/status") in
		"$init") tool=$p ;;
		esac
	done
	[ -n "$tool" ]
	for p in "$tool" "$init"; do
		run -0 awk '/^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):/ { printf "%s %s ", $1, $2 }' "/proc/$p/status"
		echo "$p: $output"
		[ "$output" = "CapInh: 0000000000000000 CapPrm: 0000000000000000 CapEff: 0000000000000000 CapBnd: 0000000000000000 CapAmb: 0000000000000000 NoNewPrivs: 1 " ]
	done
	kill -TERM "$tc"
	wait "$tc" || true
	cat "$T/out"
	# NOROOT, NO_SETUID_FIXUP, NO_CAP_AMBIENT_RAISE and every lock but KEEP_CAPS' own bit
	[ "$(sed -n 1p "$T/out")" = "securebits 0xef" ]
	[ "$(sed -n 2p "$T/out")" = "keepcaps EPERM" ]
	[ "$(sed -n 3p "$T/out")" = "securebits reset EPERM" ]
	[ "$(sed -n 4p "$T/out")" = "ambient raise EPERM" ]
	[ "$(sed -n 5p "$T/out")" = "file caps EPERM" ]
}
