#!/bin/sh
# policies/production.json, as installed, runs with its limits enforced by
# cgroup v2: memory, pids and CPU in a toolcell-run-* leaf under the
# delegated scope toolcell runs in, the controllers enabled there, and no
# leaf left when toolcell returns.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"
# shellcheck source=tests/vm/systemd/guest/sd.sh
. "${0%/*}/sd.sh"

policy=/usr/share/toolcell/policies/production.json
r=$TC_W/r.json
run in_scope root tcvm-production "$TOOLCELL" run --policy "$policy" --result "$r" \
	-- /usr/bin/python3 -c 'print(6 * 7)'
assert_eq "$TC_RC" 0 "exit status"
assert_eq "$TC_OUT" 42 stdout
assert_key "$r" status ok
scope=$(cat "$TC_W/scope.path")
for limit in memory pids cpus; do
	assert_key "$r" "limits.$limit.enforced_by" cgroup2
done
assert_key "$r" limits.memory.value $((128 * 1024 * 1024))
assert_key "$r" limits.pids.value 32
assert_match "$(jget "$r" isolation.cgroup)" "*/system.slice/tcvm-production.scope/toolcell-run-*" \
	isolation.cgroup
for controller in memory pids cpu; do
	assert_match " $(cat "$TC_W/scope.subtree_control") " "* $controller *" \
		"$controller in $scope/cgroup.subtree_control"
done
assert_eq "$(scope_leaves)" "" "toolcell-run-* leaves left in $scope"
# every limit and what enforces it, for the log
tc_python -c 'import json, sys
for k, v in json.load(open(sys.argv[1]))["limits"].items():
    print(k, v.get("enforced_by"))' "$r" | tr '\n' ' ' | sed 's/^/limits: /' >>"$TC_INFO"
echo >>"$TC_INFO"

tc_done
