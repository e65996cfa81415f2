#!/bin/sh
# cgroup v2: a memory bomb under --memory 64M is OOM-killed by memory.max
# (the kernel's fact, not an inference): status memory_limit, an oom_kill
# counted, a peak at the limit, SIGKILL; and the run's leaf is gone after.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

limit=$((64 * 1024 * 1024))
r=$TC_W/r.json
run "$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --memory 64M --timeout 20 \
	--result "$r" -c "$MEMORY_BOMB"
assert_oom_killed "$r"
assert_key "$r" isolation.cgroup_swap_max 0
assert_cgroup_record "$r"
assert_key "$r" limits.memory.value "$limit"
assert_ge "$(jget "$r" oom_kills)" 1 oom_kills
assert_ge "$(jget "$r" memory_peak_bytes)" $((limit * 9 / 10)) "memory_peak_bytes (90 % of the limit)"
assert_le "$(jget "$r" memory_peak_bytes)" "$limit" "memory_peak_bytes (the limit)"
assert_no_leaves
info "memory_peak_bytes $(jget "$r" memory_peak_bytes), oom_kills $(jget "$r" oom_kills)"

tc_done
