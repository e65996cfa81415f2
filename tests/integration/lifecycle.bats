#!/usr/bin/env bats
# toolcell's own life and the sandbox's: nothing of a sandbox outlives
# toolcell at any instant of its start-up, and a stopped toolcell does not
# stop the sandbox's own deadline. Each test finds its processes by a marker
# of its own in their argv, never by the uid range other sandboxes share.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-life.XXXXXX)
	chmod 755 "$T"
	MARK="tc-life-$$-$BATS_TEST_NUMBER-$RANDOM$RANDOM"
	# a tiny uid pool of its own (2 pairs): a leaked pair shows at once
	POOL_START=$((1000000000 + 4 * ((RANDOM * 32768 + RANDOM) % 500000000)))
	/usr/bin/python3 -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["uid_range"] = {"start": int(sys.argv[3]), "count": 4}
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" "$T/p.json" "$POOL_START"
	chmod 644 "$T/p.json"
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
	rm -rf "$T"
}

@test "SIGKILL at any instant of start-up leaves no process of the sandbox and no uid pair taken" {
	# a few hundred kills swept over the first 20 ms (start-up takes 2-5 ms
	# here; later kills meet the running tool); TOOLCELL_LIFE_KILLS=5000
	# for the manual run
	local pool=()
	# the uid pool exists as root only (unprivileged, the caller's uid is mapped)
	[ "$(id -u)" -ne 0 ] || pool=("$POOL_START" 4)
	run /usr/bin/python3 -I "$BATS_TEST_DIRNAME/killsweep.py" "$TOOLCELL" "$T/p.json" "$MARK" \
		"${TOOLCELL_LIFE_KILLS:-300}" 20 "${pool[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *" 0 processes left; 0 uid pairs still locked"* ]]
	# and the pool serves both pairs at once again
	"$TOOLCELL" run --policy "$T/p.json" -- python3 -S -c "import time; time.sleep(1) # $MARK" &
	"$TOOLCELL" run --policy "$T/p.json" -- python3 -S -c "import time; time.sleep(0.2) # $MARK"
	wait $!
}
