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
echo "upgrade: $pkg $old -> $new"
assert_eq "$(dpkg-query -W -f '${Version}' "$pkg")" "$old" "$pkg installed before"
assert_eq "$(awk -v p="$pkg" '$1 == p { print $2 }' "$manifest")" "$old" "$pkg in the rootfs's manifest before"
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
assert_eq "$(awk -v p="$pkg" '$1 == p { print $2 }' "$manifest")" "$new" "$pkg in the rootfs's manifest after"
# the library the package holds, in the rootfs, is the host's new file
for f in $(dpkg -L "$pkg" | grep -E '/lib[^/]*\.so[.0-9]*$'); do
	real=$(readlink -f "$f")
	inside=$rootfs/usr/lib/x86_64-linux-gnu/${real##*/}
	if [ -f "$inside" ]; then
		if cmp -s "$real" "$inside"; then
			pass "$inside equals the host's"
		else
			fail "$inside differs from the host's $real"
		fi
	fi
done
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
