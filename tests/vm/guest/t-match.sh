#!/bin/sh
# cgroup v2: the record's figures are the cgroup's. The parent's
# hierarchical memory.events oom_kill and cpu.stat usage_usec, read before
# and after one run, move by what the record says: oom_kills exactly, CPU
# within 10 % (20 ms at least). Runs are one at a time; as root toolcell
# itself runs in the root cgroup, as the user in the sibling leaf "shell",
# whose own CPU is taken out.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

P=$TC_CGROUP_PARENT

# counter KEY FILE: P's KEY in FILE, less that of P's children that are
# not toolcell's (they exist before and after the run alike); the children
# first, so that the test's own work between the reads (as the user, in
# "shell") lands on the run's side only in small part
counter() {
	v=0
	for c in "$P"/*/; do
		c=${c%/}
		case $c in */toolcell-run-*) continue ;; esac
		[ -f "$c/$2" ] && v=$((v - $(cg_value "$c/$2" "$1")))
	done
	echo $((v + $(cg_value "$P/$2" "$1")))
}

r=$TC_W/r.json
oom0=$(counter oom_kill memory.events)
use0=$(counter usage_usec cpu.stat)
run "$TOOLCELL" python --cgroup-parent "$P" --memory 32M --timeout 20 --result "$r" -c '
import time
t = time.process_time()
while time.process_time() - t < 0.3:
    pass
b = []
while True:
    b.append(bytearray(b"x") * (1 << 20))'
oom1=$(counter oom_kill memory.events)
use1=$(counter usage_usec cpu.stat)
echo "  $P: oom_kill $oom0 -> $oom1, usage_usec $use0 -> $use1"

assert_key "$r" status memory_limit
assert_cgroup_record "$r"
assert_ge $((oom1 - oom0)) 1 "oom_kill counted in $P"
assert_key "$r" oom_kills $((oom1 - oom0))
user=$(jget "$r" cpu_user_ms)
system=$(jget "$r" cpu_system_ms)
if is_int "$user" && is_int "$system"; then
	# 10 %, at least 20 ms: the user's reads cost CPU in "shell" too
	want=$(((use1 - use0) / 1000))
	slack=$((want / 10))
	[ "$slack" -ge 20 ] || slack=20
	assert_within $((user + system)) "$want" "$slack" \
		"cpu_user_ms + cpu_system_ms against usage_usec's change"
else
	fail "cpu_user_ms, cpu_system_ms: expected integers, got '$user', '$system'"
fi
info "usage_usec +$((use1 - use0)), record cpu ${user}+${system} ms; oom_kill +$((oom1 - oom0)), record $(jget "$r" oom_kills)"

tc_done
