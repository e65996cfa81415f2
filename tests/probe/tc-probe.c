/* tc-probe: a static program that runs inside the sandbox and makes one raw
 * system call with harmless bad arguments, so that a call the filter lets
 * through answers with the kernel's own error (EFAULT, EBADF, EINVAL...)
 * and a refused one with the policy's answer (ENOSYS, EPERM, EAFNOSUPPORT,
 * or no answer at all when the call ends the tool). Built with -static and
 * without sanitizers or toolcell's compile options (tests/CMakeLists.txt);
 * every call goes through the syscall instruction or int 0x80 directly, so
 * no libc wrapper changes the arguments or the errno. Each result is one
 * line on stdout: "call NAME nr=N ret=R errno=E ENAME". */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* A pointer no call can read or write: not canonical on x86_64 (above
 * even 5-level paging's user half), so the kernel answers EFAULT. Its low
 * 32 bits are negative as an int, so a 32-bit fd or flag is bad too. */
#define BAD 0x0bad0000bad00000L
#define X32 0x40000000L
#define HELP                                                                                       \
	"usage: tc-probe COMMAND [ARGS]\n"                                                         \
	"  call NAME|NR [ARG...]  one call; ARGs (number, 'bad' or 'buf') replace the\n"           \
	"                         harmless defaults from the left (see calls[] in the\n"           \
	"                         source; a number 'call' has no entry for gets junk)\n"           \
	"  x32 NR                 NR | 0x40000000 through the syscall instruction\n"               \
	"  int80 NR               NR as an i386 call through int 0x80\n"                           \
	"  ioctl CMD [FD]         ioctl(FD (default -1), CMD, bad pointer)\n"                      \
	"  socket FAMILY [TYPE [PROTOCOL]]  FAMILY: unix inet inet6 netlink packet vsock alg\n"    \
	"  socketpair FAMILY [TYPE]  key or a number; TYPE and PROTOCOL default to the family's\n" \
	"  clone FLAGS            clone(FLAGS | SIGCHLD) like fork; a child exits at once\n"       \
	"  clone3                 clone3(bad pointer, 88)\n"                                       \
	"  sweep NR...            each NR with junk arguments (-1, then bad pointers)\n"           \
	"  listener               install an allow-all filter with a notification\n"               \
	"                         listener of its own (the chain has toolcell's)\n"                \
	"  creds                  ids, groups, capability sets, no_new_privs, securebits\n"        \
	"  cat PATH               the file's first 4 KiB on stdout (no ioctl, no libc I/O)\n"      \
	"Exit status: 0 after the call (whatever it answered), 2 on bad usage.\n"

struct call {
	const char *name;
	long nr;
	long a[6];
};

/* clang-format off */
#define C(n, ...) { #n, __NR_##n, { __VA_ARGS__ } }

/* Default arguments: ones that fail harmlessly if the call is allowed. */
static const struct call calls[] = {
	/* the filter's kill list */
	C(ptrace, 12 /* PTRACE_GETREGS */, -1, BAD, BAD),
	C(process_vm_readv, -1, BAD, 1, BAD, 1, 0), C(process_vm_writev, -1, BAD, 1, BAD, 1, 0),
	C(process_madvise, -1, BAD, 1, 0, 0), C(kcmp, -1, -1, 0, 0, 0), C(pidfd_getfd, -1, -1, 0),
	C(mount, BAD, BAD, BAD, 0, BAD), C(umount2, BAD, 0), C(pivot_root, BAD, BAD),
	C(chroot, BAD), C(unshare, -1), C(setns, -1, 0), C(fsopen, BAD, 0),
	C(fsconfig, -1, 0, BAD, BAD, 0), C(fsmount, -1, 0, 0), C(fspick, -1, BAD, 0),
	C(move_mount, -1, BAD, -1, BAD, 0), C(open_tree, -1, BAD, 0),
	{ "open_tree_attr", 467, { -1, BAD, 0, BAD, 0 } }, /* Linux 6.15; newer than the headers */
	C(mount_setattr, -1, BAD, 0, BAD, 0), C(bpf, -1, BAD, 0),
	C(perf_event_open, BAD, -1, -1, -1, 0), C(userfaultfd, -1), C(io_uring_setup, 0, BAD),
	C(io_uring_enter, -1, 0, 0, 0, BAD, 0), C(io_uring_register, -1, 0, BAD, 0),
	C(keyctl, -1, 0, 0, 0, 0), C(add_key, BAD, BAD, BAD, 0, 0),
	C(request_key, BAD, BAD, BAD, 0), C(kexec_load, 0, 0, BAD, -1),
	C(kexec_file_load, -1, -1, 0, BAD, -1), C(init_module, BAD, 0, BAD),
	C(finit_module, -1, BAD, -1), C(delete_module, BAD, 0),
	C(reboot, 0, 0, 0, BAD), /* no magic numbers: EINVAL */
	C(swapon, BAD, 0), C(swapoff, BAD),
	C(acct, BAD), /* never NULL, which turns accounting off */
	C(quotactl, -1, BAD, 0, BAD), C(quotactl_fd, -1, 0, 0, BAD),
	C(open_by_handle_at, -1, BAD, 0), C(name_to_handle_at, -1, BAD, BAD, BAD, 0),
	C(syslog, -1, BAD, 0),
	C(settimeofday, BAD, BAD), /* never NULL, NULL, which succeeds */
	C(clock_settime, -1, BAD), C(clock_adjtime, -1, BAD), C(adjtimex, BAD),
	C(iopl, 4), /* levels go to 3 */
	C(ioperm, -1, 1, 1), C(vhangup, 0), C(lookup_dcookie, 0, BAD, 0),
	C(nfsservctl, -1, BAD, BAD), C(uselib, BAD), C(ustat, 0, BAD), C(sysfs, -1),
	C(_sysctl, BAD), C(create_module, BAD, 0), C(get_kernel_syms, BAD),
	C(query_module, BAD, -1, BAD, 0, BAD), C(fanotify_init, -1, 0),
	C(fanotify_mark, -1, 0, 0, -1, BAD), C(landlock_create_ruleset, BAD, 0, -1),
	C(landlock_add_rule, -1, 0, BAD, 0), C(landlock_restrict_self, -1, 0),
	C(sethostname, BAD, 1), C(setdomainname, BAD, 1),
	C(personality, 0xffffffffL), /* a query: changes nothing */
	C(modify_ldt, -1, BAD, 0),
	/* allowed calls (a sample) and those with argument rules */
	C(read, -1, BAD, 1), C(write, -1, BAD, 1), C(openat, AT_FDCWD, BAD, 0),
	C(newfstatat, AT_FDCWD, BAD, BAD, 0), C(statx, AT_FDCWD, BAD, 0, 0, BAD), C(fstat, -1, BAD),
	C(close, -1), C(dup, -1), C(getdents64, -1, BAD, 1), C(getcwd, BAD, 4096), C(uname, BAD),
	C(sysinfo, BAD), C(getrandom, BAD, 16, 0), C(clock_gettime, 0, BAD), C(pipe2, BAD, 0),
	C(capget, BAD, BAD), C(futex, BAD, 0, 0, 0), C(connect, -1, BAD, 16),
	C(execve, BAD, BAD, BAD), C(mq_open, BAD, 0, 0, 0), C(getpid, 0),
	C(flock, -1, 1 /* LOCK_SH */),
	C(mknodat, AT_FDCWD, BAD, 0010000 /* S_IFIFO */, 0),
	C(mknod, BAD, 0010000, 0), C(socket, -1, 1, 0),
	C(ioctl, -1, 0x541b /* FIONREAD */, BAD),
};
/* clang-format on */

/* Calls a sweep must never make with junk: they end, stop or fork it. */
static const long never_swept[] = {
	__NR_exit,	    __NR_exit_group, __NR_rt_sigreturn, __NR_pause,
	__NR_rt_sigsuspend, __NR_fork,	     __NR_vfork,	__NR_clone,
	__NR_kill,	    __NR_tkill,	     __NR_tgkill,	__NR_restart_syscall,
};

static long raw(long nr, const long a[6])
{
	register long r10 __asm__("r10") = a[3];
	register long r8 __asm__("r8") = a[4];
	register long r9 __asm__("r9") = a[5];
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static long int80(long nr, const long a[6])
{
	long ret;

	/* the i386 entry: eax, ebx, ecx, edx, esi, edi, ebp (not used here) */
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "0"(nr), "b"(a[0]), "c"(a[1]), "d"(a[2]), "S"(a[3]), "D"(a[4])
			 : "r8", "r9", "r10", "r11", "memory");
	return (int)ret; /* the i386 ABI returns 32 bits */
}

static void out(const char *fmt, ...)
{
	char buf[512];
	long a[6] = { 1, (long)buf, 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	a[2] = n < 0 ? 0 : n >= (int)sizeof(buf) ? (long)sizeof(buf) - 1 : n;
	raw(__NR_write, a);
}

static void result(const char *what, const char *name, long nr, long ret)
{
	if (ret < 0 && ret > -4096) {
		const char *e = strerrorname_np((int)-ret);
		out("%s %s nr=%ld ret=-1 errno=%ld %s\n", what, name, nr, -ret, e ? e : "?");
	} else {
		out("%s %s nr=%ld ret=%ld errno=0 OK\n", what, name, nr, ret);
	}
}

static int usage(const char *why)
{
	long a[6] = { 2, (long)"tc-probe: ", 10 };

	raw(__NR_write, a);
	a[1] = (long)why;
	a[2] = (long)strlen(why);
	raw(__NR_write, a);
	a[1] = (long)"\n" HELP;
	a[2] = sizeof("\n" HELP) - 1;
	raw(__NR_write, a);
	return 2;
}

static int number(const char *s, long *ret)
{
	static char buf[4096];
	char *end;

	if (!strcmp(s, "bad")) {
		*ret = BAD;
		return 0;
	}
	if (!strcmp(s, "buf")) {
		*ret = (long)buf;
		return 0;
	}
	errno = 0;
	*ret = *s == '-' ? strtol(s, &end, 0) : (long)strtoull(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

static const struct call *find(const char *s)
{
	static struct call any;
	long nr;

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].name, s))
			return &calls[i];
	if (number(s, &nr) < 0 || nr < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].nr == nr)
			return &calls[i];
	any = (struct call){ s, nr, { -1, BAD, BAD, BAD, BAD, BAD } };
	return &any;
}

static int cmd_call(int argc, char **argv)
{
	const struct call *c = argc > 0 ? find(argv[0]) : NULL;
	long a[6];

	if (!c || argc > 7)
		return usage("call: a known name or a number, then at most 6 arguments");
	memcpy(a, c->a, sizeof(a));
	for (int i = 1; i < argc; i++)
		if (number(argv[i], &a[i - 1]) < 0)
			return usage("call: an argument is a number, 'bad' or 'buf'");
	result("call", c->name, c->nr, raw(c->nr, a));
	return 0;
}

static int cmd_abi(bool i386, int argc, char **argv)
{
	static const long junk[6] = { -1, BAD, BAD, BAD, BAD, BAD };
	long nr;

	if (argc != 1 || number(argv[0], &nr) < 0)
		return usage("x32 and int80 take one syscall number");
	if (i386)
		result("int80", argv[0], nr, int80(nr, junk));
	else
		result("x32", argv[0], nr | X32, raw(nr | X32, junk));
	return 0;
}

static int cmd_ioctl(int argc, char **argv)
{
	long a[6] = { -1, 0, BAD };

	if (argc < 1 || argc > 2 || number(argv[0], &a[1]) < 0 ||
	    (argc == 2 && number(argv[1], &a[0]) < 0))
		return usage("ioctl CMD [FD]");
	result("ioctl", argv[0], __NR_ioctl, raw(__NR_ioctl, a));
	return 0;
}

static const struct {
	const char *name;
	long family, type, protocol;
} families[] = {
	{ "unix", AF_UNIX, SOCK_STREAM, 0 },	{ "inet", AF_INET, SOCK_STREAM, 0 },
	{ "inet6", AF_INET6, SOCK_STREAM, 0 },	{ "netlink", AF_NETLINK, SOCK_RAW, 0 },
	{ "packet", AF_PACKET, SOCK_DGRAM, 0 }, { "vsock", AF_VSOCK, SOCK_STREAM, 0 },
	{ "alg", AF_ALG, SOCK_SEQPACKET, 0 },	{ "key", AF_KEY, SOCK_RAW, 2 /* PF_KEY_V2 */ },
};

static int cmd_socket(bool pair, int argc, char **argv)
{
	int sv[2] = { -1, -1 };
	long a[6] = { -1, SOCK_STREAM, 0, (long)sv }, ret;
	size_t i;

	if (argc < 1 || argc > 3)
		return usage("socket FAMILY [TYPE [PROTOCOL]]");
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].name, argv[0]))
			break;
	if (i < sizeof(families) / sizeof(families[0])) {
		a[0] = families[i].family;
		a[1] = families[i].type;
		a[2] = families[i].protocol;
	} else if (number(argv[0], &a[0]) < 0) {
		return usage("socket: an unknown family");
	}
	if (argc >= 2 && number(argv[1], &a[1]) < 0)
		return usage("socket: TYPE is a number");
	if (argc == 3 && number(argv[2], &a[2]) < 0)
		return usage("socket: PROTOCOL is a number");
	ret = raw(pair ? __NR_socketpair : __NR_socket, a);
	result(pair ? "socketpair" : "socket", argv[0], pair ? __NR_socketpair : __NR_socket, ret);
	return 0;
}

static int cmd_clone(int argc, char **argv)
{
	long a[6] = { 0, 0, 0, 0, 0, 0 }, ret, st = 0;

	if (argc != 1 || number(argv[0], &a[0]) < 0)
		return usage("clone FLAGS");
	if (a[0] & (CLONE_VM | CLONE_THREAD | CLONE_SETTLS | CLONE_PARENT_SETTID |
		    CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		return usage("clone: a fork-like clone only (no CLONE_VM, TLS or TID flags)");
	a[0] |= SIGCHLD;
	ret = raw(__NR_clone, a);
	if (ret == 0) {
		long e[6] = { 0 };
		raw(__NR_exit_group, e);
	}
	result("clone", argv[0], __NR_clone, ret);
	if (ret > 0) {
		long w[6] = { ret, (long)&st, 0, 0 };
		raw(__NR_wait4, w);
	}
	return 0;
}

static int cmd_sweep(int argc, char **argv)
{
	static const long junk[6] = { -1, BAD, BAD, BAD, BAD, BAD };
	long nr;

	/* check every number before the first call */
	for (int i = 0; i < argc; i++) {
		if (number(argv[i], &nr) < 0 || nr < 0)
			return usage("sweep: syscall numbers only");
		for (size_t j = 0; j < sizeof(never_swept) / sizeof(never_swept[0]); j++)
			if (nr == never_swept[j])
				return usage("sweep: a number that would end or stop the probe");
	}
	for (int i = 0; i < argc; i++) {
		number(argv[i], &nr);
		result("sweep", argv[i], nr, raw(nr, junk));
	}
	return 0;
}

static int cmd_listener(void)
{
	/* the kernel allows one listener per filter chain, and toolcell holds
	 * it: a second would receive the calls toolcell must refuse and could
	 * let them run (SECCOMP_USER_NOTIF_FLAG_CONTINUE) */
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	long a[6] = { SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&prog };

	result("listener", "seccomp", __NR_seccomp, raw(__NR_seccomp, a));
	return 0;
}

static long prctl5(long op, long a1, long a2)
{
	long a[6] = { op, a1, a2, 0, 0, 0 };
	return raw(__NR_prctl, a);
}

static int cmd_creds(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };
	unsigned long long bounding = 0, ambient = 0;
	unsigned ids[3], gids[3], groups[64];
	long a[6] = { (long)&h, (long)d }, n, last = -1;

	if (raw(__NR_capget, a) < 0)
		return usage("creds: capget failed");
	for (long c = 0; c < 64; c++) {
		long r = prctl5(PR_CAPBSET_READ, c, 0);
		if (r < 0)
			break;
		last = c;
		bounding |= (unsigned long long)(r == 1) << c;
		ambient |=
			(unsigned long long)(prctl5(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c) == 1)
			<< c;
	}
	a[0] = (long)&ids[0], a[1] = (long)&ids[1], a[2] = (long)&ids[2];
	raw(__NR_getresuid, a);
	a[0] = (long)&gids[0], a[1] = (long)&gids[1], a[2] = (long)&gids[2];
	raw(__NR_getresgid, a);
	a[0] = 64, a[1] = (long)groups;
	n = raw(__NR_getgroups, a);
	out("uid %u %u %u\ngid %u %u %u\ngroups %ld", ids[0], ids[1], ids[2], gids[0], gids[1],
	    gids[2], n);
	for (long i = 0; i < n; i++)
		out(" %u", groups[i]);
	out("\ncap_effective %08x%08x\ncap_permitted %08x%08x\ncap_inheritable %08x%08x\n",
	    d[1].effective, d[0].effective, d[1].permitted, d[0].permitted, d[1].inheritable,
	    d[0].inheritable);
	out("cap_bounding %016llx\ncap_ambient %016llx\ncap_last %ld\n", bounding, ambient, last);
	out("no_new_privs %ld\nsecurebits 0x%lx\n", prctl5(PR_GET_NO_NEW_PRIVS, 0, 0),
	    prctl5(PR_GET_SECUREBITS, 0, 0));
	return 0;
}

static int cmd_cat(const char *path)
{
	char buf[4096];
	long a[6] = { AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC }, fd, n;

	fd = raw(__NR_openat, a);
	if (fd < 0)
		return usage("cat: cannot open the file");
	a[0] = fd, a[1] = (long)buf, a[2] = sizeof(buf);
	n = raw(__NR_read, a);
	if (n < 0)
		return usage("cat: cannot read the file");
	a[0] = 1, a[2] = n;
	raw(__NR_write, a);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	argc -= 2;
	argv += 2;
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		long a[6] = { 1, (long)HELP, sizeof(HELP) - 1 };
		raw(__NR_write, a);
		return 0;
	}
	if (!strcmp(cmd, "call"))
		return cmd_call(argc, argv);
	if (!strcmp(cmd, "x32") || !strcmp(cmd, "int80"))
		return cmd_abi(!strcmp(cmd, "int80"), argc, argv);
	if (!strcmp(cmd, "ioctl"))
		return cmd_ioctl(argc, argv);
	if (!strcmp(cmd, "socket") || !strcmp(cmd, "socketpair"))
		return cmd_socket(!strcmp(cmd, "socketpair"), argc, argv);
	if (!strcmp(cmd, "clone"))
		return cmd_clone(argc, argv);
	if (!strcmp(cmd, "clone3") && argc == 0) {
		long a[6] = { BAD, 88 };
		result("clone3", "clone3", __NR_clone3, raw(__NR_clone3, a));
		return 0;
	}
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc, argv);
	if (!strcmp(cmd, "listener") && argc == 0)
		return cmd_listener();
	if (!strcmp(cmd, "creds") && argc == 0)
		return cmd_creds();
	if (!strcmp(cmd, "cat") && argc == 1)
		return cmd_cat(argv[0]);
	return usage(*cmd ? "unknown command" : "a command is needed");
}
