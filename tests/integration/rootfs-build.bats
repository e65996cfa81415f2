#!/usr/bin/env bats
# The rootfs builder on the target (issue 11): `toolcell rootfs build`, the
# Debian packages and versions a tree records (packages.txt and an SPDX 2.3
# SBOM), `toolcell check`'s warning when the host changed one since, and the
# atomic switch: a new tree goes in with one rename(2), a running sandbox
# keeps its old tree, which a later build removes once no run holds it.
# Builds use a small manifest (the interpreter and enough stdlib to start,
# ~2 s); the full trees are the ones CI builds (cmake --build build --target
# rootfs rootfs-workspace rootfs-data).

load helpers

setup() {
	tc_setup
	BUILDER="$TC_BUILD/build-rootfs"
	# a toolcell of its own whose default rootfs is the small tree
	BIN="$TC_TMP/bin"
	mkdir -p "$BIN" "$TC_TMP/src"
	cp "$TOOLCELL" "$BIN/toolcell"
	cp -r "$TC_BUILD/policies" "$BIN/"
	cp "$TC_BUILD/rootfs/usr/lib/toolcell/harness.py" "$TC_TMP/src/harness.py"
	mini_manifest one
}

teardown() {
	tc_teardown
}

# mini_manifest MARKER: the small manifest, /etc/marker holding MARKER
mini_manifest() {
	cat >"$TC_TMP/src/MANIFEST" <<EOF
copy    /usr/bin/python3.11                     # the interpreter
symlink /usr/bin/python3 python3.11             # its name
copy    /usr/lib/python3.11/encodings           # python3 cannot start without it
copy    /usr/lib/python3.11/os.py               # getpath's landmark
dir     /usr/lib/python3.11/lib-dynload         # getpath's exec_prefix landmark
exclude */__pycache__                           # the host's pyc
symlink /usr/lib64/ld-linux-x86-64.so.2 ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2  # PT_INTERP
symlink /lib64 usr/lib64                        # for chroot
harness /usr/lib/toolcell/harness.py            # required
index   /usr/lib/toolcell/manifest.txt          # required
line    /etc/marker $1                          # what a test changes between builds
EOF
}

mini_build() {
	[ -f "$BUILDER" ] || tc_skip "no $BUILDER (run cmake again)"
	capture /usr/bin/python3 -I "$BUILDER" --manifest "$TC_TMP/src/MANIFEST" \
		--harness "$TC_TMP/src/harness.py" --out "$BIN/rootfs"
}

@test "rootfs build: --help, and a bad command line is refused with 125 and the reason" {
	run "$TOOLCELL" rootfs build --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Usage: toolcell rootfs build [--name NAME] [--with PKG,...] [--dest DIR]" ]
	local e=" (see 'toolcell rootfs build --help')"
	run "$TOOLCELL" rootfs build --name Bad
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: rootfs build: --name 'Bad': expected [a-z0-9][a-z0-9_-]*, at most 32$e" ]
	run "$TOOLCELL" rootfs build --with 'python3-numpy;sh'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: rootfs build: --with 'python3-numpy;sh': expected Debian package names, comma-separated$e" ]
	run "$TOOLCELL" rootfs make
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: rootfs build: unknown subcommand 'make'; expected 'build'$e" ]
	run "$TOOLCELL" rootfs build --dest
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: rootfs build: --dest: expected a value$e" ]
	# a package the host has not installed: the builder names the fix
	run "$TOOLCELL" rootfs build --name nopkg --with no-such-package-tc --dest "$TC_TMP/r"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "build-rootfs: error: --with no-such-package-tc: not installed on the host (apt-get install no-such-package-tc, then build again)" ]
	[ ! -e "$TC_TMP/r" ]
	# a place it cannot write: one line naming it and the fix, no traceback
	run "$TOOLCELL" rootfs build --dest /sys/tc-rootfs-x/rootfs
	[ "$status" -eq 1 ]
	[[ "$output" == "build-rootfs: error: cannot write /sys/tc-rootfs-x: "*" (build as root, or give another place: toolcell rootfs build --dest DIR)" ]]
	[ "${#lines[@]}" -eq 1 ]
}

@test "a tree records each Debian package and version it holds: packages.txt and an SPDX 2.3 SBOM" {
	mini_build
	[ "$status" -eq 0 ]
	local tree
	tree=$(readlink "$BIN/rootfs")
	[[ "$tree" =~ ^rootfs\.d/[0-9a-f]{16}$ ]]
	# the version directory is named by the manifest's digest
	[ "${tree#rootfs.d/}" = "$(cut -c1-16 "$BIN/rootfs/usr/lib/toolcell/manifest.txt.sha256")" ]
	local pk="$BIN/rootfs/usr/lib/toolcell/packages.txt"
	grep -v '^#' "$pk" >"$TC_TMP/listed"
	# the interpreter's package and libc are there, with the host's versions
	grep -q '^python3\.11-minimal ' "$TC_TMP/listed"
	grep -q '^libc6:amd64 ' "$TC_TMP/listed"
	cut -d' ' -f1 "$TC_TMP/listed" | xargs dpkg-query -W -f='${binary:Package} ${Version}\n' -- |
		sort >"$TC_TMP/host"
	sort "$TC_TMP/listed" | cmp - "$TC_TMP/host"
	grep -qx "# host's). [0-9]* host files copied, 0 of no package." "$pk"
	# the SBOM: one SPDX package per line of packages.txt, with a Debian purl
	run "$PY" -I -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["spdxVersion"] == "SPDX-2.3" and doc["SPDXID"] == "SPDXRef-DOCUMENT", doc["spdxVersion"]
assert doc["dataLicense"] == "CC0-1.0" and doc["documentNamespace"].startswith("https://")
described = {r["relatedSpdxElement"] for r in doc["relationships"] if r["relationshipType"] == "DESCRIBES"}
for p in doc["packages"]:
    purl = p["externalRefs"][0]["referenceLocator"]
    assert p["SPDXID"] in described, p["SPDXID"]
    print(p["name"], p["versionInfo"], purl)
' "$BIN/rootfs/usr/lib/toolcell/sbom.spdx.json"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq "$(wc -l <"$TC_TMP/listed")" ]
	[[ "$output" == *"libc6 $(dpkg-query -W -f='${Version}' libc6) pkg:deb/debian/libc6@$(dpkg-query -W -f='${Version}' libc6)?arch=amd64&distro=debian-"* ]]
	# rebuilt byte for byte the same: nothing to do
	mini_build
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "build-rootfs: $BIN/rootfs is up to date" ]
}

@test "check warns when an installed package differs from the rootfs's copy, naming the rebuild" {
	mini_build
	[ "$status" -eq 0 ]
	local n
	n=$(grep -vc '^#' "$BIN/rootfs/usr/lib/toolcell/packages.txt")
	run "$BIN/toolcell" check
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n'"rootfs packages: $n, all as installed on the host"$'\n'* ]]
	# the tree as a host upgrade leaves it: libc6 is older in the rootfs
	local pk tree libc
	tree=$(readlink -f "$BIN/rootfs")
	pk="$tree/usr/lib/toolcell/packages.txt"
	libc=$(dpkg-query -W -f='${Version}' libc6)
	sed -i 's/^libc6:amd64 .*/libc6:amd64 2.36-9+deb12u1/' "$pk"
	run "$BIN/toolcell" check
	[ "$status" -eq 0 ] # a warning: the stale tree still runs
	[[ "$output" == *$'\n'"rootfs packages: STALE: $tree holds libc6:amd64 2.36-9+deb12u1, the host has $libc"$'\n'"rootfs packages: 1 of $n changed since the build; rebuild it with 'toolcell rootfs build'"$'\n'* ]]
}

@test "call, session and serve refuse a tree built from other harnesses, naming the rebuild; python runs" {
	local h="$TC_BUILD/rootfs/usr/lib/toolcell" tree id mine
	cp "$h/session.py" "$h/serve.py" "$TC_TMP/src/"
	printf 'toolfile /usr/lib/toolcell/session.py session.py  # a harness\ntoolfile /usr/lib/toolcell/serve.py serve.py  # a harness\n' \
		>>"$TC_TMP/src/MANIFEST"
	mini_build
	[ "$status" -eq 0 ]
	tree=$(readlink -f "$BIN/rootfs")
	# the builder's id is the binary's: sha256 of "NAME SHA256\n" per harness
	id=$(cd "$TC_TMP/src" && for f in harness.py session.py serve.py; do
		printf '%s %s\n' "$f" "$(sha256sum <"$f" | cut -d' ' -f1)"
	done | sha256sum | cut -d' ' -f1)
	[ "$(cat "$tree/usr/lib/toolcell/harness.id")" = "$id" ]
	run "$BIN/toolcell" check
	[[ "$output" == *$'\n'"rootfs harnesses: this toolcell's"$'\n'* ]]
	mine=${id:0:12} # the build's harnesses are the binary's
	# the tree an upgrade leaves when its rebuild failed: another serve.py
	echo '# another version' >>"$TC_TMP/src/serve.py"
	mini_build
	[ "$status" -eq 0 ]
	tree=$(readlink -f "$BIN/rootfs")
	id=$(cut -c1-12 "$tree/usr/lib/toolcell/harness.id")
	local want="the rootfs $tree holds other harnesses than this toolcell speaks to (harness id $id, this toolcell's $mine: a rootfs left from another toolcell version, or whose rebuild failed); rebuild it with 'toolcell rootfs build' (as root)"
	capture "$BIN/toolcell" call "$TC_TMP/src/harness.py" <<<'{}'
	[ "$status" -eq 125 ]
	[ "$(jq -r .error.message "$TC_TMP/stdout")" = "$want" ]
	capture "$BIN/toolcell" session </dev/null
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $want" ]
	capture timeout 30 "$BIN/toolcell" serve --socket "$TC_TMP/s.sock"
	[ "$status" -eq 125 ]
	[ "$(cat "$TC_TMP/stderr")" = "toolcell: $want" ]
	run "$BIN/toolcell" check
	[[ "$output" == *$'\n'"rootfs harnesses: NOT THIS TOOLCELL'S (call, session and serve refuse the tree): $want"$'\n'* ]]
	# a caller's --rootfs DIR (built with --dest) is told to rebuild that
	printf '{"version": 1, "allow": {"rootfs": ["%s"]}}\n' "$BIN/rootfs" >"$TC_TMP/allow.json"
	capture "$BIN/toolcell" call --policy "$TC_TMP/allow.json" --rootfs "$BIN/rootfs" "$TC_TMP/src/harness.py" <<<'{}'
	[ "$status" -eq 125 ]
	[ "$(jq -r .error.message "$TC_TMP/stdout")" = "${want%%rebuild it with*}rebuild it with 'toolcell rootfs build --dest $BIN/rootfs'" ]
	# python and run use no harness of the tree's
	run "$BIN/toolcell" python -S -c 'print(6 * 7)'
	[ "$status" -eq 0 ]
	[ "$output" = 42 ]
	# a tree from a builder before harness.id
	rm "$tree/usr/lib/toolcell/harness.id"
	capture "$BIN/toolcell" call "$TC_TMP/src/harness.py" <<<'{}'
	[ "$status" -eq 125 ]
	[ "$(jq -r .error.message "$TC_TMP/stdout")" = "the rootfs $tree has no /usr/lib/toolcell/harness.id (built by an older toolcell, or from a manifest without the harnesses), so its harnesses may not speak this toolcell's protocol; rebuild it with 'toolcell rootfs build' (as root)" ]
}

@test "a rebuild switches atomically: a running sandbox keeps its tree, a later build removes it" {
	mini_build
	[ "$status" -eq 0 ]
	local v1
	v1=$(readlink -f "$BIN/rootfs")
	mkdir "$TC_TMP/sync"
	chmod 755 "$TC_TMP/sync"
	# a run on tree one that reads /etc/marker only after the rebuild
	"$BIN/toolcell" run --ro-bind "$TC_TMP/sync" -- /usr/bin/python3 -S -c '
import os, time
print("started", flush=True)
for _ in range(600):
    if os.path.exists("'"$TC_TMP"'/sync/go"):
        break
    time.sleep(0.05)
print(open("/etc/marker").read(), end="")' >"$TC_TMP/bg.out" 2>"$TC_TMP/bg.err" &
	local bg=$! i
	for i in $(seq 600); do
		[ "$(head -c7 "$TC_TMP/bg.out")" = started ] && break
		sleep 0.05
	done
	[ "$(head -c7 "$TC_TMP/bg.out")" = started ]
	mini_manifest two
	mini_build
	[ "$status" -eq 0 ]
	grep -qxF "build-rootfs: kept $v1: a running sandbox uses it (a later build removes it)" "$TC_TMP/stdout"
	[ "$(readlink -f "$BIN/rootfs")" != "$v1" ]
	[ -d "$v1/usr" ]
	# a new run sees the new tree while the old one still runs on its own
	run "$BIN/toolcell" run -- /usr/bin/python3 -S -c 'print(open("/etc/marker").read(), end="")'
	[ "$status" -eq 0 ]
	[ "$output" = two ]
	touch "$TC_TMP/sync/go"
	wait "$bg"
	[ "$(cat "$TC_TMP/bg.out")" = "started"$'\n'"one" ]
	# no run holds tree one now: the next build removes it and tree two
	mini_manifest three
	mini_build
	[ "$status" -eq 0 ]
	! grep -q kept "$TC_TMP/stdout"
	[ ! -e "$v1" ]
	[ "$(find "$BIN/rootfs.d" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
	run "$BIN/toolcell" run -- /usr/bin/python3 -S -c 'print(open("/etc/marker").read(), end="")'
	[ "$output" = three ]
}

@test "a tree from before versioned builds (a plain directory) is replaced by the link" {
	mini_build
	[ "$status" -eq 0 ]
	local v1
	v1=$(readlink -f "$BIN/rootfs")
	rm "$BIN/rootfs"
	mv "$v1" "$BIN/rootfs"
	mini_manifest two
	mini_build
	[ "$status" -eq 0 ]
	[ -L "$BIN/rootfs" ]
	[ "$(find "$BIN/rootfs.d" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
	run "$BIN/toolcell" run -- /usr/bin/python3 -S -c 'print(open("/etc/marker").read(), end="")'
	[ "$output" = two ]
}

@test "the data variant (--with python3-numpy,python3-pandas): numpy and pandas compute inside, no shell" {
	local root="$TC_BUILD/rootfs-data"
	[ -f "$root/usr/lib/toolcell/manifest.txt" ] ||
		tc_skip "no data rootfs: cmake --build build --target rootfs-data"
	printf '{"version": 1, "rootfs": "data", "env": {"PATH": "/usr/bin", "HOME": "/tmp", "PYTHONPYCACHEPREFIX": "/tmp/pycache"}}\n' \
		>"$TC_TMP/data.json"
	capture "$TOOLCELL" python --policy "$TC_TMP/data.json" --result "$TC_TMP/r.json" -c '
import numpy as np, pandas as pd
a = np.array([[2.0, 1.0], [1.0, 3.0]])
print(np.linalg.inv(a).round(4).tolist(), round(float(np.linalg.det(a)), 6))
df = pd.DataFrame({"k": ["a", "b", "a", "b"], "v": [1, 2, 3, 4]})
print(df.groupby("k")["v"].sum().to_dict(), pd.__version__ == "'"$(dpkg-query -W -f='${Version}' python3-pandas | sed 's/+.*//')"'")'
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "[[0.6, -0.2], [-0.2, 0.4]] 5.0"$'\n'"{'a': 4, 'b': 6} True" ]
	[ ! -s "$TC_TMP/stderr" ]
	[ "$(jget provenance.rootfs_manifest.sha256 "$TC_TMP/r.json")" = "$(cut -c1-64 "$root/usr/lib/toolcell/manifest.txt.sha256")" ]
	# no shell or other program came with the packages: python3.11 is the only
	# executable ELF besides the loader and libc
	[ "$(find "$root/usr/bin" "$root/usr/sbin" -mindepth 1 -printf '%f\n' | sort | tr '\n' ' ')" = "python3 python3.11 " ]
	[ "$(find "$root/usr" -type f -perm -u+x -printf '%f\n' | sort | tr '\n' ' ')" = "ld-linux-x86-64.so.2 libc.so.6 python3.11 " ]
	# the packages are recorded with the host's versions
	local p
	for p in python3-numpy python3-pandas python3-pandas-lib:amd64 libblas3:amd64 liblapack3:amd64; do
		grep -qxF "$p $(dpkg-query -W -f='${Version}' "$p")" "$root/usr/lib/toolcell/packages.txt"
	done
}

@test "the dpkg trigger's script rebuilds every tree in the state directory as it was built" {
	local state="$TC_TMP/state" trigger
	trigger="$(dirname "$(readlink -f "$BUILDER")")/toolcell-rootfs-trigger"
	[ -x "$trigger" ]
	mkdir "$state"
	BIN="$state" mini_build
	[ "$status" -eq 0 ]
	local v1
	v1=$(readlink "$state/rootfs")
	# nothing changed: every tree is up to date
	capture env TOOLCELL_STATE_DIR="$state" "$trigger" triggered
	[ "$status" -eq 0 ]
	[ "$(cat "$TC_TMP/stdout")" = "build-rootfs: checking $state/rootfs"$'\n'"build-rootfs: $state/rootfs is up to date" ]
	# what it was built from changed (as an upgraded package's files would):
	# rebuilt from the same manifest, switched in
	mini_manifest two
	capture env TOOLCELL_STATE_DIR="$state" "$trigger" triggered
	[ "$status" -eq 0 ]
	[ "$(readlink "$state/rootfs")" != "$v1" ]
	[ "$(cat "$state/rootfs/etc/marker")" = two ]
	# a bad argument is a usage error; a failed build warns and exits 0
	capture "$trigger" upgrade
	[ "$status" -eq 2 ]
	[ "$(cat "$TC_TMP/stderr")" = "usage: $trigger configure|triggered" ]
	printf 'bogus\n' >"$TC_TMP/src/MANIFEST"
	capture env TOOLCELL_STATE_DIR="$state" "$trigger" triggered
	[ "$status" -eq 0 ]
	[ "$(tail -n1 "$TC_TMP/stderr")" = "toolcell: warning: a rootfs in $state could not be built; see above, then run 'toolcell rootfs build' (as root)" ]
	[ "$(cat "$state/rootfs/etc/marker")" = two ]
}
