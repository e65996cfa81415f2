#!/usr/bin/env bats
# Escape attempts: each tests/escape/NAME.py is a hostile tool trying to break
# one property of the sandbox. Every test asserts HOW the attack was stopped:
# the exit status and either the errno the tool printed or the record's
# status / denied_syscall. A tool prints "LEAK ..." or "ESCAPED ..." when it
# got somewhere; no test accepts that.
#
# Runs as root and as an unprivileged caller (TC_UNPRIVILEGED=1); where the
# outcome differs between the two, the test branches on $TC_UNPRIVILEGED.
#
# serve-escape.bats is this file under another name: there every attack is
# sent to `toolcell serve` as an `exec` request (serve-lib.bash), its
# options made the server's policy, and held to the same outcome (exit
# status, errno lines, record). Where serving differs by design (no
# workspace, no terminal, no toolcell notice on the tool's stderr) the
# test branches on $VIA_SERVE.

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

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	E=$BATS_TEST_DIRNAME/../escape
	T=$(mktemp -d /tmp/tc-esc.XXXXXX)
	chmod 755 "$T"
	BG_PID=
}

teardown() {
	if [ -n "$BG_PID" ]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
	rm -rf "$T"
}

# esc NAME [TOOLCELL-OPTIONS...]: copy NAME.py into $T (644) and run it in the
# sandbox, stdin from /dev/null, record in $T/r.json; stdout in $output,
# toolcell's notices in $stderr. Served: the script's source as an exec
# request with empty stdin; its stderr in $stderr.
esc() {
	local n=$1
	shift
	cp "$E/$n.py" "$T/$n.py"
	chmod 644 "$T/$n.py"
	rm -f "$T/r.json"
	if [ -n "$VIA_SERVE" ]; then
		srv_exec "$T/$n.py" "$@"
		[ ! -e "$SRV_OUT/record.json" ] || cp "$SRV_OUT/record.json" "$T/r.json"
		return 0
	fi
	run --separate-stderr "$TOOLCELL" python --result "$T/r.json" "$@" "$T/$n.py" </dev/null
}

# rec PATH: one value of the record (dot-separated keys); strings raw, else JSON
rec() {
	/usr/bin/python3 -I -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
' "$T/r.json" "$1"
}

# has LINE...: each LINE is exactly one of the tool's output lines
has() {
	local want l found
	for want in "$@"; do
		found=
		for l in "${lines[@]}"; do
			[ "$l" = "$want" ] && found=1 && break
		done
		if [ -z "$found" ]; then
			echo "missing line: $want" >&2
			printf 'output was:\n%s\n' "$output" >&2
			return 1
		fi
	done
}

# no_leak: the tool never reported a success
no_leak() {
	if [[ "$output" == *LEAK* || "$output" == *ESCAPED* ]]; then
		printf 'attack got through:\n%s\n' "$output" >&2
		return 1
	fi
}

# killed NAME: the tool was ended by the filter on NAME (SIGSYS, exit 159)
killed() {
	no_leak
	[ "$status" -eq 159 ]
	[ "$(rec status)" = syscall_denied ]
	[ "$(rec denied_syscall.name)" = "$1" ]
	# toolcell's notice; a served call's stderr is the tool's alone
	[ -n "$VIA_SERVE" ] ||
		[[ "$stderr" == *"toolcell: the tool made a forbidden system call ($1, number "* ]]
}

# exited_ok: the tool ran to its end (exit 0, status ok) after being refused
exited_ok() {
	no_leak
	[ "$status" -eq 0 ]
	[ "$(rec status)" = ok ]
}

# ---------------------------------------------------------------- /proc

@test "/proc/1/{root,cwd,exe,fd,environ,mem} of the init: hidden (ENOENT)" {
	esc proc_init_root
	exited_ok
	has "root blocked ENOENT" "cwd blocked ENOENT" "exe blocked ENOENT" \
		"fd blocked ENOENT" "environ blocked ENOENT" "mem blocked ENOENT"
}

@test "/proc/self/root and '..' walks: one root, no host paths (ENOENT)" {
	esc proc_self_root
	exited_ok
	has "distinct roots 1" "root blocked ENOENT" "home blocked ENOENT" \
		"work blocked ENOENT" "run blocked ENOENT" "shadow blocked ENOENT" \
		"var blocked ENOENT"
}

@test "/proc/self/exe overwrite (CVE-2019-5736 style): EACCES" {
	esc proc_self_exe
	exited_ok
	has "exe 1 blocked EACCES" "exe 2 blocked EACCES" "python3.11 1 blocked EACCES"
}

@test "/proc/PID/{cwd,fd,environ} of other pids: only self and own child exist" {
	esc proc_other_pids
	exited_ok
	has "pids visible ['self', 'child']" "child cwd /" "done"
	[ "${#lines[@]}" -eq 3 ]
}

# ---------------------------------------------------------------- namespaces

@test "nested user namespace via unshare: tool ended (unshare)" {
	esc userns_unshare
	killed unshare
	[ -z "$output" ]
}

@test "nested user namespace via raw clone(CLONE_NEWUSER): ENOSYS, counted" {
	esc userns_clone
	exited_ok
	has "clone returned -1 38"
	[ "$(rec denied_syscalls.clone)" = 1 ]
}

# ---------------------------------------------------------------- mounts

@test "mount tmpfs over /etc: tool ended (mount)" {
	esc mount_tmpfs
	killed mount
}

@test "remount /usr read-write: tool ended (mount), nothing written" {
	esc remount_rw
	killed mount
	[ -z "$output" ]
}

@test "umount2 of / (MNT_DETACH): tool ended (umount2)" {
	esc umount_root
	killed umount2
}

@test "pivot_root: tool ended (pivot_root)" {
	esc pivot_root
	killed pivot_root
}

@test "new mount API open_tree(CLONE|RECURSIVE): tool ended (open_tree)" {
	esc open_tree
	killed open_tree
}

@test "mount_setattr clearing RDONLY: tool ended (mount_setattr)" {
	esc mount_setattr
	killed mount_setattr
}

@test "chroot + fchdir '..' walk: tool ended at chroot" {
	esc chroot_escape
	killed chroot
	[ -z "$output" ]
}

# ---------------------------------------------------------------- processes

@test "ptrace attach of the init: tool ended (ptrace)" {
	esc ptrace_init
	killed ptrace
}

@test "ptrace seize of a sibling: tool ended (ptrace), sibling too" {
	esc ptrace_sibling
	killed ptrace
	# the whole sandbox is gone: the sibling counted, and nothing ran after
	[ -z "$output" ]
}

@test "process_vm_readv of a sibling: tool ended (process_vm_readv)" {
	esc process_vm_readv
	killed process_vm_readv
	[ -z "$output" ]
}

@test "signals outside: kill(-1) ESRCH, kill(1) EPERM, kill(ppid) EPERM" {
	esc kill_all
	exited_ok
	has "kill(-1) blocked ESRCH" "kill(1) blocked EPERM" "kill(ppid) blocked EPERM"
}

@test "pidfd of the init: send_signal EPERM, pidfd_getfd ends the tool" {
	esc pidfd_init
	killed pidfd_getfd
	has "pidfd_open(1) gave an fd" "pidfd_send_signal blocked EPERM"
}

@test "a daemon (double fork, setsid, SIGHUP/TERM ignored) does not survive" {
	local marker="tc-esc-linger-$$-$RANDOM$RANDOM"
	esc linger --env "MARKER=$marker"
	exited_ok
	has "daemon launched"
	sleep 0.3
	run pgrep -f "$marker"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

# ---------------------------------------------------------------- kernel surface

@test "keyctl(JOIN_SESSION_KEYRING): tool ended (keyctl)" {
	esc keyctl
	killed keyctl
}

@test "add_key into the user keyring: tool ended (add_key)" {
	esc add_key
	killed add_key
}

@test "io_uring_setup: tool ended (io_uring_setup)" {
	esc io_uring
	killed io_uring_setup
}

@test "userfaultfd: no /dev/userfaultfd (ENOENT), syscall ends the tool" {
	esc userfaultfd
	killed userfaultfd
	has "/dev/userfaultfd blocked ENOENT"
}

@test "bpf(BPF_PROG_LOAD): tool ended (bpf)" {
	esc bpf
	killed bpf
}

@test "perf_event_open: tool ended (perf_event_open)" {
	esc perf_event
	killed perf_event_open
}

@test "x32 syscall ABI: SIGSYS, recorded as syscall_denied" {
	esc x32_syscall
	no_leak
	[ "$status" -eq 159 ]
	[ "$(rec status)" = syscall_denied ]
	[ "$(rec signal_name)" = SIGSYS ]
	[ -z "$output" ]
}

@test "int 0x80 (i386 ABI): SIGSYS, recorded as syscall_denied" {
	esc int80
	no_leak
	[ "$status" -eq 159 ]
	[ "$(rec status)" = syscall_denied ]
	[ "$(rec signal_name)" = SIGSYS ]
	[ -z "$output" ]
}

@test "kernel addresses: no /proc/kcore, kallsyms all zero, no /proc/modules" {
	esc kernel_info
	exited_ok
	has "kcore blocked ENOENT" "kallsyms lines many nonzero addresses 0" \
		"/proc/modules blocked ENOENT" "/proc/iomem nonzero addresses False"
}

@test "dmesg via syslog(READ_ALL): tool ended (syslog)" {
	esc dmesg
	killed syslog
}

@test "writing /proc/sys, sysrq-trigger, /sys: EROFS / ENOENT" {
	esc proc_sys_write
	exited_ok
	has "/proc/sys/kernel/core_pattern blocked EROFS" \
		"/proc/sys/kernel/hostname blocked EROFS" \
		"/proc/sys/vm/drop_caches blocked EROFS" \
		"/proc/sysrq-trigger blocked ENOENT" \
		"/sys/kernel/uevent_helper blocked ENOENT" \
		"/proc/self/attr/current blocked EROFS" \
		"/proc/self/oom_score_adj blocked EROFS" \
		"/sys exists False"
}

@test "mknod of char/block devices: ENOSYS (counted), FIFO allowed" {
	esc mknod_dev
	exited_ok
	has "mem blocked ENOSYS" "sda blocked ENOSYS" "kmsg blocked ENOSYS" "fifo ok True"
	[ "$(rec denied_syscalls.mknodat)" = 3 ]
}

@test "hostname change: tool ended (sethostname)" {
	esc hostname
	killed sethostname
	has "hostname toolcell"
}

@test "clock_settime(CLOCK_REALTIME): tool ended (clock_settime)" {
	esc settime
	killed clock_settime
}

@test "settimeofday: tool ended (settimeofday)" {
	esc settimeofday
	killed settimeofday
}

# ---------------------------------------------------------------- network

@test "netlink: only NETLINK_ROUTE opens, it sees lo alone and changes nothing; other families EAFNOSUPPORT, counted" {
	esc netlink
	exited_ok
	has "blocked audit EAFNOSUPPORT" "blocked kobject_uevent EAFNOSUPPORT" \
		"blocked sock_diag EAFNOSUPPORT" "blocked netfilter EAFNOSUPPORT" \
		"blocked generic EAFNOSUPPORT" "blocked xfrm EAFNOSUPPORT" \
		"interfaces [(1, 'lo')]" "set lo down: refused EPERM"
	[ "$(rec denied_syscalls.socket)" = 6 ]
}

@test "packet socket: EAFNOSUPPORT, counted" {
	esc packet
	exited_ok
	has "blocked EAFNOSUPPORT"
	[ "$(rec denied_syscalls.socket)" = 1 ]
}

@test "raw IPv4/IPv6 sockets: EPERM (no CAP_NET_RAW)" {
	esc raw_socket
	exited_ok
	has "AF_INET blocked EPERM" "AF_INET6 blocked EPERM"
}

@test "the host's 127.0.0.1 listener and the internet: unreachable" {
	/usr/bin/python3 -I -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
while True:
    c, _ = s.accept(); c.sendall(b"HOST-SECRET"); c.close()
' "$T/port.tmp" &
	BG_PID=$!
	for _ in $(seq 50); do [ -s "$T/port.tmp" ] && break; sleep 0.05; done
	local port
	port=$(cat "$T/port.tmp")
	# the listener answers from the host
	run /usr/bin/python3 -I -c "import socket; print(socket.create_connection(('127.0.0.1', $port)).recv(64))"
	[ "$output" = "b'HOST-SECRET'" ]
	esc host_loopback --env "PORT=$port"
	exited_ok
	has "127.0.0.1 blocked ECONNREFUSED" "127.0.0.2 blocked ECONNREFUSED" \
		"::ffff:127.0.0.1 blocked ECONNREFUSED" "internet blocked ENETUNREACH"
}

@test "the host's abstract unix socket: ECONNREFUSED (own namespace)" {
	local name="tc-esc-abs-$$-$RANDOM"
	/usr/bin/python3 -I -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind("\0" + sys.argv[1]); s.listen()
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); d.bind("\0" + sys.argv[1] + "-d")
open(sys.argv[2], "w").write("up")
while True:
    c, _ = s.accept(); c.sendall(b"HOST-SECRET"); c.close()
' "$name" "$T/up.tmp" &
	BG_PID=$!
	for _ in $(seq 50); do [ -s "$T/up.tmp" ] && break; sleep 0.05; done
	run /usr/bin/python3 -I -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('\0$name'); print(s.recv(64))"
	[ "$output" = "b'HOST-SECRET'" ]
	esc abstract_unix --env "ABSTRACT=$name"
	exited_ok
	has "SOCK_STREAM blocked ECONNREFUSED" "SOCK_DGRAM blocked ECONNREFUSED"
}

# ---------------------------------------------------------------- fds, env, tty

@test "fds the caller left open (3..1023): the tool sees none" {
	echo secret >"$T/w.txt"
	exec 5</etc/passwd 7>>"$T/w.txt" 9<>"$T/w.txt" 200</etc/hostname 1000</etc/passwd
	# served: a server of its own holds them, with its socket and pipes
	SRV_TAG=fds esc inherited_fds
	exec 5<&- 7>&- 9<&- 200<&- 1000<&-
	exited_ok
	has "leaked fds []"
}

@test "the caller's environment (TC_SECRET): not passed" {
	export TC_SECRET=hunter2
	SRV_TAG=env esc environment
	unset TC_SECRET
	exited_ok
	has "env keys ['HOME', 'LANG', 'MALLOC_ARENA_MAX', 'PATH', 'PYTHONPYCACHEPREFIX', 'TMPDIR']" \
		"secret in env False" "secret in /proc False"
}

@test "stdio reopened through /proc/self/fd for writing: pipes; EACCES (own pipe unprivileged)" {
	echo original >"$T/in.txt"
	chmod 666 "$T/in.txt"
	if [ -n "$VIA_SERVE" ]; then
		# the request's stdin bytes, on the runner's pipe
		esc stdio_reopen -- --stdin "$T/in.txt"
	else
		cp "$E/stdio_reopen.py" "$T/"
		chmod 644 "$T/stdio_reopen.py"
		run --separate-stderr "$TOOLCELL" python --result "$T/r.json" "$T/stdio_reopen.py" <"$T/in.txt"
	fi
	exited_ok
	has "0 is pipe" "1 is pipe" "2 is pipe"
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# the relay pipes belong to the caller's uid, which is the tool's:
		# reopening works, but yields only the tool's own pipe
		has "reopen 0 gave only the same pipe" "reopen 1 gave only the same pipe"
	else
		has "reopen 0 blocked EACCES" "reopen 1 blocked EACCES"
	fi
	[ "$(cat "$T/in.txt")" = original ]
}

@test "TIOCSTI / TIOCLINUX with a pty as stdin: no tty inside, EPERM" {
	if [ -n "$VIA_SERVE" ]; then
		# a server whose stdin and stdout are its controlling terminal
		SRV_PTY=1 SRV_TAG=pty esc tiocsti
		exited_ok
		has "stdin is a tty False" "0x5412 returned -1 EPERM" \
			"0xdead00005412 returned -1 EPERM" "0x541c returned -1 EPERM"
		return
	fi
	cp "$E/tiocsti.py" "$T/"
	chmod 644 "$T/tiocsti.py"
	run /usr/bin/python3 -I -c '
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "python", "--result", sys.argv[2] + "/r.json", sys.argv[2] + "/tiocsti.py"])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode().replace("\r\n", "\n"))
print("injected", b"id\n" in out.split(b"stdin is a tty")[0])
print("exit", os.waitstatus_to_exitcode(st))
' "$TOOLCELL" "$T"
	no_leak
	[ "$status" -eq 0 ]
	has "stdin is a tty False" "0x5412 returned -1 EPERM" "0xdead00005412 returned -1 EPERM" \
		"0x541c returned -1 EPERM" "injected False" "exit 0"
	[ "$(rec status)" = ok ]
}

# ---------------------------------------------------------------- file system

@test "writing the rootfs (/usr, /etc, chmod, rename, utime): EACCES / EROFS" {
	esc rootfs_write
	exited_ok
	has "/usr/lib/python3.11/os.py blocked EACCES" "/etc/passwd blocked EACCES" \
		"/usr/bin/evil blocked EROFS" "/etc/ld.so.preload blocked EROFS" \
		"/lib/x blocked EROFS" "chmod blocked EROFS" "rename blocked EROFS" \
		"utime blocked EROFS"
}

@test "symlinks planted in the workspace: host file unchanged, binding through them refused (125)" {
	if [ -n "$VIA_SERVE" ]; then
		# no workspace in a served call (README): nothing to plant in
		esc workspace_symlink
		no_leak
		[ "$status" -eq 1 ]
		[ "$(rec status)" = exit_nonzero ]
		[[ "$stderr" == *"FileNotFoundError: [Errno 2] No such file or directory: '/etc/shadow' -> '/workspace/out'" ]]
		return
	fi
	mkdir "$T/ws"
	local before
	before=$(sha256sum /etc/shadow /etc/passwd 2>/dev/null || true)
	esc workspace_symlink --workspace "$T/ws"
	exited_ok
	has "hard link blocked EXDEV" "write through link blocked EROFS" \
		"planted ['out', 'rootlink', 'up']"
	# symlinks never leave the workspace's layer for the host folder
	[ -z "$(ls -A "$T/ws")" ]
	[ "$(sha256sum /etc/shadow /etc/passwd 2>/dev/null || true)" = "$before" ]
	# should they get there by other means, binding through them is refused
	ln -s /etc/shadow "$T/ws/out" && ln -s / "$T/ws/rootlink" && ln -s ../../../../../etc "$T/ws/up"
	# a second sandbox binding through the planted links is refused
	# (the final component, and a link in the middle of the path)
	local l
	for l in out rootlink up up/hostname; do
		run --separate-stderr "$TOOLCELL" python --ro-bind "$T/ws/$l:/mnt/x" -c 'print("LEAK bound")'
		[ "$status" -eq 125 ]
		[ -z "$output" ]
		[[ "$stderr" == "toolcell: refusing to bind $T/ws/$l: "* ]]
	done
	# and as the next run's workspace
	run --separate-stderr "$TOOLCELL" python --workspace "$T/ws/up" -c 'print("LEAK bound")'
	[ "$status" -eq 125 ]
	[ -z "$output" ]
	[[ "$stderr" == "toolcell: refusing to bind $T/ws/up: it is a symbolic link (to /etc)"* ]]
}

@test "filling /tmp (--tmp-size 1M): ENOSPC at 1024 KiB" {
	esc fill_tmp --tmp-size 1M
	exited_ok
	has "stopped ENOSPC after 1024 KiB"
}

@test "/tmp inode exhaustion (--tmp-inodes 64): ENOSPC below 64 files" {
	esc tmp_inodes --tmp-inodes 64
	exited_ok
	[[ "${lines[0]}" =~ ^stopped\ ENOSPC\ small\ [0-9]+$ ]]
}

@test "set-id programs and file capabilities in the visible tree: none" {
	esc setid_files
	exited_ok
	has "setid files 0 file caps 0 searched many True"
}

@test "dropped binary: noexec /tmp and /dev/shm (EACCES); no memfd (ENOSYS); the workspace runs, still confined" {
	if [ -n "$VIA_SERVE" ]; then
		# no workspace in a served call (README): the memfd, /tmp and
		# /dev/shm hold; the drop into /workspace fails for want of one
		esc memfd_exec
		no_leak
		[ "$status" -eq 1 ]
		[ "$(rec denied_syscalls.memfd_create)" = 1 ]
		has "memfd ENOSYS" "/tmp exec blocked EACCES" "/dev/shm exec blocked EACCES"
		[ "${#lines[@]}" -eq 3 ]
		[[ "$stderr" == *"FileNotFoundError: [Errno 2] No such file or directory: '/workspace/py'" ]]
		return
	fi
	mkdir "$T/ws"
	esc memfd_exec --workspace "$T/ws"
	killed unshare
	[ "$(rec denied_syscalls.memfd_create)" = 1 ]
	has "memfd ENOSYS" \
		"/tmp exec blocked EACCES" "/dev/shm exec blocked EACCES" \
		"/workspace ran: uid 1000 Seccomp 2 NoNewPrivs 1 CapEff 0000000000000000"
	[ "${#lines[@]}" -eq 5 ]
}

# ---------------------------------------------------------------- credentials, limits

@test "setuid(0), setresuid, setgid: EPERM (EINVAL unprivileged); setgroups EPERM; setfsuid no effect" {
	esc setuid_root
	exited_ok
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# only the caller's own uid is mapped: uid 0 does not exist inside
		has "setuid blocked EINVAL" "setresuid blocked EINVAL" "setgid blocked EINVAL"
	else
		has "setuid blocked EPERM" "setresuid blocked EPERM" "setgid blocked EPERM"
	fi
	has "setgroups blocked EPERM" "fsuid still 1000 uid 1000"
}

@test "raising hard rlimits with prlimit: EPERM, unchanged" {
	esc rlimit_raise
	exited_ok
	local r
	for r in NOFILE NPROC AS FSIZE CPU; do
		has "RLIMIT_$r returned -1 EPERM hard now same"
	done
}

# ---------------------------------------------------------------- neighbours

@test "a sandbox beside another: distinct host uids, private /tmp and /dev/shm, no shared file locks" {
	if [ -n "$VIA_SERVE" ]; then
		# two entries of one server at once; the mode is set in the source
		# (a served call's environment is the policy's), the planter holds
		# 8 s, the looker comes once the planter's entry has been busy 2 s
		{ echo 'import os; os.environ.update(MODE="plant", HOLD="8")'; cat "$E/cross_sandbox.py"; } >"$T/plant.py"
		{ echo 'import os; os.environ["MODE"] = "look"'; cat "$E/cross_sandbox.py"; } >"$T/look.py"
		chmod 644 "$T/plant.py" "$T/look.py"
		mkdir "$T/a"
		srv_socket
		timeout 120 /usr/bin/python3 -I "$BATS_TEST_DIRNAME/servecall.py" "$SRV_SOCK" "$T/a" "$T/plant.py" &
		BG_PID=$!
		srv_until_busy "$SRV_SOCK"
		sleep 2
		srv_exec "$T/look.py"
		cp "$SRV_OUT/record.json" "$T/r.json"
		# the planter was still holding when the looker had finished
		[ ! -e "$T/a/answer.json" ]
		wait "$BG_PID"
		BG_PID=
		cp "$T/a/record.json" "$T/a.json"
		cp "$T/a/stdout" "$T/a.out"
		grep -qx "planter done" "$T/a.out"
	else
		mkdir "$T/ws"
		cp "$E/cross_sandbox.py" "$T/"
		chmod 644 "$T/cross_sandbox.py"
		"$TOOLCELL" python --result "$T/a.json" --workspace "$T/ws" --env MODE=plant \
			--env READY=/workspace/ready --env HOLD=3 "$T/cross_sandbox.py" >"$T/a.out" 2>&1 &
		BG_PID=$!
		for _ in $(seq 100); do [ -s "$T/ws/ready" ] && break; sleep 0.03; done
		[ -s "$T/ws/ready" ]
		run --separate-stderr "$TOOLCELL" python --result "$T/r.json" --env MODE=look "$T/cross_sandbox.py"
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
		BG_PID=
	fi
	[ "$status" -eq 0 ]
	has "/dev/shm/tc-esc-mark absent" "/tmp/tc-esc-mark absent"
	if [ -z "${TC_UNPRIVILEGED:-}" ]; then
		[ "$(/usr/bin/python3 -I -c 'import json,sys; print(json.load(open(sys.argv[1]))["isolation"]["uid_host"])' "$T/a.json")" != "$(rec isolation.uid_host)" ]
	fi
	# a rootfs file is one host inode for every sandbox: an exclusive flock
	# on it would be a cross-sandbox lock and covert channel, so the filter
	# refuses LOCK_EX; shared locks never conflict
	no_leak
	has "shared flock free" "exclusive flock refused ENOSYS"
	grep -qx "exclusive flock refused ENOSYS" "$T/a.out"
}

@test "result record into a booby-trapped workspace: no write through a planted symlink or FIFO" {
	if [ -n "$VIA_SERVE" ]; then
		# no workspace and no result file in a served call (README): the
		# record goes back on the caller's socket
		esc result_symlink
		no_leak
		[ "$status" -eq 1 ]
		has "workspace on the host found False"
		[[ "$stderr" == *"TypeError: expected str, bytes or os.PathLike object, not NoneType" ]]
		return
	fi
	mkdir "$T/ws"
	echo "host data" >"$T/victim"
	esc result_symlink --workspace "$T/ws"
	exited_ok
	# the workspace is a layer now: mountinfo shows no host path, and what
	# the tool planted (symlinks, a FIFO) never reaches the host folder
	has "workspace on the host found False" "planted ['fifo.json', 'out', 'r.json']"
	[ -z "$(ls -A "$T/ws")" ]
	# should they get there by other means, the record is never written through them
	ln -s "$T/victim" "$T/ws/r.json" && mkfifo "$T/ws/fifo.json" && ln -s "$T" "$T/ws/out"
	# the final component a symlink: refused
	run --separate-stderr timeout 10 "$TOOLCELL" python --result "$T/ws/r.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$stderr" = "toolcell: refusing the result file $T/ws/r.json: its path has a symbolic link in it; name the real path" ]
	# a FIFO: refused at once, no hang
	run --separate-stderr timeout 10 "$TOOLCELL" python --result "$T/ws/fifo.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$stderr" = "toolcell: cannot open the result file $T/ws/fifo.json: No such device or address" ]
	# a symlinked directory in the middle of the path: must be refused too
	# ("never through a symlink"), not followed to $T/victim outside the workspace
	run --separate-stderr timeout 10 "$TOOLCELL" python --result "$T/ws/out/victim" -c 'print(1)'
	[ "$(cat "$T/victim")" = "host data" ]
	[ "$status" -eq 125 ]
	[ "$stderr" = "toolcell: refusing the result file $T/ws/out/victim: its path has a symbolic link in it; name the real path" ]
}

# ---------------------------------------------------------------- kernel-held memory and counts

@test "System V shared memory: shmget ENOSYS, counted (was 1 GiB held under --memory 64M)" {
	esc sysv_shm --memory 64M
	exited_ok
	has "shmget ENOSYS after 0 MiB" "held 0 MiB"
	[ "$(rec denied_syscalls.shmget)" = 1 ]
}

@test "System V IPC added back by a policy: bounded to a quarter of --memory (root), refused unprivileged" {
	/usr/bin/python3 -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["seccomp"] = {"add": ["shmget", "shmat", "shmdt", "shmctl"]}
json.dump(p, open(sys.argv[2], "w"))' "$BATS_TEST_DIRNAME/../../policies/default.json" "$T/sysv.json"
	esc sysv_shm --policy "$T/sysv.json" --memory 64M
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		[ "$status" -eq 125 ]
		[[ "$stderr" == *"the policy allows System V IPC, which toolcell can bound only when it runs as root"* ]]
		return
	fi
	exited_ok
	has "shmget ENOSPC after 16 MiB" "held 16 MiB"
}

@test "memfds filled with write(): memfd_create ENOSYS, counted (was 960 MiB under --memory 64M)" {
	esc memfd_fill --memory 64M
	exited_ok
	has "memfd ENOSYS after 0 MiB" "held 0 MiB"
	[ "$(rec denied_syscalls.memfd_create)" = 1 ]
}

@test "pipe buffers: F_SETPIPE_SZ ENOSYS, counted; 126 full pipes hold 7 MiB (was 64 MiB)" {
	esc pipe_fill --memory 64M --open-files 256
	exited_ok
	has "F_SETPIPE_SZ ENOSYS" "pipes 126 held 7 MiB"
	[ "$(rec denied_syscalls.fcntl)" = 126 ]
	# what the memory limit leaves out is said, not passed over
	[[ "$(rec unknown.kernel_memory)" == *"pipe buffers (64 KiB a pipe), socket buffers"* ]]
}



@test "socket buffers: TCP queues capped by the network namespace (8 MiB in 32 full sockets, was 63); SO_SNDBUF clamped (17 MiB, was 293)" {
	esc socket_bufs --memory 64M
	exited_ok
	held=$(printf '%s\n' "${lines[@]}" | sed -n 's/^as they come - held \([0-9]*\) MiB$/\1/p')
	[ -n "$held" ] && [ "$held" -lt 16 ]
	# asking for 64 MiB buffers still answers ok, but toolcell performs
	# the call with 1/256 of the memory limit: 32 pairs hold at most
	# 32 x 2 x 512 KiB, where the host's wmem_max let them hold 293 MiB
	grown=$(printf '%s\n' "${lines[@]}" | sed -n 's/^SO_SNDBUF ok held \([0-9]*\) MiB$/\1/p')
	[ -n "$grown" ] && [ "$grown" -lt 40 ]
	[ "$(rec denied_syscalls)" = "{}" ]
}

@test "socket buffers: setsockopt SO_SNDBUF/SO_RCVBUF performed by toolcell, clamped, answering as setsockopt does" {
	esc sockbuf_answers --memory 64M
	exited_ok
	# 64M / 256 = 256 KiB, doubled by the kernel; 64 KiB is below the cap
	has "SO_SNDBUF 64 MiB got 524288" "SO_RCVBUF 64 KiB got 131072" "SO_RCVBUF -1 got 524288" \
		"SO_SNDBUFFORCE EPERM" "SO_RCVBUFFORCE EPERM" "bad fd EBADF" "pipe ENOTSOCK" \
		"short EINVAL" "NULL EFAULT" "SOL_SOCKET|1<<32 ENOSYS" "SO_SNDBUF after all 524288" \
		"SO_REUSEADDR ok" "TCP_NODELAY ok"
	# only the call with high bits in its level was refused
	[ "$(rec denied_syscalls)" = '{"setsockopt": 1}' ]
}

@test "KSM: PR_SET_MEMORY_MERGE and MADV_MERGEABLE ENOSYS (high bits too), counted; MADV_DONTNEED runs" {
	esc ksm
	exited_ok
	has "PR_SET_MEMORY_MERGE ENOSYS" "MADV_MERGEABLE ENOSYS" "PR_SET_MEMORY_MERGE|1<<32 ENOSYS" \
		"MADV_DONTNEED ok"
	[ "$(rec denied_syscalls.prctl)" = 2 ]
	[ "$(rec denied_syscalls.madvise)" = 1 ]
}

@test "a filter of the tool's own: seccomp(SET_MODE_FILTER) and PR_SET_SECCOMP ENOSYS, counted; queries run" {
	esc own_filter
	exited_ok
	has "seccomp SET_MODE_FILTER ENOSYS" "prctl PR_SET_SECCOMP ENOSYS" \
		"seccomp GET_ACTION_AVAIL ok" "prctl PR_GET_SECCOMP 2"
	[ "$(rec denied_syscalls.seccomp)" = 1 ]
	[ "$(rec denied_syscalls.prctl)" = 1 ]
}

@test "page-cache probe of the shared rootfs: fadvise DONTNEED and preadv2 RWF_NOWAIT refused, counted" {
	esc page_cache
	exited_ok
	has "fadvise DONTNEED ENOSYS" "fadvise WILLNEED ok" "preadv2 RWF_NOWAIT ENOTSUP" "preadv2 plain ok"
	[ "$(rec denied_syscalls.fadvise64)" = 1 ]
	[ "$(rec denied_syscalls.preadv2)" = 1 ]
}

@test "per-user kernel counts: 4 inotify instances per sandbox (EMFILE), no fanotify, no namespaces" {
	esc inotify_count
	exited_ok
	has "inotify_init1 EMFILE after 4" "max_inotify_instances 4" "max_inotify_watches 512" \
		"max_fanotify_groups 0" "max_fanotify_marks 0" "max_user_namespaces 0" \
		"max_net_namespaces 0" "max_mnt_namespaces 0" "max_pid_namespaces 0" \
		"max_ipc_namespaces 0" "max_uts_namespaces 0" "max_cgroup_namespaces 0" \
		"max_time_namespaces 0"
}

@test "scheduler and OOM killer: RLIMIT_RTPRIO and RLIMIT_NICE 0 whatever the caller's, oom_score_adj 1000" {
	cp "$E/sched_limits.py" "$T/"
	chmod 644 "$T/sched_limits.py"
	# a caller with CAP_SYS_RESOURCE hands toolcell raised limits; one
	# without (nobody, or a root without it, as in some containers) can
	# only pass on what it has, and the test then holds only the 0
	local raise=()
	if prlimit --rtprio=50 --nice=30 true 2>/dev/null; then
		raise=(prlimit --rtprio=50 --nice=30)
	fi
	if [ -n "$VIA_SERVE" ]; then
		# the server started with the raised limits
		SRV_WRAP="${raise[*]}" SRV_TAG=sched esc sched_limits
	else
		run --separate-stderr "${raise[@]}" "$TOOLCELL" python --result "$T/r.json" "$T/sched_limits.py"
	fi
	exited_ok
	has "RLIMIT_RTPRIO 0 0" "RLIMIT_NICE 0 0" "oom_score_adj 1000" "nice -5 Permission denied"
}

@test "/proc hides the host and the other sandboxes: locks, cmdline, version, config, interrupts, iomem, key-users, boot_id, Docker's masks" {
	esc proc_host_info
	exited_ok
	local n
	for n in locks cmdline version config.gz interrupts softirqs iomem key-users keys \
		timer_list sys/kernel/random/boot_id acpi asound scsi; do
		has "$n empty"
	done
	has "meminfo readable" "cpuinfo readable" "loadavg readable" "stat readable" "uptime readable"
}

@test "per-user kernel counts: as root the pool's namespace root, not host root, owns (and pays for) the user namespace" {
	esc userns_owner
	exited_ok
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		has "owner 1000" # the caller, whose counts are its own to spend
	else
		has "owner 0" # host uid H of the pool; host root would show as 65534
	fi
}
