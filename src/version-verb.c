/* `toolcell version`: the version line, or with --paths where this
 * toolcell finds its own files (layout.h), for the scripts that would
 * otherwise hard-code the install layout. Parent side; no sandbox. */
#include <stdio.h>

#include "env.h"
#include "json.h"
#include "layout.h"
#include "util.h"
#include "verb.h"

extern char **environ;

const struct tc_cli_subopt tc_version_opts[] = {
	{ "--paths", "NAME",
	  "print where this toolcell finds its files (with\nNAME, only that path)",
	  .optional = true, .words = "libexec policies site state rootfs" },
	{ "--json", NULL, "after --paths: all of them as one JSON object" },
};
const size_t tc_version_n_opts = TC_ARRAY_SIZE(tc_version_opts);

/* the paths as one JSON object, keys in the enum's order */
static int print_json(const struct tc_layout *l)
{
	_cleanup_cjson_ cJSON *doc = cJSON_CreateObject();
	_cleanup_free_ char *text = NULL;
	bool failed = false;

	for (int p = 0; p < TC_LAYOUT__MAX; p++)
		tc_json_add(&failed, doc, tc_layout_name(p), tc_json_string(l->path[p]));
	text = failed ? NULL : tc_json_document(doc, false);
	if (!text) {
		tc_diag("version --paths: out of memory");
		return TC_EXIT_TOOLCELL;
	}
	fputs(text, stdout);
	return 0;
}

int tc_verb_version(struct tc_invocation *v)
{
	/* the rootfs a run without --rootfs would take from the variable */
	const char *asked = tc_env_get(environ, "TOOLCELL_ROOTFS");
	struct tc_layout l;
	enum tc_layout_path one;

	if (!v->cli.paths) {
		printf("toolcell %s\n", TOOLCELL_VERSION);
		return 0;
	}
	tc_layout_find(v->exe_dir, asked && asked[0] ? asked : NULL, &l);
	if (v->cli.json)
		return print_json(&l);
	if (v->cli.argc == 1) {
		one = tc_layout_by_name(v->cli.argv[0]);
		if (one == TC_LAYOUT__MAX) {
			tc_diag("version --paths: no path named '%.64s' (names: libexec, policies, "
				"site, state, rootfs)",
				v->cli.argv[0]);
			return TC_EXIT_TOOLCELL;
		}
		printf("%s\n", l.path[one]);
		return 0;
	}
	for (int p = 0; p < TC_LAYOUT__MAX; p++)
		printf("%-9s %s\n", tc_layout_name(p), l.path[p]);
	return 0;
}
