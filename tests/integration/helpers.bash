# Shared helpers for the integration tests (bats). Sourced with `load helpers`.
#
# TOOLCELL   the binary under test (ctest sets it; default: the repo's build/)
# TC_TMP     a fresh world-traversable temp dir for the test (see tc_setup):
#            as root the tool runs as an unprivileged host uid, which must be
#            able to reach every file toolcell binds, and bats' own
#            $BATS_TEST_TMPDIR lies under a mode-700 directory.

: "${TOOLCELL:=$BATS_TEST_DIRNAME/../../build/toolcell}"
export TOOLCELL
export PY=/usr/bin/python3

tc_setup() {
	[ -x "$TOOLCELL" ] || {
		echo "toolcell binary not found at $TOOLCELL (set TOOLCELL)" >&2
		return 1
	}
	TC_TMP=$(mktemp -d /tmp/toolcell-it.XXXXXX)
	chmod 755 "$TC_TMP"
	export TC_TMP
}

tc_teardown() {
	if [ -n "${TC_TMP:-}" ] && [ -d "$TC_TMP" ]; then
		chmod -R u+rwX "$TC_TMP" 2>/dev/null
		rm -rf "$TC_TMP"
	fi
}

# fixture NAME [DEST_DIR]: copy tools/NAME into DEST_DIR (default $TC_TMP)
# with mode 644, print the copy's absolute path
fixture() {
	local dest="${2:-$TC_TMP}"
	cp "$BATS_TEST_DIRNAME/tools/$1" "$dest/$1"
	chmod 644 "$dest/$1"
	echo "$dest/$1"
}

# jget PATH [FILE]: print one value of a JSON document (FILE, else stdin).
# PATH is dot-separated keys (a number indexes a list); strings print raw,
# anything else as JSON (null, true, 42, {...}). Fails if the document is
# not exactly one JSON value or the path is missing.
jget() {
	"$PY" -I -c '
import json, sys
doc = json.loads(open(sys.argv[2], "rb").read() if len(sys.argv) > 2 else sys.stdin.buffer.read())
v = doc
for k in sys.argv[1].split(".") if sys.argv[1] else []:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
' "$@"
}

# is_one_json [FILE]: succeed when FILE (else stdin) is exactly one JSON document
is_one_json() {
	"$PY" -I -c '
import json, sys
json.loads(open(sys.argv[1], "rb").read() if len(sys.argv) > 1 else sys.stdin.buffer.read())
' "$@"
}

# capture CMD...: run CMD with stdout to $TC_TMP/stdout and stderr to
# $TC_TMP/stderr (byte-exact, unlike bats' $output); set $status. Stdin is
# the caller's (redirect the call).
capture() {
	status=0
	"$@" >"$TC_TMP/stdout" 2>"$TC_TMP/stderr" || status=$?
}

# same_bytes FILE EXPECTED_FILE: cmp, showing both sides' sizes on failure
same_bytes() {
	cmp "$1" "$2" || {
		echo "size $(stat -c %s "$1") vs expected $(stat -c %s "$2")" >&2
		return 1
	}
}

# tc_skip REASON: skip where a developer's host lacks something, but in CI
# (CI=true) a test that cannot run is a failure, never a pass (HACKING.md, style rule 19).
tc_skip() {
	if [ -n "${CI:-}" ]; then
		echo "cannot run here, which CI counts as a failure: $*" >&2
		return 1
	fi
	skip "$*"
}

# tc_script NAME: a front end's entry point, tools/NAME, from the source
# tree, else beside the binary (the build tree and the unprivileged stage)
tc_script() {
	local c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/$1}" "$BATS_TEST_DIRNAME/../../tools/$1" \
		"$(dirname "$TOOLCELL")/$1"; do
		if [ -n "$c" ] && [ -r "$c" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# tc_python_dir: the folder holding the Python package toolcell and the
# client's first name, toolcell_client.py: tools/python in the source tree,
# else python/ beside the binary (the build tree and the unprivileged stage)
tc_python_dir() {
	local c
	for c in "${TC_SOURCE:+$TC_SOURCE/tools/python}" "$BATS_TEST_DIRNAME/../../tools/python" \
		"$(dirname "$TOOLCELL")/python"; do
		if [ -n "$c" ] && [ -r "$c/toolcell/client.py" ] && [ -r "$c/toolcell_client.py" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

# tc_unittest SCRIPT [COUNT]: run the unittest script SCRIPT (a path) with
# /usr/bin/python3 -I -B (nothing written into the checkout) against the
# package in tc_python_dir (as TC_CLIENT_DIR); it must pass every test it
# has (exactly COUNT of them when given) and skip none
tc_unittest() {
	local dir
	dir=$(tc_python_dir) || tc_skip "tools/python/toolcell not found (set TC_SOURCE to the repository)"
	TC_CLIENT_DIR="$dir" capture "$PY" -I -B "$1" -v
	cat "$TC_TMP/stderr" >&2
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$TC_TMP/stderr")" = OK ]
	if [ -n "${2:-}" ]; then
		grep -q "^Ran $2 tests in " "$TC_TMP/stderr"
	else
		grep -Eq '^Ran [1-9][0-9]* tests? in ' "$TC_TMP/stderr"
	fi
	! grep -q 'skipped' "$TC_TMP/stderr"
}

# tc_kill_pids: SIGKILL each pid in the array PIDS (what a test started in
# the background and may have left running when it failed)
tc_kill_pids() {
	local p
	for p in "${PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
}

# tc_stage_site: a build-tree layout of the test's own in $S ($TC_TMP/site):
# the binary, the build's policies, a link to its rootfs and an empty etc/
# (the site folder's toolcell.conf goes there); TC is the staged binary
tc_stage_site() {
	local policies rootfs
	# where the binary keeps them: it says (not a test's TOOLCELL_ROOTFS)
	policies=$(env -u TOOLCELL_ROOTFS "$TOOLCELL" version --paths policies) || return 1
	rootfs=$(env -u TOOLCELL_ROOTFS "$TOOLCELL" version --paths rootfs) || return 1
	S=$TC_TMP/site
	mkdir -p "$S/etc"
	cp "$TOOLCELL" "$S/toolcell"
	cp -r "$policies" "$S/policies"
	ln -s "$rootfs" "$S/rootfs"
	chmod -R a+rX "$S"
	TC=$S/toolcell
}

# tc_gone MARK: succeed once no process has MARK (unique to the test) in its
# command line (5 s)
tc_gone() {
	local i
	for i in $(seq 50); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	pgrep -fa "$1" >&2
	return 1
}

# tc_wait_for FILE TEXT: until FILE holds TEXT (10 s)
tc_wait_for() {
	local i
	for i in $(seq 100); do
		grep -qs "$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}
