#!/bin/sh
# The rig's own check, independent of cgroup v2 support in toolcell: the
# binary runs in the guest, 'check' reports, and a sandboxed python3 prints
# 42 with an "ok" record under the default policy.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

run "$TOOLCELL" version
assert_eq "$TC_RC" 0 "version: exit status"
assert_match "$TC_OUT" "toolcell *" "version"
info "$TC_OUT"

run "$TOOLCELL" check
sed 's/^/  stdout| /' "$TC_W/stdout"
assert_eq "$TC_RC" 0 "check: exit status"
assert_match "$TC_OUT" "*user namespaces:*" "check: a user namespaces line"
assert_match "$TC_OUT" "*cgroup2 mount: /sys/fs/cgroup*" "check: the cgroup2 mount line"
assert_match "$TC_OUT" "*cgroup delegation: *" "check: the delegation line"
assert_match "$TC_OUT" "*landlock:*" "check: a landlock line"
assert_match "$TC_OUT" "*sandbox: ok*" "check: the sandbox line"
# the host shows these lines as facts about the guest
grep -E '^(landlock|cgroup2|sandbox):' "$TC_W/stdout" | while IFS= read -r line; do
	info "check: $line"
done

run "$TOOLCELL" python --result "$TC_W/r.json" -c 'print(6*7)'
assert_eq "$TC_RC" 0 "python: exit status"
assert_eq "$TC_OUT" 42 "python: stdout"
assert_key "$TC_W/r.json" status ok
assert_key "$TC_W/r.json" exit_code 0
assert_key "$TC_W/r.json" isolation.uid_inside 1000
info "python: status $(jget "$TC_W/r.json" status), wall $(jget "$TC_W/r.json" wall_ms) ms, limits.memory by $(jget "$TC_W/r.json" limits.memory.enforced_by)"

tc_done
