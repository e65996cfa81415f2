#!/bin/sh
# Installs toolcell the way a server gets it: the .debs built by
# dpkg-buildpackage (in debs/), with dpkg, offline (the image holds every
# dependency); or, for a tree without debian/, the files of 'cmake --install'
# (install.tar). Then the installed toolcell answers.
# shellcheck source=tests/vm/guest/lib.sh
. "${0%/*}/lib.sh"

if [ -d "$PAYLOAD/debs" ]; then
	run dpkg -i "$PAYLOAD"/debs/*.deb
	sed 's/^/  stdout| /' "$TC_W/stdout"
	assert_eq "$TC_RC" 0 "dpkg -i: exit status"
	for deb in "$PAYLOAD"/debs/*.deb; do
		pkg=$(dpkg-deb -f "$deb" Package)
		assert_eq "$(dpkg-query -W -f '${Status}' "$pkg" 2>&1)" "install ok installed" "$pkg: dpkg status"
		info "installed $pkg $(dpkg-query -W -f '${Version}' "$pkg")"
	done
	# the package's postinst builds the sandbox's rootfs from this host's
	# packages, and enables and starts the service that holds the
	# delegated subtree
	rootfs=/var/lib/toolcell/rootfs
	assert_eq "$(test -x $rootfs/usr/bin/python3 && echo yes)" yes "$rootfs/usr/bin/python3 after the install"
	assert_eq "$(systemctl is-active toolcell-cgroup.service 2>&1)" active "toolcell-cgroup.service after the install"
else
	run tar -C / --no-overwrite-dir -xf "$PAYLOAD/install.tar"
	assert_eq "$TC_RC" 0 "unpacking cmake --install's files: exit status"
	# what an administrator does after cmake --install: the units in
	# place, the one holding the delegated subtree enabled and started
	run systemctl daemon-reload
	assert_eq "$TC_RC" 0 "systemctl daemon-reload: exit status"
	run systemctl enable --now toolcell-cgroup.service
	assert_eq "$TC_RC" 0 "systemctl enable --now toolcell-cgroup.service: exit status"
	# and the rootfs from this host's packages (the one cmake installed
	# is a copy of the build host's, stale here)
	# (in the state folder the build configured: t-check finds it fresh)
	run "$TOOLCELL" rootfs build
	assert_eq "$TC_RC" 0 "toolcell rootfs build: exit status"
	info "installed from cmake --install (no .deb)"
fi
assert_eq "$(command -v toolcell)" "$TOOLCELL" "toolcell on PATH"
run "$TOOLCELL" version
assert_eq "$TC_RC" 0 "toolcell version: exit status"
assert_match "$TC_OUT" "toolcell *" "toolcell version"
info "$TC_OUT"

tc_done
