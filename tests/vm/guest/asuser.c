/* asuser UID GID PROGRAM [ARGS...]: the guest's way to become an
 * unprivileged user. Drops every supplementary group, then the gid, then the
 * uid, and execs PROGRAM (looked up in PATH) with the environment unchanged.
 * busybox setpriv cannot change uids, and su needs a password database entry
 * and a shell; this is all the guest needs. Built static by tests/vm/run, so
 * it runs from the initramfs with no libraries. Runs as root in the guest. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_id(const char *s, unsigned long *ret_id)
{
	char *end;

	errno = 0;
	*ret_id = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || *ret_id > 0xfffffffeUL)
		return -EINVAL;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid;

	if (argc < 4 || parse_id(argv[1], &uid) < 0 || parse_id(argv[2], &gid) < 0) {
		fprintf(stderr, "usage: asuser UID GID PROGRAM [ARGS...]\n");
		return 125;
	}
	/* groups and gid first: once the uid is dropped they cannot change */
	if (setgroups(0, NULL) < 0 || setgid((gid_t)gid) < 0 || setuid((uid_t)uid) < 0) {
		fprintf(stderr, "asuser: cannot become %lu:%lu: %s\n", uid, gid, strerror(errno));
		return 125;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "asuser: cannot run %s: %s\n", argv[3], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
