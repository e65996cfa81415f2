#!/bin/sh
# policies/production.json, as installed, runs from an ordinary service with
# its limits enforced by cgroup v2 in the subtree toolcell-cgroup.service
# delegates: memory, pids and CPU in a toolcell-run-* leaf under its "runs",
# with the policy's values, and no leaf left when toolcell returns.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

policy=/usr/share/toolcell/policies/production.json
runs=/sys/fs/cgroup/toolcell.slice/toolcell-cgroup.service/runs
r=$TC_W/r.json
run "$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c 'print(6 * 7)'
assert_eq "$TC_RC" 0 "exit status"
assert_eq "$TC_OUT" 42 stdout
assert_key "$r" status ok
for limit in memory pids cpus; do
	assert_key "$r" "limits.$limit.enforced_by" cgroup2
done
assert_key "$r" limits.memory.value $((128 * 1024 * 1024))
assert_key "$r" limits.pids.value 32
assert_match "$(jget "$r" isolation.cgroup)" "*/toolcell.slice/toolcell-cgroup.service/runs/toolcell-run-*" \
	isolation.cgroup
assert_eq "$(ls -d "$runs"/toolcell-run-* 2>/dev/null)" "" "leaves left under $runs"
# every limit and what enforces it, for the log
tc_python -c 'import json, sys
for k, v in json.load(open(sys.argv[1]))["limits"].items():
    print(k, v.get("enforced_by"))' "$r" | tr '\n' ' ' | sed 's/^/limits: /' >>"$TC_INFO"
echo >>"$TC_INFO"

tc_done
