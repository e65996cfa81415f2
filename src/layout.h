/* The install layout: where toolcell's own files are, found from the
 * binary's folder. A build tree keeps them beside the binary (policies/,
 * etc/, rootfs*, build-rootfs, toolcell-utils); an install keeps them where
 * CMake's install dirs put them, compiled in (TOOLCELL_INSTALL_*_REL
 * relative to the binary, TOOLCELL_SYSCONF_DIR and TOOLCELL_STATE_DIR
 * absolute). The one place that knows this: the verbs read it, and
 * `toolcell version --paths` prints it for the scripts, which ask the
 * binary instead of knowing the layout. Parent side, before anything else. */
#ifndef TOOLCELL_LAYOUT_H
#define TOOLCELL_LAYOUT_H

#include <limits.h>
#include <stdbool.h>

/* Where an install keeps the rootfs trees it builds (for help texts). */
#define TC_LAYOUT_STATE_DIR TOOLCELL_STATE_DIR

/* What `toolcell version --paths` names, in its order. */
enum tc_layout_path {
	TC_LAYOUT_LIBEXEC,  /* the rootfs builder, toolcell-utils, the front ends */
	TC_LAYOUT_POLICIES, /* the shipped policies */
	TC_LAYOUT_SITE,	    /* the site folder: toolcell.conf, the site's policies */
	TC_LAYOUT_STATE,    /* where `rootfs build` puts rootfs[-NAME] */
	TC_LAYOUT_ROOTFS,   /* the default rootfs (TOOLCELL_ROOTFS's when set) */
	TC_LAYOUT__MAX
};

struct tc_layout {
	char exe_dir[PATH_MAX]; /* the binary's folder */
	bool build_tree;	/* exe_dir/policies/default.json: the site is exe_dir/etc */
	bool builder_beside;	/* exe_dir/build-rootfs: trees are built beside the binary */
	char path[TC_LAYOUT__MAX][PATH_MAX];
};

/* Fill *l for a binary in exe_dir (real paths where they exist). rootfs is
 * TOOLCELL_ROOTFS's tree when rootfs_asked (its value) is given, else the
 * default variant's. */
void tc_layout_find(const char *exe_dir, const char *rootfs_asked, struct tc_layout *l);

/* "libexec", "policies", ...; NULL outside the enum. */
const char *tc_layout_name(enum tc_layout_path p);

/* The path name names ("state"), or TC_LAYOUT__MAX for no such name. */
enum tc_layout_path tc_layout_by_name(const char *name);

/* The directory of rootfs variant name (NULL or "default": the default
 * rootfs): exe_dir/rootfs[-NAME] in a build tree, else
 * TOOLCELL_STATE_DIR/rootfs[-NAME], else the install's legacy
 * lib/toolcell/rootfs[-NAME] (an install that copied a built rootfs). A heap
 * string (TOOLCELL_STATE_DIR's candidate when none exists), NULL on ENOMEM. */
char *tc_layout_rootfs(const struct tc_layout *l, const char *name);

#endif
