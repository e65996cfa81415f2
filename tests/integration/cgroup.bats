#!/usr/bin/env bats
# cgroup v2 on a host without a delegated subtree (these development and CI
# hosts: a v1/v2 hybrid whose memory, pids and cpu belong to v1): toolcell
# finds no usable subtree, writes nothing under /sys/fs/cgroup, falls back
# to rlimits and says so. The cgroup v2 path itself is proved in a guest
# kernel (tests/vm/).

load helpers

setup() {
	tc_setup
	"$TOOLCELL" check >"$TC_TMP/check" 2>&1 || true
	if ! grep -q '^cgroup delegation: none: ' "$TC_TMP/check"; then
		tc_skip "this host delegates a cgroup v2 subtree: $(grep '^cgroup delegation' "$TC_TMP/check")"
	fi
}

teardown() {
	tc_teardown
}

@test "no delegated subtree: check says so, one line, and why" {
	run grep -c '^cgroup delegation: ' "$TC_TMP/check"
	[ "$output" = 1 ]
	grep -Eq '^cgroup delegation: none: .+; limits fall back to rlimits$' "$TC_TMP/check"
	grep -Eq '^cgroup2 mount: ' "$TC_TMP/check"
	grep -Eq '^proc mount: ok$' "$TC_TMP/check"
}

@test "no delegated subtree: toolcell writes nothing under /sys/fs/cgroup" {
	command -v strace >/dev/null || tc_skip "strace is not installed"
	# (LeakSanitizer cannot run under ptrace: an ASan build skips it here)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" strace -f -qq -y -o "$TC_TMP/trace" \
		-e trace=statfs,open,openat,openat2,creat,mkdir,mkdirat,rmdir,unlink,unlinkat,rename,renameat,renameat2,truncate,ftruncate,write,chown,fchown,fchownat,chmod,fchmodat,setxattr,fsetxattr \
		"$TOOLCELL" python -c 'print(1)' >"$TC_TMP/out"
	[ "$(cat "$TC_TMP/out")" = 1 ]
	# it did look (read-only)...
	grep -q '/sys/fs/cgroup' "$TC_TMP/trace"
	# ...and every call that touched the cgroup tree only read
	run grep '/sys/fs/cgroup' "$TC_TMP/trace"
	bad=$(printf '%s\n' "$output" | grep -Ev '^[0-9]+ +(openat|open)\(.*O_RDONLY[|,)]' | grep -Ev '^[0-9]+ +(read|close|statfs)\(' || true)
	[ -z "$bad" ] || {
		echo "wrote under /sys/fs/cgroup: $bad" >&2
		false
	}
	run grep -E '/sys/fs/cgroup[^"]*"?, (O_WRONLY|O_RDWR)' "$TC_TMP/trace"
	[ "$status" -eq 1 ]
	run grep -E '^[0-9]+ +(mkdir|mkdirat|rmdir|unlinkat|write)\([^)]*/sys/fs/cgroup' "$TC_TMP/trace"
	[ "$status" -eq 1 ]
}

@test "no delegated subtree: the record says rlimit and null, and why oom_kills is unknown" {
	"$TOOLCELL" python --result "$TC_TMP/r.json" -c 'pass'
	[ "$(jget limits.memory.enforced_by "$TC_TMP/r.json")" = rlimit ]
	[ "$(jget limits.pids.enforced_by "$TC_TMP/r.json")" = rlimit ]
	[ "$(jget limits.cpus.enforced_by "$TC_TMP/r.json")" = none ]
	[ "$(jget isolation.cgroup "$TC_TMP/r.json")" = null ]
	[ "$(jget oom_kills "$TC_TMP/r.json")" = null ]
	reason=$(jget unknown.oom_kills "$TC_TMP/r.json")
	[[ "$reason" == "needs cgroup v2 (memory.events): "* ]]
	[ "$reason" = "needs cgroup v2 (memory.events): $(sed -n 's/^cgroup delegation: none: \(.*\); limits fall back to rlimits$/\1/p' "$TC_TMP/check")" ]
}

@test "a policy that requires cgroup v2 is refused with 125 and how to delegate" {
	run "$TOOLCELL" python --policy "$TC_BUILD/policies/production.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	# production.json's cgroup_parent: toolcell-cgroup.service's subtree, absent here
	[[ "$output" == "toolcell: $TC_BUILD/policies/production.json requires cgroup v2 limits in its cgroup_parent: --cgroup-parent /sys/fs/cgroup/toolcell.slice/toolcell-cgroup.service/runs: cannot open it: "* ]]
	[[ "$output" == *"systemctl enable --now toolcell-cgroup.service"* ]]
	[[ "$output" == *"Delegate=yes"* ]]
	[[ "$output" == *"--cgroup-parent"* ]]
	[[ "$output" != *1 ]]
	run "$TOOLCELL" check --policy "$TC_BUILD/policies/production.json"
	[ "$status" -eq 125 ]
	[[ "$output" == *"policy requirements: NOT MET: "* ]]
	[[ "$output" == *"sandbox: not tried (see above)"* ]]
	[[ "$output" == *"verdict: $TC_BUILD/policies/production.json cannot run here" ]]
}

@test "--cgroup-parent: not a cgroup v2 directory, the hierarchy's root, or missing: 125 with the cause" {
	run "$TOOLCELL" python --cgroup-parent "$TC_TMP" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --cgroup-parent $TC_TMP: not in a cgroup v2 hierarchy" ]
	mnt=$(sed -n 's/^cgroup2 mount: \([^ ]*\).*/\1/p' "$TC_TMP/check")
	[ -n "$mnt" ] && [ "$mnt" != none ]
	run "$TOOLCELL" python --cgroup-parent "$mnt" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --cgroup-parent $mnt: the root of the hierarchy; toolcell never writes there: name a cgroup below it" ]
	run "$TOOLCELL" python --cgroup-parent "$mnt/no-such-cgroup" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --cgroup-parent $mnt/no-such-cgroup: cannot open it: No such file or directory" ]
	run "$TOOLCELL" python --cgroup-parent relative/dir -c 'print(1)'
	[ "$status" -eq 125 ]
	[[ "$output" == *"relative/dir"* ]]
	# check reports the same and refuses
	run "$TOOLCELL" check --cgroup-parent "$mnt"
	[ "$status" -eq 125 ]
	[[ "$output" == *"cgroup delegation: unusable: --cgroup-parent $mnt: the root of the hierarchy"* ]]
}

@test "TOOLCELL_CGROUP_PARENT is --cgroup-parent for toolcell python; the policy's cgroup_parent too" {
	run env TOOLCELL_CGROUP_PARENT="$TC_TMP" "$TOOLCELL" python -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --cgroup-parent $TC_TMP: not in a cgroup v2 hierarchy" ]
	printf '{"version": 1, "cgroup_parent": "%s"}\n' "$TC_TMP" >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
	run "$TOOLCELL" python --policy "$TC_TMP/p.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --cgroup-parent $TC_TMP: not in a cgroup v2 hierarchy" ]
	"$TOOLCELL" policy check "$TC_TMP/p.json" >"$TC_TMP/eff.json"
	[ "$(jget cgroup_parent "$TC_TMP/eff.json")" = "$TC_TMP" ]
}
