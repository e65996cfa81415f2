/* Landlock for the tool (see landlock.h). Debian 12's kernel headers know
 * ABI 2 at most, so the later rights and the grown ruleset attribute are
 * spelled out here, sized by the ABI the running kernel reports. */
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host.h"
#include "landlock.h"
#include "util.h"

#define TC_LL_TRUNCATE	     (1ULL << 14) /* ABI 3 */
#define TC_LL_SCOPE_ABSTRACT (1ULL << 0)  /* ABI 6 */
#define TC_LL_SCOPE_SIGNAL   (1ULL << 1)  /* ABI 6 */

/* the ruleset attribute as of ABI 6 */
struct tc_ll_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4; left 0: loopback TCP must work */
	uint64_t scoped;	     /* ABI 6 */
};

#define TC_LL_READ                                                                                 \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

/* every writable place fits: /tmp, /dev/shm, each bind, the workspace */
_Static_assert(TC_ARRAY_SIZE(((struct tc_landlock *)0)->writable) >= 2 + TC_MAX_BINDS + 1,
	       "landlock's writable paths must hold every bind");

void tc_landlock_prepare(struct tc_landlock *ret, const struct tc_config *cfg)
{
	struct tc_writable w[TC_WRITABLE_MAX];
	size_t n = tc_writable_places(cfg, w);
	int abi = tc_host_landlock_abi();

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < n; i++)
		ret->writable[ret->n_writable++] = w[i].inside;
	if (abi <= 0)
		return;
	ret->abi = abi;
	/* ABI 1: EXECUTE .. MAKE_SYM; 2: REFER; 3: TRUNCATE. IOCTL_DEV (ABI
	 * 5) stays unhandled: seccomp already guards ioctl. */
	ret->fs_handled = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;
	if (abi >= 2)
		ret->fs_handled |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		ret->fs_handled |= TC_LL_TRUNCATE;
	if (abi >= 6)
		ret->scoped = TC_LL_SCOPE_ABSTRACT | TC_LL_SCOPE_SIGNAL;
}

static int allow(int ruleset, const char *path, uint64_t access, struct tc_error *err)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };
	int fd = open(path, O_PATH | O_CLOEXEC);
	long r;

	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_LANDLOCK, errno,
				      "cannot open %s for a landlock rule", path);
	rule.parent_fd = fd;
	r = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
	close(fd);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_LANDLOCK, errno,
				      "cannot add the landlock rule for %s", path);
	return 0;
}

int tc_landlock_enter(const struct tc_landlock *l, struct tc_error *err)
{
	struct tc_ll_attr attr = { .handled_access_fs = l->fs_handled, .scoped = l->scoped };
	size_t size = l->abi >= 6 ? sizeof(attr) : l->abi >= 4 ? 16 : 8;
	int ruleset, r;

	if (l->abi <= 0)
		return 0;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return tc_error_errno(err, TC_STAGE_LANDLOCK, errno,
				      "cannot create a landlock ruleset");
	/* read and run anything visible; write only where it is meant */
	r = allow(ruleset, "/", TC_LL_READ, err);
	if (r >= 0)
		r = allow(ruleset, "/dev",
			  TC_LL_READ | LANDLOCK_ACCESS_FS_WRITE_FILE |
				  (l->fs_handled & TC_LL_TRUNCATE),
			  err);
	for (size_t i = 0; i < l->n_writable && r >= 0; i++)
		r = allow(ruleset, l->writable[i], l->fs_handled, err);
	if (r >= 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		r = tc_error_errno(err, TC_STAGE_LANDLOCK, errno,
				   "cannot apply the landlock ruleset");
	close(ruleset);
	return r;
}

const char *tc_landlock_describe(const struct tc_landlock *l)
{
	static char buf[200];

	if (l->abi <= 0)
		return "unavailable (this kernel has no landlock)";
	snprintf(buf, sizeof(buf),
		 "ABI %d: file system rights 0x%llx handled (write only in /tmp, /dev/shm, the "
		 "workspace and writable binds)%s",
		 l->abi, (unsigned long long)l->fs_handled,
		 l->scoped ? "; abstract unix sockets and signals scoped to the sandbox" : "");
	return buf;
}
