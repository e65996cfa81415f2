#!/usr/bin/env bats
# toolcell serve's SIGHUP: the policy (and the rootfs it names) is read
# again; the warm entries made with the old one end and new ones are made
# with the new one, a call already running finishes with the policy it
# started with (and its record names that one), and a policy that no longer
# loads leaves the old one in place, entries and all, with a line on stderr.

bats_require_minimum_version 1.5.0

load helpers
load serve-lib

# policy MARK: a policy whose env gives the tool MARK in $MARK
policy() {
	printf '{"version": 1, "limits": {"timeout": 20, "request_size": "4K"}, "env": {"MARK": "%s"}}\n' \
		"$1" >"$TC_TMP/p.json.new"
	chmod 644 "$TC_TMP/p.json.new"
	mv "$TC_TMP/p.json.new" "$TC_TMP/p.json"
}

# ready N: true once the server's own pool has N ready entries (within 30 s)
ready() {
	srv_until pools.0.ready="$1" || {
		cat "$TC_TMP/serve.err" >&2
		return 1
	}
}

# mark: a call of the tool that returns its $MARK
mark() {
	echo 'import os
def run(args): return os.environ.get("MARK")' >"$TC_TMP/mark.py"
	"$TOOLCELL" call --server "$TC_TMP/s.sock" "$TC_TMP/mark.py" <<<'{}'
}

# hup_and_wait LINE: SIGHUP, then wait for stderr's LINE-th line to appear
hup_and_wait() {
	kill -HUP "$SERVER"
	for _ in $(seq 300); do
		[ "$(wc -l <"$TC_TMP/serve.err")" -ge "$1" ] && return 0
		sleep 0.1
	done
	cat "$TC_TMP/serve.err" >&2
	return 1
}

setup() { srv_test_setup; }
teardown() { srv_test_teardown; }

@test "SIGHUP loads the changed policy: the next call runs with it, its sha256 in the record" {
	policy one
	srv_start --pool 1
	run -0 mark
	[ "$(jget data <<<"$output")" = one ]
	policy two
	hup_and_wait 2
	sha=$(sha256sum <"$TC_TMP/p.json" | cut -d' ' -f1)
	ready 1
	run -0 mark
	[ "$(jget data <<<"$output")" = two ]
	# the record of a call made after the reload names the new policy
	echo 'print("x")' >"$TC_TMP/x.py"
	"$PY" -I -c 'import json,sys; print(json.dumps({"id": 7, "kind": "exec", "source": open(sys.argv[1]).read()}))' \
		"$TC_TMP/x.py" | timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" >"$TC_TMP/out"
	[ "$(jget record.provenance.policy.sha256 <"$TC_TMP/out")" = "$sha" ]
	[ "$(jget record.status <"$TC_TMP/out")" = ok ]
	# stderr named the policy and the rootfs loaded, as the record does
	manifest=$(jget record.provenance.rootfs_manifest.sha256 <"$TC_TMP/out")
	[ ${#manifest} = 64 ]
	[ "$(sed -n 2p "$TC_TMP/serve.err")" = "toolcell: serve: SIGHUP: loaded $TC_TMP/p.json (sha256 $sha), rootfs manifest $manifest; the warm entries are replaced" ]
}

@test "SIGHUP with a policy that no longer loads keeps the old one and its entries, and says so" {
	policy one
	srv_start --pool 1
	mapfile -t before < <(srv_runners "$SERVER")
	[ "${#before[@]}" = 1 ]
	echo '{"version": 1, "limits": {' >"$TC_TMP/p.json"
	hup_and_wait 2
	[ "$(sed -n 2p "$TC_TMP/serve.err")" = "toolcell: serve: SIGHUP: kept the policy $TC_TMP/p.json as it was loaded, and its warm entries: $TC_TMP/p.json: invalid JSON near byte 27 (line 2) (fix the policy and send SIGHUP again)" ]
	# the same warm entry is still there and answers with the old policy
	[ "$(srv_runners "$SERVER")" = "${before[0]}" ]
	run -0 mark
	[ "$(jget data <<<"$output")" = one ]
	# fixed, it loads
	policy three
	hup_and_wait 3
	[[ "$(sed -n 3p "$TC_TMP/serve.err")" == "toolcell: serve: SIGHUP: loaded $TC_TMP/p.json "* ]]
	ready 1
	run -0 mark
	[ "$(jget data <<<"$output")" = three ]
}

@test "a call running at SIGHUP finishes with the policy it started with, and its record says so" {
	policy old
	srv_start --pool 1
	old_sha=$(sha256sum <"$TC_TMP/p.json" | cut -d' ' -f1)
	echo 'import os, time
def run(args):
    time.sleep(3)
    return os.environ.get("MARK")' >"$TC_TMP/slow.py"
	"$PY" -I -c 'import json,sys; print(json.dumps({"id": 1, "kind": "call", "source": open(sys.argv[1]).read(), "args": {}}))' \
		"$TC_TMP/slow.py" >"$TC_TMP/slow.req"
	timeout 60 "$PY" -I "$CLIENT" "$TC_TMP/s.sock" <"$TC_TMP/slow.req" >"$TC_TMP/slow.out" &
	client=$!
	# the call is running once the pool refilled beside it
	srv_until pools.0.busy=1
	policy new
	hup_and_wait 2
	wait "$client"
	[ "$(jget data <"$TC_TMP/slow.out")" = old ]
	[ "$(jget record.provenance.policy.sha256 <"$TC_TMP/slow.out")" = "$old_sha" ]
	ready 1
	run -0 mark
	[ "$(jget data <<<"$output")" = new ]
}
