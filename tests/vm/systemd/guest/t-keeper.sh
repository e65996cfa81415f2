#!/bin/sh
# The package's toolcell-cgroup.service (in toolcell.slice, Delegate=) is
# enabled and running after the install and holds the subtree
# production.json names; a sandbox runs in a leaf there; 'systemctl stop'
# of the service ends every process of the sandbox and leaves no leaf (nor
# the service's cgroup); toolcell itself returns (143: the stop's SIGTERM).
# Started again, it serves at once.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

unit=toolcell-cgroup.service
svc=/sys/fs/cgroup/toolcell.slice/$unit
runs=$svc/runs
policy=/usr/share/toolcell/policies/production.json
assert_eq "$(systemctl is-enabled $unit 2>&1)" enabled "$unit is enabled"
assert_eq "$(systemctl is-active $unit 2>&1)" active "$unit is active"
assert_eq "$(jget "$policy" cgroup_parent)" "$runs" "production.json's cgroup_parent"
for controller in memory pids cpu; do
	assert_match " $(cat "$runs/cgroup.subtree_control" 2>&1) " "* $controller *" \
		"$controller in $runs/cgroup.subtree_control"
done

# a sleeping sandbox with a mark of its own in its command line
mark=tcvm-keeper-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
r=$TC_W/r.json
echo "\$ toolcell run --policy production.json -- python3 -c 'sleep 9 # $mark' &"
"$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c \
	"import time; print('up', flush=True); time.sleep(9) # $mark" >"$TC_W/bg.out" 2>"$TC_W/bg.err" &
bg=$!
marked() { # the pids whose command line has the mark (read by the shell
	# itself: a grep for it would find its own)
	for f in /proc/[0-9]*/cmdline; do
		c=$(tr '\0' ' ' <"$f" 2>/dev/null) || continue
		case $c in
		*"$mark"*)
			f=${f#/proc/}
			echo "${f%/cmdline}"
			;;
		esac
	done
}
i=0
while [ "$(cat "$TC_W/bg.out")" != up ] && kill -0 "$bg" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "$(cat "$TC_W/bg.out")" up "the sandbox started"
leaf=$(for l in "$runs"/toolcell-run-*; do [ -d "$l" ] && echo "$l"; done)
assert_match "$leaf" "$runs/toolcell-run-*" "the run's leaf under $runs"
in_leaf=$(wc -l <"$leaf/cgroup.procs" 2>/dev/null)
assert_ge "$in_leaf" 1 "processes in the leaf"
pids=$(marked | tr '\n' ' ')
echo "  processes with the mark: $pids"
assert_ge "$(echo "$pids" | wc -w)" 1 "processes with the mark before the stop"

run systemctl stop $unit
assert_eq "$TC_RC" 0 "systemctl stop $unit: exit status"
# toolcell (outside the service) sees its sandbox end and returns
i=0
while kill -0 "$bg" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$bg" 2>/dev/null; then
	fail "toolcell still runs 30 s after the stop"
	kill -KILL "$bg"
fi
wait "$bg"
rc=$?
sed 's/^/  toolcell stderr| /' "$TC_W/bg.err"
echo "  toolcell exited $rc, record status $(jget "$r" status || echo '(none)')"
# systemd's stop sends SIGTERM to every process of the service's cgroup,
# the sandbox's included
assert_eq "$rc" 143 "toolcell's exit status (its tool ended by the stop's SIGTERM)"
assert_key "$r" status signaled
assert_eq "$(marked | tr '\n' ' ')" "" "processes with the mark after the stop"
assert_eq "$(ls -d "$runs"/toolcell-run-* 2>/dev/null)" "" "leaves under $runs after the stop"
assert_eq "$([ -d "$svc" ] && echo present || echo gone)" gone "$svc after the stop"
info "after systemctl stop: toolcell exit $rc, status $(jget "$r" status || echo '(none)'), no process, no leaf"

# and it serves again once started
run systemctl start $unit
assert_eq "$TC_RC" 0 "systemctl start $unit: exit status"
run "$TOOLCELL" run --policy "$policy" --result "$r" -- /usr/bin/python3 -c 'print(6 * 7)'
assert_eq "$TC_OUT" 42 "a run after the restart"
assert_key "$r" limits.memory.enforced_by cgroup2

tc_done
