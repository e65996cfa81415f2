#!/usr/bin/env bats
# Rustic AI's PythonExecExecutor through toolcell session (CLIENTS.md 003):
# rustic's own stateful assertions, its removed DockerExecutor's and the
# document's execute() shape, replayed through the client, tools/python/toolcell/client.py
# (rustic/test_rustic.py), plus the wire facts a framework meets on day one:
# rustic's 60-second default timeout is clamped, import lists per session
# within the policy's ceiling, and a default import that is not there.

load helpers

setup() {
	tc_setup
}

teardown() {
	tc_teardown
}

@test "rustic's own assertions, the DockerExecutor's and the document's, through the client" {
	tc_unittest "$BATS_TEST_DIRNAME/rustic/test_rustic.py" 20
}

@test "wire: rustic's timeout_s 60 over a 3-second session is clamped and said, not refused" {
	printf '%s\n' '{"id": "a", "code": "print(1)", "timeout_s": 60}' >"$TC_TMP/in"
	capture "$TOOLCELL" session --timeout 3 <"$TC_TMP/in"
	[ "$status" -eq 0 ]
	[ "$(jget success "$TC_TMP/stdout")" = true ]
	[ "$(jget timeout_clamped_to "$TC_TMP/stdout")" = 3.0 ]
	[ ! -s "$TC_TMP/stderr" ]
}

@test "wire: --allow-import, dotted names, and the policy's max_imports ceiling" {
	printf '%s\n' '{"version": 1, "session": {"allowed_imports": ["json"], "max_imports": ["math", "xml.etree"]}}' >"$TC_TMP/p.json"
	chmod 644 "$TC_TMP/p.json"
	printf '%s\n' '{"id": 1, "code": "import json, math, xml.etree.ElementTree\nfrom xml.etree import ElementTree"}' \
		'{"id": 2, "code": "import xml"}' >"$TC_TMP/in"
	capture "$TOOLCELL" session --policy "$TC_TMP/p.json" --allow-import math --allow-import xml.etree.ElementTree <"$TC_TMP/in"
	[ "$status" -eq 0 ]
	[ "$(sed -n 1p "$TC_TMP/stdout" | jget success)" = true ]
	[ "$(sed -n 2p "$TC_TMP/stdout" | jget exception.message)" = "Import of 'xml' is not allowed. Allowed imports: ['json', 'math', 'xml.etree.ElementTree']" ]
	# beyond the ceiling: refused before any request, naming the module and the ceiling
	run "$TOOLCELL" session --policy "$TC_TMP/p.json" --allow-import xml </dev/null
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --allow-import xml: the policy's session.max_imports does not include xml (it is [\"math\",\"xml.etree\"]); ask the operator to add it, or leave the import out" ]
	run "$TOOLCELL" session --policy "$TC_TMP/p.json" --default-import o=os </dev/null
	[ "$status" -eq 125 ]
	[[ "$output" == "toolcell: --default-import os: the policy's session.max_imports does not include os "* ]]
	# a policy without max_imports lets a caller add nothing
	printf '%s\n' '{"version": 1}' >"$TC_TMP/q.json"
	chmod 644 "$TC_TMP/q.json"
	run "$TOOLCELL" session --policy "$TC_TMP/q.json" --allow-import json </dev/null
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: --allow-import json: the policy's session.max_imports does not include json (it is []: a caller may add none); ask the operator to add it, or leave the import out" ]
	run "$TOOLCELL" session --allow-import 'os;import' </dev/null
	[ "$status" -eq 125 ]
	[ "$output" = 'toolcell: --allow-import os;import: expected a module name such as "json" or "matplotlib.pyplot"' ]
	run "$TOOLCELL" run --allow-import json -- /usr/bin/true
	[ "$status" -eq 125 ]
}

@test "wire: a default import that is not in the rootfs answers every request as ModuleNotFoundError" {
	printf '%s\n' '{"id": 1, "code": "print(1)"}' '{"id": 2, "code": "print(2)"}' >"$TC_TMP/in"
	capture "$TOOLCELL" session --default-import np=numpy --default-import m=math <"$TC_TMP/in"
	[ "$status" -eq 0 ]
	for n in 1 2; do
		[ "$(sed -n ${n}p "$TC_TMP/stdout" | jget exception.type)" = ModuleNotFoundError ]
		[ "$(sed -n ${n}p "$TC_TMP/stdout" | jget exception.message)" = "default import np = numpy failed: No module named 'numpy'" ]
		[ "$(sed -n ${n}p "$TC_TMP/stdout" | jget stdout)" = "" ]
		[ "$(sed -n ${n}p "$TC_TMP/stdout" | jget state_lost)" = false ]
	done
	[ "$(cat "$TC_TMP/stderr")" = "session: default import np = numpy failed: No module named 'numpy' (ModuleNotFoundError)" ]
}
