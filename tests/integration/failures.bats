#!/usr/bin/env bats
# toolcell's own failures around the run: a result record that cannot be
# written whole, a policy path that names no regular file. Each is exit 125
# with a message that names the cause, never a hang or a silent success.

load helpers

setup() {
	tc_setup
	MARK="tc-fail-$$-$BATS_TEST_NUMBER-$RANDOM"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	if [ -n "${FULL:-}" ]; then
		umount "$FULL" 2>/dev/null || true
	fi
	tc_teardown
}

@test "a record that cannot be written (a full device) fails run, python and call with 125" {
	local tool
	tool=$(fixture call_echo.py)
	run "$TOOLCELL" run --result-fd 3 -- python3 -S -c "pass # $MARK" 3>/dev/full
	[ "$status" -eq 125 ]
	[[ "$output" == *"toolcell: cannot write the result record to descriptor 3: No space left on device"* ]]
	run "$TOOLCELL" python --result-fd 3 -S -c "import sys; sys.exit(3) # $MARK" 3>/dev/full
	[ "$status" -eq 125 ]
	[[ "$output" == *"cannot write the result record to descriptor 3: No space left on device"* ]]
	# a tool killed by a signal: still toolcell's failure, not the signal
	run "$TOOLCELL" python --result-fd 3 -S -c "import os; os.kill(os.getpid(), 9) # $MARK" 3>/dev/full
	[ "$status" -eq 125 ]
	# call: the envelope still comes, the code says toolcell failed
	run bash -c 'echo "{\"x\": 1}" | "$1" call --result-fd 3 "$2" 3>/dev/full 2>/dev/null' _ "$TOOLCELL" "$tool"
	[ "$status" -eq 125 ]
	[ "$(echo "$output" | jget ok)" = "true" ]
	# and with the record writable, the same runs succeed
	run "$TOOLCELL" run --result-fd 3 -- python3 -S -c "pass # $MARK" 3>"$TC_TMP/r.json"
	[ "$status" -eq 0 ]
	[ "$(jget status "$TC_TMP/r.json")" = "ok" ]
}

@test "--result on a full file system: 125 and a message, never exit 0 with an empty record" {
	# a tmpfs of 4 KiB, filled; mounting needs root (as nobody the test
	# above covers the same path through --result-fd)
	if [ "$(id -u)" -eq 0 ]; then
		FULL="$TC_TMP/full"
		mkdir "$FULL"
		mount -t tmpfs -o size=4k,mode=0755 tmpfs "$FULL"
		dd if=/dev/zero of="$FULL/fill" bs=4096 count=4 2>/dev/null || true
		run "$TOOLCELL" run --result "$FULL/r.json" -- python3 -S -c "pass # $MARK"
		[ "$status" -eq 125 ]
		[[ "$output" == *"cannot write the result record to $FULL/r.json: No space left on device"* ]]
	else
		run "$TOOLCELL" run --result-fd 3 -- python3 -S -c "pass # $MARK" 3>/dev/full
		[ "$status" -eq 125 ]
	fi
}

@test "--policy or TOOLCELL_POLICY naming a FIFO is refused at once, not waited on" {
	mkfifo "$TC_TMP/fifo"
	run timeout 20 "$TOOLCELL" run --policy "$TC_TMP/fifo" -- python3 -S -c pass
	[ "$status" -eq 125 ]
	[[ "$output" == *"$TC_TMP/fifo: not a regular file (a FIFO, socket or device is never read as a policy); name the policy file itself"* ]]
	# TOOLCELL_POLICY is read by the python verb (toolcell-python)
	run env TOOLCELL_POLICY="$TC_TMP/fifo" timeout 20 "$TOOLCELL" python -S -c pass
	[ "$status" -eq 125 ]
	[[ "$output" == *"not a regular file (a FIFO"* ]]
	run timeout 20 "$TOOLCELL" policy check "$TC_TMP/fifo"
	[ "$status" -eq 125 ]
}

@test "a masked host /proc (Docker, Kubernetes): the refused proc mount names the masking and the fix" {
	run /usr/bin/python3 -I "$BATS_TEST_DIRNAME/maskproc.py" "$TOOLCELL" run --result "$TC_TMP/r.json" -- python3 -S -c pass
	[ "$status" -eq 125 ]
	[[ "$output" == "toolcell: cannot mount /proc for the new PID namespace: Operation not permitted (this host's /proc has 1 file system mounted over parts of it, such as /proc/"* ]]
	[[ "$output" == *", the way Docker and Kubernetes mask it, and the kernel refuses a new /proc while any part of the old one is hidden; run the container with /proc unmasked: docker run --security-opt systempaths=unconfined, or Kubernetes securityContext.procMount: Unmasked with hostUsers: false)" ]]
	[ "$(jget error.stage "$TC_TMP/r.json")" = proc ]
	[ "$(jget error.errno_name "$TC_TMP/r.json")" = EPERM ]
	run /usr/bin/python3 -I "$BATS_TEST_DIRNAME/maskproc.py" "$TOOLCELL" check
	[ "$status" -eq 125 ]
	[[ "$output" == *"proc mount: refused: Operation not permitted (this host's /proc has 1 file system mounted over parts of it"* ]]
}
