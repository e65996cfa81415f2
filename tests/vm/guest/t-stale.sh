#!/bin/sh
# cgroup v2: a toolcell killed with SIGKILL cannot remove its leaf; the next
# run removes it once it is empty.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

assert_no_leaves
echo "\$ $TOOLCELL python --cgroup-parent $TC_CGROUP_PARENT -c 'sleep 30' & (then SIGKILL)"
"$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --timeout 20 \
	-c 'import time; time.sleep(30)' &
pid=$!
i=0
leaf=
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
	leaf=$(leaves | head -n 1)
	[ -n "$leaf" ] && [ "$(populated "$leaf")" = 1 ] && break
	sleep 0.1
	i=$((i + 1))
done
assert_match "$leaf" "$TC_CGROUP_PARENT/toolcell-run-*" "the run's leaf, populated"
kill -KILL "$pid" 2>/dev/null
wait "$pid"
if [ -n "$leaf" ]; then
	assert_eq "$([ -d "$leaf" ] && echo kept)" kept "$leaf after SIGKILL"
	# the sandbox should not outlive toolcell; if it does, end it here so
	# that the leaf can be removed
	i=0
	while [ "$(populated "$leaf")" = 1 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ "$(populated "$leaf")" = 1 ]; then
		info "the sandbox outlived toolcell's SIGKILL by 5 s: $(tr '\n' ' ' <"$leaf/cgroup.procs")"
		echo 1 >"$leaf/cgroup.kill"
		sleep 1
	fi
fi

r=$TC_W/r.json
run "$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --result "$r" -c 'pass'
assert_eq "$TC_RC" 0 "next run: exit status"
assert_key "$r" status ok
assert_cgroup_record "$r"
assert_eq "$([ -n "$leaf" ] && [ -d "$leaf" ] && echo kept)" "" "the stale leaf after the next run"
assert_no_leaves

tc_done
