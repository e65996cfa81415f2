/* Unit tests for a `toolcell serve` runner's report (serve-wire.c): an
 * outcome goes through the wire whole (its figures, its strings, the
 * denied calls in use) in a few KB, a partial report waits for the rest,
 * and bytes that cannot be a report are refused; a note's descriptors
 * arrive, and a message that does not fit, in bytes or descriptors, is
 * refused with every descriptor it brought closed. */
#include "tc-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve-internal.h"

/* what every report has: the outcome but its denied slots, and exec_errno */
#define FIXED                                                                                      \
	(offsetof(struct wire_outcome, o.denied) + sizeof(struct tc_outcome) -                     \
	 offsetof(struct wire_outcome, o.n_denied) + sizeof(int))

static struct wire_outcome w, back;
static char buf[sizeof(struct wire_outcome) + 64]; /* room for a report too long */

static void sample(struct tc_outcome *o, size_t n_denied)
{
	tc_outcome_init(o);
	o->status = TC_STATUS_EXIT_NONZERO;
	o->exited = true;
	o->exit_code = 3;
	o->cpu_user_ms = 17;
	o->memory_peak_bytes = (struct tc_maybe){ .known = false, .reason = "no cgroup leaf" };
	o->seccomp = "default-deny";
	o->landlock = "abi 6";
	o->limit[TC_LIMIT_MEMORY] = 64u << 20;
	snprintf(o->err.message, sizeof(o->err.message), "%s", "the tool said no");
	for (size_t i = 0; i < n_denied; i++) {
		snprintf(o->denied[i].name, sizeof(o->denied[i].name), "call%zu", i);
		o->denied[i].count = (uint32_t)(i + 1);
	}
	o->n_denied = n_denied;
}

static void test_round_trip(void **state)
{
	struct tc_outcome o;
	size_t len;

	(void)state;
	sample(&o, 3);
	tc_serve_wire_pack(&o, ENOENT, &w);
	len = tc_serve_wire_encode(&w, buf);
	/* the unused denied slots and the strings' unused bytes stay home */
	assert_int_equal(len, FIXED + strlen("default-deny") + strlen("abi 6") +
				      strlen("no cgroup leaf") + 9 + 3 * sizeof(o.denied[0]));
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), 0);
	assert_int_equal(back.o.status, TC_STATUS_EXIT_NONZERO);
	assert_int_equal(back.o.exit_code, 3);
	assert_int_equal(back.o.cpu_user_ms, 17);
	assert_int_equal(back.o.limit[TC_LIMIT_MEMORY], 64u << 20);
	assert_int_equal(back.exec_errno, ENOENT);
	assert_string_equal(back.o.seccomp, "default-deny");
	assert_string_equal(back.o.landlock, "abi 6");
	assert_string_equal(back.o.memory_peak_bytes.reason, "no cgroup leaf");
	assert_null(back.o.cgroup); /* NULL went as "" and came back NULL */
	assert_string_equal(back.o.err.message, "the tool said no");
	assert_int_equal(back.o.n_denied, 3);
	assert_string_equal(back.o.denied[2].name, "call2");
	assert_int_equal(back.o.denied[2].count, 3);
	assert_int_equal(back.o.denied[3].count, 0);
}

static void test_every_slot(void **state)
{
	struct tc_outcome o;
	size_t n = TC_ARRAY_SIZE(o.denied), len;

	(void)state;
	sample(&o, n);
	tc_serve_wire_pack(&o, 0, &w);
	len = tc_serve_wire_encode(&w, buf);
	assert_true(len <= sizeof(w)); /* the buffer the runner sends from */
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), 0);
	assert_int_equal(back.o.n_denied, n);
	assert_int_equal(back.o.denied[n - 1].count, n);
}

static void test_partial_then_whole(void **state)
{
	struct tc_outcome o;
	size_t len;

	(void)state;
	sample(&o, 2);
	tc_serve_wire_pack(&o, 0, &w);
	len = tc_serve_wire_encode(&w, buf);
	assert_int_equal(tc_serve_wire_decode(buf, 0, &back), -EAGAIN);
	assert_int_equal(tc_serve_wire_decode(buf, 100, &back), -EAGAIN);
	/* the fixed part came, one denied entry is still due */
	assert_int_equal(tc_serve_wire_decode(buf, len - 1, &back), -EAGAIN);
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), 0);
}

static void test_not_a_report(void **state)
{
	struct tc_outcome o;
	size_t len, past, head = offsetof(struct wire_outcome, o.denied), huge = (size_t)-1;

	(void)state;
	sample(&o, 1);
	tc_serve_wire_pack(&o, 0, &w);
	len = tc_serve_wire_encode(&w, buf);
	/* more bytes than the report says */
	assert_int_equal(tc_serve_wire_decode(buf, len + 1, &back), -EBADMSG);
	/* a count past the array, with as many entries as it says */
	past = TC_ARRAY_SIZE(o.denied) + 1;
	memcpy(buf + head, &past, sizeof(past));
	len = head + sizeof(w) - offsetof(struct wire_outcome, o.n_denied) +
	      past * sizeof(o.denied[0]);
	assert_true(len <= sizeof(buf));
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), -EBADMSG);
	/* one so large its length wraps */
	memcpy(buf + head, &huge, sizeof(huge));
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), -EBADMSG);
}

/* A report cut inside its strings waits for the rest; a string that
 * does not end within its array is no report. */
static void test_strings(void **state)
{
	struct tc_outcome o;
	size_t len, at;

	(void)state;
	sample(&o, 0);
	o.cgroup = "/sys/fs/cgroup/toolcell/leaf";
	tc_serve_wire_pack(&o, 0, &w);
	len = tc_serve_wire_encode(&w, buf);
	for (size_t cut = FIXED - 1; cut < len; cut++)
		assert_int_equal(tc_serve_wire_decode(buf, cut, &back), -EAGAIN);
	assert_int_equal(tc_serve_wire_decode(buf, len, &back), 0);
	assert_string_equal(back.o.cgroup, "/sys/fs/cgroup/toolcell/leaf");
	assert_string_equal(back.o.landlock, "abi 6");
	assert_null(back.o.kernel_memory);
	/* seccomp, the first string, without its NUL for all its array */
	memset(buf + FIXED, 'x', sizeof(w.seccomp));
	assert_int_equal(tc_serve_wire_decode(buf, FIXED + sizeof(w.seccomp) - 1, &back), -EAGAIN);
	assert_int_equal(tc_serve_wire_decode(buf, FIXED + sizeof(w.seccomp), &back), -EBADMSG);
	/* one byte short of its array is a string still */
	at = FIXED + sizeof(w.seccomp) - 1;
	buf[at] = '\0';
	memset(buf + at + 1, '\0', 8);
	assert_int_equal(tc_serve_wire_decode(buf, at + 9, &back), 0);
	assert_int_equal(strlen(back.o.seccomp), sizeof(w.seccomp) - 1);
	assert_null(back.o.landlock);
}

/* A runner's note: its descriptors that are not -1 arrive, in order,
 * close-on-exec, and the runner's copies are closed; then EOF is 0 and
 * an empty socket -EAGAIN. */
static void test_note_carries_fds(void **state)
{
	int sv[2], sent[5], fds[SERVE_NOTE_FDS], before;
	struct stat want[4], got;
	struct serve_note m;
	size_t nfds = 99;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	before = tc_test_open_fds();
	assert_int_equal(tc_serve_wire_recv(sv[0], buf, sizeof(buf), fds, &nfds), -EAGAIN);
	assert_int_equal(nfds, 0);
	assert_int_equal(pipe2(sent, O_CLOEXEC), 0);
	assert_true((sent[3] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0);
	assert_true((sent[4] = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0);
	sent[2] = -1; /* skipped */
	for (size_t i = 0, k = 0; i < 5; i++)
		if (sent[i] >= 0)
			assert_int_equal(fstat(sent[i], &want[k++]), 0);
	tc_serve_wire_note(sv[1], SERVE_NOTE_READY, sent, 5);
	assert_int_equal(tc_test_open_fds(), before); /* the runner's copies closed */
	assert_int_equal(tc_serve_wire_recv(sv[0], buf, sizeof(buf), fds, &nfds),
			 (ssize_t)sizeof(struct serve_note));
	memcpy(&m, buf, sizeof(m));
	assert_int_equal(m.magic, SERVE_NOTE_MAGIC);
	assert_int_equal(m.kind, SERVE_NOTE_READY);
	assert_int_equal(nfds, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(fstat(fds[i], &got), 0);
		assert_int_equal(got.st_ino, want[i].st_ino);
		assert_int_equal(got.st_dev, want[i].st_dev);
		assert_int_equal(fcntl(fds[i], F_GETFD), FD_CLOEXEC);
		close(fds[i]);
	}
	close(sv[1]);
	assert_int_equal(tc_serve_wire_recv(sv[0], buf, sizeof(buf), fds, &nfds), 0);
	assert_int_equal(nfds, 0);
	close(sv[0]);
	assert_int_equal(tc_test_open_fds(), before - 2);
}

/* More descriptors than a note carries (MSG_CTRUNC), or more bytes than
 * the buffer holds (MSG_TRUNC): -EMSGSIZE, no descriptor handed on and
 * none left open; an empty message is 0 with none kept; the next
 * message is read as usual. */
static void test_too_much_is_refused(void **state)
{
	struct serve_note m = { SERVE_NOTE_MAGIC, SERVE_NOTE_READY };
	char small[sizeof(m)];
	int sv[2], fds[SERVE_NOTE_FDS], before;
	size_t nfds = 99;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	before = tc_test_open_fds();
	assert_int_equal(tc_test_send_fds(sv[1], SERVE_NOTE_FDS + 1, &m, sizeof(m)),
			 (ssize_t)sizeof(m));
	assert_int_equal(tc_serve_wire_recv(sv[0], buf, sizeof(buf), fds, &nfds), -EMSGSIZE);
	assert_int_equal(nfds, 0);
	assert_int_equal(tc_test_open_fds(), before);
	assert_int_equal(tc_test_send_fds(sv[1], 2, buf, sizeof(small) + 1),
			 (ssize_t)sizeof(small) + 1);
	assert_int_equal(tc_serve_wire_recv(sv[0], small, sizeof(small), fds, &nfds), -EMSGSIZE);
	assert_int_equal(nfds, 0);
	assert_int_equal(tc_test_open_fds(), before);
	/* an empty message with descriptors is the runner's EOF: none kept */
	assert_int_equal(tc_test_send_fds(sv[1], 2, buf, 0), 0);
	assert_int_equal(tc_serve_wire_recv(sv[0], small, sizeof(small), fds, &nfds), 0);
	assert_int_equal(nfds, 0);
	assert_int_equal(tc_test_open_fds(), before);
	/* exactly as many as a note carries still pass */
	assert_int_equal(tc_test_send_fds(sv[1], SERVE_NOTE_FDS, &m, sizeof(m)),
			 (ssize_t)sizeof(m));
	assert_int_equal(tc_serve_wire_recv(sv[0], small, sizeof(small), fds, &nfds),
			 (ssize_t)sizeof(m));
	assert_int_equal(nfds, SERVE_NOTE_FDS);
	assert_int_equal(tc_test_open_fds(), before + SERVE_NOTE_FDS);
	for (size_t i = 0; i < nfds; i++)
		close(fds[i]);
	close(sv[0]);
	close(sv[1]);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_round_trip), cmocka_unit_test(test_every_slot),
	     cmocka_unit_test(test_partial_then_whole), cmocka_unit_test(test_not_a_report),
	     cmocka_unit_test(test_strings), cmocka_unit_test(test_note_carries_fds),
	     cmocka_unit_test(test_too_much_is_refused))
