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
if [ "$TC_RUN_AS" = root ]; then
	tc_python -c 'import os, sys; os.removexattr(sys.argv[1], "trusted.delegate")' \
		"$TC_CGROUP_PARENT"
	# root owns every cgroup: only systemd's mark (Delegate=yes sets
	# trusted.delegate) makes a parent its to use. Unmarked: rlimits, and
	# nothing made under it.
	# shellcheck disable=SC2016 # expanded by the inner sh
	run sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" python --result "$3" -c "print(6*7)"' \
		sh "$shell" "$TOOLCELL" "$r"
	assert_eq "$TC_RC" 0 "unmarked: exit status"
	assert_key "$r" limits.memory.enforced_by rlimit
	assert_no_leaves
	tc_python -c 'import os, sys; os.setxattr(sys.argv[1], "trusted.delegate", b"1")' \
		"$TC_CGROUP_PARENT"
fi
# shellcheck disable=SC2016 # expanded by the inner sh
run sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" python --result "$3" -c "print(6*7)"' \
	sh "$shell" "$TOOLCELL" "$r"
assert_eq "$TC_RC" 0 "exit status"
assert_eq "$TC_OUT" 42 stdout
assert_key "$r" status ok
assert_cgroup_record "$r"
assert_no_leaves
if [ "$TC_RUN_AS" = root ]; then
	echo $$ >/sys/fs/cgroup/cgroup.procs
fi
[ -z "$made" ] || rmdir "$shell"

tc_done
