/* The syscall table (see syscalls.h): pure data and lookups, no filter
 * and no kernel call. Names resolve to numbers through libseccomp's table
 * (and newer[] for calls younger than it). Runs anywhere; the parent reads
 * it for policies, the filter and the record. */
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"
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

void tc_syscall_put(uint64_t *set, int nr, bool on)
{
	if (nr < 0 || nr >= TC_SYSCALL_MAX)
		return;
	if (on)
		set[nr / 64] |= 1ull << (nr % 64);
	else
		set[nr / 64] &= ~(1ull << (nr % 64));
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
		tc_syscall_put(ret->allow, tc_syscall_resolve(allowed[i]), true);
	for (size_t i = 0; i < TC_ARRAY_SIZE(ruled); i++)
		tc_syscall_put(ret->allow, tc_syscall_resolve(ruled[i].name), true);
	for (size_t i = 0; i < TC_ARRAY_SIZE(killed); i++)
		tc_syscall_put(ret->kill, tc_syscall_resolve(killed[i]), true);
}

/* The index of nr among n names, the first at first and each stride bytes
 * after the one before (an array of names, or a member of an array of
 * structs), or -1. */
static long find(int nr, const char *const *first, size_t n, size_t stride)
{
	for (size_t i = 0; i < n; i++)
		if (tc_syscall_resolve(*(const char *const *)((const char *)first + i * stride)) ==
		    nr)
			return (long)i;
	return -1;
}

#define FIND(nr, table, member)                                                                    \
	find(nr, &(table)[0] member, TC_ARRAY_SIZE(table), sizeof((table)[0]))

bool tc_syscall_is_dangerous(int nr)
{
	return FIND(nr, killed, ) >= 0;
}

const char *tc_syscall_never(int nr)
{
	long i = FIND(nr, never, .name);

	return i >= 0 ? never[i].why : NULL;
}

bool tc_syscall_is_required(int nr)
{
	return FIND(nr, required, ) >= 0;
}

const char *tc_syscall_rule(int nr)
{
	long i = FIND(nr, ruled, .name);

	return i >= 0 ? ruled[i].rule : NULL;
}

void tc_syscall_name(int nr, char *buf, size_t size)
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
