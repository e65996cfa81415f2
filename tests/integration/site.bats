#!/usr/bin/env bats
# The administrator's side (site.c, conf.c): toolcell.conf in the site
# folder (/etc/toolcell installed; etc/ beside a build-tree binary, which
# these tests stage in their own folder), policies there overriding the
# shipped ones of the same name, a pinned policy and rootfs that callers
# cannot change by option or variable, and TOOLCELL_* variables that mean
# the same for every command.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	tc_stage_site # a build-tree layout of our own: binary, policies, rootfs, etc/
	mkdir -m 755 "$S/etc/policies"
}

teardown() {
	tc_teardown
}

conf() {
	printf '%s\n' "$@" >"$S/etc/toolcell.conf"
	chmod 644 "$S/etc/toolcell.conf"
}

@test "a policy in the site folder overrides the shipped one of the same name (the default too)" {
	sed 's/"pids": 64/"pids": 7/' "$S/policies/default.json" >"$S/etc/policies/default.json"
	run -0 "$TC" python --result "$TC_TMP/r.json" -c 'print(1)'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 7 ]
	[ "$(jget provenance.policy.path "$TC_TMP/r.json")" = "$S/etc/policies/default.json" ]
	# by name, too; a name found in neither place is refused naming both
	sed 's/"pids": 64/"pids": 9/' "$S/policies/default.json" >"$S/etc/policies/mine.json"
	run -0 "$TC" python --policy mine --result "$TC_TMP/r.json" -c 'print(1)'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 9 ]
	run -125 "$TC" python --policy nonesuch -c 'print(1)'
	[ "$output" = "toolcell: no policy named 'nonesuch': neither $S/etc/policies/nonesuch.json nor $S/policies/nonesuch.json exists" ]
	# the shipped one by name when the site has none
	rm "$S/etc/policies/default.json"
	run -0 "$TC" python --policy default --result "$TC_TMP/r.json" -c 'print(1)'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 64 ]
}

@test "a pinned policy refuses --policy and TOOLCELL_POLICY naming another, for every command" {
	sed 's/"pids": 64/"pids": 11/' "$S/policies/default.json" >"$S/etc/policies/pinned.json"
	conf "policy = pinned"
	want="toolcell: --policy $S/policies/default.json: this host pins the policy to $S/etc/policies/pinned.json ($S/etc/toolcell.conf: policy = pinned); callers cannot choose another: drop --policy and TOOLCELL_POLICY"
	run -125 "$TC" python --policy "$S/policies/default.json" -c 'print(1)'
	[ "$output" = "$want" ]
	run -125 env TOOLCELL_POLICY="$S/policies/default.json" "$TC" run /usr/bin/python3 -c 'print(1)'
	[ "$output" = "$want" ]
	run -125 "$TC" check --policy "$S/policies/default.json"
	[[ "$output" == *"this host pins the policy to $S/etc/policies/pinned.json"* ]]
	tool=$(fixture call_echo.py)
	run -125 "$TC" call --policy default "$tool" <<<'{}'
	[[ "$output" == *"toolcell: --policy default: this host pins the policy to $S/etc/policies/pinned.json"* ]]
	# no choice, or the pinned file itself: the pinned policy runs
	run -0 "$TC" python --result "$TC_TMP/r.json" -c 'print(1)'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 11 ]
	run -0 "$TC" python --policy pinned -c 'print(1)'
	run -0 "$TC" python --policy "$S/etc/policies/pinned.json" -c 'print(1)'
}

@test "a pinned rootfs refuses --rootfs and TOOLCELL_ROOTFS naming another" {
	conf "rootfs = default"
	run -125 "$TC" python --rootfs workspace -c 'print(1)'
	[ "$output" = "toolcell: --rootfs workspace: this host pins the rootfs to 'default' ($S/etc/toolcell.conf: rootfs = default); callers cannot choose another: drop --rootfs and TOOLCELL_ROOTFS" ]
	run -125 env TOOLCELL_ROOTFS=workspace "$TC" python -c 'print(1)'
	[[ "$output" == "toolcell: --rootfs workspace: this host pins the rootfs to 'default'"* ]]
	run -0 "$TC" python --rootfs default -c 'print(1)'
	[ "$output" = 1 ]
}

@test "a bad toolcell.conf stops every run with 125 and names the line; so does one others may write" {
	conf "audit = on" "polcy = production"
	run -125 "$TC" python -c 'print(1)'
	[ "$output" = "toolcell: $S/etc/toolcell.conf:2: unknown key 'polcy' (expected policy, rootfs, audit or audit_socket)" ]
	conf "audit = on"
	chmod 666 "$S/etc/toolcell.conf"
	run -125 "$TC" python -c 'print(1)'
	[[ "$output" == "toolcell: $S/etc/toolcell.conf: must be owned by root and writable by no one else"*"mode 0666"* ]]
}

@test "TOOLCELL_* variables mean their option for run, call and session too, not only python" {
	run -125 env TOOLCELL_MEMORY=1K "$TC" run /usr/bin/python3 -c 'print(1)'
	[ "$output" = "toolcell: TOOLCELL_MEMORY: 1K is outside 4M..64G" ]
	run -0 env TOOLCELL_PIDS=5 "$TC" run --result "$TC_TMP/r.json" /usr/bin/python3 -c 'print(1)'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 5 ]
	tool=$(fixture call_echo.py)
	TOOLCELL_PIDS=6 run -0 "$TC" call --result "$TC_TMP/r.json" "$tool" <<<'{"a": 1}'
	[ "$(jget limits.pids.value "$TC_TMP/r.json")" = 6 ]
	TOOLCELL_TIMEOUT=x run -125 "$TC" session <<<'{"id": 1, "op": "shutdown"}'
	[ "$output" = "toolcell: TOOLCELL_TIMEOUT: expected seconds such as 30 or 0.5, got 'x'" ]
}
