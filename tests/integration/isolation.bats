#!/usr/bin/env bats
# Isolation properties of a real sandbox: each test names one property and
# fails when the code that gives it is removed. Runs as root and, with
# TC_UNPRIVILEGED=1, as an unprivileged user.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-iso.XXXXXX)
	chmod 755 "$T"
}

teardown() {
	[ -z "${LISTENER:-}" ] || kill "$LISTENER" 2>/dev/null || true
	rm -rf "$T"
}

# py CODE: run python code in the default sandbox
py() {
	"$TOOLCELL" python -c "$1"
}

@test "a file planted on the host outside the binds is invisible" {
	mkdir "$T/planted" && echo secret >"$T/planted/file" && chmod -R a+rX "$T/planted"
	run py "import os; print(os.path.exists('$T/planted/file'), os.path.exists('$T'))"
	[ "$status" -eq 0 ]
	[ "$output" = "False False" ]
	# the host's own files are not there either
	run py "import os; print([p for p in ('/root', '/home', '/etc/shadow', '/var', '/sys', '/run', '/boot') if os.path.exists(p)])"
	[ "$output" = "[]" ]
}

@test "the root has only the sandbox's own top-level entries" {
	run py "import os; print(sorted(os.listdir('/')))"
	[ "$status" -eq 0 ]
	[ "$output" = "['bin', 'dev', 'etc', 'lib', 'lib64', 'proc', 'sbin', 'tmp', 'usr']" ]
}

@test "the root, /usr, /etc and /proc are read-only" {
	run py "
import errno, os
for d in ('/', '/usr', '/usr/lib', '/etc', '/dev'):
    try:
        open(os.path.join(d, 'x'), 'w'); print(d, 'WRITABLE')
    except OSError as e:
        print(d, errno.errorcode[e.errno])
try:
    open('/proc/sys/kernel/hostname', 'w').write('x'); print('/proc/sys WRITABLE')
except OSError as e:
    print('/proc/sys', errno.errorcode[e.errno])
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "/ EROFS" ]
	[ "${lines[1]}" = "/usr EROFS" ]
	[ "${lines[2]}" = "/usr/lib EROFS" ]
	[ "${lines[3]}" = "/etc EROFS" ]
	[ "${lines[4]}" = "/dev EROFS" ]
	[ "${lines[5]}" = "/proc/sys EROFS" ]
}

@test "only /tmp, /dev/shm and the workspace are writable mounts" {
	mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" -c "
for line in open('/proc/self/mountinfo'):
    f = line.split()
    if 'rw' in f[5].split(','):
        print(f[4])
"
	[ "$status" -eq 0 ]
	# mountinfo's order is the mounts' creation order: the workspace's
	# copy is made before clone
	[ "$(sort <<<"$output")" = "$(printf '/dev/shm\n/tmp\n/workspace')" ]
}

@test "every mount is nosuid, and every mount but the device nodes is nodev" {
	run py "
for line in open('/proc/self/mountinfo'):
    f = line.split(); opts = f[5].split(',')
    if 'nosuid' not in opts: print('suid', f[4])
    if 'nodev' not in opts and not f[4].startswith('/dev/') : print('dev', f[4])
print('done')
"
	[ "$status" -eq 0 ]
	[ "$output" = "done" ]
}

@test "/tmp is size-limited (ENOSPC past --tmp-size)" {
	run "$TOOLCELL" python --tmp-size 1M -c "
import errno
try:
    with open('/tmp/fill', 'wb') as f:
        for _ in range(4): f.write(b'x' * (1 << 19)); f.flush()
    print('no limit')
except OSError as e:
    print(errno.errorcode[e.errno])
"
	[ "$status" -eq 0 ]
	[ "$output" = "ENOSPC" ]
}

@test "/tmp is noexec" {
	run py "
import errno, os, shutil
shutil.copy('/usr/bin/python3', '/tmp/p'); os.chmod('/tmp/p', 0o755)
try:
    os.execv('/tmp/p', ['p', '-c', 'pass'])
except OSError as e:
    print(errno.errorcode[e.errno])
"
	[ "$output" = "EACCES" ]
}

@test "a listener on the host's 127.0.0.1 cannot be reached" {
	/usr/bin/python3 -c "
import socket, sys, time
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(60)" >"$T/port" &
	LISTENER=$!
	for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
	port=$(cat "$T/port")
	# the host can reach it
	/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 2)"
	run py "
import errno, socket
try:
    socket.create_connection(('127.0.0.1', $port), 2); print('REACHED')
except OSError as e:
    print(errno.errorcode[e.errno])
"
	[ "$output" = "ECONNREFUSED" ]
}

@test "the only network interface is lo, and it is up" {
	run py "
import socket
print([l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]])
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
c = socket.create_connection(s.getsockname(), 2); print('loopback ok')
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "['lo']" ]
	[ "${lines[1]}" = "loopback ok" ]
}

@test "an outside address is unreachable (no route)" {
	run py "
import errno, socket
try:
    socket.create_connection(('192.0.2.1', 80), 2); print('REACHED')
except OSError as e:
    print(errno.errorcode[e.errno])
"
	[ "$output" = "ENETUNREACH" ]
}

@test "a secret in toolcell's environment is invisible to the tool" {
	export TC_TEST_SECRET=hunter2-$$
	# the needle is assembled at run time: the code itself is in cmdline
	run py "
import os
needle = 'hunter' + str(1 + 1)
print('env', [k for k, v in os.environ.items() if needle in v])
found = []
for pid in os.listdir('/proc'):
    if pid.isdigit():
        for name in ('environ', 'cmdline'):
            try:
                if needle.encode() in open('/proc/%s/%s' % (pid, name), 'rb').read(): found.append((pid, name))
            except OSError: pass
print('proc', found)
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "env []" ]
	[ "${lines[1]}" = "proc []" ]
}

@test "the environment is exactly the policy's" {
	run py "import os; print(sorted(os.environ))"
	[ "$output" = "['HOME', 'LANG', 'MALLOC_ARENA_MAX', 'PATH', 'PYTHONPYCACHEPREFIX', 'TMPDIR']" ]
}

@test "host processes are invisible; the tool is pid 2 of its own namespace" {
	run py "import os; print(os.getpid(), sorted(p for p in os.listdir('/proc') if p.isdigit() and p not in ('1', '2')))"
	[ "$status" -eq 0 ]
	[ "$output" = "2 []" ]
}

@test "the tool's uid is 1000 inside and never 0 on the host" {
	run py "
import os
print(os.getuid(), os.getgid(), os.getgroups())
for line in open('/proc/self/uid_map'):
    inside, host, count = map(int, line.split())
    print('maps-host-root' if host <= 0 < host + count else 'ok', inside, count)
"
	[ "$status" -eq 0 ]
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# setgroups is denied in an unprivileged user namespace: the
		# caller's supplementary groups stay (shown as 1000 or 65534)
		[[ "${lines[0]}" =~ ^"1000 1000 ["(1000|65534)?"]"$ ]]
	else
		[ "${lines[0]}" = "1000 1000 []" ]
	fi
	for l in "${lines[@]:1}"; do [[ "$l" == ok* ]]; done
	[[ "${lines[1]}" == "ok"* ]]
}

@test "CapEff, CapPrm, CapBnd and CapAmb are 0 and NoNewPrivs is 1" {
	run py "
for line in open('/proc/self/status'):
    k = line.split(':')[0]
    if k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs'): print(line.strip().replace('\t', ' '))
"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'CapInh: 0000000000000000\nCapPrm: 0000000000000000\nCapEff: 0000000000000000\nCapBnd: 0000000000000000\nCapAmb: 0000000000000000\nNoNewPrivs: 1')" ]
}

@test "only fds 0-2 are open in the tool" {
	# an fd toolcell itself has open must not reach the tool
	exec 7</dev/null
	run py "
import os
def is_open(fd):
    try:
        os.fstat(fd); return True
    except OSError:
        return False
print([fd for fd in range(0, 1024) if is_open(fd)])
"
	exec 7<&-
	[ "$status" -eq 0 ]
	[ "$output" = "[0, 1, 2]" ]
}

@test "the hostname is the policy's, not the host's" {
	run py "import socket; print(socket.gethostname())"
	[ "$output" = "toolcell" ]
}

@test "/dev holds only the minimal nodes" {
	run py "import os; print(sorted(os.listdir('/dev')))"
	[ "$output" = "['fd', 'full', 'null', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'urandom', 'zero']" ]
	run py "open('/dev/null', 'w').write('x'); print(len(open('/dev/urandom', 'rb').read(8)))"
	[ "$output" = "8" ]
}

@test "the tool has no controlling terminal and its own session" {
	run py "
import os
print(os.getsid(0) == os.getpid())
try:
    os.open('/dev/tty', os.O_RDWR); print('tty')
except OSError as e:
    print('no tty')
"
	[ "${lines[0]}" = "True" ]
	[ "${lines[1]}" = "no tty" ]
}

@test "a read-only bind is visible and read-only; the host side is untouched" {
	mkdir "$T/data" && echo hello >"$T/data/f" && chmod -R a+rX "$T/data"
	run "$TOOLCELL" python --ro-bind "$T/data:/data" -c "
import errno
print(open('/data/f').read().strip())
try:
    open('/data/g', 'w'); print('WRITABLE')
except OSError as e:
    print(errno.errorcode[e.errno])
"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "hello" ]
	[ "${lines[1]}" = "EROFS" ]
	[ ! -e "$T/data/g" ]
}

@test "the workspace is writable and is the working directory" {
	mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" -c "
import os
print(os.getcwd()); open('out.txt', 'w').write('made inside')
"
	[ "$status" -eq 0 ]
	[ "$output" = "/workspace" ]
	[ "$(cat "$T/ws/out.txt")" = "made inside" ]
}

@test "a symlink planted as a bind source is refused" {
	ln -s / "$T/evil"
	run "$TOOLCELL" python --ro-bind "$T/evil:/data" -c "print('ran')"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/evil: it is a symbolic link (to /); name the real path if that is meant" ]
}

@test "a tool cannot aim a later run's bind elsewhere by planting a symlink in its workspace" {
	mkdir -p "$T/ws/job" "$T/victim" && echo secret >"$T/victim/key"
	chmod 755 "$T/victim" && chmod 644 "$T/victim/key"
	# run 1: the tool swaps the job folder for a link to another host folder
	run "$TOOLCELL" python --workspace "$T/ws" -c "
import os
os.rmdir('/workspace/job'); os.symlink('$T/victim', '/workspace/job'); print('planted')"
	[ "$output" = "planted" ]
	# a symlink never reaches the host folder (the removal does)
	[ ! -e "$T/ws/job" ] && [ ! -L "$T/ws/job" ]
	# should one get there by other means: run 2, a caller binds the job
	# folder; toolcell refuses to follow the link
	ln -s "$T/victim" "$T/ws/job"
	run "$TOOLCELL" python --workspace "$T/ws/job" -c "print(open('/workspace/key').read())"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing to bind $T/ws/job: it is a symbolic link (to $T/victim); name the real path if that is meant" ]
	run "$TOOLCELL" python --ro-bind "$T/ws/job/key:/data/key" -c "print(open('/data/key').read())"
	[ "$status" -eq 125 ]
	[[ "$output" == "toolcell: refusing to bind $T/ws/job/key: its path has a symbolic link in it (it leads to $T/victim/key)"* ]]
	# and a script or call tool behind such a link is refused too
	echo 'print("ran")' >"$T/victim/s.py" && chmod 644 "$T/victim/s.py"
	run "$TOOLCELL" python "$T/ws/job/s.py"
	[ "$status" -eq 125 ]
	[[ "$output" == "toolcell: refusing to bind $T/ws/job/s.py: its path has a symbolic link in it"* ]]
}

@test "a script only its owner can read runs, as root too (its read-only bind is idmapped)" {
	echo 'print("ran")' >"$T/own.py"
	chmod 600 "$T/own.py"
	run "$TOOLCELL" python "$T/own.py"
	[ "$status" -eq 0 ]
	[ "$output" = "ran" ]
}

@test "a bind nested in another is refused, and nothing is made in the outer host folder" {
	mkdir -p "$T/a" "$T/b" && chmod -R a+rX "$T/a" "$T/b"
	run "$TOOLCELL" python --ro-bind "$T/a:/data" --ro-bind "$T/b:/data/sub/deeper" -c "print('ran')"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: cannot bind /data/sub/deeper inside the bind at /data (its mount point would be made in that host folder)" ]
	[ -z "$(ls -A "$T/a")" ]
}

@test "a script is shown through a bind that covers it, else at its own path; never in the rootfs" {
	mkdir -p "$T/src" && echo 'import sys; print(sys.argv[0])' >"$T/src/s.py" && chmod -R a+rX "$T/src"
	run "$TOOLCELL" python --ro-bind "$T/src:/data" "$T/src/s.py"
	[ "$output" = "/data/s.py" ]
	run "$TOOLCELL" python "$T/src/s.py"
	[ "$output" = "$T/src/s.py" ]
	run "$TOOLCELL" python /usr/lib/python3.11/this.py
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: cannot show /usr/lib/python3.11/this.py inside the sandbox: that path is at or beneath /usr, which the launcher owns; copy it elsewhere or --ro-bind its folder" ]
}

@test "a signal from inside the sandbox to its init is not forwarded to the tool" {
	run py "
import os, signal, time
try:
    os.kill(1, signal.SIGTERM)
except PermissionError:
    pass  # as root the init is another uid
time.sleep(0.3)
print('alive')"
	[ "$status" -eq 0 ]
	[ "$output" = "alive" ]
}

@test "the result record cannot be put where the tool can write, nor be a FIFO" {
	mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/ws/r.json" -c "pass"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: refusing the result file $T/ws/r.json: it lies in $T/ws, which the tool can write, so the tool could replace the record; put it elsewhere" ]
	mkfifo "$T/fifo"
	run timeout 10 "$TOOLCELL" python --result "$T/fifo" -c "pass"
	[ "$status" -eq 125 ]
}

@test "started with stdout closed, the tool's output never lands in the record" {
	"$TOOLCELL" python --result "$T/r.json" -c "print('TOOL LINE')" >&-
	run head -c 1 "$T/r.json"
	[ "$output" = "{" ]
	! grep -q "TOOL LINE" "$T/r.json"
}
