#!/bin/sh
# A memory bomb under production.json (128M) ends memory_limit from the
# kernel's word: the leaf's memory.events oom_kill (status_inferred false),
# SIGKILL, exit 137; the hierarchical memory.events of the service's "runs"
# counts the kill; no leaf is left.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

policy=/usr/share/toolcell/policies/production.json
runs=/sys/fs/cgroup/toolcell.slice/toolcell-cgroup.service/runs
kills_before=$(cg_value "$runs/memory.events" oom_kill)
r=$TC_W/r.json
run "$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c "$MEMORY_BOMB"
assert_oom_killed "$r"
assert_key "$r" limits.memory.enforced_by cgroup2
assert_ge "$(jget "$r" oom_kills)" 1 oom_kills
assert_ge "$(jget "$r" memory_peak_bytes)" $((128 * 1024 * 1024 * 9 / 10)) "memory_peak_bytes (90 % of 128M)"
assert_ge $(($(cg_value "$runs/memory.events" oom_kill) - kills_before)) 1 \
	"oom_kill in $runs/memory.events, since before the run"
assert_eq "$(ls -d "$runs"/toolcell-run-* 2>/dev/null)" "" "leaves left under $runs"
info "memory_peak_bytes $(jget "$r" memory_peak_bytes), oom_kills $(jget "$r" oom_kills)"

tc_done
