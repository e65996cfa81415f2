/* Host paths before clone (paths.h): text normalization, which bind shows
 * a host path inside, the run's working directory. Parent side; pure but
 * for getcwd. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "util.h"

bool tc_path_beneath(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return p[0] == '/';
	return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

bool tc_path_absolute(const char *given, const char *cwd, char out[PATH_MAX])
{
	char buf[2 * PATH_MAX], *save = NULL, *tok;
	size_t n = 0;

	if (given[0] == '/')
		snprintf(buf, sizeof(buf), "%s", given);
	else if (cwd ? (snprintf(buf, PATH_MAX, "%s", cwd) < PATH_MAX) : !!getcwd(buf, PATH_MAX))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "/%s", given);
	else
		return false;
	out[0] = '\0';
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--; /* the slash */
			out[n] = '\0';
			continue;
		}
		if (n + 1 + strlen(tok) >= PATH_MAX)
			return false;
		out[n++] = '/';
		strcpy(out + n, tok);
		n += strlen(tok);
	}
	if (n == 0)
		strcpy(out, "/");
	return true;
}

char *tc_path_inside(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
		     const char *p)
{
	const struct tc_bind *all[TC_MAX_BINDS + 3];
	struct tc_bind ws = { cfg->workspace, cfg->workspace_inside, true };
	size_t n = 0;

	for (size_t i = 0; i < cfg->n_binds && n < TC_ARRAY_SIZE(all); i++)
		all[n++] = &cfg->binds[i];
	for (size_t i = 0; i < n_extra && n < TC_ARRAY_SIZE(all); i++)
		all[n++] = &extra[i];
	if (cfg->workspace && n < TC_ARRAY_SIZE(all))
		all[n++] = &ws;
	for (size_t i = 0; i < n; i++) {
		size_t hl = strlen(all[i]->host);
		char *r;

		if (strncmp(p, all[i]->host, hl) != 0 || (p[hl] != '\0' && p[hl] != '/'))
			continue;
		if (asprintf(&r, "%s%s", all[i]->inside, p + hl) < 0)
			return NULL;
		return r;
	}
	return NULL;
}

char *tc_path_choose_cwd(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
			 const char *here)
{
	char buf[PATH_MAX];
	char *r = NULL;

	if (!here && getcwd(buf, sizeof(buf)))
		here = buf;
	if (here)
		r = tc_path_inside(cfg, extra, n_extra, here);
	if (!r)
		r = strdup(cfg->workspace ? cfg->workspace_inside : "/");
	return r;
}
