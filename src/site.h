/* This host's administrator's settings around the policy: toolcell.conf
 * (conf.h) in the site folder (/etc/toolcell, or etc/ beside a build-tree
 * binary), policies there that override the shipped ones of the same name,
 * and the pinned policy and rootfs that callers cannot change. Runs in the
 * parent before anything else. */
#ifndef TOOLCELL_SITE_H
#define TOOLCELL_SITE_H

#include <limits.h>

#include "conf.h"
#include "toolcell/error.h"

struct tc_site {
	char dir[PATH_MAX];	  /* the site folder */
	char conf_path[PATH_MAX]; /* dir/toolcell.conf */
	struct tc_conf conf;
};

/* The site folder dir (the layout's, layout.h) and its toolcell.conf
 * loaded (absent: the defaults). -errno with err set. */
int tc_site_load(const char *dir, struct tc_site *s, struct tc_error *err);

/* The policy file a run uses (heap path in *ret). given is the caller's
 * --policy or TOOLCELL_POLICY (NULL: none): a path, or a bare name (no '/',
 * no ".json": "production") looked up as NAME.json in dir/policies, then
 * in shipped_dir. No given: dir/policies/default.json when present, else
 * shipped_dir/default.json. With a pinned policy the caller's must be the
 * same file (an error naming the pin otherwise). -errno with err set. */
int tc_site_policy(const struct tc_site *s, const char *given, const char *shipped_dir, char **ret,
		   struct tc_error *err);

/* The rootfs variant the pin sets (NULL: none pinned); asked is the
 * caller's --rootfs or TOOLCELL_ROOTFS, refused unless it names the pinned
 * variant. -EPERM with err set. */
int tc_site_rootfs(const struct tc_site *s, const char *asked, const char **ret,
		   struct tc_error *err);

#endif
