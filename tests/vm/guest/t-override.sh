#!/bin/sh
# cgroup v2: where the sandbox's cgroup goes is the operator's. A caller's
# --cgroup-parent (or TOOLCELL_CGROUP_PARENT) is refused unless the policy
# allows it, must lie at or below the policy's cgroup_parent, and must be
# delegated (systemd's mark, or owned by a caller other than root); a
# refusal writes nothing in the cgroup named.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

V=/sys/fs/cgroup/tc-victim
if [ "$TC_RUN_AS" = root ]; then
	mkdir -p "$V"
fi
p=$TC_W/p.json
printf '{"version": 1, "cgroup_parent": "%s", "require": {"cgroup2": true}}\n' \
	"$TC_CGROUP_PARENT" >"$p"
chmod 644 "$p"
run "$TOOLCELL" python --policy "$p" --cgroup-parent "$V" -c 'print(1)'
assert_eq "$TC_RC" 125 "not allowed: exit status"
assert_match "$(cat "$TC_W/stderr")" "*--cgroup-parent is not allowed by the policy*allow.cgroup_parent is false*" "not allowed: message"
run env TOOLCELL_CGROUP_PARENT="$V" "$TOOLCELL" python --policy "$p" -c 'print(1)'
assert_eq "$TC_RC" 125 "not allowed (TOOLCELL_CGROUP_PARENT): exit status"
printf '{"version": 1, "cgroup_parent": "%s", "allow": {"cgroup_parent": true}}\n' \
	"$TC_CGROUP_PARENT" >"$p"
run "$TOOLCELL" python --policy "$p" --cgroup-parent "$V" -c 'print(1)'
assert_eq "$TC_RC" 125 "outside the policy's parent: exit status"
assert_match "$(cat "$TC_W/stderr")" "*not at or below the policy's cgroup_parent*" "outside: message"
if [ "$TC_RUN_AS" = root ]; then
	# the default policy allows --cgroup-parent, but an unmarked cgroup is
	# nobody's to give
	run "$TOOLCELL" python --cgroup-parent "$V" -c 'print(1)'
	assert_eq "$TC_RC" 125 "not delegated: exit status"
	assert_match "$(cat "$TC_W/stderr")" "*not delegated to uid 0*" "not delegated: message"
	assert_eq "$(cat "$V/cgroup.subtree_control")" "" "nothing enabled in $V"
	assert_eq "$(cd "$V" && echo toolcell-run-*)" "toolcell-run-*" "no leaf in $V"
	rmdir "$V"
fi
tc_done
