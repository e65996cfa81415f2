#!/usr/bin/env bats
# limits.bats's limits and endings through `toolcell serve`: each script is
# an exec request to a server whose policy carries the limit (serve-lib.bash)
# and ends with the outcome `toolcell python` gives it (the exit status it
# would give, the record's status, signal and counts), nothing left running.
# What only a one-shot run has (a signal to toolcell itself, its terminal,
# its stdout's reader) is serve-attack.bats's server signals and slow reader.

bats_require_minimum_version 1.5.0

load serve-lib

setup_file() {
	srv_setup_file
}

teardown_file() {
	srv_teardown_file
}

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-slim.XXXXXX)
	chmod 755 "$T"
	MARK="tc-smark-$$-$BATS_TEST_NUMBER-$RANDOM"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	rm -rf "$T"
}

# py CODE [OPTIONS...] [-- SERVECALL-OPTIONS...]: CODE as a served script,
# with the mark as its argv[1]
py() {
	local code=$1
	shift
	printf '%s\n' "$code" >"$T/s.py"
	chmod 644 "$T/s.py"
	local opts=("$@")
	[[ " ${opts[*]} " == *" -- "* ]] || opts+=(--)
	srv_exec "$T/s.py" "${opts[@]}" --argv "[\"$MARK\"]"
}

# key NAME: a top-level key of the record, as JSON
key() {
	/usr/bin/python3 -I -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))" "$SRV_OUT/record.json" "$1"
}

survivors() {
	sleep 0.2
	pgrep -f "$MARK" | wc -l
}

@test "served: a timeout (timeout_s 0.5) ends the call with status timeout (124) and no survivors" {
	py "
import os, sys, time
if os.fork() == 0:
    os.setsid(); os.execv('/usr/bin/python3', ['python3', '-c', 'import time; time.sleep(60)', sys.argv[1]])
time.sleep(60)" -- --timeout-s 0.5
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key signal)" = "9" ]
	wall=$(key wall_ms)
	[ "$wall" -ge 500 ] && [ "$wall" -lt 5000 ]
	[ "$(survivors)" -eq 0 ]
}

@test "served: CPU time past cpu_time ends with SIGXCPU, a timeout (124)" {
	py "while True: pass" --cpu-time 1
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key signal)" = "24" ]
}

@test "served: a tool that ignores SIGXCPU is still a CPU time limit (124, timeout, inferred)" {
	py "
import signal
signal.signal(signal.SIGXCPU, signal.SIG_IGN)
while True: pass" --cpu-time 1
	[ "$status" -eq 124 ]
	[ "$(key status)" = '"timeout"' ]
	[ "$(key status_inferred)" = "true" ]
}

@test "served: a memory bomb ends with status memory_limit (MemoryError under the rlimit, exit 1)" {
	py "
x = []
while True: x.append(bytearray(1 << 20))" --memory 64M
	[ "$(key status)" = '"memory_limit"' ]
	[ "$status" -eq 1 ]
	[ "$(key status_inferred)" = "true" ]
	[ "$(/usr/bin/python3 -I -c "import json; print(json.load(open('$SRV_OUT/record.json'))['limits']['memory']['enforced_by'])")" = "rlimit" ]
}

@test "served: a memory bomb spread over processes is killed by the supervisor (memory_limit, SIGKILL)" {
	# each child holds its 60M until it is killed (the exec comes first, for
	# the mark in its command line): with the allocation before the exec,
	# the exec gave it back, and on a loaded machine that ran the children
	# one after another their sum stayed under 96M, so the call timed out
	py "
import os, sys, time
hog = 'b = bytearray(60 << 20)\nfor j in range(0, len(b), 4096): b[j] = 1\nimport time; time.sleep(60)'
for i in range(4):
    if os.fork() == 0:
        os.execv('/usr/bin/python3', ['python3', '-c', hog, sys.argv[1]])
time.sleep(60)" --memory 96M
	[ "$status" -eq 137 ]
	[ "$(key status)" = '"memory_limit"' ]
	[ "$(key status_inferred)" = "false" ]
	[ "$(key signal)" = "9" ]
	[ "$(survivors)" -eq 0 ]
}

@test "served: a fork bomb ends with status pids_limit and no survivors" {
	py "
import os, sys, time
while True:
    try:
        if os.fork() == 0:
            os.execv('/usr/bin/python3', ['python3', '-c', 'import time; time.sleep(60)', sys.argv[1]])
    except OSError: time.sleep(0.01)" --pids 32
	[ "$(key status)" = '"pids_limit"' ]
	[ "$(key pids_peak)" -le 32 ]
	[ "$(survivors)" -eq 0 ]
}

@test "served: fork refused at the process limit fails with EAGAIN inside" {
	py "
import errno, os, time
kids = []
try:
    for i in range(10):
        pid = os.fork()
        if pid == 0: time.sleep(2); os._exit(0)
        kids.append(pid)
except OSError as e:
    print(len(kids), errno.errorcode[e.errno])
" --pids 4
	[[ "${lines[0]}" == *" EAGAIN" ]]
	[ "${lines[0]%% *}" -le 3 ]
}

@test "served: an output flood ends with output_limit; exactly the cap is delivered and counted" {
	py "
import sys
while True: sys.stdout.write('x' * 65536)" --stdout-size 100K
	[ "$status" -eq 137 ]
	[ "$(stat -c %s "$SRV_OUT/stdout")" -eq 102400 ]
	[ "$(key status)" = '"output_limit"' ]
	[ "$(key stdout_truncated)" = "true" ]
	[ "$(key stdout_bytes)" = "102400" ]
	# exactly the cap, and no more, is not a flood; a print counts its bytes
	py "import sys; sys.stdout.write('y' * 102400)" --stdout-size 100K
	[ "$status" -eq 0 ]
	[ "$(key status)" = '"ok"' ]
	[ "$(key stdout_bytes)" = "102400" ]
	py "print(1)" --stdout-size 100K
	[ "$(key stdout_bytes)" = "2" ]
	[ "$(/usr/bin/python3 -I -c "import json; print(json.load(open('$SRV_OUT/record.json'))['limits']['stdout_size']['value'])")" = 102400 ]
}

@test "served: stdout and stderr more than a pipe holds are delivered whole and counted exactly, neither truncated" {
	py "import sys; sys.stdout.write('a' * 70000); sys.stderr.write('b' * 3000)"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$SRV_OUT/stdout")" -eq 70000 ]
	[ "$(key stdout_bytes)" = "70000" ]
	[ "$(key stderr_bytes)" = "3000" ]
	[ "$(key stdout_truncated)" = "false" ]
	[ "$(key stderr_truncated)" = "false" ]
}

@test "served: a stderr flood ends with output_limit and stderr_truncated" {
	py "
import sys
while True: sys.stderr.write('e' * 4096)" --stderr-size 8K
	[ "$(key status)" = '"output_limit"' ]
	[ "$(key stderr_truncated)" = "true" ]
	[ "$(key stderr_bytes)" = "8192" ]
}

@test "served: a script that never reads its stdin (a request's 900 KB) is not held up" {
	head -c 900000 /dev/zero | tr '\0' 'z' >"$T/big"
	py 'print("done")' -- --stdin "$T/big"
	[ "$status" -eq 0 ]
	[ "$output" = "done" ]
}

@test "served: a script that closes stdout and stderr early still ends cleanly" {
	py "
import os, time
os.close(1); os.close(2); time.sleep(0.2)"
	[ "$status" -eq 0 ]
	[ "$(key status)" = '"ok"' ]
}

@test "served: a script killed by a signal is answered with it (SIGTERM, 143, signaled)" {
	py "import os; os.kill(os.getpid(), 15)"
	[ "$status" -eq 143 ]
	[ "$(key status)" = '"signaled"' ]
	[ "$(srv_ans signal)" = TERM ]
}

@test "served: a script that uses every process slot and then fails is not called a fork bomb" {
	py "
import threading, time, sys
ts = [threading.Thread(target=time.sleep, args=(0.05,)) for _ in range(7)]
[t.start() for t in ts]; [t.join() for t in ts]
sys.exit(1)" --pids 8
	[ "$status" -eq 1 ]
	[ "$(key status)" = '"exit_nonzero"' ]
}
