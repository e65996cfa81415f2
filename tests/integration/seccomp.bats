#!/usr/bin/env bats
# The syscall filter: what it refuses, how, and what the record says. Each
# call is made from Python through ctypes, as a hostile tool would.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	T=$(mktemp -d /tmp/tc-sc.XXXXXX)
	chmod 755 "$T"
}

teardown() {
	rm -rf "$T"
}

key() {
	/usr/bin/python3 -I -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]))" "$T/r.json" "$1"
}

# killed NAME CODE: CODE makes a call that must end the tool as NAME
killed() {
	run "$TOOLCELL" python --result "$T/r.json" -c "import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
$2
print('SURVIVED')"
	# SIGSYS, as the kernel's own seccomp kill: 128 + 31
	[ "$status" -eq 159 ]
	[[ "$output" != *SURVIVED* ]]
	[[ "$output" == *"toolcell: the tool made a forbidden system call ($1, number "* ]]
	[ "$(key signal)" = 31 ]
	[ "$(key signal_name)" = '"SIGSYS"' ]
	[ "$(key status)" = '"syscall_denied"' ]
	[ "$(/usr/bin/python3 -I -c "import json; print(json.load(open('$T/r.json'))['denied_syscall']['name'])")" = "$1" ]
}

@test "ptrace ends the tool and is named" { killed ptrace "libc.ptrace(16, 1, 0, 0)"; }

@test "a forbidden call ends toolcell by SIGSYS: Python's subprocess sees -31" {
	run /usr/bin/python3 -I -c "
import subprocess, sys
p = subprocess.run([sys.argv[1], 'python', '--result', sys.argv[2], '-c',
                    'import ctypes; ctypes.CDLL(None).ptrace(16, 1, 0, 0)'],
                   stderr=subprocess.DEVNULL)
print(p.returncode)" "$TOOLCELL" "$T/r.json"
	[ "$output" = "-31" ]
	[ "$(key denied_syscall)" = '{"name": "ptrace", "nr": 101}' ]
}
@test "unshare (a nested user namespace) ends the tool" { killed unshare "libc.unshare(0x10000000)"; }
@test "setns ends the tool" { killed setns "libc.setns(0, 0)"; }
@test "mount ends the tool" { killed mount "libc.mount(b'none', b'/tmp', b'tmpfs', 0, None)"; }
@test "the new mount API ends the tool" { killed fsopen "libc.syscall(430, b'tmpfs', 0)"; }
@test "bpf ends the tool" { killed bpf "libc.syscall(321, 0, 0, 0)"; }
@test "perf_event_open ends the tool" { killed perf_event_open "libc.syscall(298, 0, 0, -1, -1, 0)"; }
@test "userfaultfd ends the tool" { killed userfaultfd "libc.syscall(323, 0)"; }
@test "io_uring_setup ends the tool" { killed io_uring_setup "libc.syscall(425, 1, 0)"; }
@test "keyctl ends the tool" { killed keyctl "libc.syscall(250, 0, 0)"; }
@test "add_key ends the tool" { killed add_key "libc.syscall(248, b'user', b'k', b'v', 1, -2)"; }
@test "process_vm_readv ends the tool" { killed process_vm_readv "libc.syscall(310, 1, 0, 0, 0, 0, 0)"; }
@test "open_by_handle_at ends the tool" { killed open_by_handle_at "libc.syscall(304, 0, 0, 0)"; }
@test "kexec_load ends the tool" { killed kexec_load "libc.syscall(246, 0, 0, 0, 0)"; }
@test "init_module ends the tool" { killed init_module "libc.syscall(175, 0, 0, 0)"; }
@test "reboot ends the tool" { killed reboot "libc.syscall(169, 0, 0, 0, 0)"; }
@test "chroot ends the tool" { killed chroot "libc.chroot(b'/tmp')"; }
@test "pivot_root ends the tool" { killed pivot_root "libc.syscall(155, b'/tmp', b'/tmp')"; }
@test "clock_settime ends the tool" { killed clock_settime "libc.syscall(227, 0, 0)"; }
@test "personality ends the tool" { killed personality "libc.personality(0x0040000)"; }
@test "syslog ends the tool" { killed syslog "libc.syscall(103, 3, 0, 0)"; }
@test "swapon ends the tool" { killed swapon "libc.syscall(167, b'/tmp/x', 0)"; }

@test "an x32 system call ends the tool by SIGSYS (syscall_denied, inferred)" {
	run "$TOOLCELL" python --result "$T/r.json" -c "import ctypes
ctypes.CDLL(None).syscall(0x40000000 | 39)
print('SURVIVED')"
	[ "$status" -eq 159 ]
	[[ "$output" != *SURVIVED* ]]
	[ "$(key status)" = '"syscall_denied"' ]
	[ "$(key status_inferred)" = "true" ]
	[ "$(key signal)" = "31" ]
}

@test "an i386 system call through int 0x80 ends the tool by SIGSYS" {
	run "$TOOLCELL" python --result "$T/r.json" -c "import ctypes, mmap
# mov eax, 20 (getpid on i386); int 0x80; ret
code = b'\xb8\x14\x00\x00\x00\xcd\x80\xc3'
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
ctypes.CFUNCTYPE(ctypes.c_int)(addr)()
print('SURVIVED')"
	[ "$status" -eq 159 ]
	[[ "$output" != *SURVIVED* ]]
	[ "$(key status)" = '"syscall_denied"' ]
	[ "$(key signal)" = "31" ]
}

@test "netlink (but route), packet, vsock, alg and key sockets are refused with EAFNOSUPPORT and counted" {
	# netlink's family 9 is audit (route, 0, opens: see NETLINK_ROUTE below)
	run "$TOOLCELL" python --result "$T/r.json" -c "
import errno, socket
for name, fam, proto in (('netlink', 16, 9), ('packet', 17, 0), ('vsock', 40, 0), ('alg', 38, 0),
                         ('key', 15, 0)):
    try:
        socket.socket(fam, socket.SOCK_RAW, proto); print(name, 'OPENED')
    except OSError as e:
        print(name, errno.errorcode[e.errno])
a, b = socket.socketpair(); print('unix ok')
s = socket.socket(socket.AF_INET6); print('inet6 ok')"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'netlink EAFNOSUPPORT\npacket EAFNOSUPPORT\nvsock EAFNOSUPPORT\nalg EAFNOSUPPORT\nkey EAFNOSUPPORT\nunix ok\ninet6 ok')" ]
	[ "$(key denied_syscalls)" = '{"socket": 5}' ]
	[ "$(key status)" = '"ok"' ]
}

@test "clone with a namespace flag answers ENOSYS; plain fork works" {
	run "$TOOLCELL" python --result "$T/r.json" -c "
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)
print(r, errno.errorcode[ctypes.get_errno()])
pid = os.fork()
if pid == 0: os._exit(7)
print(os.waitpid(pid, 0)[1] >> 8)"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf -- '-1 ENOSYS\n7')" ]
	[ "$(key denied_syscalls)" = '{"clone": 1}' ]
}

@test "clone3 answers ENOSYS so glibc falls back to clone (threads work)" {
	run "$TOOLCELL" python -c "
import ctypes, errno, threading
libc = ctypes.CDLL(None, use_errno=True)
print(libc.syscall(435, 0, 0), errno.errorcode[ctypes.get_errno()])
t = threading.Thread(target=print, args=('thread ran',)); t.start(); t.join()"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf -- '-1 ENOSYS\nthread ran')" ]
}

@test "TIOCSTI and TIOCLINUX are refused with EPERM, other ioctls pass" {
	run "$TOOLCELL" python -c "
import ctypes, errno, fcntl, termios
libc = ctypes.CDLL(None, use_errno=True)
for name, cmd in (('TIOCSTI', 0x5412), ('TIOCLINUX', 0x541C), ('TIOCSTI-high-bits', 0x100005412)):
    r = libc.ioctl(0, ctypes.c_ulong(cmd), ctypes.c_char_p(b'x'))
    print(name, r, errno.errorcode[ctypes.get_errno()])
r = libc.ioctl(0, ctypes.c_ulong(0x541B), ctypes.byref(ctypes.c_int()))  # FIONREAD
print('FIONREAD', r)" </dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'TIOCSTI -1 EPERM\nTIOCLINUX -1 EPERM\nTIOCSTI-high-bits -1 EPERM\nFIONREAD 0')" ]
}

@test "a call off the list answers ENOSYS and is counted, and the tool goes on" {
	run "$TOOLCELL" python --result "$T/r.json" -c "
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
for _ in range(3):
    r = libc.syscall(251, 0, 0)  # ioprio_set
print(r, errno.errorcode[ctypes.get_errno()])"
	[ "$status" -eq 0 ]
	[ "$output" = "-1 ENOSYS" ]
	[ "$(key denied_syscalls)" = '{"ioprio_set": 3}' ]
}

@test "the record describes the filter; an honest tool is refused nothing" {
	"$TOOLCELL" python --result "$T/r.json" -c "import json, os, threading, subprocess, sys
subprocess.run([sys.executable, '-c', 'pass'])"
	run /usr/bin/python3 -I -c "import json; r = json.load(open('$T/r.json')); print(r['isolation']['seccomp'].split(':')[0], r['denied_syscalls'])"
	[ "$output" = "filter {}" ]
}

# ------------------------------------------------- the policy's seccomp section

# policy JSON: write a policy file with the given body
policy() {
	printf '{"version": 1, %s}\n' "$1" >"$T/p.json"
	chmod 644 "$T/p.json"
}

@test "policy seccomp.remove: the call answers ENOSYS and is counted" {
	policy '"seccomp": {"remove": ["getcpu"]}'
	run "$TOOLCELL" python --policy "$T/p.json" --result "$T/r.json" -c "
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
print(libc.syscall(309, 0, 0, 0), errno.errorcode[ctypes.get_errno()])"
	[ "$status" -eq 0 ]
	[ "$output" = "-1 ENOSYS" ]
	[ "$(key denied_syscalls)" = '{"getcpu": 1}' ]
	# and the default policy allows it
	run "$TOOLCELL" python --result "$T/r.json" -c "
import ctypes
print(ctypes.CDLL(None).syscall(309, 0, 0, 0))"
	[ "$output" = "0" ]
	[ "$(key denied_syscalls)" = '{}' ]
}

@test "policy seccomp.otherwise kill: a call off the list ends the tool and is named" {
	policy '"seccomp": {"otherwise": "kill"}'
	run "$TOOLCELL" python --policy "$T/p.json" --result "$T/r.json" -c "
import ctypes
print('before', flush=True)
ctypes.CDLL(None).syscall(252, 1, 0)
print('SURVIVED')"
	[ "$status" -eq 159 ]
	[[ "$output" == *before* ]]
	[[ "$output" != *SURVIVED* ]]
	[[ "$output" == *"toolcell: the tool made a forbidden system call (ioprio_get, number 252)"* ]]
	[ "$(key status)" = '"syscall_denied"' ]
	[ "$(key denied_syscall)" = '{"name": "ioprio_get", "nr": 252}' ]
	[ "$(/usr/bin/python3 -I -c "import json; print(json.load(open('$T/r.json'))['isolation']['seccomp'])")" = "filter: 251 calls allowed, any other ends the tool" ]
}

@test "policy seccomp.kill: a named call ends the tool instead of answering ENOSYS" {
	policy '"seccomp": {"kill": ["ioprio_set"]}'
	run "$TOOLCELL" python --policy "$T/p.json" --result "$T/r.json" -c "
import ctypes
libc = ctypes.CDLL(None)
print(libc.syscall(252, 1, 0), flush=True)
libc.syscall(251, 1, 0, 0)
print('SURVIVED')"
	[ "$status" -eq 159 ]
	[[ "$output" == "-1"* ]]
	[[ "$output" != *SURVIVED* ]]
	[ "$(key denied_syscall)" = '{"name": "ioprio_set", "nr": 251}' ]
	[ "$(key denied_syscalls)" = '{"ioprio_get": 1}' ]
}

@test "policy seccomp.add: a dangerous call is allowed (the kernel answers) and policy check warns" {
	policy '"seccomp": {"add": ["syslog"]}'
	run "$TOOLCELL" python --policy "$T/p.json" --result "$T/r.json" -c "
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
print(libc.syscall(103, 10, 0, 0), errno.errorcode[ctypes.get_errno()])"
	[ "$status" -eq 0 ]
	# SYSLOG_ACTION_SIZE_BUFFER needs CAP_SYSLOG: the kernel, not the filter, says no
	[ "$output" = "-1 EPERM" ]
	[ "$(key status)" = '"ok"' ]
	"$TOOLCELL" policy check "$T/p.json" >"$T/out" 2>"$T/err"
	[ "$(cat "$T/err")" = "toolcell: warning: $T/p.json: seccomp allows \"syslog\", a call toolcell's default refuses by ending the tool" ]
	/usr/bin/python3 -I -c "import json; s = json.load(open('$T/out'))['seccomp']; assert 'syslog' in s['allow'] and 'syslog' not in s['kill'], s"
	# the default policy warns about nothing
	"$TOOLCELL" policy check "$TC_BUILD/policies/default.json" >/dev/null 2>"$T/err"
	[ ! -s "$T/err" ]
}

@test "policy check lists every allowed and killed call of the default policy" {
	run "$TOOLCELL" policy check "$TC_BUILD/policies/default.json"
	[ "$status" -eq 0 ]
	echo "$output" >"$T/out"
	run /usr/bin/python3 -I -c "
import json
s = json.load(open('$T/out'))['seccomp']
assert s['allow'] == sorted(s['allow']) and s['kill'] == sorted(s['kill'])
assert not set(s['allow']) & set(s['kill'])
print(len(s['allow']), len(s['kill']), s['otherwise'])
for n in ('read', 'execve', 'clone', 'clone3', 'ioctl', 'socket', 'flock', 'mknodat'): assert n in s['allow'], n
for n in ('ptrace', 'mount', 'unshare', 'setns', 'bpf', 'io_uring_setup', 'keyctl', 'personality'): assert n in s['kill'], n"
	[ "$status" -eq 0 ]
	[ "$output" = "251 68 enosys" ]
}

@test "policy seccomp: toolcell never allows what undoes the sandbox; refusals name the key" {
	policy '"seccomp": {"add": ["mount"]}'
	run "$TOOLCELL" python --policy "$T/p.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: $T/p.json: seccomp.add[0]: toolcell never allows \"mount\": it changes the sandbox's file system" ]
	policy '"seccomp": {"remove": ["execve"]}'
	run "$TOOLCELL" policy check "$T/p.json"
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: $T/p.json: seccomp.remove[0]: \"execve\" cannot be removed: toolcell itself makes it once the filter is loaded" ]
}

@test "require.landlock: a higher ABI than the kernel's is refused with 125; check says so" {
	policy '"require": {"landlock": 255}'
	run "$TOOLCELL" python --policy "$T/p.json" -c 'print(1)'
	[ "$status" -eq 125 ]
	[[ "$output" == "toolcell: $T/p.json requires Landlock ABI 255 or later; this kernel has "* ]]
	run "$TOOLCELL" check --policy "$T/p.json"
	[ "$status" -eq 125 ]
	[[ "$output" == *"policy requirements: NOT MET: $T/p.json requires Landlock ABI 255 or later"* ]]
	[[ "$output" == *"verdict: $T/p.json cannot run here"* ]]
	policy '"require": {"landlock": true}'
	run "$TOOLCELL" python --policy "$T/p.json" -c 'print(1)'
	[ "$status" -eq 0 ]
	[ "$output" = "1" ]
}

@test "NETLINK_ROUTE opens: if_nameindex() is [(1, 'lo')] and glibc's getifaddrs lists lo" {
	run "$TOOLCELL" python --result "$T/r.json" -c "
import ctypes, socket
print(socket.if_nameindex())
class ifaddrs(ctypes.Structure):
    pass
ifaddrs._fields_ = [('next', ctypes.POINTER(ifaddrs)), ('name', ctypes.c_char_p),
                    ('flags', ctypes.c_uint), ('addr', ctypes.c_void_p)]
libc = ctypes.CDLL(None)
p = ctypes.POINTER(ifaddrs)()
print(libc.getifaddrs(ctypes.byref(p)))
names, q = set(), p
while q:
    names.add(q.contents.name.decode()); q = q.contents.next
print(sorted(names))"
	[ "$status" -eq 0 ]
	[ "$output" = "[(1, 'lo')]
0
['lo']" ]
	[ "$(key denied_syscalls)" = '{}' ]
}

@test "the init has a filter of its own, the tool only its own: one filter each" {
	marker="tc-init-filter-$$-$RANDOM"
	# the tool waits until its own stdin closes (after the checks below)
	mkfifo "$T/in"
	"$TOOLCELL" python -c "import sys; sys.stdin.read()" "$marker" <"$T/in" >/dev/null 2>&1 3>&- &
	bg=$!
	exec 4>"$T/in"
	tool=
	for _ in $(seq 100); do
		tool=$(pgrep -f -- "^python3 -c .* $marker\$") || true
		[ -n "$tool" ] && break
		sleep 0.1
	done
	[ -n "$tool" ]
	# its Seccomp line turns 2 only at its last step before execve
	for _ in $(seq 50); do
		grep -q '^Seccomp:[[:space:]]*2$' "/proc/$tool/status" && break
		sleep 0.1
	done
	init=$(awk '/^PPid:/ { print $2 }' "/proc/$tool/status")
	tool_f=$(awk '/^Seccomp_filters:/ { print $2 }' "/proc/$tool/status")
	init_s=$(awk '/^Seccomp:/ { print $2 }' "/proc/$init/status")
	init_f=$(awk '/^Seccomp_filters:/ { print $2 }' "/proc/$init/status")
	exec 4>&-
	wait "$bg"
	# the tool does not inherit the init's filter: it was forked before
	[ "$tool_f" = 1 ]
	[ "$init_s" = 2 ]
	[ "$init_f" = 1 ]
}
