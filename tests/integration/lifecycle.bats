#!/usr/bin/env bats
# toolcell's own life and the sandbox's: nothing of a sandbox outlives
# toolcell at any instant of its start-up, and a stopped toolcell does not
# stop the sandbox's own deadline. Each test finds its processes by a marker
# of its own in their argv, never by the uid range other sandboxes share.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-life.XXXXXX)
	chmod 755 "$T"
	MARK="tc-life-$$-$BATS_TEST_NUMBER-$RANDOM$RANDOM"
	# a tiny uid pool of its own (2 pairs): a leaked pair shows at once
	POOL_START=$((1000000000 + 4 * ((RANDOM * 32768 + RANDOM) % 500000000)))
	/usr/bin/python3 -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["uid_range"] = {"start": int(sys.argv[3]), "count": 4}
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" "$T/p.json" "$POOL_START"
	chmod 644 "$T/p.json"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	rm -rf "$T"
}

@test "SIGKILL at any instant of start-up leaves no process of the sandbox and no uid pair taken" {
	# a few hundred kills swept over the first 20 ms (start-up takes 2-5 ms
	# here; later kills meet the running tool); TOOLCELL_LIFE_KILLS=5000
	# for the manual run
	local pool=()
	# the uid pool exists as root only (unprivileged, the caller's uid is mapped)
	[ "$(id -u)" -ne 0 ] || pool=("$POOL_START" 4)
	run /usr/bin/python3 -I "$BATS_TEST_DIRNAME/killsweep.py" "$TOOLCELL" "$T/p.json" "$MARK" \
		"${TOOLCELL_LIFE_KILLS:-300}" 20 "${pool[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 0 processes left; 0 uid pairs still locked"* ]]
	# and the pool serves both pairs at once again
	"$TOOLCELL" run --policy "$T/p.json" -- python3 -S -c "import time; time.sleep(1) # $MARK" &
	"$TOOLCELL" run --policy "$T/p.json" -- python3 -S -c "import time; time.sleep(0.2) # $MARK"
	wait $!
}

# marked_but PID: how many processes other than PID carry $MARK in their argv
marked_but() {
	local n=0 p
	for p in $(pgrep -f "$MARK"); do
		[ "$p" = "$1" ] || n=$((n + 1))
	done
	echo "$n"
}

@test "a stopped toolcell does not stop the deadline: the sandbox's init ends the tool past its limit" {
	# a 3 s limit: time enough to see the tool run on a loaded host
	"$TOOLCELL" python --timeout 3 --result "$T/r.json" -S -c "import time; time.sleep(120) # $MARK" &
	local tc=$! _
	# the tool runs (toolcell, the init and the tool carry the mark)
	for _ in $(seq 100); do
		[ "$(marked_but "$tc")" -ge 2 ] && break
		sleep 0.1
	done
	[ "$(marked_but "$tc")" -ge 2 ]
	kill -STOP "$tc"
	# the limit (3 s) and the init's margin (1 s) pass; a loaded host gets 11 s more
	for _ in $(seq 150); do
		[ "$(marked_but "$tc")" -eq 0 ] && break
		sleep 0.1
	done
	left=$(marked_but "$tc")
	kill -CONT "$tc"
	# wait in this shell: toolcell is its child, not a subshell's
	rc=0
	wait "$tc" || rc=$?
	[ "$left" -eq 0 ]
	[ "$rc" -eq 124 ] || { echo "toolcell exited $rc"; false; }
	[ "$(/usr/bin/python3 -I -c "import json; r = json.load(open('$T/r.json')); print(r['status'], r['signal_name'])")" = "timeout SIGKILL" ]
}

@test "a storm of refused calls costs toolcell a bounded share of a CPU, shown in the record" {
	# ioprio_get is refused with ENOSYS by the listener: each call is one
	# answer of toolcell's
	run "$TOOLCELL" python --timeout 3 --result "$T/r.json" -S -c "
import ctypes, time  # $MARK
libc = ctypes.CDLL(None)
end = time.monotonic() + 2
n = 0
while time.monotonic() < end:
    libc.syscall(252, 1, 0); n += 1
print(n)"
	[ "$status" -eq 0 ]
	calls=$output
	read -r user sys refused < <(/usr/bin/python3 -I -c "
import json; r = json.load(open('$T/r.json'))
print(r['toolcell_cpu_user_ms'], r['toolcell_cpu_system_ms'], r['denied_syscalls']['ioprio_get'])")
	echo "calls $calls refused $refused toolcell cpu ${user}+${sys} ms"
	[ "$refused" -eq "$calls" ]
	# 2 s of refused calls: at most 2,000 answers a second, well under half
	# a CPU of toolcell's (unbounded, it was ~90%)
	[ "$calls" -le 4400 ]
	[ $((user + sys)) -lt 1000 ]
}

@test "a one-shot run's init is reaped before toolcell exits: a subreaper caller is left no child of it" {
	# the run ends at the tool's end and the namespaces' teardown goes on
	# while toolcell writes its record; toolcell must still reap the init
	# before it exits, or the init would be reparented to its caller
	run /usr/bin/python3 -I - "$TOOLCELL" "$T" "$MARK" <<'PY'
import ctypes, os, subprocess, sys
tc, t, mark = sys.argv[1:]
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
with open(os.path.join(t, "tool.py"), "w") as f:
    f.write("def run(args):\n    return {}\n")
os.chmod(os.path.join(t, "tool.py"), 0o644)
runs = [[tc, "python", "-c", "pass # " + mark], [tc, "run", "--", "python3", "-S", "-c", "pass # " + mark],
        [tc, "call", os.path.join(t, "tool.py")]]
left = []
for argv in runs * 3:
    p = subprocess.run(argv, input=b"{}", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("%s: %d %s" % (argv[1], p.returncode, p.stderr.decode()))
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
        left.append((argv[1], pid or "running"))
    except ChildProcessError:
        pass
print("left", left)
PY
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "left []" ]
}
