/* The files a run names, shown inside the sandbox (script.h): a python
 * script, a call tool, py_compile's files. Parent side, before clone. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "policy.h"
#include "script.h"
#include "util.h"

char *tc_script_show(const struct tc_config *cfg, const char *abs, bool dir, struct tc_bind *bind,
		     char dirbuf[PATH_MAX], struct tc_error *err)
{
	char why[128];
	char *covered = tc_path_inside(cfg, NULL, 0, abs), *r;
	const char *host = abs;

	if (covered)
		return covered;
	if (dir) {
		snprintf(dirbuf, PATH_MAX, "%s", abs);
		host = dirname(dirbuf);
	}
	if (tc_bind_path_check(host, true, why, sizeof(why)) < 0) {
		tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
			     "cannot show %s inside the sandbox: that path %s; copy it elsewhere "
			     "or --ro-bind its folder",
			     host, why);
		return NULL;
	}
	r = strdup(abs);
	if (!r) {
		tc_error_set(err, TC_STAGE_REQUEST, ENOMEM, "out of memory");
		return NULL;
	}
	*bind = (struct tc_bind){ (char *)host, (char *)host, false };
	return r;
}

/* The word after -m py_compile (or -mpy_compile) among python3's options,
 * or 0 when the command line does not compile files. */
static int compiled_first(int argc, char *const argv[])
{
	for (int i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-mpy_compile"))
			return i + 1;
		if (!strcmp(argv[i], "-m"))
			return i + 1 < argc && !strcmp(argv[i + 1], "py_compile") ? i + 2 : 0;
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--"))
			return 0;
	}
	return 0;
}

/* `python -m py_compile FILE...`: each FILE that is a regular file is shown
 * inside like a script, as far as there is room for binds; python3
 * reports any other as it would. */
static int show_compiled(const struct tc_config *cfg, struct tc_script_plan *p,
			 struct tc_error *err)
{
	char dir[PATH_MAX];

	for (int i = compiled_first(p->argc, p->argv);
	     i > 0 && i < p->argc && p->n_binds < TC_SCRIPT_BINDS; i++) {
		char *path = p->paths[p->n_binds], *inside;
		struct stat st;

		if (p->argv[i][0] == '-' || !tc_path_absolute(p->argv[i], NULL, path) ||
		    stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		inside = tc_script_show(cfg, path, false, &p->binds[p->n_binds], dir, err);
		if (!inside)
			return -err->err;
		if (p->binds[p->n_binds].host) {
			p->n_binds++;
			p->argv[i] = p->owned[p->n_owned++] = inside;
		} else if (p->argv[i][0] == '/') {
			p->argv[i] = p->owned[p->n_owned++] = inside;
		} else {
			/* covered by a bind, and the working directory is
			 * there too: the relative name reads as it would bare */
			free(inside);
		}
	}
	return 0;
}

int tc_script_plan_python(const struct tc_config *cfg, int argc, char *const words[],
			  int script_index, bool script_dir, struct tc_script_plan *p,
			  struct tc_error *err)
{
	char *inside = NULL;
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->argv = calloc((size_t)argc + 2, sizeof(char *));
	p->owned = calloc((size_t)argc + 2, sizeof(char *));
	if (!p->argv || !p->owned)
		return tc_error_set(err, TC_STAGE_REQUEST, ENOMEM, "out of memory");
	p->argc = argc + 1;
	/* argv[0] "python3" so python3's own messages read as they do bare */
	p->argv[0] = "python3";
	for (int i = 0; i < argc; i++)
		p->argv[i + 1] = words[i];
	if (script_index >= 0 && tc_path_absolute(words[script_index], NULL, p->script)) {
		/* only a regular file is shown; anything else is left for
		 * python3 to report as it would ("can't open file") */
		p->have_script = stat(p->script, &st) == 0 && S_ISREG(st.st_mode);
		if (p->have_script) {
			inside = tc_script_show(cfg, p->script, script_dir, &p->binds[0], p->dir,
						err);
			if (!inside)
				return -err->err;
			p->owned[p->n_owned++] = inside;
			p->n_binds = p->binds[0].host ? 1 : 0;
		}
		/* python3 gets the script by its path inside */
		p->argv[script_index + 1] = inside ? inside : p->script;
	}
	return show_compiled(cfg, p, err);
}

void tc_script_plan_release(struct tc_script_plan *p)
{
	free(p->argv);
	for (size_t i = 0; i < p->n_owned; i++)
		free(p->owned[i]);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}
