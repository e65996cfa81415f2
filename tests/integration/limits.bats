#!/usr/bin/env bats
# Limits and endings: each run ends with the right status, exit code and
# record, and nothing is left running. Without cgroup v2 (as on these
# hosts) memory and processes are held by rlimits plus the supervisor.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-lim.XXXXXX)
	chmod 755 "$T"
	MARK="tc-mark-$$-$BATS_TEST_NUMBER"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	rm -rf "$T"
}

# key NAME: a top-level key of the record in $T/r.json, as JSON
key() {
	/usr/bin/python3 -I -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))" "$T/r.json" "$1"
}

survivors() {
	sleep 0.2
	pgrep -f "$MARK" | wc -l
}

@test "a timeout ends the run with 124, status timeout, and no survivors" {
	run "$TOOLCELL" python --timeout 0.5 --result "$T/r.json" -c "
import os, time  # $MARK
if os.fork() == 0:
    os.setsid(); time.sleep(60)
time.sleep(60)"
	[ "$status" -eq 124 ]
	[[ "$output" == *"time limit (wall clock)"* ]]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key signal)" = "9" ]
	wall=$(key wall_ms)
	[ "$wall" -ge 500 ] && [ "$wall" -lt 3000 ]
	[ "$(survivors)" -eq 0 ]
}

@test "CPU time past --cpu-time ends with SIGXCPU, reported as a timeout (124)" {
	run "$TOOLCELL" python --cpu-time 1 --result "$T/r.json" -c "
while True: pass"
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key signal)" = "24" ]
}

@test "a memory bomb ends with status memory_limit" {
	run "$TOOLCELL" python --memory 64M --result "$T/r.json" -c "
x = []
while True: x.append(bytearray(1 << 20))"
	[ "$(key status)" = '"memory_limit"' ]
	# under the address-space rlimit Python raises MemoryError and exits 1
	[ "$status" -eq 1 ]
	[ "$(key status_inferred)" = "true" ]
	[ "$(/usr/bin/python3 -I -c "import json; print(json.load(open('$T/r.json'))['limits']['memory']['enforced_by'])")" = "rlimit" ]
}

@test "a memory bomb spread over processes is killed by the supervisor (memory_limit, SIGKILL)" {
	run "$TOOLCELL" python --memory 96M --result "$T/r.json" -c "
import os, time  # $MARK
for i in range(4):
    if os.fork() == 0:
        b = bytearray(60 << 20)
        for j in range(0, len(b), 4096): b[j] = 1
        time.sleep(60); os._exit(0)
time.sleep(60)"
	[ "$status" -eq 137 ]
	[ "$(key status)" = '"memory_limit"' ]
	[ "$(key status_inferred)" = "false" ]
	[ "$(key signal)" = "9" ]
	[ "$(survivors)" -eq 0 ]
}

@test "a fork bomb ends with status pids_limit and no survivors" {
	run "$TOOLCELL" python --pids 32 --result "$T/r.json" -c "
import os, time  # $MARK
while True:
    try: os.fork()
    except OSError: time.sleep(0.01)"
	[ "$(key status)" = '"pids_limit"' ]
	[ "$(key pids_peak)" -le 32 ]
	[ "$(survivors)" -eq 0 ]
}

@test "fork refused at the process limit fails with EAGAIN inside" {
	run "$TOOLCELL" python --pids 4 --result "$T/r.json" -c "
import errno, os, time
kids = []
try:
    for i in range(10):
        pid = os.fork()
        if pid == 0: time.sleep(2); os._exit(0)
        kids.append(pid)
except OSError as e:
    print(len(kids), errno.errorcode[e.errno])
"
	[[ "${lines[0]}" == *" EAGAIN" ]]
	[ "${lines[0]%% *}" -le 3 ]
}

@test "an output flood ends with output_limit; exactly the cap is delivered" {
	"$TOOLCELL" python --stdout-size 100K --result "$T/r.json" -c "
import sys
while True: sys.stdout.write('x' * 65536)" >"$T/out" 2>"$T/err" || rc=$?
	[ "${rc:-0}" -eq 137 ]
	[ "$(stat -c %s "$T/out")" -eq 102400 ]
	[ "$(key status)" = '"output_limit"' ]
	[ "$(key stdout_truncated)" = "true" ]
	[ "$(key stdout_bytes)" = "102400" ]
	grep -q "output limit" "$T/err"
}

@test "a stderr flood ends with output_limit and stderr_truncated" {
	"$TOOLCELL" python --stderr-size 8K --result "$T/r.json" -c "
import sys
while True: sys.stderr.write('e' * 4096)" >/dev/null 2>"$T/err" || true
	[ "$(key status)" = '"output_limit"' ]
	[ "$(key stderr_truncated)" = "true" ]
	[ "$(key stderr_bytes)" = "8192" ]
}

@test "a tool that never reads stdin does not hang toolcell" {
	head -c 10000000 /dev/zero >"$T/big"
	run bash -c "'$TOOLCELL' python -c 'print(\"done\")' <'$T/big'"
	[ "$status" -eq 0 ]
	[ "$output" = "done" ]
}

@test "a tool that closes stdout and stderr early still ends cleanly" {
	run "$TOOLCELL" python -c "
import os, time
os.close(1); os.close(2); time.sleep(0.2)"
	[ "$status" -eq 0 ]
}

@test "SIGTERM to toolcell kills the sandbox, writes the record and ends toolcell by SIGTERM" {
	"$TOOLCELL" python --result "$T/r.json" -c "
import os, time  # $MARK
os.fork(); time.sleep(60)" &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	[ "$(key status)" = '"signaled"' ]
	[ "$(survivors)" -eq 0 ]
}

@test "SIGKILL of toolcell takes the whole sandbox down" {
	"$TOOLCELL" python -c "
import os, time  # $MARK
os.fork(); time.sleep(60)" &
	pid=$!
	sleep 0.5
	[ "$(pgrep -f "$MARK" | wc -l)" -ge 2 ]
	kill -KILL "$pid"
	wait "$pid" || true
	[ "$(survivors)" -eq 0 ]
}

@test "a tool killed by a signal ends toolcell by the same signal" {
	run "$TOOLCELL" python --result "$T/r.json" -c "import os; os.kill(os.getpid(), 15)"
	[ "$status" -eq 143 ]
	[ "$(key status)" = '"signaled"' ]
	[ "$(key signal)" = "15" ]
}

@test "the record names what enforced each limit on this host" {
	"$TOOLCELL" python --result "$T/r.json" -c "pass"
	run /usr/bin/python3 -I -c "
import json
r = json.load(open('$T/r.json'))
print(' '.join('%s=%s' % (k, v['enforced_by']) for k, v in sorted(r['limits'].items())))
print(r['oom_kills'], r['unknown']['oom_kills'] != '')"
	[ "${lines[0]}" = "cpu_time=rlimit cpus=none file_size=rlimit memory=rlimit open_files=rlimit pids=rlimit request_size=toolcell shm_size=toolcell stderr_size=toolcell stdout_size=toolcell timeout=toolcell tmp_inodes=toolcell tmp_size=toolcell workspace_files=toolcell workspace_size=toolcell" ]
	[ "${lines[1]}" = "None True" ]
}

@test "a terminal nobody reads does not stop the time limit" {
	run /usr/bin/python3 -I -c "
import os, pty, subprocess, time
master, slave = pty.openpty()
t = time.monotonic()
p = subprocess.run(['$TOOLCELL', 'python', '--timeout', '1', '-c', 'while True: print(\"x\" * 1000)'],
                   stdout=slave, stderr=subprocess.DEVNULL, timeout=20)
print(p.returncode, time.monotonic() - t < 5)"
	[ "$status" -eq 0 ]
	[ "$output" = "124 True" ]
}

@test "when the reader of stdout goes away the tool gets EPIPE at once, as bare python does" {
	run bash -c "'$TOOLCELL' python --timeout 20 --result '$T/r.json' -c 'while True: print(\"x\" * 1000)' 2>/dev/null | head -c 10; echo \" \${PIPESTATUS[0]}\""
	[ "$output" = "xxxxxxxxxx 1" ]
	[ "$(key status)" = '"exit_nonzero"' ]
	[ "$(key stdout_truncated)" = "true" ]
	[ "$(key wall_ms)" -lt 5000 ]
}

@test "a tool that ignores SIGXCPU is still a CPU time limit (124, timeout)" {
	run "$TOOLCELL" python --cpu-time 1 --result "$T/r.json" -c "
import signal
signal.signal(signal.SIGXCPU, signal.SIG_IGN)
while True: pass"
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key status_inferred)" = "true" ]
	[[ "$output" == *"time limit (CPU time)"* ]]
}

@test "a tool that uses every process slot and then fails is not called a fork bomb" {
	run "$TOOLCELL" python --pids 8 --result "$T/r.json" -c "
import threading, time, sys
ts = [threading.Thread(target=time.sleep, args=(0.05,)) for _ in range(7)]
[t.start() for t in ts]; [t.join() for t in ts]
sys.exit(1)"
	[ "$status" -eq 1 ]
	[ "$(key status)" = '"exit_nonzero"' ]
}

@test "a run toolcell kills keeps the CPU its processes used (a spinner, a forked spinner)" {
	# each spinner prints the CPU it has used so far; the record, sampled at
	# the kill, must hold about the sum of the last figures (the killed
	# processes are never reaped by the init, so rusage alone says ~0). The
	# processes' own figures keep the test true on a loaded machine.
	run "$TOOLCELL" python --timeout 1.5 --result "$T/r.json" -c "
import os, time
tag = 'child' if os.fork() == 0 else 'parent'
n = 0
while True:
    n += 1
    if n % 100000 == 0:
        print(tag, int(time.process_time() * 1000), flush=True)"
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	local parent child cpu
	parent=$(grep '^parent ' <<<"$output" | tail -n 1 | cut -d' ' -f2)
	child=$(grep '^child ' <<<"$output" | tail -n 1 | cut -d' ' -f2)
	cpu=$(( $(key cpu_user_ms) + $(key cpu_system_ms) ))
	echo "record cpu $cpu ms; last figures: parent ${parent:-none} ms, child ${child:-none} ms"
	[ -n "$parent" ] && [ -n "$child" ]
	[ $((parent + child)) -ge 50 ]
	# (the sample is taken just before the kill lands: allow the last
	# moments the spinners ran after it)
	[ $((cpu * 5)) -ge $(((parent + child) * 4)) ]
	[ "$cpu" -le $(( 2 * $(key wall_ms) + 100 )) ]
}
