#!/usr/bin/env bats
# The Debian packages tools/build-deb made (TC_DEB_DIR): exactly the
# expected files, shared libraries and no rootfs, the dependencies, the
# maintainer scripts, lintian with no error or warning, units that systemd
# 252 accepts, and Build-Depends that match tools/setup-deps build.
# Run by tools/test-all's "Debian package" phase.

bats_require_minimum_version 1.5.0

setup() {
	REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	: "${TC_DEB_DIR:?set TC_DEB_DIR to the folder tools/build-deb filled}"
	DEB=$(ls "$TC_DEB_DIR"/toolcell_*_amd64.deb)
	PYDEB=$(ls "$TC_DEB_DIR"/python3-toolcell_*_all.deb)
	SCRATCH=$(mktemp -d /tmp/toolcell-pkgtest.XXXXXX)
}

teardown() {
	rm -rf "$SCRATCH"
}

# contents DEB: its files and links, one a line, sorted, without "./"
contents() {
	dpkg-deb -c "$1" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./||' | sort
}

@test "toolcell's package holds exactly the binary, helpers, rootfs builder, policies, units, docs and completion, and no rootfs" {
	contents "$DEB" >"$SCRATCH/got"
	cat >"$SCRATCH/want" <<-'LIST'
		etc/toolcell/toolcell.conf
		lib/systemd/system/toolcell-cgroup.service
		lib/systemd/system/toolcell.service
		lib/systemd/system/toolcell.slice
		lib/systemd/system/toolcell.socket
		usr/bin/toolcell
		usr/lib/sysusers.d/toolcell.conf
		usr/lib/tmpfiles.d/toolcell.conf
		usr/libexec/toolcell/build-rootfs
		usr/libexec/toolcell/toolcell-cgroup-keeper
		usr/libexec/toolcell/toolcell-python
		usr/libexec/toolcell/toolcell-rootfs-trigger
		usr/libexec/toolcell/toolcell-utils
		usr/share/bash-completion/completions/toolcell
		usr/share/doc/toolcell/NEWS.gz
		usr/share/doc/toolcell/SECURITY.md
		usr/share/doc/toolcell/changelog.gz
		usr/share/doc/toolcell/copyright
		usr/share/lintian/overrides/toolcell
		usr/share/man/man1/toolcell.1.gz
		usr/share/man/man5/toolcell-policy.5.gz
		usr/share/man/man5/toolcell-record.5.gz
		usr/share/toolcell/apparmor/toolcell
		usr/share/toolcell/policies/README.md
		usr/share/toolcell/rootfs/MANIFEST
		usr/share/toolcell/rootfs/MANIFEST.workspace
		usr/share/toolcell/rootfs/harness.py
		usr/share/toolcell/rootfs/session.py
		usr/share/toolcell/rootfs/serve.py
	LIST
	# every shipped policy (policies/*.json), whichever there are
	for p in "$REPO"/policies/*.json; do
		echo "usr/share/toolcell/policies/${p##*/}"
	done >>"$SCRATCH/want"
	sort -o "$SCRATCH/want" "$SCRATCH/want"
	diff "$SCRATCH/want" "$SCRATCH/got"
}

@test "/etc/toolcell/toolcell.conf is a conffile, root's, mode 644, every key commented out" {
	dpkg-deb --ctrl-tarfile "$DEB" | tar -xO ./conffiles >"$SCRATCH/conffiles"
	[ "$(cat "$SCRATCH/conffiles")" = /etc/toolcell/toolcell.conf ]
	dpkg-deb -c "$DEB" | grep -E ' \./etc/toolcell/toolcell\.conf$' >"$SCRATCH/entry"
	[[ "$(cat "$SCRATCH/entry")" == "-rw-r--r-- root/root "* ]]
	dpkg-deb --fsys-tarfile "$DEB" | tar -xO ./etc/toolcell/toolcell.conf >"$SCRATCH/conf"
	# nothing set: every line a comment or empty, and each key shown once
	[ -z "$(grep -Ev '^(#.*)?$' "$SCRATCH/conf")" ]
	for k in policy rootfs audit audit_socket; do
		[ "$(grep -c "^#$k = " "$SCRATCH/conf")" -eq 1 ]
	done
}

@test "python3-toolcell holds exactly the toolcell package, toolcell_client and the two entry points" {
	contents "$PYDEB" >"$SCRATCH/got"
	printf '%s\n' usr/lib/python3/dist-packages/toolcell_client.py \
		usr/libexec/toolcell/era-wrapper usr/libexec/toolcell/toolcell-tool-exec \
		usr/lib/python3/dist-packages/toolcell/__init__.py \
		usr/lib/python3/dist-packages/toolcell/binary.py \
		usr/lib/python3/dist-packages/toolcell/client.py \
		usr/lib/python3/dist-packages/toolcell/era.py \
		usr/lib/python3/dist-packages/toolcell/serve.py \
		usr/lib/python3/dist-packages/toolcell/threegate.py \
		usr/lib/python3/dist-packages/toolcell/tool_exec.py \
		usr/share/doc/python3-toolcell/changelog.gz usr/share/doc/python3-toolcell/copyright |
		sort >"$SCRATCH/want"
	diff "$SCRATCH/want" "$SCRATCH/got"
}

@test "installed, the entry points find the package and toolcell_client is toolcell.client" {
	dpkg-deb -x "$PYDEB" "$SCRATCH/x"
	run -0 "$SCRATCH/x/usr/libexec/toolcell/era-wrapper" --help
	[[ "${lines[0]}" == "usage: era-wrapper --language python --cmd CMD --network none" ]]
	run -0 "$SCRATCH/x/usr/libexec/toolcell/toolcell-tool-exec" --help
	[[ "${lines[0]}" == "usage: toolcell-tool-exec --request TR.md --results-dir DIR"* ]]
	run -0 /usr/bin/python3 -I -c '
import sys
sys.path.insert(0, sys.argv[1])
import toolcell_client, toolcell.client
print(toolcell_client is toolcell.client, toolcell_client.Session is toolcell.client.Session)' \
		"$SCRATCH/x/usr/lib/python3/dist-packages"
	[ "$output" = "True True" ]
}

@test "toolcell links libseccomp and cJSON shared and depends on them, on no libc upper bound" {
	dpkg-deb -x "$DEB" "$SCRATCH/x"
	run -0 readelf -d "$SCRATCH/x/usr/bin/toolcell"
	for lib in libseccomp.so.2 libcjson.so.1; do
		[[ "$output" == *"Shared library: [$lib]"* ]] || {
			echo "not linked shared: $lib" >&2
			return 1
		}
	done
	run -0 dpkg-deb -f "$DEB" Depends
	[[ "$output" == *"libseccomp2 (>= "* ]]
	[[ "$output" == *"libcjson1 (>= "* ]]
	[[ "$output" != *"<<"* ]]
	[[ "$output" == *"python3 (>= 3.11)"* ]] # the rootfs builder and the rootfs's interpreter
	# toolcell-utils is static: the glibc it holds is named
	run -0 dpkg-deb -f "$DEB" Built-Using
	[[ "$output" == "glibc (= "*")" ]]
	run -0 dpkg-deb -f "$PYDEB" Depends
	[[ "$output" == *"python3"* ]]
	[[ "$output" == *"toolcell (>= "* ]]
	run -0 dpkg-deb -f "$PYDEB" Architecture
	[ "$output" = all ]
}

@test "postinst creates /run/toolcell and enables toolcell-cgroup.service; an upgrade does not restart it" {
	dpkg-deb -e "$DEB" "$SCRATCH/ctl"
	grep -q 'systemd-tmpfiles .*--create toolcell.conf' "$SCRATCH/ctl/postinst"
	grep -q "deb-systemd-helper enable 'toolcell-cgroup.service'" "$SCRATCH/ctl/postinst"
	grep -q "deb-systemd-invoke start 'toolcell-cgroup.service'" "$SCRATCH/ctl/postinst"
	# --no-restart-after-upgrade, --no-stop-on-upgrade: the sandboxes below
	# the service keep running through an upgrade; only a removal stops it
	! grep -q 'restart' "$SCRATCH/ctl/postinst"
	grep -q "\[ \"\$1\" = remove \] .*deb-systemd-invoke stop 'toolcell-cgroup.service'" \
		<(tr -d '\n' <"$SCRATCH/ctl/prerm")
}

@test "postinst makes the group toolcell and enables and starts toolcell.socket, not toolcell.service" {
	dpkg-deb -e "$DEB" "$SCRATCH/ctl"
	grep -q 'systemd-sysusers .*toolcell.conf' "$SCRATCH/ctl/postinst"
	grep -q "deb-systemd-helper enable 'toolcell.socket'" "$SCRATCH/ctl/postinst"
	grep -q "deb-systemd-invoke start 'toolcell.socket'" "$SCRATCH/ctl/postinst"
	! grep -q "enable 'toolcell.service'" "$SCRATCH/ctl/postinst"
	! grep -q "start 'toolcell.service'" "$SCRATCH/ctl/postinst"
	# the group exists before the socket's start needs it
	[ "$(grep -n 'systemd-sysusers' "$SCRATCH/ctl/postinst" | head -1 | cut -d: -f1)" -lt \
		"$(grep -n "start 'toolcell.socket'" "$SCRATCH/ctl/postinst" | head -1 | cut -d: -f1)" ]
	dpkg-deb -x "$DEB" "$SCRATCH/x"
	[ "$(cat "$SCRATCH/x/usr/lib/sysusers.d/toolcell.conf")" = 'g toolcell - -' ]
}

@test "lintian: no error and no warning (two overridden, see debian/toolcell.lintian-overrides); three information tags" {
	run -0 lintian --no-cfg --display-level '>=pedantic' -E -I "$DEB" "$PYDEB"
	printf '%s\n' "$output" | grep -v '^running with root privileges' >"$SCRATCH/tags" || true
	! grep -E '^[EW]:' "$SCRATCH/tags"
	cat >"$SCRATCH/want" <<-'TAGS'
		I: toolcell: package-contains-documentation-outside-usr-share-doc [usr/share/toolcell/policies/README.md]
		I: toolcell: package-supports-alternative-init-but-no-init.d-script [lib/systemd/system/toolcell-cgroup.service]
		I: toolcell: package-supports-alternative-init-but-no-init.d-script [lib/systemd/system/toolcell.service]
	TAGS
	diff "$SCRATCH/want" "$SCRATCH/tags"
}

@test "systemd 252 accepts the units as shipped (no unknown key such as DelegateSubgroup=)" {
	dpkg-deb -x "$DEB" "$SCRATCH/x"
	cd "$SCRATCH/x"
	# toolcell.service's ExecReload= names util-linux's /bin/kill, which
	# verify looks for in --root: a stand-in
	mkdir -p bin && printf '#!/bin/sh\n' >bin/kill && chmod 755 bin/kill
	run -0 systemd-analyze verify --root="$SCRATCH/x" --man=no --recursive-errors=no \
		lib/systemd/system/toolcell.slice lib/systemd/system/toolcell-cgroup.service \
		lib/systemd/system/toolcell.socket lib/systemd/system/toolcell.service
	[ -z "$output" ]
	grep -qx 'Type=notify' lib/systemd/system/toolcell.service
	grep -qx 'Delegate=yes' lib/systemd/system/toolcell.service
	grep -qx 'KillMode=mixed' lib/systemd/system/toolcell.service
	grep -qx 'ListenStream=/run/toolcell/toolcell.sock' lib/systemd/system/toolcell.socket
	grep -qx 'SocketMode=0660' lib/systemd/system/toolcell.socket
	grep -qx 'SocketGroup=toolcell' lib/systemd/system/toolcell.socket
	grep -qx 'Delegate=memory pids cpu' lib/systemd/system/toolcell-cgroup.service
	grep -qx 'Slice=toolcell.slice' lib/systemd/system/toolcell-cgroup.service
	grep -qx 'd /run/toolcell 0755 root root -' usr/lib/tmpfiles.d/toolcell.conf
}

@test "debian/control's Build-Depends are tools/setup-deps build's list (less build-essential)" {
	sed -n '/^Build-Depends:/,/^[A-Z]/p' "$REPO/debian/control" | sed '$d' |
		sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/([^)]*)//; s/^ *//; s/ *$//' |
		grep -v -e '^$' -e '^debhelper-compat' | sort >"$SCRATCH/control"
	"$REPO/tools/setup-deps" --list build | grep -vx build-essential | sort >"$SCRATCH/build"
	diff "$SCRATCH/build" "$SCRATCH/control"
	# a build host never gets QEMU
	! "$REPO/tools/setup-deps" --list build | grep -q qemu
	"$REPO/tools/setup-deps" --list test | grep -qx qemu-system-x86
}
