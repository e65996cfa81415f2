/* Capabilities and privilege locks, run in the child: the securebits and
 * the bounding set once, in the sandbox's first process before the init
 * forks the tool (both inherit them); the rest by the init once it has
 * started the tool, and by the tool's branch just before seccomp and
 * execve. Plain syscalls only (no libcap), safe after clone3. */
#include <linux/capability.h>
#include <linux/securebits.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "caps.h"
#include "util.h"

static int last_cap(void)
{
	/* PR_CAPBSET_READ fails with EINVAL past the kernel's last cap */
	int c = 40;

	while (c < 64 && prctl(PR_CAPBSET_READ, c + 1, 0, 0, 0) >= 0)
		c++;
	while (c > 0 && prctl(PR_CAPBSET_READ, c, 0, 0, 0) < 0)
		c--;
	return c;
}

int tc_caps_bound(struct tc_error *err)
{
	int last = last_cap();

	/* Securebits first: they need CAP_SETPCAP, which goes below. */
	if (prctl(PR_SET_SECUREBITS,
		  SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
			  SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
			  SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
		  0, 0, 0) < 0)
		return tc_error_errno(err, TC_STAGE_CAPS, errno, "cannot lock the securebits");
	/* a drop makes new credentials each time: only what is still there */
	for (int c = 0; c <= last; c++)
		if (prctl(PR_CAPBSET_READ, c, 0, 0, 0) > 0 &&
		    prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return tc_error_errno(err, TC_STAGE_CAPS, errno,
					      "cannot drop capability %d from the bounding set", c);
	return 0;
}

int tc_caps_drop_all(bool set_ids, uid_t uid, gid_t gid, struct tc_error *err)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	/* no second pass over the bounding set: the child emptied it before
	 * the fork (tc_caps_bound), both the init and the tool inherit that,
	 * and nothing can add to it again (44 prctl calls a process fewer) */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return tc_error_errno(err, TC_STAGE_CAPS, errno,
				      "cannot clear the ambient capabilities");
	/* The id change needs CAP_SETUID/CAP_SETGID (effective still, though
	 * the bounding set is empty), so it comes before capset empties what
	 * is left. SECBIT_NO_SETUID_FIXUP keeps it from doing that itself, so
	 * the capset below is what drops them. */
	if (set_ids && (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
			setresuid(uid, uid, uid) < 0))
		return tc_error_errno(err, TC_STAGE_CAPS, errno,
				      "cannot switch to the tool's uid %u", (unsigned)uid);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return tc_error_errno(err, TC_STAGE_CAPS, errno, "cannot drop capabilities");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return tc_error_errno(err, TC_STAGE_CAPS, errno, "cannot set no_new_privs");
	return 0;
}

uint64_t tc_caps_effective(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (syscall(SYS_capget, &hdr, data) < 0)
		return UINT64_MAX;
	return (uint64_t)data[0].effective | ((uint64_t)data[1].effective << 32);
}
