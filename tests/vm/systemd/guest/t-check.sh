#!/bin/sh
# 'toolcell check' after the package's install, on a systemd host with
# cgroup v2, called from an ordinary service (tcvm.service, whose cgroup is
# not delegated): with production.json, which requires cgroup v2, the
# subtree of toolcell-cgroup.service is the delegated parent with memory,
# pids and cpu, the sandbox runs, the requirements are met: exit 0; with
# default.json too (it needs no cgroup v2 and runs anywhere).
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

policies=/usr/share/toolcell/policies
runs=/sys/fs/cgroup/toolcell.slice/toolcell-cgroup.service/runs
run "$TOOLCELL" check --policy "$policies/production.json"
sed 's/^/  stdout| /' "$TC_W/stdout"
assert_eq "$TC_RC" 0 "check --policy production.json: exit status"
assert_match "$TC_OUT" "*cgroup2 mount: /sys/fs/cgroup
*" "the cgroup2 mount line (pure cgroup v2)"
assert_match "$TC_OUT" "*cgroup delegation: $runs (memory, pids and cpu limits by cgroup v2*" \
	"the delegation line names toolcell-cgroup.service's subtree"
assert_match "$TC_OUT" "*sandbox: ok*" "the sandbox line"
assert_match "$TC_OUT" "*policy requirements: met*" "the requirements line"
assert_match "$TC_OUT" "*verdict: $policies/production.json can run here*" "the verdict"
case $TC_OUT in
*STALE* | *FAIL* | *missing*) fail "a line says STALE, FAIL or missing" ;;
*) pass "no line says STALE, FAIL or missing" ;;
esac
grep -E '^(cgroup|landlock|seccomp|rootfs)' "$TC_W/stdout" | while IFS= read -r line; do
	info "$line"
done

run "$TOOLCELL" check
assert_eq "$TC_RC" 0 "check (default.json): exit status"
assert_match "$TC_OUT" "*sandbox: ok*" "default.json: the sandbox line"

tc_done
