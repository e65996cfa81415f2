#!/bin/sh
# cgroup v2: a tool that leaves double-forked, setsid'd sleepers behind (out
# of its process group and session) loses them all when toolcell returns;
# the run's leaf is gone too.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

marker=tcvm-linger-$$
r=$TC_W/r.json
# sleepers: the marker is in their command line, where ps shows it
# (busybox has no pgrep)
sleepers() {
	# shellcheck disable=SC2009
	ps -o args | grep -c "[s]leep(600) $marker" || true
}

echo "\$ $TOOLCELL python --cgroup-parent $TC_CGROUP_PARENT ... (in the background)"
"$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" --timeout 20 --result "$r" -c "
import os, sys
for i in range(3):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', sys.argv[1]])
        os._exit(0)
    os.wait()
import time
time.sleep(3)" "$marker" >"$TC_W/stdout" 2>"$TC_W/stderr" &
pid=$!
# the sleepers exist while the tool runs (else this test proves nothing)
i=0
while [ "$(sleepers)" -lt 3 ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "$(sleepers)" 3 "sleepers running while the tool runs"
wait "$pid"
rc=$?
sed 's/^/  stderr| /' "$TC_W/stderr"
assert_eq "$rc" 0 "exit status"
assert_key "$r" status ok
assert_cgroup_record "$r"
assert_eq "$(sleepers)" 0 "sleepers left after toolcell returned"
# shellcheck disable=SC2009
ps -o pid,user,args | grep "[t]cvm-linger-$$" | sed 's/^/  survivor| /'
assert_no_leaves

tc_done
