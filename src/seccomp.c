/* The syscall filter (see seccomp.h). Compiled in the parent with
 * libseccomp; the child only loads the exported program with seccomp(2). */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "seccomp.h"
#include "util.h"

/* What CPython, its standard library and glibc use, and nothing that
 * reaches beyond the sandbox. Calls with argument rules are listed apart. */
static const char *const allowed[] = {
	/* files and descriptors */
	"read",
	"write",
	"readv",
	"writev",
	"pread64",
	"pwrite64",
	"preadv",
	"pwritev",
	"pwritev2",
	"open",
	"openat",
	"openat2",
	"creat",
	"close",
	"close_range",
	"lseek",
	"dup",
	"dup2",
	"dup3",
	"fsync",
	"fdatasync",
	"sync_file_range",
	"truncate",
	"ftruncate",
	"fallocate",
	"readahead",
	"sendfile",
	"splice",
	"tee",
	"copy_file_range",
	"stat",
	"fstat",
	"lstat",
	"newfstatat",
	"statx",
	"statfs",
	"fstatfs",
	"access",
	"faccessat",
	"faccessat2",
	"getdents",
	"getdents64",
	"getcwd",
	"chdir",
	"fchdir",
	"rename",
	"renameat",
	"renameat2",
	"mkdir",
	"mkdirat",
	"rmdir",
	"link",
	"linkat",
	"unlink",
	"unlinkat",
	"symlink",
	"symlinkat",
	"readlink",
	"readlinkat",
	"chmod",
	"fchmod",
	"fchmodat",
	"chown",
	"fchown",
	"lchown",
	"fchownat",
	"umask",
	"utime",
	"utimes",
	"utimensat",
	"futimesat",
	"getxattr",
	"lgetxattr",
	"fgetxattr",
	"listxattr",
	"llistxattr",
	"flistxattr",
	"setxattr",
	"lsetxattr",
	"fsetxattr",
	"removexattr",
	"lremovexattr",
	"fremovexattr",
	"pipe",
	"pipe2",
	"inotify_init",
	"inotify_init1",
	"inotify_add_watch",
	"inotify_rm_watch",
	/* memory */
	"brk",
	"mmap",
	"munmap",
	"mremap",
	"mprotect",
	"msync",
	"mincore",
	"mlock",
	"mlock2",
	"munlock",
	"mlockall",
	"munlockall",
	"membarrier",
	/* processes, threads, signals */
	"fork",
	"vfork",
	"execve",
	"execveat",
	"exit",
	"exit_group",
	"wait4",
	"waitid",
	"kill",
	"tkill",
	"tgkill",
	"getpid",
	"gettid",
	"getppid",
	"getpgrp",
	"getpgid",
	"setpgid",
	"getsid",
	"setsid",
	"set_tid_address",
	"set_robust_list",
	"get_robust_list",
	"futex",
	"futex_waitv",
	"rseq",
	"arch_prctl",
	"rt_sigaction",
	"rt_sigprocmask",
	"rt_sigreturn",
	"rt_sigpending",
	"rt_sigtimedwait",
	"rt_sigqueueinfo",
	"rt_tgsigqueueinfo",
	"rt_sigsuspend",
	"sigaltstack",
	"pause",
	"pidfd_open",
	"pidfd_send_signal",
	"capget",
	"capset",
	"restart_syscall",
	"sync",
	"syncfs",
	/* ids (the kernel refuses changes without capabilities) */
	"getuid",
	"geteuid",
	"getgid",
	"getegid",
	"getresuid",
	"getresgid",
	"getgroups",
	"setuid",
	"setgid",
	"setreuid",
	"setregid",
	"setresuid",
	"setresgid",
	"setgroups",
	"setfsuid",
	"setfsgid",
	/* scheduling, limits, time */
	"sched_yield",
	"sched_getaffinity",
	"sched_setaffinity",
	"sched_getparam",
	"sched_setparam",
	"sched_getscheduler",
	"sched_setscheduler",
	"sched_get_priority_max",
	"sched_get_priority_min",
	"sched_rr_get_interval",
	"sched_getattr",
	"sched_setattr",
	"getcpu",
	"getpriority",
	"setpriority",
	"getrlimit",
	"setrlimit",
	"prlimit64",
	"getrusage",
	"sysinfo",
	"times",
	"uname",
	"nanosleep",
	"clock_nanosleep",
	"clock_gettime",
	"clock_getres",
	"gettimeofday",
	"time",
	"getitimer",
	"setitimer",
	"alarm",
	"timer_create",
	"timer_settime",
	"timer_gettime",
	"timer_getoverrun",
	"timer_delete",
	"timerfd_create",
	"timerfd_settime",
	"timerfd_gettime",
	"getrandom",
	/* waiting */
	"poll",
	"ppoll",
	"select",
	"pselect6",
	"epoll_create",
	"epoll_create1",
	"epoll_ctl",
	"epoll_wait",
	"epoll_pwait",
	"epoll_pwait2",
	"eventfd",
	"eventfd2",
	"signalfd",
	"signalfd4",
	/* sockets (the family is checked at socket(2) and socketpair(2)) */
	"connect",
	"accept",
	"accept4",
	"bind",
	"listen",
	"shutdown",
	"sendto",
	"recvfrom",
	"sendmsg",
	"recvmsg",
	"sendmmsg",
	"recvmmsg",
	"getsockname",
	"getpeername",
	"getsockopt",
	/* POSIX message queues, private to the IPC namespace and held to
	 * nothing by RLIMIT_MSGQUEUE = 0. System V IPC is not here: without
	 * cgroup v2 nothing counts a detached segment against the memory limit
	 * (tc_sysv_ipc_allowed says how a policy that adds it is bounded). */
	"mq_open",
	"mq_unlink",
	"mq_timedsend",
	"mq_timedreceive",
	"mq_notify",
	"mq_getsetattr",
};

/* Calls that end the whole tool: they reach beyond the sandbox (or into
 * the kernel's least-trodden paths), and no honest tool makes them. */
static const char *const killed[] = {
	"ptrace",
	"process_vm_readv",
	"process_vm_writev",
	"process_madvise",
	"kcmp",
	"pidfd_getfd",
	"mount",
	"umount2",
	"pivot_root",
	"chroot",
	"unshare",
	"setns",
	"fsopen",
	"fsconfig",
	"fsmount",
	"fspick",
	"move_mount",
	"open_tree",
	"mount_setattr",
	"open_tree_attr",
	"bpf",
	"perf_event_open",
	"userfaultfd",
	"io_uring_setup",
	"io_uring_enter",
	"io_uring_register",
	"keyctl",
	"add_key",
	"request_key",
	"kexec_load",
	"kexec_file_load",
	"init_module",
	"finit_module",
	"delete_module",
	"reboot",
	"swapon",
	"swapoff",
	"acct",
	"quotactl",
	"quotactl_fd",
	"open_by_handle_at",
	"name_to_handle_at",
	"syslog",
	"settimeofday",
	"clock_settime",
	"clock_adjtime",
	"adjtimex",
	"iopl",
	"ioperm",
	"vhangup",
	"lookup_dcookie",
	"nfsservctl",
	"uselib",
	"ustat",
	"sysfs",
	"_sysctl",
	"create_module",
	"get_kernel_syms",
	"query_module",
	"fanotify_init",
	"fanotify_mark",
	"landlock_create_ruleset",
	"landlock_add_rule",
	"landlock_restrict_self",
	"sethostname",
	"setdomainname",
	"personality",
	"modify_ldt",
};

/* Calls a policy may never allow: they undo the sandbox itself (mounts,
 * namespaces, the root), step around the syscall filter (ptrace,
 * io_uring, another process's memory or descriptors) or reach the kernel's
 * own state. Each with the reason a refusal names. */
static const struct {
	const char *name, *why;
} never[] = {
	{ "mount", "it changes the sandbox's file system" },
	{ "umount2", "it changes the sandbox's file system" },
	{ "pivot_root", "it changes the sandbox's file system" },
	{ "chroot", "it changes the sandbox's file system" },
	{ "fsopen", "it changes the sandbox's file system" },
	{ "fsconfig", "it changes the sandbox's file system" },
	{ "fsmount", "it changes the sandbox's file system" },
	{ "fspick", "it changes the sandbox's file system" },
	{ "move_mount", "it changes the sandbox's file system" },
	{ "open_tree", "it changes the sandbox's file system" },
	{ "open_tree_attr", "it changes the sandbox's file system" },
	{ "mount_setattr", "it changes the sandbox's file system" },
	{ "unshare", "it makes namespaces (a new user namespace gives back capabilities)" },
	{ "setns", "it joins other namespaces" },
	{ "ptrace", "a traced process steps around the syscall filter" },
	{ "process_vm_readv", "it reads another process's memory" },
	{ "process_vm_writev", "it writes another process's memory" },
	{ "pidfd_getfd", "it takes another process's descriptors" },
	{ "io_uring_setup", "io_uring runs file and socket operations the filter never sees" },
	{ "io_uring_enter", "io_uring runs file and socket operations the filter never sees" },
	{ "io_uring_register", "io_uring runs file and socket operations the filter never sees" },
	{ "bpf", "it loads programs into the kernel" },
	{ "userfaultfd", "it lets a process stall the kernel mid-copy, a tool of kernel exploits" },
	{ "perf_event_open", "it reaches the kernel's performance counters and tracepoints" },
	{ "kexec_load", "it replaces the running kernel" },
	{ "kexec_file_load", "it replaces the running kernel" },
	{ "init_module", "it loads kernel modules" },
	{ "finit_module", "it loads kernel modules" },
	{ "delete_module", "it unloads kernel modules" },
	{ "reboot", "it stops the machine" },
	{ "open_by_handle_at", "it opens files by handle, around the mount namespace" },
	{ "iopl", "it reaches I/O ports" },
	{ "ioperm", "it reaches I/O ports" },
};

/* What toolcell itself calls once the filter is loaded: the tool's last
 * steps before execve, and the init's loop. A policy cannot take these
 * away without hanging its own sandbox. */
static const char *const required[] = {
	"execve",	"sendmsg",	   "close", "exit_group", "exit",
	"rt_sigreturn", "rt_sigtimedwait", "wait4", "kill",	  "restart_syscall",
};

/* namespaces and other clone flags a tool has no business with */
#define TC_CLONE_REFUSED                                                                           \
	((uint64_t)(CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |     \
		    CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_NEWTIME))

static const int socket_families[] = { AF_UNIX, AF_INET, AF_INET6 };

/* Calls allowed only with some arguments; the rules are toolcell's, not
 * the policy's: a policy allows or refuses the call as a whole. */
static const struct {
	const char *name, *rule;
} ruled[] = {
	{ "clone", "without namespace flags" },
	{ "clone3",
	  "answers ENOSYS (its flags are out of the filter's reach), so libc uses clone" },
	{ "ioctl", "not TIOCSTI or TIOCLINUX (EPERM), compared on the low 32 bits" },
	{ "socket", "AF_UNIX, AF_INET and AF_INET6, and AF_NETLINK for NETLINK_ROUTE only" },
	{ "socketpair", "AF_UNIX, AF_INET and AF_INET6 only" },
	{ "flock", "without LOCK_EX" },
	{ "mknod", "FIFOs, regular files and sockets; never devices" },
	{ "mknodat", "FIFOs, regular files and sockets; never devices" },
	{ "fcntl", "not F_SETPIPE_SZ (a pipe keeps its 64 KiB): ENOSYS, counted" },
	{ "prctl", "not PR_SET_SECCOMP or PR_SET_MEMORY_MERGE: ENOSYS, counted" },
	{ "seccomp", "no filter of the tool's own, only the queries: ENOSYS, counted" },
	{ "madvise", "not MADV_MERGEABLE (KSM): ENOSYS, counted" },
	{ "fadvise64",
	  "not POSIX_FADV_DONTNEED (evicts the shared rootfs's pages): ENOSYS, counted" },
	{ "preadv2", "not RWF_NOWAIT (probes the shared page cache): ENOSYS, counted" },
	{ "setsockopt", "SO_SNDBUF and SO_RCVBUF performed by toolcell, clamped to a share of the "
			"memory limit; SO_SNDBUFFORCE and SO_RCVBUFFORCE EPERM" },
};

/* Argument values a ruled call allows, as half-open ranges [lo, hi) of the
 * whole 64-bit register: an int the kernel reads from the low half cannot
 * carry a refused value past in the high one. What falls outside goes to
 * the default action: the supervisor answers ENOSYS and counts it. */
struct arg_range {
	uint64_t lo, hi;
};

static const struct arg_range fcntl_cmds[] = { { 0, 1031 }, { 1032, 1088 } };
/* PR_SET_SECCOMP 22, PR_SET_MEMORY_MERGE 67 */
static const struct arg_range prctl_opts[] = { { 0, 22 }, { 23, 67 }, { 68, 128 } };
/* SECCOMP_GET_ACTION_AVAIL, SECCOMP_GET_NOTIF_SIZES */
static const struct arg_range seccomp_ops[] = { { 2, 4 } };
/* MADV_MERGEABLE 12 */
static const struct arg_range madvise_advice[] = { { 0, 12 }, { 13, 128 } };
/* POSIX_FADV_DONTNEED 4 */
static const struct arg_range fadvise_advice[] = { { 0, 4 }, { 5, 16 } };
/* setsockopt's levels but SOL_SOCKET 1 (SOL_VSOCK, the highest, is 287),
 * and SOL_SOCKET's options but SO_SNDBUF 7, SO_RCVBUF 8, SO_SNDBUFFORCE 32
 * and SO_RCVBUFFORCE 33, which go to the supervisor (sockbuf.h) */
static const struct arg_range sockopt_levels[] = { { 0, 1 }, { 2, 512 } };
static const struct arg_range socket_opts[] = { { 0, 7 }, { 9, 32 }, { 34, 128 } };

/* x86_64 calls newer than the libseccomp this was built with may know:
 * named here so the record can say what they were. */
static const struct {
	int nr;
	const char *name;
} newer[] = {
	{ 451, "cachestat" },	      { 452, "fchmodat2" },	   { 453, "map_shadow_stack" },
	{ 454, "futex_wake" },	      { 455, "futex_wait" },	   { 456, "futex_requeue" },
	{ 457, "statmount" },	      { 458, "listmount" },	   { 459, "lsm_get_self_attr" },
	{ 460, "lsm_set_self_attr" }, { 461, "lsm_list_modules" }, { 462, "mseal" },
	{ 463, "setxattrat" },	      { 464, "getxattrat" },	   { 465, "listxattrat" },
	{ 466, "removexattrat" },     { 467, "open_tree_attr" },   { 468, "file_getattr" },
	{ 469, "file_setattr" },
};

static void bit_set(uint64_t *set, int nr)
{
	if (nr >= 0 && nr < TC_SYSCALL_MAX)
		set[nr / 64] |= 1ull << (nr % 64);
}

bool tc_syscall_in(const uint64_t *set, int nr)
{
	return nr >= 0 && nr < TC_SYSCALL_MAX && (set[nr / 64] >> (nr % 64)) & 1;
}

int tc_syscall_resolve(const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);

	for (size_t i = 0; nr < 0 && i < TC_ARRAY_SIZE(newer); i++)
		if (!strcmp(newer[i].name, name))
			nr = newer[i].nr;
	return nr >= 0 && nr < TC_SYSCALL_MAX ? nr : -1;
}

void tc_syscall_policy_default(struct tc_syscall_policy *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < TC_ARRAY_SIZE(allowed); i++)
		bit_set(ret->allow, tc_syscall_resolve(allowed[i]));
	for (size_t i = 0; i < TC_ARRAY_SIZE(ruled); i++)
		bit_set(ret->allow, tc_syscall_resolve(ruled[i].name));
	for (size_t i = 0; i < TC_ARRAY_SIZE(killed); i++)
		bit_set(ret->kill, tc_syscall_resolve(killed[i]));
}

bool tc_syscall_is_dangerous(int nr)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(killed); i++)
		if (tc_syscall_resolve(killed[i]) == nr)
			return true;
	return false;
}

const char *tc_syscall_never(int nr)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(never); i++)
		if (tc_syscall_resolve(never[i].name) == nr)
			return never[i].why;
	return NULL;
}

bool tc_syscall_is_required(int nr)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(required); i++)
		if (tc_syscall_resolve(required[i]) == nr)
			return true;
	return false;
}

const char *tc_syscall_rule(int nr)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(ruled); i++)
		if (tc_syscall_resolve(ruled[i].name) == nr)
			return ruled[i].rule;
	return NULL;
}

static int add(scmp_filter_ctx c, uint32_t action, int nr, unsigned n_args,
	       const struct scmp_arg_cmp *args, struct tc_error *err)
{
	int r = seccomp_rule_add_array(c, action, nr, n_args, args);

	if (r < 0) {
		char name[32];
		tc_seccomp_name(nr, name, sizeof(name));
		return tc_error_errno(err, "seccomp", -r, "cannot add the %s rule", name);
	}
	return 0;
}

/* Allow nr where argument arg lies in one of the ranges (and the comparison
 * also holds, when given): one MASKED_EQ rule per aligned power-of-two
 * block, since libseccomp takes one comparison per argument and rule. */
static int allow_ranges(scmp_filter_ctx c, int nr, unsigned arg, const struct arg_range *ranges,
			size_t n, const struct scmp_arg_cmp *also, struct tc_error *err)
{
	int r = 0;

	for (size_t i = 0; i < n && r >= 0; i++)
		for (uint64_t lo = ranges[i].lo, size; lo < ranges[i].hi && r >= 0; lo += size) {
			struct scmp_arg_cmp cmp = {
				.arg = arg,
				.op = SCMP_CMP_MASKED_EQ,
				.datum_b = lo,
			};

			for (size = 1; !(lo & (2 * size - 1)) && lo + 2 * size <= ranges[i].hi;)
				size *= 2;
			cmp.datum_a = ~(size - 1);
			struct scmp_arg_cmp both[2] = { cmp, also ? *also : cmp };
			r = add(c, SCMP_ACT_ALLOW, nr, also ? 2 : 1, both, err);
		}
	return r;
}

#define ALLOW_RANGES(c, nr, arg, ranges, err)                                                      \
	allow_ranges(c, nr, arg, ranges, TC_ARRAY_SIZE(ranges), NULL, err)

/* The argument rules of the calls that hold or probe kernel memory beyond
 * the sandbox's limits, or turn the filter's answers into the tool's own. */
static int add_arg_rules(scmp_filter_ctx c, int nr, struct tc_error *err)
{
	switch (nr) {
	case SYS_fcntl:
		return ALLOW_RANGES(c, nr, 1, fcntl_cmds, err);
	case SYS_prctl:
		return ALLOW_RANGES(c, nr, 0, prctl_opts, err);
	case SYS_seccomp:
		return ALLOW_RANGES(c, nr, 0, seccomp_ops, err);
	case SYS_madvise:
		return ALLOW_RANGES(c, nr, 2, madvise_advice, err);
	case SYS_fadvise64:
		return ALLOW_RANGES(c, nr, 3, fadvise_advice, err);
	case SYS_setsockopt: {
		struct scmp_arg_cmp sol = SCMP_A1_64(SCMP_CMP_EQ, SOL_SOCKET);
		int r = ALLOW_RANGES(c, nr, 1, sockopt_levels, err);
		return r < 0 ? r
			     : allow_ranges(c, nr, 2, socket_opts, TC_ARRAY_SIZE(socket_opts), &sol,
					    err);
	}
	case SYS_preadv2: {
		struct scmp_arg_cmp a = SCMP_A5_64(SCMP_CMP_MASKED_EQ, RWF_NOWAIT, 0);
		return add(c, SCMP_ACT_ALLOW, nr, 1, &a, err);
	}
	}
	return add(c, SCMP_ACT_ALLOW, nr, 0, NULL, err);
}

/* The rules of one ruled call (see ruled[]). */
static int add_ruled(scmp_filter_ctx c, int nr, struct tc_error *err)
{
	int r = 0;

	if (nr == SYS_clone) {
		/* without namespace flags (glibc's fork and pthread_create) */
		struct scmp_arg_cmp a = SCMP_A0_64(SCMP_CMP_MASKED_EQ, TC_CLONE_REFUSED, 0);
		return add(c, SCMP_ACT_ALLOW, nr, 1, &a, err);
	}
	if (nr == SYS_clone3)
		/* clone3 hides its flags in memory a filter cannot read:
		 * ENOSYS, and glibc falls back to clone */
		return add(c, SCMP_ACT_ERRNO(ENOSYS), nr, 0, NULL, err);
	if (nr == SYS_ioctl) {
		/* the kernel reads the command as 32 bits, so a filter that
		 * compares 64 lets TIOCSTI | (1 << 32) through. TIOCSTI and
		 * TIOCLINUX are refused on their low 32 bits whatever the high
		 * ones; every other 32-bit command passes; a command with high
		 * bits set is no honest program's and goes to the default
		 * action. The refusals overlap the allowance and win
		 * (tests/integration/seccomp.bats holds that). */
		for (size_t i = 0; i < 2 && r >= 0; i++) {
			struct scmp_arg_cmp eq = SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xffffffffull,
							    i ? TIOCLINUX : TIOCSTI);
			r = add(c, SCMP_ACT_ERRNO(EPERM), nr, 1, &eq, err);
		}
		struct scmp_arg_cmp low = SCMP_A1_64(SCMP_CMP_MASKED_EQ, 0xffffffff00000000ull, 0);
		return r < 0 ? r : add(c, SCMP_ACT_ALLOW, nr, 1, &low, err);
	}
	if (nr == SYS_socket || nr == SYS_socketpair) {
		/* local and loopback families only (compared on the 32 bits
		 * the kernel reads) */
		for (size_t i = 0; i < TC_ARRAY_SIZE(socket_families) && r >= 0; i++) {
			struct scmp_arg_cmp a =
				SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)socket_families[i]);
			r = add(c, SCMP_ACT_ALLOW, nr, 1, &a, err);
		}
		if (r >= 0 && nr == SYS_socket) {
			/* and the route family of netlink, which if_nameindex()
			 * and getifaddrs() read: the sandbox's own network
			 * namespace (lo alone), changes refused for want of
			 * CAP_NET_ADMIN there; every other netlink family (audit,
			 * uevents, sock_diag, ...) stays refused */
			struct scmp_arg_cmp route[2] = {
				SCMP_A0_64(SCMP_CMP_MASKED_EQ, 0xffffffffull, AF_NETLINK),
				SCMP_A2_64(SCMP_CMP_MASKED_EQ, 0xffffffffull, NETLINK_ROUTE),
			};
			r = add(c, SCMP_ACT_ALLOW, nr, 2, route, err);
		}
		return r;
	}
	if (nr == SYS_flock) {
		/* never LOCK_EX: the rootfs and read-only binds are the same
		 * host inodes in every sandbox, so an exclusive lock on one
		 * would be a channel between sandboxes and could block the
		 * host. Shared locks never conflict; fcntl locks on a
		 * read-only file can only be read locks. */
		struct scmp_arg_cmp no_ex = SCMP_A1_32(SCMP_CMP_MASKED_EQ, LOCK_EX, 0);
		return add(c, SCMP_ACT_ALLOW, nr, 1, &no_ex, err);
	}
	if (nr == SYS_mknod || nr == SYS_mknodat) {
		/* FIFOs, regular files and sockets; never devices */
		static const uint32_t kinds[] = { S_IFIFO, S_IFREG, S_IFSOCK };
		for (size_t i = 0; i < TC_ARRAY_SIZE(kinds) && r >= 0; i++) {
			struct scmp_arg_cmp a =
				nr == SYS_mknod ? SCMP_A1_32(SCMP_CMP_MASKED_EQ, S_IFMT, kinds[i])
						: SCMP_A2_32(SCMP_CMP_MASKED_EQ, S_IFMT, kinds[i]);
			r = add(c, SCMP_ACT_ALLOW, nr, 1, &a, err);
		}
		return r;
	}
	return add_arg_rules(c, nr, err);
}

static int add_rules(scmp_filter_ctx c, const struct tc_syscall_policy *sp, struct tc_seccomp *f,
		     struct tc_error *err)
{
	int r = 0;

	for (int nr = 0; nr < TC_SYSCALL_MAX && r >= 0; nr++) {
		if (tc_syscall_in(sp->allow, nr)) {
			r = add_ruled(c, nr, err);
			f->n_allowed++;
		} else if (sp->kill_others || tc_syscall_in(sp->kill, nr)) {
			/* the killed calls go to the default action (notify),
			 * and the supervisor ends the sandbox for them */
			bit_set(f->kill, nr);
			f->n_kill++;
		}
	}
	f->kill_others = sp->kill_others;
	f->clamp_sockbuf = tc_syscall_in(sp->allow, SYS_setsockopt);
	return r;
}

/* libseccomp writes the program to an fd; read it back into memory. */
static int export(scmp_filter_ctx c, struct tc_seccomp *f, struct tc_error *err)
{
	_cleanup_close_ int fd = memfd_create("toolcell-seccomp", MFD_CLOEXEC);
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (fd < 0)
		return tc_error_errno(err, "seccomp", errno, "cannot create a memfd");
	r = seccomp_export_bpf(c, fd);
	if (r < 0)
		return tc_error_errno(err, "seccomp", -r, "cannot export the filter");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return tc_error_errno(err, "seccomp", errno, "cannot read the filter back");
	r = tc_read_fd(fd, 65536 * sizeof(struct sock_filter), &buf, &len);
	if (r < 0)
		return tc_error_errno(err, "seccomp", -r, "cannot read the filter back");
	if (len == 0 || len % sizeof(struct sock_filter)) {
		free(buf);
		return tc_error_set(err, "seccomp", EINVAL, "libseccomp exported a bad filter");
	}
	f->prog = (struct sock_filter *)buf;
	f->len = (unsigned short)(len / sizeof(struct sock_filter));
	return 0;
}

int tc_seccomp_prepare(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err)
{
	const struct tc_seccomp_prebuilt *pb = &tc_seccomp_prebuilt;

	/* the build-time copy serves the default lists only */
	if (!pb || memcmp(pb->policy.allow, sp->allow, sizeof(sp->allow)) ||
	    memcmp(pb->policy.kill, sp->kill, sizeof(sp->kill)) ||
	    pb->policy.kill_others != sp->kill_others)
		return tc_seccomp_compile(sp, ret, err);
	memset(ret, 0, sizeof(*ret));
	ret->prog = malloc(pb->len * sizeof(struct sock_filter));
	if (!ret->prog)
		return tc_error_set(err, "seccomp", ENOMEM, "cannot allocate the syscall filter");
	memcpy(ret->prog, pb->prog, pb->len * sizeof(struct sock_filter));
	ret->len = pb->len;
	memcpy(ret->kill, pb->kill, sizeof(ret->kill));
	ret->n_allowed = pb->n_allowed;
	ret->n_kill = pb->n_kill;
	ret->clamp_sockbuf = tc_syscall_in(sp->allow, SYS_setsockopt);
	return 0;
}

int tc_seccomp_compile(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err)
{
	scmp_filter_ctx c;
	int r;

	memset(ret, 0, sizeof(*ret));
	c = seccomp_init(SCMP_ACT_NOTIFY);
	if (!c)
		return tc_error_set(err, "seccomp", ENOMEM, "cannot start a seccomp filter");
	/* x32 numbers and 32-bit entry points: not ours, the tool dies */
	r = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (r < 0)
		tc_error_errno(err, "seccomp", -r, "cannot set the bad-architecture action");
	/* a binary tree of syscall numbers: a call is found in about eight
	 * comparisons instead of a walk down the list, and the kernel's check
	 * of every number when it loads the filter is that much shorter */
	if (r >= 0 && (r = seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0)
		tc_error_errno(err, "seccomp", -r, "cannot ask for a binary-tree filter");
	if (r >= 0)
		r = add_rules(c, sp, ret, err);
	if (r >= 0)
		r = export(c, ret, err);
	seccomp_release(c);
	if (r < 0)
		tc_seccomp_release(ret);
	return r;
}

int tc_seccomp_send(const struct tc_seccomp *f, int fd)
{
	uint32_t len = f->len;
	int r = tc_write_all(fd, &len, sizeof(len));

	if (r >= 0)
		r = tc_write_all(fd, f->prog, len * sizeof(struct sock_filter));
	return r;
}

int tc_seccomp_receive(int fd, struct tc_seccomp *ret, struct tc_error *err)
{
	static struct sock_filter prog[TC_FILTER_MAX];
	uint32_t len = 0;
	ssize_t n = tc_read_full(fd, &len, sizeof(len));

	memset(ret, 0, sizeof(*ret));
	if (n != (ssize_t)sizeof(len) || len == 0 || len > TC_FILTER_MAX)
		return tc_error_set(err, "seccomp", EPROTO, "no syscall filter arrived");
	n = tc_read_full(fd, prog, len * sizeof(struct sock_filter));
	if (n != (ssize_t)(len * sizeof(struct sock_filter)))
		return tc_error_set(err, "seccomp", EPROTO, "the syscall filter arrived cut short");
	ret->prog = prog;
	ret->len = (unsigned short)len;
	return 0;
}

int tc_seccomp_enter(const struct tc_seccomp *f, bool listen, struct tc_error *err)
{
	struct sock_fprog prog = { .len = f->len, .filter = f->prog };
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			 listen ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, &prog);

	if (r < 0)
		return tc_error_errno(err, "seccomp", errno, "cannot load the syscall filter");
	return (int)r;
}

/* The sandbox's init, once the tool is forked, only waits, reaps, reports
 * and exits: its own filter lets those through, answers ENOSYS to anything
 * else and kills another architecture's call, as the tool's does. A few
 * instructions instead of the tool's whole filter (the kernel checks and
 * caches a filter against every syscall number when it loads it). */
#define INIT_ALLOW(nr)                                                                             \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
static const struct sock_filter init_prog[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	/* x32 numbers carry bit 30 */
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	INIT_ALLOW(SYS_rt_sigtimedwait),
	INIT_ALLOW(SYS_wait4),
	INIT_ALLOW(SYS_sendmsg),
	INIT_ALLOW(SYS_kill),
	INIT_ALLOW(SYS_exit_group),
	INIT_ALLOW(SYS_exit),
	INIT_ALLOW(SYS_rt_sigreturn),
	INIT_ALLOW(SYS_restart_syscall),
	INIT_ALLOW(SYS_clock_gettime),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
};

int tc_seccomp_enter_init(struct tc_error *err)
{
	const struct tc_seccomp f = { .prog = (struct sock_filter *)init_prog,
				      .len = TC_ARRAY_SIZE(init_prog) };

	return tc_seccomp_enter(&f, false, err);
}

bool tc_seccomp_is_kill(const struct tc_seccomp *f, int nr)
{
	return f->kill_others || tc_syscall_in(f->kill, nr);
}

int tc_seccomp_refusal(int nr)
{
	if (nr == SYS_socket || nr == SYS_socketpair)
		return EAFNOSUPPORT; /* a family off the list, as socket(2) says it */
	return ENOSYS;
}

void tc_seccomp_name(int nr, char *buf, size_t size)
{
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

	for (size_t i = 0; !name && i < TC_ARRAY_SIZE(newer); i++)
		if (newer[i].nr == nr) {
			snprintf(buf, size, "%s", newer[i].name);
			return;
		}
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "syscall_%d", nr);
	free(name);
}

void tc_seccomp_release(struct tc_seccomp *f)
{
	free(f->prog);
	f->prog = NULL;
	f->len = 0;
}
