#!/bin/sh
# cgroup v2 through `toolcell serve`: an entry moves, once its warm-up is
# done, from its warm leaf into its call's own leaf (the warm one removed),
# so the call's limits and figures leave the warm-up out: a call that
# allocates nothing reports a memory.peak well below what the warm-up took
# (3 MiB at most, the warm-up 4.6 to 6.7 MiB); a call's
# own limits.memory, lower than the policy's, is the new leaf's memory.max
# (the bomb ends memory_limit by the kernel's OOM killer, at that limit); the
# policy's pids limit holds in the new leaf; no leaf is left after a call
# (removed just after its answer) or after the drain; and after SIGKILL of
# the server no sandbox process stays,
# and the next run removes the leaves it could not.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

sock=$TC_W/s.sock
pol=$TC_W/serve.json
mib=$((1024 * 1024))

# the default policy with a small memory and pids limit (quick bombs under
# emulation) and this user's delegated parent
tc_python -c 'import json, sys
p = json.load(open(sys.argv[1]))
p["limits"].update(memory="96M", pids=16)
p["cgroup_parent"] = sys.argv[2]
json.dump(p, open(sys.argv[3], "w"))' "${TOOLCELL%/*}/policies/default.json" "$TC_CGROUP_PARENT" "$pol"

# ready_one: true once the stats show one ready entry (within 240 s)
ready_one() {
	i=0
	while [ $i -lt 480 ]; do
		serve_ask '{"id":0,"kind":"stats"}' && [ "$(jget "$TC_W/answer" pools.0.ready)" = 1 ] &&
			return 0
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

start_server() {
	echo "\$ $TOOLCELL serve --socket $sock --pool 1 --policy $pol &"
	"$TOOLCELL" serve --socket "$sock" --pool 1 --policy "$pol" 2>>"$TC_W/serve.err" &
	server=$!
	ready_one
	assert_eq "$?" 0 "one entry ready"
}

# moved: true once the only leaf is an entry's second, toolcell-run-PID-1
# (within 60 s): the ready entry left its warm leaf (PID-0) for its call's
# own before any call came, off the call's path
moved() {
	i=0
	while [ $i -lt 600 ]; do
		case $(leaves) in *-1) return 0 ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# served NAME SOURCE [LIMITS-JSON]: one call on the ready entry, once it
# moved into its call's leaf; the answer in $TC_W/NAME
served() {
	name=$1
	shift
	moved
	assert_eq "$?" 0 "$name: the ready entry in its call's leaf before the call ($(leaves | tr '\n' ' '))"
	call_leaf=$(leaves)
	serve_ask "$(serve_request exec "$@")"
	cp "$TC_W/answer" "$TC_W/$name"
	sed -n '1,20s/^/  answer| /p' "$TC_W/$name" | cut -c 1-400
	leaf=$(jget "$TC_W/$name" record.isolation.cgroup)
	assert_match "$leaf" "*${TC_CGROUP_PARENT#/sys/fs/cgroup}/toolcell-run-*-1" "$name: its leaf"
	assert_eq "${leaf##*/}" "${call_leaf##*/}" "$name: the leaf the entry moved into"
	at_answer=$([ -d "$call_leaf" ] && echo present || echo gone)
	assert_eq "$(leaf_gone "$call_leaf")" gone "$name: its leaf after the answer"
	assert_key "$TC_W/$name" record.limits.memory.enforced_by cgroup2
	assert_key "$TC_W/$name" record.limits.pids.enforced_by cgroup2
	ready_one
}

assert_no_leaves
rm -f "$TC_W/serve.err"
start_server

# a call that allocates nothing: its peak is its own, well below the warm-up's
served idle 'print(6 * 7)'
assert_eq "$(jget "$TC_W/idle" stdout)" '42\n' "idle: stdout"
assert_key "$TC_W/idle" record.status ok
idle_peak=$(jget "$TC_W/idle" record.memory_peak_bytes)
# the warm-up's own is 4.6 to 6.7 MiB (the interpreter, the harness, the
# default preimports), which a call's peak would include without the move;
# 3 MiB, not 1: the Debian guest once saw 2.25 MiB (systemd/guest/t-serve.sh)
assert_le "$idle_peak" $((3 * mib)) "idle: memory_peak_bytes (3 MiB at most)"
assert_match "$(jget "$TC_W/idle" record.unknown.warm_up)" \
	"memory_peak_bytes, oom_kills, pids_peak and the CPU figures are the call's own cgroup leaf's*" \
	"idle: unknown.warm_up"
info "serve ($(uname -r)): an idle call's memory_peak_bytes $idle_peak, cpu $(jget "$TC_W/idle" record.cpu_user_ms)+$(jget "$TC_W/idle" record.cpu_system_ms) ms, its leaf $at_answer when the answer came"

# limits.memory 32M under the policy's 96M: the call's leaf's memory.max
served bomb "$MEMORY_BOMB" '{"memory": "32M"}'
assert_key "$TC_W/bomb" record.status memory_limit
assert_key "$TC_W/bomb" record.status_inferred false
assert_key "$TC_W/bomb" record.signal_name SIGKILL
assert_key "$TC_W/bomb" record.limits.memory.value $((32 * mib))
assert_ge "$(jget "$TC_W/bomb" record.oom_kills)" 1 "bomb: oom_kills"
assert_ge "$(jget "$TC_W/bomb" record.memory_peak_bytes)" $((32 * mib * 9 / 10)) \
	"bomb: memory_peak_bytes (90 % of 32M)"
assert_le "$(jget "$TC_W/bomb" record.memory_peak_bytes)" $((32 * mib)) \
	"bomb: memory_peak_bytes (at most 32M)"
info "serve: a bomb under limits.memory 32M: memory_peak_bytes $(jget "$TC_W/bomb" record.memory_peak_bytes), oom_kills $(jget "$TC_W/bomb" record.oom_kills)"

# the policy's pids limit (16) in the call's leaf
served forks 'import os, time
end = time.monotonic() + 3
while time.monotonic() < end:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)'
assert_key "$TC_W/forks" record.status pids_limit
assert_key "$TC_W/forks" record.status_inferred false
assert_key "$TC_W/forks" record.limits.pids.value 16
if [ -f "$TC_CGROUP_PARENT/pids.peak" ]; then
	assert_key "$TC_W/forks" record.pids_peak 16
fi

# the drain: nothing left
kill -TERM "$server"
wait "$server"
assert_eq "$?" 0 "the server's exit status after SIGTERM"
assert_no_leaves

# SIGKILL of the server during a call: no sandbox process is left, and the
# leaves it could not remove go at the next run
mark=tcvm-serve-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
start_server
req=$(serve_request exec "import subprocess, time
subprocess.Popen(['/usr/bin/python3', '-c', 'import time; time.sleep(60)', '$mark'])
time.sleep(60)")
serve_ask_marked "$req"
kill -KILL "$server"
wait "$client"
wait_unmarked
assert_eq "$(marked | tr '\n' ' ')" "" "processes with the mark after the server's SIGKILL"
for l in $(leaves); do
	assert_eq "$(populated_after "$l")" 0 "$l: empty"
	while read -r p; do
		echo "      left in $l: $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done <"$l/cgroup.procs"
done
run "$TOOLCELL" python --cgroup-parent "$TC_CGROUP_PARENT" -c pass
assert_eq "$TC_RC" 0 "the next run"
assert_no_leaves
sed -n '1,20s/^/  serve| /p' "$TC_W/serve.err"

tc_done
