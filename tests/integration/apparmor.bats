#!/usr/bin/env bats
# apparmor/toolcell, the profile for hosts that restrict unprivileged user
# namespaces (Ubuntu 23.10+), checked with apparmor_parser -Q (parse only,
# nothing loaded). Debian 12's parser is AppArmor 3.0, which predates the
# userns rule: there the profile is parsed without its abi and userns lines
# (the rest of its grammar), and the test asserts that 3.0 indeed refuses
# userns, so the stripping hides nothing else.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	PROFILE=${TC_SOURCE:-$BATS_TEST_DIRNAME/../..}/apparmor/toolcell
	command -v apparmor_parser >/dev/null || tc_skip "no apparmor_parser (apt: apparmor)"
	AA_MAJOR=$(apparmor_parser --version | sed -n 's/^AppArmor parser version \([0-9]*\)\..*/\1/p')
}

teardown() {
	tc_teardown
}

@test "the profile grants toolcell's binary a user namespace, unconfined otherwise" {
	grep -qx 'abi <abi/4.0>,' "$PROFILE"
	grep -qx 'profile toolcell /usr/bin/toolcell flags=(unconfined) {' "$PROFILE"
	grep -qx '  userns,' "$PROFILE"
	grep -qx '  include if exists <local/toolcell>' "$PROFILE"
}

@test "apparmor_parser -Q accepts the profile" {
	if [ "$AA_MAJOR" -ge 4 ]; then
		run -0 apparmor_parser -Q -K "$PROFILE"
		return
	fi
	sed -e '/^abi <abi\/4.0>,$/d' -e '/^  userns,$/d' "$PROFILE" >"$TC_TMP/profile-3.0"
	run -0 apparmor_parser -Q -K "$TC_TMP/profile-3.0"
	# what was stripped is only what 3.0 cannot parse
	[ "$(diff "$PROFILE" "$TC_TMP/profile-3.0" | grep -c '^<')" -eq 2 ]
	sed '/^abi <abi\/4.0>,$/d' "$PROFILE" >"$TC_TMP/profile-userns"
	line=$(grep -n '^  userns,$' "$TC_TMP/profile-userns" | cut -d: -f1)
	run ! apparmor_parser -Q -K "$TC_TMP/profile-userns"
	[[ "$output" == *"at line $line: syntax error"* ]]
}

@test "apparmor_parser -Q refuses a broken copy (the check can fail)" {
	sed 's/^profile toolcell /profile toolcell {/' "$PROFILE" | sed -e '/^abi/d' -e '/userns,/d' >"$TC_TMP/bad"
	run ! apparmor_parser -Q -K "$TC_TMP/bad"
}
