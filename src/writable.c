/* The places the tool may write (see writable.h). Parent side, before
 * clone. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "writable.h"

size_t tc_writable_places(const struct tc_config *cfg, struct tc_writable ret[TC_WRITABLE_MAX])
{
	size_t n = 0;

	ret[n++] = (struct tc_writable){ .kind = TC_WRITABLE_TMP, .inside = "/tmp" };
	ret[n++] = (struct tc_writable){ .kind = TC_WRITABLE_SHM, .inside = "/dev/shm" };
	for (size_t i = 0; i < cfg->n_binds && i < TC_MAX_BINDS; i++)
		if (cfg->binds[i].writable)
			ret[n++] = (struct tc_writable){ .kind = TC_WRITABLE_BIND,
							 .inside = cfg->binds[i].inside,
							 .host = cfg->binds[i].host,
							 .bind = i };
	if (cfg->workspace)
		ret[n++] = (struct tc_writable){ .kind = TC_WRITABLE_WORKSPACE,
						 .inside = cfg->workspace_inside,
						 .host = cfg->workspace };
	return n;
}

static bool holds(const struct tc_writable *p, const char *dir)
{
	char host[PATH_MAX];

	return p->host && realpath(p->host, host) && tc_path_beneath(dir, host);
}

const char *tc_writable_holding(const struct tc_config *cfg, const char *dir)
{
	struct tc_writable w[TC_WRITABLE_MAX];
	size_t n = tc_writable_places(cfg, w);

	/* the workspace first, then the binds in their order: the one named
	 * when host folders nest */
	for (size_t i = 0; i < n; i++)
		if (w[i].kind == TC_WRITABLE_WORKSPACE && holds(&w[i], dir))
			return w[i].host;
	for (size_t i = 0; i < n; i++)
		if (w[i].kind == TC_WRITABLE_BIND && holds(&w[i], dir))
			return w[i].host;
	return NULL;
}
