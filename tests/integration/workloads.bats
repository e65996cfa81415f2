#!/usr/bin/env bats
# The workload corpus: real tool-like Python programs (tests/workloads/*.py)
# that must keep working under the default policy, syscall filter included.
# Each program exercises one area of the standard library for real, prints
# exactly `ok NAME` and exits 0, or exits non-zero saying what broke. Each
# runs as `toolcell python SCRIPT.py`, no options, stdin from /dev/null, and
# must leave stdout `ok NAME` and stderr empty. Runs as root and as an
# unprivileged caller (TC_UNPRIVILEGED=1); the workloads do not branch on it.
# serve-workloads.bats is this file under another name: there each workload
# is an `exec` request to one `toolcell serve` of the default policy
# (serve-lib.bash), held to the same outcome.

bats_require_minimum_version 1.5.0

VIA_SERVE=
if [[ "$(basename "$BATS_TEST_FILENAME")" == serve-* ]]; then
	VIA_SERVE=1
	load serve-lib
fi

setup_file() {
	[ -z "$VIA_SERVE" ] || srv_setup_file
}

teardown_file() {
	[ -z "$VIA_SERVE" ] || srv_teardown_file
}

: "${TOOLCELL:=$BATS_TEST_DIRNAME/../../build/toolcell}"
WORKLOADS="$BATS_TEST_DIRNAME/../workloads"

setup() {
	[ -x "$TOOLCELL" ] || {
		echo "toolcell binary not found at $TOOLCELL (set TOOLCELL)" >&2
		return 1
	}
	# as root the tool runs as an unprivileged host uid, which reads the
	# script by its "other" bits: a fresh world-readable copy each test
	WL_DIR=$(mktemp -d /tmp/tc-wl.XXXXXX)
	chmod 755 "$WL_DIR"
}

teardown() {
	if [ -n "${WL_DIR:-}" ] && [ -d "$WL_DIR" ]; then
		rm -rf "$WL_DIR"
	fi
}

# workload NAME: run tests/workloads/NAME.py in the sandbox and check it
workload() {
	local name=$1
	cp "$WORKLOADS/$name.py" "$WL_DIR/$name.py"
	chmod 644 "$WL_DIR/$name.py"
	if [ -n "$VIA_SERVE" ]; then
		case $name in
		os_info)
			# a warm entry's command line is its harness's, set before
			# the request came (README, toolcell serve); the rest holds
			srv_exec "$WL_DIR/$name.py"
			[ "$status" -eq 1 ] && [ -z "$output" ]
			[ "$stderr" = "FAIL os_info: /proc/self/cmdline" ]
			sed -i '/"\/proc\/self\/cmdline"/,+1d' "$WL_DIR/$name.py"
			! grep -q cmdline "$WL_DIR/$name.py"
			;;
		multiproc_spawn)
			# a served script is text, not a file: spawn's children cannot
			# run /tool/NAME again (README, toolcell serve); the pool's
			# workers fail at start until the stderr cap ends the call
			srv_exec "$WL_DIR/$name.py"
			[ "$status" -eq 137 ] && [ -z "$output" ]
			[ "$(/usr/bin/python3 -I -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$SRV_OUT/record.json")" = output_limit ]
			[[ "$stderr" == *"FileNotFoundError: [Errno 2] No such file or directory: '/tool/tool.py'"* ]]
			return 0
			;;
		esac
		srv_exec "$WL_DIR/$name.py"
	else
		run --separate-stderr "$TOOLCELL" python "$WL_DIR/$name.py" </dev/null
	fi
	if [ "$status" -ne 0 ] || [ "$output" != "ok $name" ] || [ -n "$stderr" ]; then
		echo "workload $name: exit status $status"
		echo "--- stdout"
		echo "$output"
		echo "--- stderr"
		echo "$stderr"
		return 1
	fi
}

@test "every workload in tests/workloads has a test here" {
	local f name missing=""
	for f in "$WORKLOADS"/*.py; do
		name=$(basename "$f" .py)
		grep -q "^@test \"workload $name\" { workload $name; }\$" "$BATS_TEST_FILENAME" ||
			missing="$missing $name"
	done
	if [ -n "$missing" ]; then
		echo "no test for:$missing"
		return 1
	fi
}

# computation and data
@test "workload json_codec" { workload json_codec; }
@test "workload regex" { workload regex; }
@test "workload math_funcs" { workload math_funcs; }
@test "workload decimal_ctx" { workload decimal_ctx; }
@test "workload stats_fractions" { workload stats_fractions; }
@test "workload datetime_tz" { workload datetime_tz; }
@test "workload hashing" { workload hashing; }
@test "workload zlib_crc" { workload zlib_crc; }
@test "workload random_secrets" { workload random_secrets; }
@test "workload stdlib_data" { workload stdlib_data; }
@test "workload csv_io" { workload csv_io; }
@test "workload binary_codecs" { workload binary_codecs; }
@test "workload unicode_text" { workload unicode_text; }
@test "workload url_email" { workload url_email; }
@test "workload xml_html" { workload xml_html; }
@test "workload pickling" { workload pickling; }
@test "workload cli_logging" { workload cli_logging; }
@test "workload code_tools" { workload code_tools; }
@test "workload memory_alloc" { workload memory_alloc; }

# files in /tmp and /dev/shm
@test "workload tempfile_sqlite" { workload tempfile_sqlite; }
@test "workload files_shutil" { workload files_shutil; }
@test "workload archives" { workload archives; }
@test "workload mmap_files" { workload mmap_files; }

# processes, threads, signals, limits
@test "workload threads" { workload threads; }
@test "workload multiproc_fork" { workload multiproc_fork; }
@test "workload multiproc_spawn" { workload multiproc_spawn; }
@test "workload subprocess_python" { workload subprocess_python; }
@test "workload signals" { workload signals; }
@test "workload rlimits" { workload rlimits; }

# I/O multiplexing and the sandbox's own loopback
@test "workload select_poll" { workload select_poll; }
@test "workload asyncio_sockets" { workload asyncio_sockets; }
@test "workload sockets_local" { workload sockets_local; }
@test "workload http_local" { workload http_local; }

# the system as the tool sees it
@test "workload timing" { workload timing; }
@test "workload os_info" { workload os_info; }
@test "workload platform_info" { workload platform_info; }
@test "workload sysconfig_info" { workload sysconfig_info; }
@test "workload users" { workload users; }
@test "workload ctypes_libc" { workload ctypes_libc; }
