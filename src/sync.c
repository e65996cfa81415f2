/* The sync socket's messages (see sync.h for the whole handshake). Both
 * sides of clone: plain sendmsg/recvmsg on caller memory, no allocation. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sync.h"
#include "util.h"

int tc_msg_send(int sock, const struct tc_msg *m, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	for (;;) {
		ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n == (ssize_t)sizeof(*m))
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : -EIO;
	}
}

static int msg_recv(int sock, int flags, struct tc_msg *m, int *ret_fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.buf,
		.msg_controllen = sizeof(ctl.buf),
	};
	size_t fds;
	ssize_t n;
	int fd;

	if (ret_fd)
		*ret_fd = -1;
	/* ECONNRESET: the other side closed with a message of ours unread
	 * (the network helper's NET_FD or NET_READY to a child, or a tool,
	 * that failed first). The
	 * kernel reports that once, ahead of what that side had queued for
	 * us, such as its ERROR: read on. */
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | flags);
	while (n < 0 && (errno == EINTR || errno == ECONNRESET));
	if (n < 0)
		return -errno;
	/* a message refused keeps none of its descriptors: one with more
	 * than one (the control buffer's rounding may leave room for a
	 * second; more are cut, MSG_CTRUNC), of the wrong size, or empty */
	fds = tc_take_fds(&mh, &fd, ret_fd ? 1 : 0);
	if (ret_fd && fds)
		*ret_fd = fd;
	if (n != (ssize_t)sizeof(*m) || fds > 1 || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (ret_fd)
			tc_closep(ret_fd);
		return n == 0 ? -EPIPE : -EBADMSG; /* 0: the other side is gone */
	}
	return 0;
}

int tc_msg_recv(int sock, struct tc_msg *m, int *ret_fd)
{
	return msg_recv(sock, 0, m, ret_fd);
}

int tc_sync_reason(int sock, int e, enum tc_stage stage, struct tc_error *err)
{
	struct tc_msg m;
	int fd;

	/* the child sends its ERROR before it exits, and its exit is what
	 * failed our send: whatever it said is queued by now */
	while (msg_recv(sock, MSG_DONTWAIT, &m, &fd) == 0) {
		if (fd >= 0)
			close(fd);
		if (m.type == TC_MSG_ERROR) {
			if (err)
				tc_error_take(err, &m.err);
			return m.err.err ? -m.err.err : -EIO;
		}
	}
	return tc_error_errno(err, stage, e, "the sandbox died while starting");
}

int tc_sync_send(int sock, const struct tc_msg *m, int fd, struct tc_error *err)
{
	int r = tc_msg_send(sock, m, fd);

	return r < 0 ? tc_sync_reason(sock, -r, TC_STAGE_SPAWN, err) : 0;
}
