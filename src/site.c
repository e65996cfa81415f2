/* The site folder, its toolcell.conf, policy names and the administrator's
 * pins (site.h). Runs in the parent before anything else. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "site.h"
#include "util.h"

#define STAGE TC_STAGE_CONFIG

int tc_site_load(const char *dir, struct tc_site *s, struct tc_error *err)
{
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->conf_path, sizeof(s->conf_path), "%.*s/" TC_CONF_NAME, PATH_MAX - 32, s->dir);
	return tc_conf_load(s->conf_path, &s->conf, err);
}

static bool is_name(const char *given)
{
	size_t n = strlen(given);

	return tc_conf_policy_name(given) && !(n >= 5 && !strcmp(given + n - 5, ".json"));
}

/* NAME.json in the site's policies, else in shipped_dir; heap. A name
 * found nowhere is refused (naming both places). */
static int by_name(const struct tc_site *s, const char *name, const char *shipped_dir, char **ret,
		   struct tc_error *err)
{
	char buf[2 * PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/policies/%s.json", s->dir, name);
	if (access(buf, F_OK) != 0)
		snprintf(buf, sizeof(buf), "%s/%s.json", shipped_dir, name);
	if (access(buf, F_OK) != 0)
		return tc_error_set(
			err, STAGE, ENOENT,
			"no policy named '%s': neither %s/policies/%s.json nor %s/%s.json "
			"exists",
			name, s->dir, name, shipped_dir, name);
	*ret = strdup(buf);
	return *ret ? 0 : tc_error_set(err, STAGE, ENOMEM, "out of memory");
}

static int resolve(const struct tc_site *s, const char *given, const char *shipped_dir, char **ret,
		   struct tc_error *err)
{
	char buf[2 * PATH_MAX];

	if (given && is_name(given))
		return by_name(s, given, shipped_dir, ret, err);
	if (given) {
		*ret = strdup(given);
		return *ret ? 0 : tc_error_set(err, STAGE, ENOMEM, "out of memory");
	}
	/* the default: the site's default.json overrides the shipped one */
	snprintf(buf, sizeof(buf), "%s/policies/default.json", s->dir);
	if (access(buf, F_OK) != 0)
		snprintf(buf, sizeof(buf), "%s/default.json", shipped_dir);
	*ret = strdup(buf);
	return *ret ? 0 : tc_error_set(err, STAGE, ENOMEM, "out of memory");
}

/* Whether a and b name the same file (both must exist). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int tc_site_policy(const struct tc_site *s, const char *given, const char *shipped_dir, char **ret,
		   struct tc_error *err)
{
	_cleanup_free_ char *pinned = NULL, *asked = NULL;
	int r;

	*ret = NULL;
	if (!s->conf.policy[0])
		return resolve(s, given, shipped_dir, ret, err);
	r = resolve(s, s->conf.policy, shipped_dir, &pinned, err);
	if (r < 0) {
		char why[TC_ERROR_MESSAGE_MAX];

		snprintf(why, sizeof(why), "%s", err->message);
		return tc_error_set(err, STAGE, -r, "%s: policy = %s: %s", s->conf_path,
				    s->conf.policy, why);
	}
	if (given) {
		r = resolve(s, given, shipped_dir, &asked, err);
		if (r < 0 || !same_file(asked, pinned))
			return tc_error_set(err, STAGE, EPERM,
					    "--policy %s: this host pins the policy to %s (%s: "
					    "policy = %s); callers cannot choose another: drop "
					    "--policy and TOOLCELL_POLICY",
					    given, pinned, s->conf_path, s->conf.policy);
	}
	*ret = TAKE_PTR(pinned);
	return 0;
}

int tc_site_rootfs(const struct tc_site *s, const char *asked, const char **ret,
		   struct tc_error *err)
{
	*ret = NULL;
	if (!s->conf.rootfs[0])
		return 0;
	if (asked && strcmp(asked, s->conf.rootfs))
		return tc_error_set(err, STAGE, EPERM,
				    "--rootfs %s: this host pins the rootfs to '%s' (%s: rootfs = "
				    "%s); callers cannot choose another: drop --rootfs and "
				    "TOOLCELL_ROOTFS",
				    asked, s->conf.rootfs, s->conf_path, s->conf.rootfs);
	*ret = s->conf.rootfs;
	return 0;
}
