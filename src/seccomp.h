/* The syscall filter: compiled with libseccomp in the parent before clone
 * (an allow-list of what CPython and glibc need, with argument rules where a
 * call is only safe with some arguments), exported as a plain BPF program
 * that the child loads with one seccomp(2) call as the very last step
 * before execve. Every call off the list goes to a user-notification
 * listener the tool hands to the parent: the supervisor answers ENOSYS and
 * counts it, or, for the dangerous calls, kills the whole sandbox and
 * records which call it was. It acts on the syscall number (and the socket
 * family) from the notification only, never on the tool's memory (the one
 * exception: a socket's buffer size, which sockbuf.h clamps). Native
 * x86_64 only: any other architecture (x32 numbers, int 0x80) kills. The
 * lists themselves are data in syscalls.h. */
#ifndef TOOLCELL_SECCOMP_H
#define TOOLCELL_SECCOMP_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "syscalls.h"

#define TC_FILTER_MAX 4096 /* instructions of a filter the child accepts */

struct tc_seccomp {
	struct sock_filter *prog;	    /* the exported program; owned */
	unsigned short len;		    /* instructions */
	uint64_t kill[TC_SYSCALL_MAX / 64]; /* bit set: numbers that end the tool */
	bool kill_others;		    /* every call off the list ends the tool */
	/* setsockopt is allowed: its buffer sizes come to the listener, and
	 * the supervisor performs them clamped (sockbuf.h) */
	bool clamp_sockbuf;
	unsigned n_allowed, n_kill; /* for the record */
};

/* The filter compiled at build time (tools/filtergen.c writes it from the
 * same rule lists); linked into the toolcell binary, absent (a weak
 * symbol) in the library's own tests, which compile at run time. */
struct tc_seccomp_prebuilt {
	struct tc_syscall_policy policy; /* the lists it was compiled from */
	unsigned short len;
	const struct sock_filter *prog;
	uint64_t kill[TC_SYSCALL_MAX / 64];
	unsigned n_allowed, n_kill;
};
extern const struct tc_seccomp_prebuilt tc_seccomp_prebuilt __attribute__((weak));

/* Parent: the filter for sp, from the build-time copy when sp is the
 * default lists and there is one (free), else compiled with libseccomp
 * (about 0.8 ms). */
int tc_seccomp_prepare(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err);

/* Parent: the filter of a run of cfg: its policy's lists, and with a live
 * bind (bind.h) the rules that keep set-id bits off the host. */
int tc_seccomp_prepare_run(const struct tc_config *cfg, struct tc_seccomp *ret,
			   struct tc_error *err);

/* Parent: whether tc_seccomp_prepare_run would take the build-time copy
 * (no compilation). */
bool tc_seccomp_run_prebuilt(const struct tc_config *cfg);

/* Compile the filter for sp with libseccomp, ignoring any build-time copy. */
int tc_seccomp_compile(const struct tc_syscall_policy *sp, struct tc_seccomp *ret,
		       struct tc_error *err);

/* Parent: send the compiled program down fd (a pipe the child reads with
 * tc_seccomp_receive): its length, then its instructions. */
int tc_seccomp_send(const struct tc_seccomp *f, int fd);

/* Child: read a program sent with tc_seccomp_send into ret, whose prog
 * points into a static buffer (no allocation after clone). */
int tc_seccomp_receive(int fd, struct tc_seccomp *ret, struct tc_error *err);

/* Child, last before execve: load it (needs NO_NEW_PRIVS). With listen,
 * returns the user-notification listener's fd; else 0. Plain syscalls. */
int tc_seccomp_enter(const struct tc_seccomp *f, bool listen, struct tc_error *err);

/* Child, the init after the tool's fork: load the init's own small filter
 * (see seccomp.c; tool's filter in an AddressSanitizer build, whose
 * runtime makes calls of its own). Plain syscalls. */
int tc_seccomp_enter_init(const struct tc_seccomp *tool, struct tc_error *err);

/* Parent: true when nr ends the tool rather than answering ENOSYS. */
bool tc_seccomp_is_kill(const struct tc_seccomp *f, int nr);

/* Parent: the errno a refused call answers with (ENOSYS; EAFNOSUPPORT for a
 * socket of a refused family). */
int tc_seccomp_refusal(int nr);

void tc_seccomp_release(struct tc_seccomp *f);

#endif
