/* The install layout (layout.h): the build tree beside the binary, or the
 * install dirs CMake compiled in. The only file that reads the
 * TOOLCELL_INSTALL_*, TOOLCELL_SYSCONF_DIR and TOOLCELL_STATE_DIR
 * definitions. Parent side, before anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout.h"
#include "util.h"

static const char *const layout_names[TC_LAYOUT__MAX] = {
	[TC_LAYOUT_LIBEXEC] = "libexec", [TC_LAYOUT_POLICIES] = "policies",
	[TC_LAYOUT_SITE] = "site",	 [TC_LAYOUT_STATE] = "state",
	[TC_LAYOUT_ROOTFS] = "rootfs",
};

const char *tc_layout_name(enum tc_layout_path p)
{
	return (size_t)p < TC_ARRAY_SIZE(layout_names) ? layout_names[p] : NULL;
}

enum tc_layout_path tc_layout_by_name(const char *name)
{
	size_t p;

	for (p = 0; p < TC_LAYOUT__MAX && strcmp(name, layout_names[p]); p++)
		;
	return (enum tc_layout_path)p;
}

/* out: dir/rel made real when it exists, else as written */
static void at(char out[PATH_MAX], const char *dir, const char *rel)
{
	char buf[2 * PATH_MAX];

	snprintf(buf, sizeof(buf), "%s%s%s", dir, rel[0] ? "/" : "", rel);
	if (!realpath(buf, out))
		snprintf(out, PATH_MAX, "%.*s", PATH_MAX - 1, buf);
}

static bool exists(const char *dir, const char *rel)
{
	char buf[PATH_MAX + 64];

	snprintf(buf, sizeof(buf), "%s/%s", dir, rel);
	return access(buf, F_OK) == 0;
}

char *tc_layout_rootfs(const struct tc_layout *l, const char *name)
{
	char cand[3][PATH_MAX + 64];
	const char *suffix = name && strcmp(name, "default") ? name : NULL;
	const char *dash = suffix ? "-" : "";

	suffix = suffix ? suffix : "";
	snprintf(cand[0], sizeof(cand[0]), "%s/rootfs%s%s", l->exe_dir, dash, suffix);
	snprintf(cand[1], sizeof(cand[1]), "%s/rootfs%s%s", TOOLCELL_STATE_DIR, dash, suffix);
	snprintf(cand[2], sizeof(cand[2]), "%s/%s%s%s", l->exe_dir, TOOLCELL_INSTALL_ROOTFS_REL,
		 dash, suffix);
	for (size_t i = 0; i < TC_ARRAY_SIZE(cand); i++)
		if (access(cand[i], F_OK) == 0)
			return strdup(cand[i]);
	return strdup(cand[1]);
}

void tc_layout_find(const char *exe_dir, const char *rootfs_asked, struct tc_layout *l)
{
	_cleanup_free_ char *rootfs = NULL;

	memset(l, 0, sizeof(*l));
	snprintf(l->exe_dir, sizeof(l->exe_dir), "%s", exe_dir);
	l->build_tree = exists(exe_dir, "policies/default.json");
	l->builder_beside = exists(exe_dir, "build-rootfs");
	at(l->path[TC_LAYOUT_LIBEXEC], exe_dir,
	   l->builder_beside ? "" : TOOLCELL_INSTALL_LIBEXEC_REL);
	at(l->path[TC_LAYOUT_POLICIES], exe_dir,
	   exists(exe_dir, "policies") ? "policies" : TOOLCELL_INSTALL_POLICY_REL);
	/* as written: the site's messages name it */
	snprintf(l->path[TC_LAYOUT_SITE], PATH_MAX, "%.*s%s", PATH_MAX - 8,
		 l->build_tree ? exe_dir : TOOLCELL_SYSCONF_DIR, l->build_tree ? "/etc" : "");
	if (l->builder_beside)
		at(l->path[TC_LAYOUT_STATE], exe_dir, "");
	else
		snprintf(l->path[TC_LAYOUT_STATE], PATH_MAX, "%s", TOOLCELL_STATE_DIR);
	/* a path as given, a name where the run would look for it */
	if (rootfs_asked && strchr(rootfs_asked, '/'))
		at(l->path[TC_LAYOUT_ROOTFS], rootfs_asked, "");
	else if ((rootfs = tc_layout_rootfs(l, rootfs_asked)))
		/* the variant's link, not the version it points at now: a
		 * rebuild switches the link, and a script keeps the path */
		snprintf(l->path[TC_LAYOUT_ROOTFS], PATH_MAX, "%.*s", PATH_MAX - 1, rootfs);
}
