/* Unit tests for the syscall filter's parent side: compilation, the kill
 * set, the refusal errnos, names, and the pipe the child receives it by. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tc-test.h"
#include "seccomp.h"

static void test_compile(void **state)
{
	struct tc_syscall_policy sp;
	struct tc_seccomp f;
	struct tc_error e = { 0 };

	(void)state;
	tc_syscall_policy_default(&sp);
	assert_int_equal(tc_seccomp_compile(&sp, &f, &e), 0);
	assert_true(f.len > 100 && f.len < TC_FILTER_MAX);
	/* libseccomp's programs start by checking the architecture */
	assert_int_equal(f.prog[0].code, 0x20); /* ld [4]: seccomp_data.arch */
	assert_int_equal(f.prog[0].k, 4);
	assert_true(f.n_allowed > 200);
	assert_true(tc_seccomp_is_kill(&f, SYS_ptrace));
	assert_true(tc_seccomp_is_kill(&f, SYS_unshare));
	assert_true(tc_seccomp_is_kill(&f, SYS_bpf));
	assert_true(tc_seccomp_is_kill(&f, SYS_io_uring_setup));
	assert_false(tc_seccomp_is_kill(&f, SYS_read));
	assert_false(tc_seccomp_is_kill(&f, SYS_clone3)); /* ENOSYS, not a kill */
	assert_false(tc_seccomp_is_kill(&f, -1));
	assert_false(tc_seccomp_is_kill(&f, TC_SYSCALL_MAX));
	tc_seccomp_release(&f);
	assert_null(f.prog);
}

static void test_refusal_and_names(void **state)
{
	char name[32];

	(void)state;
	assert_int_equal(tc_seccomp_refusal(SYS_socket), EAFNOSUPPORT);
	assert_int_equal(tc_seccomp_refusal(SYS_socketpair), EAFNOSUPPORT);
	assert_int_equal(tc_seccomp_refusal(SYS_ioprio_set), ENOSYS);
	tc_syscall_name(SYS_ptrace, name, sizeof(name));
	assert_string_equal(name, "ptrace");
	tc_syscall_name(999, name, sizeof(name));
	assert_string_equal(name, "syscall_999");
}

static void test_pipe_round_trip(void **state)
{
	struct tc_syscall_policy sp;
	struct tc_seccomp f, got;
	struct tc_error e = { 0 };
	int p[2];

	(void)state;
	tc_syscall_policy_default(&sp);
	assert_int_equal(tc_seccomp_compile(&sp, &f, &e), 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(tc_seccomp_send(&f, p[1]), 0);
	close(p[1]);
	assert_int_equal(tc_seccomp_receive(p[0], &got, &e), 0);
	assert_int_equal(got.len, f.len);
	assert_memory_equal(got.prog, f.prog, f.len * sizeof(struct sock_filter));
	close(p[0]);
	/* nothing, or a cut program, is refused */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	close(p[1]);
	assert_int_equal(tc_seccomp_receive(p[0], &got, &e), -EPROTO);
	assert_string_equal(e.message, "no syscall filter arrived");
	close(p[0]);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	{
		uint32_t len = 10;
		assert_int_equal(write(p[1], &len, sizeof(len)), (ssize_t)sizeof(len));
		assert_int_equal(write(p[1], f.prog, 8), 8);
	}
	close(p[1]);
	assert_int_equal(tc_seccomp_receive(p[0], &got, &e), -EPROTO);
	assert_string_equal(e.message, "the syscall filter arrived cut short");
	close(p[0]);
	tc_seccomp_release(&f);
}

static void test_prebuilt_absent_in_library(void **state)
{
	struct tc_syscall_policy sp;
	struct tc_seccomp f;
	struct tc_error e = { 0 };

	(void)state;
	tc_syscall_policy_default(&sp);
	/* the tests link the library alone: prepare compiles at run time */
	assert_null(&tc_seccomp_prebuilt);
	assert_int_equal(tc_seccomp_prepare(&sp, &f, &e), 0);
	assert_true(f.len > 100);
	tc_seccomp_release(&f);
}

/* The lists a policy starts from, and the classes of calls it is told
 * about. */
static void test_default_lists(void **state)
{
	struct tc_syscall_policy sp;

	(void)state;
	tc_syscall_policy_default(&sp);
	assert_true(tc_syscall_in(sp.allow, SYS_read));
	assert_true(tc_syscall_in(sp.allow, SYS_clone));  /* with its rule */
	assert_true(tc_syscall_in(sp.allow, SYS_clone3)); /* as ENOSYS */
	assert_false(tc_syscall_in(sp.allow, SYS_ptrace));
	assert_true(tc_syscall_in(sp.kill, SYS_ptrace));
	assert_false(tc_syscall_in(sp.kill, SYS_read));
	assert_false(tc_syscall_in(sp.allow, SYS_ioprio_set)); /* ENOSYS, counted */
	assert_false(tc_syscall_in(sp.kill, SYS_ioprio_set));
	assert_false(sp.kill_others);
	for (int nr = 0; nr < TC_SYSCALL_MAX; nr++) {
		/* every call toolcell needs is allowed, none is both */
		if (tc_syscall_is_required(nr))
			assert_true(tc_syscall_in(sp.allow, nr));
		assert_false(tc_syscall_in(sp.allow, nr) && tc_syscall_in(sp.kill, nr));
		/* what a policy may never allow is on the kill list */
		if (tc_syscall_never(nr))
			assert_true(tc_syscall_in(sp.kill, nr));
	}
	assert_int_equal(tc_syscall_resolve("read"), SYS_read);
	assert_int_equal(tc_syscall_resolve("no_such_call"), -1);
	assert_non_null(tc_syscall_never(SYS_unshare));
	assert_null(tc_syscall_never(SYS_syslog));
	assert_true(tc_syscall_is_dangerous(SYS_syslog));
	assert_false(tc_syscall_is_dangerous(SYS_read));
	assert_true(tc_syscall_is_required(SYS_execve));
	assert_false(tc_syscall_is_required(SYS_read));
	assert_string_equal(tc_syscall_rule(SYS_flock), "without LOCK_EX");
	assert_null(tc_syscall_rule(SYS_read));
	assert_false(tc_syscall_in(sp.allow, -1));
	assert_false(tc_syscall_in(sp.allow, TC_SYSCALL_MAX));
}

/* A policy's own lists compile into their own program; "otherwise kill"
 * makes every call off the list a kill. */
static void test_compile_policy_lists(void **state)
{
	struct tc_syscall_policy sp;
	struct tc_seccomp def, f;
	struct tc_error e = { 0 };

	(void)state;
	tc_syscall_policy_default(&sp);
	assert_int_equal(tc_seccomp_compile(&sp, &def, &e), 0);
	sp.allow[SYS_getcpu / 64] &= ~(1ull << (SYS_getcpu % 64));
	sp.kill_others = true;
	assert_int_equal(tc_seccomp_compile(&sp, &f, &e), 0);
	assert_int_equal(f.n_allowed, def.n_allowed - 1);
	assert_true(f.kill_others);
	assert_true(tc_seccomp_is_kill(&f, SYS_getcpu));
	assert_true(tc_seccomp_is_kill(&f, SYS_ioprio_set));
	assert_false(tc_seccomp_is_kill(&def, SYS_getcpu));
	assert_true(f.len != def.len || memcmp(f.prog, def.prog, f.len * sizeof(*f.prog)));
	tc_seccomp_release(&def);
	tc_seccomp_release(&f);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_compile), cmocka_unit_test(test_refusal_and_names),
	     cmocka_unit_test(test_pipe_round_trip),
	     cmocka_unit_test(test_prebuilt_absent_in_library),
	     cmocka_unit_test(test_default_lists), cmocka_unit_test(test_compile_policy_lists))
