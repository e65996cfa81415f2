#!/bin/sh
# Every run leaves one audit line in the system log, which journald keeps:
# identifier toolcell, facility authpriv, the record's run_id, the verb, the
# status and exit, the caller's uid; a memory bomb's line says
# memory_limit and signal 9.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

policy=/usr/share/toolcell/policies/production.json
# audit_line RUN_ID: the journal's line for that run (journald takes the
# datagram asynchronously: up to 30 s)
audit_line() {
	i=0
	while [ $i -lt 60 ]; do
		line=$(journalctl --no-pager -q -o cat -t toolcell SYSLOG_FACILITY=10 | grep -F "run_id=$1 ")
		if [ -n "$line" ]; then
			echo "$line"
			return 0
		fi
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

r=$TC_W/r.json
run "$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c 'print(6 * 7)'
assert_eq "$TC_OUT" 42 stdout
id=$(jget "$r" run_id)
assert_match "$id" "????????-????-4???-????-????????????" "the record's run_id (a UUID v4)"
line=$(audit_line "$id")
echo "  journal| $line"
assert_eq "$(printf '%s\n' "$line" | grep -c .)" 1 "audit lines for run_id $id"
assert_match "$line" "run_id=$id verb=run status=ok exit=0 signal=- *" "the line's run, verb, status, exit"
assert_match "$line" "* caller_uid=0 *" "the line's caller_uid"
assert_match "$line" "* policy_sha256=$(sha256sum <"$policy" | cut -d' ' -f1) *" "the line's policy_sha256"

run "$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c '
b = []
while True:
    b.append(bytearray(b"x") * (1 << 20))'
assert_eq "$TC_RC" 137 "the memory bomb: exit status"
id=$(jget "$r" run_id)
line=$(audit_line "$id")
echo "  journal| $line"
assert_match "$line" "run_id=$id verb=run status=memory_limit exit=- signal=9 *" "the bomb's line"
info "audit line: $line"

tc_done
