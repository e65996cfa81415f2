#!/usr/bin/env bats
# Which rootfs a run uses (issue 9 item 7): the policy's variant, or the
# caller's --rootfs / TOOLCELL_ROOTFS only where allow.rootfs lists it, and
# only a tree the builder made (its manifest and digest present and, for a
# caller's choice, matching). The host's / never: it would show the host's
# /etc and /usr.

load helpers

setup() {
	tc_setup
	ROOTFS="$TC_BUILD/rootfs"
	DEFAULT="$TC_BUILD/policies/default.json"
}

teardown() {
	tc_teardown
}

# policy_allowing JSON-LIST: a policy whose allow.rootfs is the list
policy_allowing() {
	printf '{"version": 1, "env": {"PATH": "/usr/bin"}, "allow": {"rootfs": %s}}\n' "$1" \
		>"$TC_TMP/allow.json"
}

@test "--rootfs / is refused under default.json, for every verb and through TOOLCELL_ROOTFS" {
	local want="toolcell: refusing the rootfs /: the host's own root is never a rootfs (the tool would see the host's /etc and /usr)"
	capture "$TOOLCELL" run --policy "$DEFAULT" --rootfs / -- /usr/bin/cat /etc/hostname
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "$want" ]
	[ ! -s "$TC_TMP/stdout" ]
	capture env TOOLCELL_ROOTFS=/ "$TOOLCELL" python -c 'print(open("/etc/hostname").read())'
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "$want" ]
	[ ! -s "$TC_TMP/stdout" ]
	# a link to / is /; the python front end (beside toolcell) passes TOOLCELL_ROOTFS on
	ln -s / "$TC_TMP/root-link"
	capture "$TOOLCELL" run --policy "$DEFAULT" --rootfs "$TC_TMP/root-link" -- /usr/bin/true
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "$want" ]
	printf 'print(1)\n' >"$TC_TMP/t.py"
	chmod 644 "$TC_TMP/t.py"
	capture env TOOLCELL_ROOTFS=/ "$TC_BUILD/toolcell-python" "$TC_TMP/t.py"
	[ "$status" -eq 125 ]
	grep -qxF "$want" "$TC_TMP/stderr"
	# even a policy that lists it: the parser refuses "/" itself
	policy_allowing '["/"]'
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" -- /usr/bin/true
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $TC_TMP/allow.json: allow.rootfs[0]: the host's root is never a rootfs" ]
}

@test "--rootfs is refused where the policy's allow.rootfs does not list it" {
	capture "$TOOLCELL" run --policy "$DEFAULT" --rootfs "$ROOTFS" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --rootfs $ROOTFS is not allowed by the policy ($DEFAULT: allow.rootfs lists the variants and paths a caller may choose, and lists none)" ]
	policy_allowing '["workspace"]'
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$ROOTFS" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --rootfs $ROOTFS is not allowed by the policy ($TC_TMP/allow.json: not in allow.rootfs)" ]
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs data -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --rootfs data is not allowed by the policy ($TC_TMP/allow.json: not in allow.rootfs)" ]
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs Bad.Name -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: --rootfs: expected a variant name ([a-z0-9][a-z0-9_-]*, at most 32) or a path with a '/', got 'Bad.Name'" ]
}

@test "a handmade tree is refused even where allowed: no manifest, a changed manifest, extra top-level entries, a linked etc" {
	local fake="$TC_TMP/fake" copy="$TC_TMP/copy"
	mkdir -p "$fake/usr/bin" "$fake/etc"
	cp /usr/bin/python3.11 "$fake/usr/bin/python3"
	policy_allowing "[\"$fake\", \"$copy\"]"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$fake" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $fake is not a rootfs made by toolcell's builder: no usr/lib/toolcell/manifest.txt (No such file or directory); build one with 'toolcell rootfs build'" ]
	# a real tree whose manifest was changed after the build
	cp -a "$ROOTFS/." "$copy"
	echo "0644 0000 /usr/bin/planted" >>"$copy/usr/lib/toolcell/manifest.txt"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$copy" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: refusing the rootfs $copy: its manifest does not match its digest (changed after the build); rebuild it with 'toolcell rootfs build'" ]
	# the digest file rewritten to match: still refused for what it holds
	sha256sum "$copy/usr/lib/toolcell/manifest.txt" | cut -c1-64 >"$copy/usr/lib/toolcell/manifest.txt.sha256"
	mkdir "$copy/home"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$copy" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $copy is not a rootfs made by toolcell's builder: it holds 'home' (a rootfs holds only usr and etc); build one with 'toolcell rootfs build'" ]
	rmdir "$copy/home"
	chmod 777 "$copy"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$copy" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: refusing the rootfs $copy: it is not owned by root (or you) or others can write to it" ]
	chmod 755 "$copy"
	# its etc a link to a host folder (bound as it is, it would show the
	# host's): refused, as a link for usr would be
	mv "$copy/etc" "$copy/etc.real"
	ln -s /proc "$copy/etc"
	mv "$copy/etc.real" "$TC_TMP/etc.real"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$copy" -- /usr/bin/python3 -c pass
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $copy is not a rootfs made by toolcell's builder: its etc is not a folder; build one with 'toolcell rootfs build'" ]
	rm "$copy/etc"
	mv "$TC_TMP/etc.real" "$copy/etc"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$copy" -- /usr/bin/python3 -c 'print("copy ok")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "copy ok" ]
}

@test "a builder-made tree is accepted where allow.rootfs lists it, by path or by variant name" {
	policy_allowing "[\"$ROOTFS\", \"workspace\"]"
	capture "$TOOLCELL" run --policy "$TC_TMP/allow.json" --rootfs "$ROOTFS" --result "$TC_TMP/r.json" \
		-- /usr/bin/python3 -c 'import os; print(os.path.exists("/usr/bin/toolcell-utils"))'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = False ]
	[ "$(jget provenance.rootfs_manifest.sha256 "$TC_TMP/r.json")" = "$(cut -c1-64 "$ROOTFS/usr/lib/toolcell/manifest.txt.sha256")" ]
	[ -x "$TC_BUILD/rootfs-workspace/usr/bin/toolcell-utils" ] ||
		tc_skip "no workspace rootfs: cmake --build build --target rootfs-workspace"
	capture env TOOLCELL_ROOTFS=workspace "$TOOLCELL" python --policy "$TC_TMP/allow.json" \
		-c 'import os; print(os.path.exists("/usr/bin/toolcell-utils"))'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = True ]
}

@test "a policy's variant that was never built names the command that builds it" {
	printf '{"version": 1, "rootfs": "nosuch"}\n' >"$TC_TMP/p.json"
	capture "$TOOLCELL" run --policy "$TC_TMP/p.json" -- /usr/bin/true
	[ "$status" -eq 125 ]
	[[ "$(cat "$TC_TMP/stderr")" == "toolcell: no Python rootfs at "*"/rootfs-nosuch (No such file or directory); build it with 'toolcell rootfs build --name nosuch' (as root) or pass --rootfs DIR where the policy allows it" ]]
}
