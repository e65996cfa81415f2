#!/bin/sh
# cgroup v2: a CPU spinner under --cpus 0.2 --timeout 2 gets about 0.2 CPU
# for 2 s, 400 ms of CPU (cpu.max), give or take 30 % for the emulated
# guest's jitter, and ends as a timeout.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

r=$TC_W/r.json
run "$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --cpus 0.2 --timeout 2 \
	--result "$r" -c '
while True:
    pass'
assert_eq "$TC_RC" 124 "exit status (a time limit)"
assert_key "$r" status timeout
assert_cgroup_record "$r"
assert_key "$r" limits.cpus.value 0.2
user=$(jget "$r" cpu_user_ms)
system=$(jget "$r" cpu_system_ms)
if is_int "$user" && is_int "$system"; then
	assert_near $((user + system)) 400 30 "cpu_user_ms + cpu_system_ms"
else
	fail "cpu_user_ms, cpu_system_ms: expected integers, got '$user', '$system'"
fi
assert_no_leaves
info "cpu_user_ms $user, cpu_system_ms $system, wall $(jget "$r" wall_ms) ms"

tc_done
