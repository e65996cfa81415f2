#!/usr/bin/env bats
# Landlock in the tool: described in the record, signals scoped to the
# sandbox, the tool's own abstract sockets and writable places still work.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-ll.XXXXXX)
	chmod 755 "$T"
	# the host's landlock ABI (0 when it has none)
	ABI=$(/usr/bin/python3 -I -c "import ctypes; r = ctypes.CDLL(None).syscall(444, None, 0, 1); print(max(r, 0))")
}

teardown() {
	rm -rf "$T"
}

@test "the record says which landlock ABI and rights the tool runs under" {
	"$TOOLCELL" python --result "$T/r.json" -c "pass"
	run /usr/bin/python3 -I -c "import json; print(json.load(open('$T/r.json'))['isolation']['landlock'])"
	if [ "$ABI" -ge 6 ]; then
		[ "$output" = "ABI $ABI: file system rights 0x7fff handled (write only in /tmp, /dev/shm, the workspace and writable binds); abstract unix sockets and signals scoped to the sandbox" ]
	elif [ "$ABI" -ge 1 ]; then
		[[ "$output" == "ABI $ABI: file system rights "* ]]
	else
		[ "$output" = "unavailable (this kernel has no landlock)" ]
	fi
}

@test "the tool cannot signal the sandbox's init, even sharing its uid (unprivileged)" {
	run "$TOOLCELL" python -c "
import errno, os
try:
    os.kill(1, 0); print('allowed')
except OSError as e:
    print(errno.errorcode[e.errno])"
	[ "$status" -eq 0 ]
	# as root the init is another uid; unprivileged, landlock's signal
	# scope (ABI 6) is what refuses it
	[ "$output" = "EPERM" ]
}

@test "the tool's own processes, abstract sockets and writable places still work" {
	mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" -c "
import os, signal, socket, time
srv = socket.socket(socket.AF_UNIX); srv.bind('\0toolcell-test'); srv.listen()
pid = os.fork()
if pid == 0:
    c = socket.socket(socket.AF_UNIX); c.connect('\0toolcell-test'); c.send(b'hi'); os._exit(0)
conn, _ = srv.accept(); print(conn.recv(2).decode())
child = os.fork()
if child == 0:
    time.sleep(10); os._exit(0)
os.kill(child, signal.SIGTERM); print(os.waitpid(child, 0)[1] & 0x7f)
for d in ('/tmp', '/dev/shm', '/workspace'):
    with open(d + '/f', 'w') as f: f.write('x')
    os.truncate(d + '/f', 0); os.rename(d + '/f', d + '/g'); os.unlink(d + '/g')
open('/dev/null', 'w').write('x'); print('writes ok')"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'hi\n15\nwrites ok')" ]
}
