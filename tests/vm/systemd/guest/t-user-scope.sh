#!/bin/sh
# An unprivileged user gets cgroup v2 limits from its own systemd: with its
# user manager running (linger), 'systemd-run --user --scope -p Delegate=yes'
# gives it a scope it owns, and toolcell run there makes its leaf under it:
# a memory bomb under --memory 64M ends memory_limit (not inferred), every
# cgroup limit says cgroup2, and no leaf is left.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"
# shellcheck source=tests/vm/systemd/guest/sd.sh
. "${0%/*}/sd.sh"

if user_manager; then
	pass "user@$TC_USER_UID.service is active with its bus"
else
	fail "user@$TC_USER_UID.service did not come up"
	tc_done
fi
chown "$TC_USER" "$TC_W"
r=$TC_W/r.json
run in_scope "$TC_USER" tcvm-user "$TOOLCELL" python --memory 64M --timeout 20 --result "$r" \
	-c "$MEMORY_BOMB"
assert_oom_killed "$r"
for limit in memory pids cpus; do
	assert_key "$r" "limits.$limit.enforced_by" cgroup2
done
assert_match "$(jget "$r" isolation.cgroup)" \
	"*/user.slice/user-$TC_USER_UID.slice/user@$TC_USER_UID.service/*/tcvm-user.scope/toolcell-run-*" \
	isolation.cgroup
assert_ge "$(cg_value "$TC_W/scope.memory.events" oom_kill)" 1 "the scope's memory.events oom_kill"
assert_eq "$(scope_leaves)" "" "toolcell-run-* leaves left in the scope"
info "user scope: $(cat "$TC_W/scope.path"), leaf $(jget "$r" isolation.cgroup)"

tc_done
