#!/usr/bin/env bats
# The syscall filter seen from inside, through tc-probe (tests/probe/tc-probe.c,
# built static into $TC_BUILD/probe): one raw call per sandbox with harmless
# bad arguments, so an allowed call answers with the kernel's own error
# (EFAULT, EBADF) and a refused one with the policy's (ENOSYS, EPERM,
# EAFNOSUPPORT, or the end of the tool). Each test asserts toolcell's exit
# status, what the probe printed, and the record's status, denied_syscall and
# denied_syscalls. Runs as root and as an unprivileged caller
# (TC_UNPRIVILEGED=1); only the supplementary groups differ between the two.

load helpers

setup() {
	tc_setup
	PROBE_DIR=${TC_BUILD:-$BATS_TEST_DIRNAME/../../build}/probe
	[ -x "$PROBE_DIR/tc-probe" ] || {
		echo "no probe at $PROBE_DIR/tc-probe: build with TOOLCELL_TESTS=ON" >&2
		return 1
	}
}

teardown() {
	tc_teardown
}

# probe ARGS...: run tc-probe ARGS in a sandbox (stdin /dev/null), the record
# in $TC_TMP/r.json, stdout in $output, stderr in $TC_TMP/stderr
probe() {
	capture "$TOOLCELL" run --result "$TC_TMP/r.json" --ro-bind "$PROBE_DIR:/opt/probe" \
		-- /opt/probe/tc-probe "$@" </dev/null
	output=$(cat "$TC_TMP/stdout")
}

# shown: what the last probe run left, for a failing test's log
shown() {
	printf 'exit: %s\nstdout: %s\nstderr: %s\n' "$status" "$output" "$(cat "$TC_TMP/stderr")" >&2
}

# record: one line of the record's verdict, for an exact comparison
record() {
	"$PY" -I -c '
import json, sys
r = json.load(open(sys.argv[1]))
d = r["denied_syscall"]
print("%s inferred=%s exit=%s signal=%s denied=%s counts=%s" % (r["status"],
      json.dumps(r["status_inferred"]), json.dumps(r["exit_code"]),
      r["signal_name"] or "null", d and "%s/%d" % (d["name"], d["nr"]) or "null",
      json.dumps(r["denied_syscalls"], sort_keys=True, separators=(",", ":"))))
' "$TC_TMP/r.json"
}

# expect WHAT: print $output, the stderr and the record on failure
expect() {
	local got
	got=$(record) || return 1
	if [ "$got" != "$1" ]; then
		printf 'record:   %s\nexpected: %s\nstdout: %s\nstderr: %s\n' "$got" "$1" "$output" \
			"$(cat "$TC_TMP/stderr")" >&2
		return 1
	fi
}

# answers LINE COUNTS ARGS...: the probe survives, prints LINE, the tool
# exits 0, and the record counts exactly COUNTS
answers() {
	local line=$1 counts=$2
	shift 2
	probe "$@"
	[ "$output" = "$line" ] && [ "$status" -eq 0 ] && [ ! -s "$TC_TMP/stderr" ] || {
		shown
		echo "expected stdout: $line" >&2
		return 1
	}
	expect "ok inferred=false exit=0 signal=null denied=null counts=$counts"
}

# killed NAME NR: the call ends the whole tool (SIGSYS, as the kernel's
# seccomp kill) and the record names it; the probe never prints its answer
killed() {
	probe call "$1"
	[ "$status" -eq 159 ] && [ "$output" = "" ] &&
		[ "$(cat "$TC_TMP/stderr")" = "toolcell: the tool made a forbidden system call ($1, number $2)" ] ||
		{
			shown
			return 1
		}
	expect "syscall_denied inferred=false exit=null signal=SIGSYS denied=$1/$2 counts={}"
}

# sigsys ARGS...: the filter's own kill for a foreign ABI
sigsys() {
	probe "$@"
	[ "$status" -eq 159 ] && [ "$output" = "" ] &&
		[ "$(cat "$TC_TMP/stderr")" = "toolcell: the tool made a forbidden system call (a system call of another architecture: x32 or int 0x80; SIGSYS)" ] ||
		{
			shown
			return 1
		}
	expect "syscall_denied inferred=true exit=null signal=SIGSYS denied=null counts={}"
}

# filter_lists: the effective policy's seccomp section as JSON
filter_lists() {
	"$TOOLCELL" policy check "$TC_BUILD/policies/default.json" | "$PY" -I -c '
import json, sys
doc = json.load(sys.stdin)
if "seccomp" not in doc:
    sys.exit("policy check prints no \"seccomp\" section: this toolcell cannot list its filter")
sc = doc["seccomp"]
assert sc["otherwise"] == "enosys", sc["otherwise"]
assert sc["allow"] and sc["kill"], "empty lists"
print(json.dumps(sc))'
}

@test "the probe runs from a read-only bind as pid 2 of the sandbox" {
	answers "call getpid nr=39 ret=2 errno=0 OK" "{}" call getpid
}

# --- every call of the kill list (tests/probe/tc-probe.c has their arguments)
@test "ptrace ends the tool" { killed ptrace 101; }
@test "process_vm_readv ends the tool" { killed process_vm_readv 310; }
@test "process_vm_writev ends the tool" { killed process_vm_writev 311; }
@test "process_madvise ends the tool" { killed process_madvise 440; }
@test "kcmp ends the tool" { killed kcmp 312; }
@test "pidfd_getfd ends the tool" { killed pidfd_getfd 438; }
@test "mount ends the tool" { killed mount 165; }
@test "umount2 ends the tool" { killed umount2 166; }
@test "pivot_root ends the tool" { killed pivot_root 155; }
@test "chroot ends the tool" { killed chroot 161; }
@test "unshare ends the tool" { killed unshare 272; }
@test "setns ends the tool" { killed setns 308; }
@test "fsopen ends the tool" { killed fsopen 430; }
@test "fsconfig ends the tool" { killed fsconfig 431; }
@test "fsmount ends the tool" { killed fsmount 432; }
@test "fspick ends the tool" { killed fspick 433; }
@test "move_mount ends the tool" { killed move_mount 429; }
@test "open_tree ends the tool" { killed open_tree 428; }
@test "open_tree_attr (newer than libseccomp 2.5.4, killed by number) ends the tool" { killed open_tree_attr 467; }
@test "mount_setattr ends the tool" { killed mount_setattr 442; }
@test "bpf ends the tool" { killed bpf 321; }
@test "perf_event_open ends the tool" { killed perf_event_open 298; }
@test "userfaultfd ends the tool" { killed userfaultfd 323; }
@test "io_uring_setup ends the tool" { killed io_uring_setup 425; }
@test "io_uring_enter ends the tool" { killed io_uring_enter 426; }
@test "io_uring_register ends the tool" { killed io_uring_register 427; }
@test "keyctl ends the tool" { killed keyctl 250; }
@test "add_key ends the tool" { killed add_key 248; }
@test "request_key ends the tool" { killed request_key 249; }
@test "kexec_load ends the tool" { killed kexec_load 246; }
@test "kexec_file_load ends the tool" { killed kexec_file_load 320; }
@test "init_module ends the tool" { killed init_module 175; }
@test "finit_module ends the tool" { killed finit_module 313; }
@test "delete_module ends the tool" { killed delete_module 176; }
@test "reboot ends the tool" { killed reboot 169; }
@test "swapon ends the tool" { killed swapon 167; }
@test "swapoff ends the tool" { killed swapoff 168; }
@test "acct ends the tool" { killed acct 163; }
@test "quotactl ends the tool" { killed quotactl 179; }
@test "quotactl_fd ends the tool" { killed quotactl_fd 443; }
@test "open_by_handle_at ends the tool" { killed open_by_handle_at 304; }
@test "name_to_handle_at ends the tool" { killed name_to_handle_at 303; }
@test "syslog ends the tool" { killed syslog 103; }
@test "settimeofday ends the tool" { killed settimeofday 164; }
@test "clock_settime ends the tool" { killed clock_settime 227; }
@test "clock_adjtime ends the tool" { killed clock_adjtime 305; }
@test "adjtimex ends the tool" { killed adjtimex 159; }
@test "iopl ends the tool" { killed iopl 172; }
@test "ioperm ends the tool" { killed ioperm 173; }
@test "vhangup ends the tool" { killed vhangup 153; }
@test "lookup_dcookie ends the tool" { killed lookup_dcookie 212; }
@test "nfsservctl ends the tool" { killed nfsservctl 180; }
@test "uselib ends the tool" { killed uselib 134; }
@test "ustat ends the tool" { killed ustat 136; }
@test "sysfs ends the tool" { killed sysfs 139; }
@test "_sysctl ends the tool" { killed _sysctl 156; }
@test "create_module ends the tool" { killed create_module 174; }
@test "get_kernel_syms ends the tool" { killed get_kernel_syms 177; }
@test "query_module ends the tool" { killed query_module 178; }
@test "fanotify_init ends the tool" { killed fanotify_init 300; }
@test "fanotify_mark ends the tool" { killed fanotify_mark 301; }
@test "landlock_create_ruleset ends the tool" { killed landlock_create_ruleset 444; }
@test "landlock_add_rule ends the tool" { killed landlock_add_rule 445; }
@test "landlock_restrict_self ends the tool" { killed landlock_restrict_self 446; }
@test "sethostname ends the tool" { killed sethostname 170; }
@test "setdomainname ends the tool" { killed setdomainname 171; }
@test "personality ends the tool (even a query)" { killed personality 135; }
@test "modify_ldt ends the tool" { killed modify_ldt 154; }

@test "every call the policy's filter kills has a test above" {
	local lists tested
	lists=$(filter_lists)
	tested=$(grep -oE '^@test .*\{ killed [a-z0-9_]+ [0-9]+; \}$' "$BATS_TEST_FILENAME" |
		sed -E 's/.*killed ([a-z0-9_]+) .*/\1/' | sort)
	run "$PY" -I -c '
import json, sys
kill = set(json.loads(sys.argv[1])["kill"])
tested = set(sys.argv[2].split())
print("untested:", " ".join(sorted(kill - tested)) or "-")
print("not in the kill list:", " ".join(sorted(tested - kill)) or "-")' "$lists" "$tested"
	[ "$output" = "$(printf 'untested: -\nnot in the kill list: -')" ]
}

# --- foreign ABIs: the filter's bad-architecture action, SIGSYS
@test "an x32 call (getpid | 0x40000000) ends the tool by SIGSYS" { sigsys x32 39; }
@test "an x32 call of a killed number (ptrace) ends the tool by SIGSYS" { sigsys x32 101; }
@test "an x32 call of an allowed number (read) ends the tool by SIGSYS" { sigsys x32 0; }

@test "an i386 call through int 0x80 (getpid) ends the tool by SIGSYS" {
	# the kernel must have the i386 entry at all: outside, the call answers
	[ "$("$PROBE_DIR/tc-probe" int80 20 | awk '{print $NF}')" = OK ] ||
		tc_skip "this kernel has no i386 entry (IA32_EMULATION off)"
	sigsys int80 20
}

@test "an i386 call through int 0x80 of ptrace (26) ends the tool by SIGSYS" {
	[ "$("$PROBE_DIR/tc-probe" int80 20 | awk '{print $NF}')" = OK ] ||
		tc_skip "this kernel has no i386 entry (IA32_EMULATION off)"
	sigsys int80 26
}

# --- ioctl: TIOCSTI and TIOCLINUX on their low 32 bits, as the kernel reads them
@test "ioctl TIOCSTI answers EPERM" {
	answers "ioctl 0x5412 nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x5412
}
@test "ioctl TIOCSTI with bit 32 set answers EPERM" {
	answers "ioctl 0x100005412 nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x100005412
}
@test "ioctl TIOCSTI with every high bit set answers EPERM" {
	answers "ioctl 0xffffffff00005412 nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0xffffffff00005412
}
@test "ioctl TIOCSTI on stdin answers EPERM" {
	answers "ioctl 0x5412 nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x5412 0
}
@test "ioctl TIOCLINUX answers EPERM" {
	answers "ioctl 0x541c nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x541c
}
@test "ioctl TIOCLINUX with bit 32 set answers EPERM" {
	answers "ioctl 0x10000541c nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x10000541c
}
@test "ioctl TIOCLINUX with bit 63 set answers EPERM" {
	answers "ioctl 0x800000000000541c nr=16 ret=-1 errno=1 EPERM" "{}" ioctl 0x800000000000541c
}
@test "ioctl FIONREAD passes the filter (EBADF on fd -1)" {
	answers "ioctl 0x541b nr=16 ret=-1 errno=9 EBADF" "{}" ioctl 0x541b
}
@test "ioctl FIONREAD with a high bit set answers ENOSYS and is counted" {
	answers "ioctl 0x10000541b nr=16 ret=-1 errno=38 ENOSYS" '{"ioctl":1}' ioctl 0x10000541b
}

# --- socket families: only unix, inet and inet6, and netlink's route family
@test "socket AF_NETLINK NETLINK_ROUTE opens (if_nameindex, getifaddrs)" {
	answers "socket netlink nr=41 ret=3 errno=0 OK" "{}" socket netlink
	answers "socket netlink nr=41 ret=3 errno=0 OK" "{}" socket netlink 2 0
}
@test "socket AF_NETLINK of another family (audit) answers EAFNOSUPPORT and is counted" {
	answers "socket netlink nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket netlink 3 9
}
@test "socket AF_NETLINK NETLINK_KOBJECT_UEVENT answers EAFNOSUPPORT and is counted" {
	answers "socket netlink nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket netlink 3 15
}
@test "socket AF_NETLINK NETLINK_SOCK_DIAG answers EAFNOSUPPORT and is counted" {
	answers "socket netlink nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket netlink 3 4
}
@test "socket AF_NETLINK: the protocol is compared on the 32 bits the kernel reads" {
	# audit with bit 32 set is audit to the kernel: refused
	answers "socket netlink nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' \
		socket netlink 3 0x100000009
	# route with bit 32 set is route to the kernel: opens, as does the
	# family with bit 32 set
	answers "socket netlink nr=41 ret=3 errno=0 OK" "{}" socket netlink 3 0x100000000
	answers "socket 0x100000010 nr=41 ret=3 errno=0 OK" "{}" socket 0x100000010 3
	answers "socket 0x100000010 nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' \
		socket 0x100000010 3 9
}
@test "socket AF_PACKET answers EAFNOSUPPORT and is counted" {
	answers "socket packet nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket packet
}
@test "socket AF_VSOCK answers EAFNOSUPPORT and is counted" {
	answers "socket vsock nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket vsock
}
@test "socket AF_ALG answers EAFNOSUPPORT and is counted" {
	answers "socket alg nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket alg
}
@test "socket AF_KEY answers EAFNOSUPPORT and is counted" {
	answers "socket key nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' socket key
}
@test "socket AF_PACKET with bit 32 set answers EAFNOSUPPORT and is counted" {
	answers "socket 0x100000011 nr=41 ret=-1 errno=97 EAFNOSUPPORT" '{"socket":1}' \
		socket 0x100000011 3
}
@test "socketpair AF_NETLINK answers EAFNOSUPPORT and is counted" {
	answers "socketpair netlink nr=53 ret=-1 errno=97 EAFNOSUPPORT" '{"socketpair":1}' \
		socketpair netlink
}
@test "socketpair AF_PACKET answers EAFNOSUPPORT and is counted" {
	answers "socketpair packet nr=53 ret=-1 errno=97 EAFNOSUPPORT" '{"socketpair":1}' \
		socketpair packet
}
@test "socketpair AF_VSOCK answers EAFNOSUPPORT and is counted" {
	answers "socketpair vsock nr=53 ret=-1 errno=97 EAFNOSUPPORT" '{"socketpair":1}' \
		socketpair vsock
}
@test "socketpair AF_ALG answers EAFNOSUPPORT and is counted" {
	answers "socketpair alg nr=53 ret=-1 errno=97 EAFNOSUPPORT" '{"socketpair":1}' \
		socketpair alg
}
@test "socketpair AF_KEY answers EAFNOSUPPORT and is counted" {
	answers "socketpair key nr=53 ret=-1 errno=97 EAFNOSUPPORT" '{"socketpair":1}' \
		socketpair key
}
@test "socket AF_UNIX, AF_INET and AF_INET6 open; socketpair AF_UNIX opens" {
	answers "socket unix nr=41 ret=3 errno=0 OK" "{}" socket unix
	answers "socket inet nr=41 ret=3 errno=0 OK" "{}" socket inet
	answers "socket inet6 nr=41 ret=3 errno=0 OK" "{}" socket inet6
	answers "socketpair unix nr=53 ret=0 errno=0 OK" "{}" socketpair unix
}

# --- clone: no namespace flag, one at a time; clone3 never
@test "clone CLONE_NEWUSER answers ENOSYS and is counted" {
	answers "clone 0x10000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x10000000
}
@test "clone CLONE_NEWNS answers ENOSYS and is counted" {
	answers "clone 0x00020000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x00020000
}
@test "clone CLONE_NEWPID answers ENOSYS and is counted" {
	answers "clone 0x20000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x20000000
}
@test "clone CLONE_NEWNET answers ENOSYS and is counted" {
	answers "clone 0x40000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x40000000
}
@test "clone CLONE_NEWIPC answers ENOSYS and is counted" {
	answers "clone 0x08000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x08000000
}
@test "clone CLONE_NEWUTS answers ENOSYS and is counted" {
	answers "clone 0x04000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x04000000
}
@test "clone CLONE_NEWCGROUP answers ENOSYS and is counted" {
	answers "clone 0x02000000 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x02000000
}
@test "clone CLONE_NEWTIME answers ENOSYS and is counted" {
	answers "clone 0x00000080 nr=56 ret=-1 errno=38 ENOSYS" '{"clone":1}' clone 0x00000080
}
@test "clone without namespace flags forks (the child is pid 3)" {
	answers "clone 0 nr=56 ret=3 errno=0 OK" "{}" clone 0
}
@test "clone3 answers ENOSYS (the filter's own answer, not counted)" {
	answers "clone3 clone3 nr=435 ret=-1 errno=38 ENOSYS" "{}" clone3
}

# --- argument rules: flock without LOCK_EX, mknod of FIFOs, files, sockets
@test "flock LOCK_SH passes the filter (EBADF on fd -1)" {
	answers "call flock nr=73 ret=-1 errno=9 EBADF" "{}" call flock -1 1
}
@test "flock LOCK_EX answers ENOSYS and is counted" {
	answers "call flock nr=73 ret=-1 errno=38 ENOSYS" '{"flock":1}' call flock -1 2
}
@test "flock LOCK_EX|LOCK_NB answers ENOSYS and is counted" {
	answers "call flock nr=73 ret=-1 errno=38 ENOSYS" '{"flock":1}' call flock -1 6
}
@test "mknodat of a FIFO, a file and a socket passes the filter (EFAULT)" {
	answers "call mknodat nr=259 ret=-1 errno=14 EFAULT" "{}" call mknodat -100 bad 0010644
	answers "call mknodat nr=259 ret=-1 errno=14 EFAULT" "{}" call mknodat -100 bad 0100644
	answers "call mknodat nr=259 ret=-1 errno=14 EFAULT" "{}" call mknodat -100 bad 0140644
}
@test "mknodat of a character device answers ENOSYS and is counted" {
	answers "call mknodat nr=259 ret=-1 errno=38 ENOSYS" '{"mknodat":1}' \
		call mknodat -100 bad 0020666 0x103
}
@test "mknod of a block device answers ENOSYS and is counted" {
	answers "call mknod nr=133 ret=-1 errno=38 ENOSYS" '{"mknod":1}' call mknod bad 0060666 0x801
}
@test "mknod of a FIFO passes the filter (EFAULT)" {
	answers "call mknod nr=133 ret=-1 errno=14 EFAULT" "{}" call mknod bad 0010644
}

# --- a sample of allowed calls: the kernel answers, not the filter
@test "allowed calls answer EBADF or EFAULT from the kernel, never ENOSYS" {
	local c name nr e ename
	for c in read:0:9:EBADF write:1:9:EBADF openat:257:14:EFAULT newfstatat:262:14:EFAULT \
		statx:332:14:EFAULT fstat:5:9:EBADF close:3:9:EBADF dup:32:9:EBADF \
		getdents64:217:9:EBADF getcwd:79:14:EFAULT uname:63:14:EFAULT sysinfo:99:14:EFAULT \
		getrandom:318:14:EFAULT clock_gettime:228:14:EFAULT pipe2:293:14:EFAULT \
		capget:125:14:EFAULT futex:202:14:EFAULT connect:42:9:EBADF execve:59:14:EFAULT \
		mq_open:240:14:EFAULT; do
		IFS=: read -r name nr e ename <<<"$c"
		answers "call $name nr=$nr ret=-1 errno=$e $ename" "{}" call "$name"
	done
}

@test "no filter of the tool's own, so no notification listener either: seccomp answers ENOSYS, counted" {
	answers "listener seccomp nr=317 ret=-1 errno=38 ENOSYS" '{"seccomp":1}' listener
}
@test "fcntl F_SETPIPE_SZ answers ENOSYS and is counted, also with high bits set; F_GETPIPE_SZ passes (EBADF)" {
	answers "call 72 nr=72 ret=-1 errno=38 ENOSYS" '{"fcntl":1}' call 72 -1 1031 65536 0 0 0
	answers "call 72 nr=72 ret=-1 errno=38 ENOSYS" '{"fcntl":1}' call 72 -1 0x100000407 65536 0 0 0
	answers "call 72 nr=72 ret=-1 errno=9 EBADF" "{}" call 72 -1 1032 0 0 0 0
	answers "call 72 nr=72 ret=-1 errno=9 EBADF" "{}" call 72 -1 1030 0 0 0 0
}
@test "prctl PR_SET_MEMORY_MERGE and PR_SET_SECCOMP answer ENOSYS and are counted; PR_GET_SECCOMP passes" {
	answers "call 157 nr=157 ret=-1 errno=38 ENOSYS" '{"prctl":1}' call 157 67 1 0 0 0
	answers "call 157 nr=157 ret=-1 errno=38 ENOSYS" '{"prctl":1}' call 157 22 2 0 0 0
	answers "call 157 nr=157 ret=2 errno=0 OK" "{}" call 157 21 0 0 0 0
}

@test "creds: uid and gid 1000, every capability set empty, no_new_privs, locked securebits" {
	local groups="groups 0"
	if [ -n "${TC_UNPRIVILEGED:-}" ]; then
		# the kernel keeps the caller's supplementary groups (README's
		# known limits): the caller's own gid shows as 1000, others as
		# the overflow gid
		groups=$("$PY" -I -c '
import os
g = sorted(1000 if x == os.getgid() else 65534 for x in os.getgroups())
print(" ".join(["groups", str(len(g))] + [str(x) for x in g]))')
	fi
	probe creds
	[ "$status" -eq 0 ] || {
		shown
		return 1
	}
	[ "$output" = "uid 1000 1000 1000
gid 1000 1000 1000
$groups
cap_effective 0000000000000000
cap_permitted 0000000000000000
cap_inheritable 0000000000000000
cap_bounding 0000000000000000
cap_ambient 0000000000000000
cap_last $(cat /proc/sys/kernel/cap_last_cap)
no_new_privs 1
securebits 0xef" ]
	expect "ok inferred=false exit=0 signal=null denied=null counts={}"
}

# --- every other x86_64 number answers ENOSYS and is counted under its name
@test "a number no syscall table knows answers ENOSYS and is counted as syscall_N" {
	answers "call 400 nr=400 ret=-1 errno=38 ENOSYS" '{"syscall_400":1}' call 400
	answers "call 1023 nr=1023 ret=-1 errno=38 ENOSYS" '{"syscall_1023":1}' call 1023
}

@test "sweep: every number 0-470 off the allow and kill lists answers ENOSYS, counted once" {
	local lists plan nrs counts nr want
	lists=$(filter_lists)
	# "NR NR...|{name: 1, ...}" for the numbers libseccomp (toolcell's own
	# table) names and the policy neither allows nor kills, in batches the
	# record's denied_syscalls can hold
	plan=$("$PY" -I -c '
import ctypes, json, sys
sc = json.loads(sys.argv[1])
lib = ctypes.CDLL("libseccomp.so.2")
libc = ctypes.CDLL(None)
lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
lib.seccomp_syscall_resolve_num_arch.argtypes = [ctypes.c_uint32, ctypes.c_int]
lib.seccomp_syscall_resolve_num_arch.restype = ctypes.c_void_p
def name(nr):
    p = lib.seccomp_syscall_resolve_num_arch(0, nr)  # SCMP_ARCH_NATIVE
    if not p:
        return None
    s = ctypes.cast(p, ctypes.c_char_p).value.decode()
    libc.free(ctypes.c_void_p(p))
    return s
listed = set(sc["allow"]) | set(sc["kill"])
taken = {lib.seccomp_syscall_resolve_name(n.encode()) for n in listed}
sweep = [(nr, name(nr)) for nr in range(471)
         if nr not in taken and name(nr) and name(nr) not in listed]
assert 20 <= len(sweep) <= 200, len(sweep)
for i in range(0, len(sweep), 40):
    b = sweep[i:i + 40]
    print(" ".join(str(nr) for nr, _ in b) + "|" +
          json.dumps({n: 1 for _, n in b}, sort_keys=True, separators=(",", ":")))
' "$lists")
	[ -n "$plan" ]
	while IFS='|' read -r nrs counts; do
		# shellcheck disable=SC2086 # one argument per number
		probe sweep $nrs
		[ "$status" -eq 0 ] || {
			shown
			return 1
		}
		want=$(for nr in $nrs; do echo "sweep $nr nr=$nr ret=-1 errno=38 ENOSYS"; done)
		[ "$output" = "$want" ] || {
			diff <(echo "$want") <(echo "$output") >&2
			return 1
		}
		expect "ok inferred=false exit=0 signal=null denied=null counts=$counts"
	done <<<"$plan"
}

@test "the tool starts only once lo is up and the network namespace's limits are written, however late the network helper is" {
	command -v strace >/dev/null || tc_skip "strace is not installed"
	# the helper hands the namespace over first and brings lo up beside the
	# child's work; every process's 2nd and 3rd ioctl waits a second here:
	# the helper's are lo's (read, then set flags), the probe makes none.
	# A tool started without waiting for the helper's NET_READY reads the
	# kernel's default, 10 (net.unix.max_dgram_qlen is written after lo)
	run env ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=ioctl -e inject=ioctl:delay_enter=1000000:when=2..3 \
		"$TOOLCELL" run --ro-bind "$PROBE_DIR:/opt/probe" -- \
		/opt/probe/tc-probe cat /proc/sys/net/unix/max_dgram_qlen </dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "16" ]
}

@test "the tool starts only once lo is up, however late the network helper is" {
	command -v strace >/dev/null || tc_skip "strace is not installed"
	# as above; lo's IPv6 address is listed only once lo is up
	run env ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=ioctl -e inject=ioctl:delay_enter=1000000:when=2..3 \
		"$TOOLCELL" run --ro-bind "$PROBE_DIR:/opt/probe" -- \
		/opt/probe/tc-probe cat /proc/net/if_inet6 </dev/null
	[ "$status" -eq 0 ]
	[ "$output" = "00000000000000000000000000000001 01 80 10 80       lo" ]
}

@test "a network helper killed before its last word fails the start with 125 and the signal, and leaves nothing behind (no tool waiting for it until its time limit)" {
	command -v strace >/dev/null || tc_skip "strace is not installed"
	local mark="tc-nethelper-$$-$RANDOM"
	# every process's 2nd ioctl is SIGKILLed: only the helper makes one
	# (lo's flags read, then set), after it handed the namespace over
	run env ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=ioctl -e inject=ioctl:signal=KILL:when=2 \
		"$TOOLCELL" run --timeout 20 -- /usr/bin/python3 -c 'print(1)' "$mark" </dev/null
	[ "$status" -eq 125 ]
	[ "$output" = "toolcell: the network helper was killed by signal 9 before the sandbox's network namespace was ready" ]
	[ -z "$(pgrep -f "$mark")" ]
}
