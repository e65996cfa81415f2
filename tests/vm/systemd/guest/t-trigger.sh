#!/bin/sh
# A security update of a package in the sandbox rootfs's closure rebuilds the
# rootfs through the package's dpkg trigger: the image holds the older
# version of a library the rootfs copies (build-image's upgrade.txt) and
# the newer .deb; installing it with dpkg runs toolcell's trigger, which
# switches /var/lib/toolcell/rootfs to a new tree holding the new version
# (its manifest says so, the copied library equals the host's), and
# 'toolcell check' no longer calls the rootfs stale.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

up=/var/cache/tcvm-upgrade
rootfs=/var/lib/toolcell/rootfs
manifest=$rootfs/usr/lib/toolcell/packages.txt
if [ ! -f $up/upgrade.txt ]; then
	fail "the image has no upgrade.txt: the mirror had no package of the closure in two versions when it was built"
	tc_done
fi
read -r pkg old new <$up/upgrade.txt
manifest_version() { # the manifest's version of $pkg (dpkg's binary:Package: NAME:ARCH)
	awk -v p="$pkg" '$1 == p || index($1, p ":") == 1 { print $2 }' "$manifest"
}
echo "upgrade: $pkg $old -> $new"
assert_eq "$(dpkg-query -W -f '${Version}' "$pkg")" "$old" "$pkg installed before"
assert_eq "$(manifest_version)" "$old" "$pkg in the rootfs's manifest before"
before=$(readlink -f "$rootfs")
echo "rootfs before: $before"

run dpkg -i "$up/${pkg}_"*.deb
sed 's/^/  stdout| /' "$TC_W/stdout"
assert_eq "$TC_RC" 0 "dpkg -i $pkg $new: exit status"
assert_match "$TC_OUT" "*Processing triggers for toolcell *" "dpkg ran toolcell's trigger"
assert_eq "$(dpkg-query -W -f '${Version}' "$pkg")" "$new" "$pkg installed after"
after=$(readlink -f "$rootfs")
echo "rootfs after: $after"
if [ "$after" != "$before" ]; then
	pass "the rootfs link names a new tree"
else
	fail "the rootfs link still names $before"
fi
assert_eq "$(manifest_version)" "$new" "$pkg in the rootfs's manifest after"
# the package's shared libraries, in the rootfs at the same paths, are the
# host's new files
compared=0
for f in $(dpkg -L "$pkg" | grep -E '\.so[.0-9]*$'); do
	[ -e "$rootfs$f" ] || continue
	compared=$((compared + 1))
	if cmp -s "$f" "$rootfs$f"; then
		pass "$rootfs$f equals the host's"
	else
		fail "$rootfs$f differs from the host's $f"
	fi
done
assert_ge "$compared" 1 "files of $pkg found in the rootfs and compared"
run "$TOOLCELL" check
sed 's/^/  stdout| /' "$TC_W/stdout"
assert_eq "$TC_RC" 0 "check after the upgrade: exit status"
case $TC_OUT in
*STALE*) fail "check still calls the rootfs stale" ;;
*) pass "check: no STALE line" ;;
esac
run "$TOOLCELL" run -- /usr/bin/python3 -c 'import pyexpat, ssl; print("ok")'
assert_eq "$TC_OUT" ok "a sandbox on the new tree imports pyexpat and ssl"
info "$pkg $old -> $new: rootfs ${before##*/} -> ${after##*/}"

tc_done
