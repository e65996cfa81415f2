#!/bin/sh
# 'toolcell check' on a systemd host with cgroup v2, run where toolcell's own
# cgroup sits in a delegated scope: exit 0, the unified hierarchy at
# /sys/fs/cgroup, a delegated parent with memory, pids and cpu, the sandbox
# runs; and production.json (which requires cgroup v2) can run there.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"
# shellcheck source=tests/vm/systemd/guest/sd.sh
. "${0%/*}/sd.sh"

policies=/usr/share/toolcell/policies
for policy in default production; do
	run in_scope root "tcvm-check-$policy" "$TOOLCELL" check --policy "$policies/$policy.json"
	sed 's/^/  stdout| /' "$TC_W/stdout"
	assert_eq "$TC_RC" 0 "check --policy $policy.json: exit status"
	assert_match "$TC_OUT" "*cgroup2 mount: /sys/fs/cgroup
*" "$policy: the cgroup2 mount line (pure cgroup v2)"
	assert_match "$TC_OUT" "*cgroup delegation: */system.slice/tcvm-check-$policy.scope*" \
		"$policy: the delegation line names the scope"
	assert_match "$TC_OUT" "*sandbox: ok*" "$policy: the sandbox line"
	assert_match "$TC_OUT" "*verdict: $policies/$policy.json can run here*" "$policy: the verdict"
	case $TC_OUT in
	*"policy requirements: met"*) pass "$policy: policy requirements met" ;;
	*) fail "$policy: no 'policy requirements: met' line" ;;
	esac
done
grep -E '^(cgroup|landlock|seccomp)' "$TC_W/stdout" | while IFS= read -r line; do
	info "$line"
done

tc_done
