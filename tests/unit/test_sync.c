/* Unit tests for the sync socket's framing (sync.c): one message and one
 * fd cross intact, a message of the wrong size or with more than one fd
 * is refused with none of its fds left open, EOF is -EPIPE,
 * and a failed send of the parent's reports the child's queued error
 * rather than EPIPE. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "sync.h"

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
}

static void test_roundtrip(void **state)
{
	struct tc_msg m = { .type = TC_MSG_LISTENER, .value = 1, .cap_eff = 0x3f }, got;
	struct stat a, b;
	int sv[2], fd = -1;

	(void)state;
	pair(sv);
	assert_int_equal(tc_msg_send(sv[0], &m, STDERR_FILENO), 0);
	assert_int_equal(tc_msg_recv(sv[1], &got, &fd), 0);
	assert_int_equal(got.type, TC_MSG_LISTENER);
	assert_int_equal(got.value, 1);
	assert_int_equal(got.cap_eff, 0x3f);
	/* the same file, in a new close-on-exec descriptor */
	assert_true(fd > STDERR_FILENO);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(STDERR_FILENO, &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
	/* an fd nobody asked for is closed, not leaked */
	assert_int_equal(tc_msg_send(sv[0], &m, STDERR_FILENO), 0);
	assert_int_equal(tc_msg_recv(sv[1], &got, NULL), 0);
	/* without one: -1 */
	m.type = TC_MSG_EXITED;
	assert_int_equal(tc_msg_send(sv[0], &m, -1), 0);
	assert_int_equal(tc_msg_recv(sv[1], &got, &fd), 0);
	assert_int_equal(fd, -1);
	assert_int_equal(got.type, TC_MSG_EXITED);
	close(sv[0]);
	assert_int_equal(tc_msg_recv(sv[1], &got, &fd), -EPIPE);
	close(sv[1]);
}

static void test_wrong_size(void **state)
{
	char small[8] = { 0 }, big[sizeof(struct tc_msg) + 8] = { 0 };
	struct tc_msg got;
	int sv[2];

	(void)state;
	pair(sv);
	assert_int_equal(send(sv[0], small, sizeof(small), 0), (ssize_t)sizeof(small));
	assert_int_equal(tc_msg_recv(sv[1], &got, NULL), -EBADMSG);
	assert_int_equal(send(sv[0], big, sizeof(big), 0), (ssize_t)sizeof(big));
	assert_int_equal(tc_msg_recv(sv[1], &got, NULL), -EBADMSG);
	close(sv[0]);
	close(sv[1]);
}

/* Every fd a message brings is handed on or closed: a message refused
 * keeps none, whether it has more than one fd (two fit the control
 * buffer on 64-bit; more are cut), is of the wrong size, or is empty. */
static void test_extra_fds(void **state)
{
	struct tc_msg m = { .type = TC_MSG_EXITED };
	char big[sizeof(struct tc_msg) + 8] = { 0 };
	int sv[2], fd = 7, before;

	(void)state;
	pair(sv);
	before = tc_test_open_fds();
	for (size_t n = 2; n <= 8; n += 6) {
		assert_int_equal(tc_test_send_fds(sv[0], n, &m, sizeof(m)), (ssize_t)sizeof(m));
		assert_int_equal(tc_msg_recv(sv[1], &m, &fd), -EBADMSG);
		assert_int_equal(fd, -1);
		assert_int_equal(tc_test_open_fds(), before);
	}
	/* the wrong size, with an fd */
	assert_int_equal(tc_test_send_fds(sv[0], 1, big, sizeof(big)), (ssize_t)sizeof(big));
	assert_int_equal(tc_msg_recv(sv[1], &m, &fd), -EBADMSG);
	assert_int_equal(fd, -1);
	assert_int_equal(tc_test_open_fds(), before);
	/* empty, with an fd: to a SOCK_SEQPACKET reader that is its EOF */
	assert_int_equal(tc_test_send_fds(sv[0], 1, big, 0), 0);
	assert_int_equal(tc_msg_recv(sv[1], &m, &fd), -EPIPE);
	assert_int_equal(fd, -1);
	assert_int_equal(tc_test_open_fds(), before);
	/* one, as ever, is handed on */
	assert_int_equal(tc_test_send_fds(sv[0], 1, &m, sizeof(m)), (ssize_t)sizeof(m));
	assert_int_equal(tc_msg_recv(sv[1], &m, &fd), 0);
	assert_true(fd > STDERR_FILENO);
	assert_int_equal(tc_test_open_fds(), before + 1);
	close(fd);
	close(sv[0]);
	close(sv[1]);
}

/* The child failed and died: its ERROR is queued on our end. */
static void test_send_reads_the_childs_error(void **state)
{
	struct tc_msg maps = { .type = TC_MSG_MAPS_DONE };
	struct tc_msg ws = { .type = TC_MSG_WORKSPACE };
	struct tc_msg e = { .type = TC_MSG_ERROR };
	struct tc_error err = { 0 };
	int sv[2];

	(void)state;
	pair(sv);
	/* what came before the error (an fd too) is passed over */
	assert_int_equal(tc_msg_send(sv[1], &ws, STDIN_FILENO), 0);
	tc_error_errno(&e.err, TC_STAGE_MOUNT, EACCES, "cannot mount the workspace");
	assert_int_equal(tc_msg_send(sv[1], &e, -1), 0);
	close(sv[1]);
	assert_int_equal(tc_sync_send(sv[0], &maps, -1, &err), -EACCES);
	assert_int_equal(err.stage, TC_STAGE_MOUNT);
	assert_int_equal(err.err, EACCES);
	assert_string_equal(err.message, "cannot mount the workspace: Permission denied");
	close(sv[0]);
}

/* The child died with a message of ours still unread in its queue (the
 * network helper's NET_FD, say): the kernel flags our end ECONNRESET, and
 * the first receive reports that instead of the child's ERROR queued
 * behind it. The ERROR is still what toolcell must read. */
static void test_error_behind_a_reset(void **state)
{
	struct tc_msg net = { .type = TC_MSG_NET_FD };
	struct tc_msg e = { .type = TC_MSG_ERROR };
	struct tc_msg got;
	int sv[2], fd;

	(void)state;
	pair(sv);
	assert_int_equal(tc_msg_send(sv[0], &net, -1), 0); /* the child never reads it */
	tc_error_errno(&e.err, TC_STAGE_PROC, EPERM, "cannot mount /proc");
	assert_int_equal(tc_msg_send(sv[1], &e, -1), 0);
	close(sv[1]);
	assert_int_equal(tc_msg_recv(sv[0], &got, &fd), 0);
	assert_int_equal(got.type, TC_MSG_ERROR);
	assert_int_equal(got.err.stage, TC_STAGE_PROC);
	assert_int_equal(fd, -1);
	assert_int_equal(tc_msg_recv(sv[0], &got, &fd), -EPIPE);
	close(sv[0]);
}

/* The child died without a word: EPIPE, said as such. */
static void test_send_without_error(void **state)
{
	struct tc_msg maps = { .type = TC_MSG_MAPS_DONE };
	struct tc_error err = { 0 };
	int sv[2];

	(void)state;
	pair(sv);
	close(sv[1]);
	assert_int_equal(tc_sync_send(sv[0], &maps, -1, &err), -EPIPE);
	assert_int_equal(err.stage, TC_STAGE_SPAWN);
	assert_string_equal(err.message, "the sandbox died while starting: Broken pipe");
	/* the filter pipe's failure names its own stage */
	assert_int_equal(tc_sync_reason(sv[0], EPIPE, TC_STAGE_SECCOMP, &err), -EPIPE);
	assert_int_equal(err.stage, TC_STAGE_SECCOMP);
	close(sv[0]);
}

/* A send that works reads nothing. */
static void test_send_ok(void **state)
{
	struct tc_msg maps = { .type = TC_MSG_MAPS_DONE }, got;
	struct tc_error err = { 0 };
	int sv[2];

	(void)state;
	pair(sv);
	assert_int_equal(tc_sync_send(sv[0], &maps, -1, &err), 0);
	assert_string_equal(err.message, "");
	assert_int_equal(tc_msg_recv(sv[1], &got, NULL), 0);
	assert_int_equal(got.type, TC_MSG_MAPS_DONE);
	close(sv[0]);
	close(sv[1]);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_wrong_size),
	     cmocka_unit_test(test_send_reads_the_childs_error),
	     cmocka_unit_test(test_error_behind_a_reset), cmocka_unit_test(test_send_without_error),
	     cmocka_unit_test(test_send_ok), cmocka_unit_test(test_extra_fds))
