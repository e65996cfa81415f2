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
# (CI=true) a test that cannot run is a failure, never a pass (STYLE 19).
tc_skip() {
	if [ -n "${CI:-}" ]; then
		echo "cannot run here, which CI counts as a failure: $*" >&2
		return 1
	fi
	skip "$*"
}
