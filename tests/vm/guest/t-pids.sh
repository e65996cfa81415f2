#!/bin/sh
# cgroup v2: a fork bomb under --pids 16 hits pids.max: status pids_limit,
# from the kernel's pids.events, not inferred. The bomb stops by itself
# after 3 s, so the status cannot come from a timeout.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

r=$TC_W/r.json
run "$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --pids 16 --timeout 20 \
	--result "$r" -c '
import os, time
end = time.monotonic() + 3
while time.monotonic() < end:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)'
assert_key "$r" status pids_limit
assert_key "$r" status_inferred false
assert_cgroup_record "$r"
assert_key "$r" limits.pids.value 16
if [ -f "$TC_CGROUP_PARENT/pids.peak" ]; then
	# this kernel has pids.peak: the peak is the kernel's, and the bomb
	# reached the limit
	assert_key "$r" pids_peak 16
else
	assert_le "$(jget "$r" pids_peak || echo 0)" 16 pids_peak
fi
assert_no_leaves
info "exit status $TC_RC, pids_peak $(jget "$r" pids_peak), wall $(jget "$r" wall_ms) ms"

tc_done
