#!/usr/bin/env bats
# The audit line: one syslog datagram per run (key=value, RFC 3164 header,
# authpriv.info, tag toolcell[PID]) with the run's id, verb, status, exit,
# times, peak memory, policy and tool sha256 and the caller; on by default,
# off with "audit = off" in toolcell.conf. These tests point toolcell.conf's
# audit_socket (an administrator's setting, never the caller's) at a socket
# of their own, in a staged build-tree layout (see site.bats), so no syslog
# daemon is needed.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	tc_stage_site
	SOCK=$TC_TMP/log.sock
	LOG=$TC_TMP/log.txt
	conf "audit_socket = $SOCK"
	# a syslog socket of our own: every datagram, one a line, for 30 s at most
	"$PY" -I -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(30)
open(sys.argv[2] + ".ready", "w").close()
with open(sys.argv[2], "ab") as f:
    while True:
        try:
            d = s.recv(8192)
        except socket.timeout:
            break
        f.write(d + b"\n")
        f.flush()
' "$SOCK" "$LOG" 3>&- &
	LISTENER=$!
	for _ in $(seq 100); do [ -e "$LOG.ready" ] && break; sleep 0.05; done
}

teardown() {
	kill "$LISTENER" 2>/dev/null
	wait "$LISTENER" 2>/dev/null
	tc_teardown
}

conf() {
	printf '%s\n' "$@" >"$S/etc/toolcell.conf"
	chmod 644 "$S/etc/toolcell.conf"
}

# lines N: wait (at most 10 s) until the log holds N lines
lines() {
	for _ in $(seq 200); do
		[ "$(wc -l <"$LOG" 2>/dev/null || echo 0)" -ge "$1" ] && return 0
		sleep 0.05
	done
	echo "the log has $(wc -l <"$LOG") lines, not $1" >&2
	return 1
}

@test "one audit line per run: the record's run id, verb, status, exit, times, memory, hashes and caller" {
	tool=$(fixture call_echo.py)
	run -0 "$TC" call --result "$TC_TMP/r.json" "$tool" <<<'{"secret": "hunter2-req"}'
	lines 1
	r=$TC_TMP/r.json
	want="toolcell\[[0-9]+\]: run_id=$(jget run_id "$r") verb=call status=ok exit=0 signal=- wall_ms=$(jget wall_ms "$r") cpu_ms=$(($(jget cpu_user_ms "$r") + $(jget cpu_system_ms "$r"))) memory_peak_bytes=[0-9a-z]+ policy_sha256=$(jget provenance.policy.sha256 "$r") tool_sha256=$(jget provenance.tool.sha256 "$r") caller_uid=$(id -u) caller_pid=$(jget caller_pid "$r")"
	line=$(cat "$LOG")
	[[ "$line" =~ ^\<86\>[A-Z][a-z][a-z]\ [\ 0-9][0-9]\ [0-9:]{8}\ $want$ ]] || {
		echo "got:  $line" >&2
		echo "want: $want" >&2
		return 1
	}
	[[ "$line" == *"toolcell[$(jget caller_pid "$r")]:"* ]]
	# nothing of the request or the tool's environment
	[[ "$line" != *hunter2* ]]
	[ "$(wc -l <"$LOG")" -eq 1 ]
}

@test "a run the limit ends and a refused run are logged too; secrets passed by --env are not" {
	# cgroup v2: SIGKILL at memory.max; rlimits: a MemoryError, exit 1
	run "$TC" python --env SECRET_TOKEN=s3cr3t-77 --memory 32M --result "$TC_TMP/r.json" \
		-c $'x = []\nwhile True: x.append(bytearray(1 << 20))'
	[ "$status" -ne 0 ]
	[ "$(jget status "$TC_TMP/r.json")" = memory_limit ]
	# above the policy's ceiling: refused after the site and policy are read
	run -125 "$TC" python --memory 1G -c 'print(1)'
	lines 2
	sed -n 1p "$LOG" | grep -Eq " run_id=$(jget run_id "$TC_TMP/r.json") verb=python status=memory_limit exit=(1|-) signal=(-|9) "
	sed -n 2p "$LOG" | grep -Eq ' verb=python status=rejected exit=- signal=- wall_ms=0 cpu_ms=0 memory_peak_bytes=unknown policy_sha256=- tool_sha256=- '
	! grep -q s3cr3t "$LOG"
}

@test "audit = off writes no line; the next run with it on writes exactly its own" {
	conf "audit_socket = $SOCK" "audit = off"
	run -0 "$TC" python -c 'print(1)'
	conf "audit_socket = $SOCK" "audit = on"
	run -0 "$TC" python --result "$TC_TMP/r.json" -c 'print(2)'
	lines 1
	sleep 0.2
	[ "$(wc -l <"$LOG")" -eq 1 ]
	grep -q " run_id=$(jget run_id "$TC_TMP/r.json") verb=python status=ok exit=0 " "$LOG"
}

@test "no logger at the socket's path: the run goes on as if nothing happened" {
	conf "audit_socket = $TC_TMP/nobody-listens.sock"
	run -0 "$TC" python -c 'print(3)'
	[ "$output" = 3 ]
}
