/* The syscall filter (see seccomp.h). Compiled in the parent with
 * libseccomp from the table in syscalls.c; the child only loads the
 * exported program with seccomp(2). */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/falloc.h>
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

#include "bind.h"
#include "seccomp.h"
#include "util.h"

/* namespaces and other clone flags a tool has no business with */
#define TC_CLONE_REFUSED                                                                           \
	((uint64_t)(CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |     \
		    CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_NEWTIME))

static const int socket_families[] = { AF_UNIX, AF_INET, AF_INET6 };

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

static int add(scmp_filter_ctx c, uint32_t action, int nr, unsigned n_args,
	       const struct scmp_arg_cmp *args, struct tc_error *err)
{
	int r = seccomp_rule_add_array(c, action, nr, n_args, args);

	if (r < 0) {
		char name[32];
		tc_syscall_name(nr, name, sizeof(name));
		return tc_error_errno(err, TC_STAGE_SECCOMP, -r, "cannot add the %s rule", name);
	}
	return 0;
}

/* With a live bind (bind.h) the tool writes the host's own folder, where a
 * set-uid or set-gid file would be the caller's (root's, as root): the
 * calls that set a mode keep S_ISUID and S_ISGID out of it (EPERM). Each
 * call's mode argument and, for the open calls, its flags (the mode counts
 * only with O_CREAT or O_TMPFILE; -1: always). mknod and mknodat are
 * ruled in add_ruled with their kinds; mkdir needs no rule, as the kernel
 * drops set-id bits from its mode (a set-gid parent's own is inherited). */
#define TC_SETID     ((uint64_t)(S_ISUID | S_ISGID))
#define TC_O_TMPFILE 020000000ull /* the kernel's __O_TMPFILE, without O_DIRECTORY */
static const struct {
	int nr;
	unsigned mode;
	int flags;
} mode_calls[] = {
	{ SYS_chmod, 1, -1 },		{ SYS_fchmod, 1, -1 }, { SYS_fchmodat, 2, -1 },
	{ 452, 2, -1 } /* fchmodat2 */, { SYS_creat, 1, -1 },  { SYS_open, 2, 1 },
	{ SYS_openat, 3, 2 },
};

/* EPERM when argument mode holds S_ISUID or S_ISGID (and, with also, when
 * that comparison holds too). */
static int refuse_setid_bits(scmp_filter_ctx c, int nr, unsigned mode,
			     const struct scmp_arg_cmp *also, struct tc_error *err)
{
	int r = 0;

	for (uint64_t bit = S_ISGID; bit <= S_ISUID && r >= 0; bit <<= 1) {
		struct scmp_arg_cmp both[2] = {
			{ .arg = mode, .op = SCMP_CMP_MASKED_EQ, .datum_a = bit, .datum_b = bit },
		};

		if (also)
			both[1] = *also;
		r = add(c, SCMP_ACT_ERRNO(EPERM), nr, also ? 2 : 1, both, err);
	}
	return r;
}

/* The rules of a call that sets a mode, in a run with a live bind: allowed
 * without set-id bits (or, for open and openat, without a flag that
 * creates), EPERM with them. The rules never overlap. */
static int add_mode_rules(scmp_filter_ctx c, size_t i, struct tc_error *err)
{
	int nr = mode_calls[i].nr, flags = mode_calls[i].flags, r;
	unsigned mode = mode_calls[i].mode;
	struct scmp_arg_cmp plain = { .arg = mode, .op = SCMP_CMP_MASKED_EQ, .datum_a = TC_SETID };

	r = add(c, SCMP_ACT_ALLOW, nr, 1, &plain, err);
	if (r < 0 || flags < 0)
		return r < 0 ? r : refuse_setid_bits(c, nr, mode, NULL, err);
	struct scmp_arg_cmp no_create = { .arg = (unsigned)flags,
					  .op = SCMP_CMP_MASKED_EQ,
					  .datum_a = O_CREAT | TC_O_TMPFILE };
	r = add(c, SCMP_ACT_ALLOW, nr, 1, &no_create, err);
	for (uint64_t f = O_CREAT; r >= 0 && f; f = f == O_CREAT ? TC_O_TMPFILE : 0) {
		struct scmp_arg_cmp creates = {
			.arg = (unsigned)flags, .op = SCMP_CMP_MASKED_EQ, .datum_a = f, .datum_b = f
		};
		r = refuse_setid_bits(c, nr, mode, &creates, err);
	}
	return r;
}

/* Allow nr without flag in argument arg; with it, errno e. */
static int allow_without(scmp_filter_ctx c, int nr, unsigned arg, uint64_t flag, int e,
			 struct tc_error *err)
{
	struct scmp_arg_cmp plain = { .arg = arg, .op = SCMP_CMP_MASKED_EQ, .datum_a = flag };
	struct scmp_arg_cmp with = plain;
	int r;

	with.datum_b = flag;
	r = add(c, SCMP_ACT_ALLOW, nr, 1, &plain, err);
	return r < 0 ? r : add(c, SCMP_ACT_ERRNO((uint32_t)e), nr, 1, &with, err);
}

static int add_live_rules(scmp_filter_ctx c, int nr, struct tc_error *err)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(mode_calls); i++)
		if (mode_calls[i].nr == nr)
			return add_mode_rules(c, i, err);
	if (nr == SYS_openat2)
		/* its mode is in memory a filter cannot read: ENOSYS, as a
		 * kernel without it answers; libc and Python never use it */
		return add(c, SCMP_ACT_ERRNO(ENOSYS), nr, 0, NULL, err);
	if (nr == SYS_renameat2)
		/* RENAME_WHITEOUT leaves a character device (0:0) behind */
		return allow_without(c, nr, 4, RENAME_WHITEOUT, EPERM, err);
	if (nr == SYS_fallocate)
		/* FALLOC_FL_KEEP_SIZE takes blocks past the end of a file,
		 * where RLIMIT_FSIZE does not look: EOPNOTSUPP, as a file
		 * system without it answers (posix_fallocate never asks) */
		return allow_without(c, nr, 1, FALLOC_FL_KEEP_SIZE, EOPNOTSUPP, err);
	return 1;
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

/* The rules of one ruled call (see ruled[]); with refuse_setid, of a
 * call that sets a mode too (above). */
static int add_ruled(scmp_filter_ctx c, int nr, bool refuse_setid, struct tc_error *err)
{
	int r = refuse_setid ? add_live_rules(c, nr, err) : 1;

	if (r <= 0)
		return r;
	r = 0;

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
		/* FIFOs, regular files and sockets; never devices (and, with
		 * a live bind, never set-id bits: EPERM) */
		static const uint32_t kinds[] = { S_IFIFO, S_IFREG, S_IFSOCK };
		uint32_t mask = S_IFMT | (refuse_setid ? (uint32_t)TC_SETID : 0);
		unsigned mode = nr == SYS_mknod ? 1 : 2;

		for (size_t i = 0; i < TC_ARRAY_SIZE(kinds) && r >= 0; i++) {
			struct scmp_arg_cmp a =
				nr == SYS_mknod ? SCMP_A1_32(SCMP_CMP_MASKED_EQ, mask, kinds[i])
						: SCMP_A2_32(SCMP_CMP_MASKED_EQ, mask, kinds[i]);
			r = add(c, SCMP_ACT_ALLOW, nr, 1, &a, err);
		}
		return r < 0 || !refuse_setid ? r : refuse_setid_bits(c, nr, mode, NULL, err);
	}
	return add_arg_rules(c, nr, err);
}

static int add_rules(scmp_filter_ctx c, const struct tc_syscall_policy *sp, struct tc_seccomp *f,
		     struct tc_error *err)
{
	int r = 0;

	for (int nr = 0; nr < TC_SYSCALL_MAX && r >= 0; nr++) {
		if (tc_syscall_in(sp->allow, nr)) {
			r = add_ruled(c, nr, sp->refuse_setid, err);
			f->n_allowed++;
		} else if (sp->kill_others || tc_syscall_in(sp->kill, nr)) {
			/* the killed calls go to the default action (notify),
			 * and the supervisor ends the sandbox for them */
			tc_syscall_put(f->kill, nr, true);
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
		return tc_error_errno(err, TC_STAGE_SECCOMP, errno, "cannot create a memfd");
	r = seccomp_export_bpf(c, fd);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_SECCOMP, -r, "cannot export the filter");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return tc_error_errno(err, TC_STAGE_SECCOMP, errno, "cannot read the filter back");
	r = tc_read_fd(fd, 65536 * sizeof(struct sock_filter), &buf, &len);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_SECCOMP, -r, "cannot read the filter back");
	if (len == 0 || len % sizeof(struct sock_filter)) {
		free(buf);
		return tc_error_set(err, TC_STAGE_SECCOMP, EINVAL,
				    "libseccomp exported a bad filter");
	}
	f->prog = (struct sock_filter *)buf;
	f->len = (unsigned short)(len / sizeof(struct sock_filter));
	return 0;
}

/* the build-time copy serves the default lists only */
static bool prebuilt_serves(const struct tc_syscall_policy *sp)
{
	const struct tc_seccomp_prebuilt *pb = &tc_seccomp_prebuilt;

	return pb && !memcmp(pb->policy.allow, sp->allow, sizeof(sp->allow)) &&
	       !memcmp(pb->policy.kill, sp->kill, sizeof(sp->kill)) &&
	       pb->policy.kill_others == sp->kill_others &&
	       pb->policy.refuse_setid == sp->refuse_setid;
}

int tc_seccomp_prepare(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err)
{
	const struct tc_seccomp_prebuilt *pb = &tc_seccomp_prebuilt;

	if (!prebuilt_serves(sp))
		return tc_seccomp_compile(sp, ret, err);
	memset(ret, 0, sizeof(*ret));
	ret->prog = malloc(pb->len * sizeof(struct sock_filter));
	if (!ret->prog)
		return tc_error_set(err, TC_STAGE_SECCOMP, ENOMEM,
				    "cannot allocate the syscall filter");
	memcpy(ret->prog, pb->prog, pb->len * sizeof(struct sock_filter));
	ret->len = pb->len;
	memcpy(ret->kill, pb->kill, sizeof(ret->kill));
	ret->n_allowed = pb->n_allowed;
	ret->n_kill = pb->n_kill;
	ret->clamp_sockbuf = tc_syscall_in(sp->allow, SYS_setsockopt);
	return 0;
}

static struct tc_syscall_policy run_policy(const struct tc_config *cfg)
{
	struct tc_syscall_policy sp = cfg->syscalls;

	/* a live bind is the host's folder: no set-id bits through it */
	sp.refuse_setid = tc_binds_live(cfg);
	return sp;
}

int tc_seccomp_prepare_run(const struct tc_config *cfg, struct tc_seccomp *ret,
			   struct tc_error *err)
{
	struct tc_syscall_policy sp = run_policy(cfg);

	return tc_seccomp_prepare(&sp, ret, err);
}

bool tc_seccomp_run_prebuilt(const struct tc_config *cfg)
{
	struct tc_syscall_policy sp = run_policy(cfg);

	return prebuilt_serves(&sp);
}

int tc_seccomp_compile(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err)
{
	scmp_filter_ctx c;
	int r;

	memset(ret, 0, sizeof(*ret));
	c = seccomp_init(SCMP_ACT_NOTIFY);
	if (!c)
		return tc_error_set(err, TC_STAGE_SECCOMP, ENOMEM, "cannot start a seccomp filter");
	/* x32 numbers and 32-bit entry points: not ours, the tool dies */
	r = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (r < 0)
		tc_error_errno(err, TC_STAGE_SECCOMP, -r, "cannot set the bad-architecture action");
	/* a binary tree of syscall numbers: a call is found in about eight
	 * comparisons instead of a walk down the list, and the kernel's check
	 * of every number when it loads the filter is that much shorter */
	if (r >= 0 && (r = seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0)
		tc_error_errno(err, TC_STAGE_SECCOMP, -r, "cannot ask for a binary-tree filter");
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
		return tc_error_set(err, TC_STAGE_SECCOMP, EPROTO, "no syscall filter arrived");
	n = tc_read_full(fd, prog, len * sizeof(struct sock_filter));
	if (n != (ssize_t)(len * sizeof(struct sock_filter)))
		return tc_error_set(err, TC_STAGE_SECCOMP, EPROTO,
				    "the syscall filter arrived cut short");
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
		return tc_error_errno(err, TC_STAGE_SECCOMP, errno,
				      "cannot load the syscall filter");
	return (int)r;
}

/* The sandbox's init, once the tool is forked, only waits, reaps, reports
 * and exits: its own filter lets those through, answers ENOSYS to anything
 * else and kills another architecture's call, as the tool's does. A few
 * instructions instead of the tool's whole filter (the kernel checks and
 * caches a filter against every syscall number when it loads it). */
#define INIT_ALLOW(nr)                                                                             \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
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
	INIT_ALLOW(SYS_getrusage),
	INIT_ALLOW(SYS_sendmsg),
	INIT_ALLOW(SYS_kill),
	INIT_ALLOW(SYS_exit_group),
	INIT_ALLOW(SYS_exit),
	INIT_ALLOW(SYS_rt_sigreturn),
	INIT_ALLOW(SYS_restart_syscall),
	INIT_ALLOW(SYS_clock_gettime),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
};

/* A sanitized build's init keeps the tool's filter, as every build did
 * before: AddressSanitizer's runtime makes calls of its own inside the
 * init's intercepted ones (sigaltstack, gettid, mmap, write). */
int tc_seccomp_enter_init(const struct tc_seccomp *tool, struct tc_error *err)
{
	const struct tc_seccomp f = { .prog = (struct sock_filter *)init_prog,
				      .len = TC_ARRAY_SIZE(init_prog) };
	return tc_seccomp_enter(TC_ASAN ? tool : &f, false, err);
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

void tc_seccomp_release(struct tc_seccomp *f)
{
	free(f->prog);
	f->prog = NULL;
	f->len = 0;
}
