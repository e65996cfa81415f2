#!/bin/sh
# cgroup v2: without --cgroup-parent, toolcell uses the parent of its own
# cgroup when that is delegated to it. The run starts in the leaf "shell"
# under TC_CGROUP_PARENT (the user's runs are there already; root's start in
# the root cgroup, so one is made for the test and removed after).
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

shell=$TC_CGROUP_PARENT/shell
made=
if [ ! -d "$shell" ]; then
	mkdir "$shell" && made=1
fi
r=$TC_W/r.json
# shellcheck disable=SC2016 # expanded by the inner sh
run sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" python --result "$3" -c "print(6*7)"' \
	sh "$shell" "$TOOLCELL" "$r"
assert_eq "$TC_RC" 0 "exit status"
assert_eq "$TC_OUT" 42 stdout
assert_key "$r" status ok
assert_cgroup_record "$r"
assert_no_leaves
[ -z "$made" ] || rmdir "$shell"

tc_done
