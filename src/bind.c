/* The bind path rules (see bind.h): one table of the host paths a bind
 * never exposes and the inside paths the launcher owns, and the checks
 * every bind, the workspace and toolcell's own binds go through. Pure;
 * runs in the parent before clone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "util.h"

/* Bind targets the host side may never name: these and everything beneath
 * them, then these exactly (a home root holds every user's files). */
static const char *const host_refused_tree[] = { "/proc", "/sys", "/dev", "/run" };
static const char *const host_refused_exact[] = { "/home", "/root" };
/* Inside paths the launcher itself mounts or relies on: these and
 * everything beneath them, then these exactly (a bind below /tmp is
 * mounted on the sandbox's own /tmp, but not over it). */
static const char *const inside_refused_tree[] = { "/usr",	  "/etc",   "/proc",
						   "/dev",	  "/bin",   "/sbin",
						   "/lib",	  "/lib64", TC_WORKSPACE_INSIDE,
						   "/tmp/pycache" };
static const char *const inside_refused_exact[] = { "/tmp" };

bool tc_path_at_or_beneath(const char *path, const char *root)
{
	size_t n = strlen(root);

	return !strncmp(path, root, n) && (path[n] == '\0' || path[n] == '/');
}

/* What is wrong with a bind path, as "what place tail". */
struct problem {
	const char *what, *place, *tail;
};

static bool found(struct problem *ret, const char *what, const char *place, const char *tail)
{
	*ret = (struct problem){ what, place, tail };
	return true;
}

/* Whether path (absolute, short enough) breaks a rule; *ret says which. */
static bool path_problem(const char *path, bool inside, struct problem *ret)
{
	const char *launcher = ", which the launcher owns";
	size_t i;

	for (const char *s = path; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return found(ret, "contains a control character", NULL, NULL);
	if (!strcmp(path, "/"))
		return found(ret, inside ? "is the sandbox's root" : "is the host's root", NULL,
			     inside ? launcher : NULL);
	/* every component non-empty (no "//", no trailing "/"), not "." or ".." */
	for (const char *s = path; s; s = strchr(s + 1, '/')) {
		const char *e = strchr(s + 1, '/');
		size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);

		if (n == 0 || (n == 1 && s[1] == '.') || (n == 2 && s[1] == '.' && s[2] == '.'))
			return found(ret,
				     "is not normalized (no \".\" or \"..\" components, no "
				     "\"//\", no trailing \"/\")",
				     NULL, NULL);
	}
	for (i = 0; inside && i < TC_ARRAY_SIZE(inside_refused_tree); i++)
		if (tc_path_at_or_beneath(path, inside_refused_tree[i]))
			return found(ret, "is at or beneath ", inside_refused_tree[i], launcher);
	for (i = 0; inside && i < TC_ARRAY_SIZE(inside_refused_exact); i++)
		if (!strcmp(path, inside_refused_exact[i]))
			return found(ret, "is ", inside_refused_exact[i],
				     " itself, which the launcher owns; bind below it");
	for (i = 0; !inside && i < TC_ARRAY_SIZE(host_refused_tree); i++)
		if (tc_path_at_or_beneath(path, host_refused_tree[i]))
			return found(ret, "is at or beneath ", host_refused_tree[i],
				     ", which is never bound");
	for (i = 0; !inside && i < TC_ARRAY_SIZE(host_refused_exact); i++)
		if (!strcmp(path, host_refused_exact[i]))
			return found(ret, "is a home directory root; bind a folder in it", NULL,
				     NULL);
	return false;
}

int tc_bind_path_check(const char *path, bool inside, char *why, size_t why_len)
{
	struct problem p = { 0 };

	if (path[0] != '/')
		p.what = "is not an absolute path";
	else if (strlen(path) >= TC_PATH_MAX)
		snprintf(why, why_len, "is longer than %d bytes", TC_PATH_MAX - 1);
	else if (!path_problem(path, inside, &p))
		return 0;
	if (p.what)
		snprintf(why, why_len, "%s%s%s", p.what, p.place ? p.place : "",
			 p.tail ? p.tail : "");
	return -EINVAL;
}

bool tc_bind_host_refused(const char *path)
{
	size_t i;

	if (!strcmp(path, "/"))
		return true;
	for (i = 0; i < TC_ARRAY_SIZE(host_refused_tree); i++)
		if (tc_path_at_or_beneath(path, host_refused_tree[i]))
			return true;
	for (i = 0; i < TC_ARRAY_SIZE(host_refused_exact); i++)
		if (!strcmp(path, host_refused_exact[i]))
			return true;
	return false;
}

bool tc_binds_live(const struct tc_config *cfg)
{
	for (size_t i = 0; i < cfg->n_binds; i++)
		if (cfg->binds[i].writable)
			return true;
	return false;
}

void tc_binds_free(struct tc_bind *binds, size_t n)
{
	for (size_t i = 0; i < n && i < TC_MAX_BINDS; i++) {
		free(binds[i].host);
		free(binds[i].inside);
	}
}
