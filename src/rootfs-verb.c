/* `toolcell rootfs build` (its options: tc_rootfs_build_opts): run
 * the rootfs builder (build-rootfs beside the binary in a build tree, else
 * the installed /usr/libexec/toolcell/build-rootfs) on the host's installed
 * Debian packages, into build/rootfs[-NAME] in a build tree and
 * /var/lib/toolcell/rootfs[-NAME] once installed. The builder switches the
 * new tree in atomically; this file only checks the command line and execs
 * it with a fixed environment. Prints to stderr, returns an exit status. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "layout.h"
#include "rootfs.h"

#define WITH_MAX 1024 /* the --with list, in bytes */

enum {
	OPT_NAME,
	OPT_WITH,
	OPT_DEST
};

const struct tc_cli_subopt tc_rootfs_build_opts[] = {
	[OPT_NAME] = { "--name", "NAME",
		       "the variant a policy names with \"rootfs\": NAME\n"
		       "([a-z0-9][a-z0-9_-]*, at most 32; default: default;\n"
		       "workspace adds toolcell-utils)" },
	[OPT_WITH] = { "--with", "PKG,...",
		       "installed Debian packages to add, e.g.\n"
		       "python3-numpy,python3-pandas" },
	[OPT_DEST] = { "--dest", "DIR",
		       "where the rootfs goes (default: rootfs[-NAME] beside\n"
		       "toolcell in a build tree, else\n" TC_LAYOUT_STATE_DIR "/rootfs[-NAME])" },
};
const size_t tc_rootfs_build_n_opts =
	sizeof(tc_rootfs_build_opts) / sizeof(tc_rootfs_build_opts[0]);

/* its --help: cli-help.c's, from this table and the command's row */
static void usage(void)
{
	fputs(tc_cli_help(TC_VERB_ROOTFS_BUILD), stdout);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("toolcell: rootfs build: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see 'toolcell rootfs build --help')\n", stderr);
	return 125;
}

/* PKG,PKG: Debian package names, [a-z0-9][a-z0-9+.-]+ each */
static bool with_valid(const char *s)
{
	size_t len = strlen(s), word = 0;

	if (len == 0 || len > WITH_MAX)
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (s[i] == ',' || s[i] == '\0') {
			if (word < 2)
				return false;
			word = 0;
			continue;
		}
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      (word > 0 && strchr("+.-", s[i]))))
			return false;
		word++;
	}
	return true;
}

/* name's value: "--name X" or "--name=X"; NULL when argv[*i] is not name */
static const char *value_of(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name))
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int tc_rootfs_build_main(int argc, char **argv, const char *exe_dir)
{
	const char *name = "default", *with = NULL, *dest = NULL, *v;
	char builder[PATH_MAX + 64], utils[PATH_MAX + 64], out[PATH_MAX + 64];
	struct tc_layout layout;
	char *args[12];
	size_t n = 0;
	bool in_build_tree, deflt = !strcmp(name, "default");

	if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		usage();
		return 0;
	}
	if (argc < 3)
		return bad("expected a subcommand: 'build'");
	if (strcmp(argv[2], "build"))
		return bad("unknown subcommand '%.64s'; expected 'build'", argv[2]);
	for (int i = 3; i < argc; i++) {
		bool missing = false;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return 0;
		}
		if ((v = value_of(argc, argv, &i, tc_rootfs_build_opts[OPT_NAME].name, &missing)))
			name = v;
		else if ((v = value_of(argc, argv, &i, tc_rootfs_build_opts[OPT_WITH].name,
				       &missing)))
			with = v;
		else if ((v = value_of(argc, argv, &i, tc_rootfs_build_opts[OPT_DEST].name,
				       &missing)))
			dest = v;
		else if (missing)
			return bad("%s: expected a value", argv[i]);
		else
			return bad("unknown argument '%.64s'", argv[i]);
	}
	if (!tc_rootfs_name_valid(name))
		return bad("--name '%.64s': expected [a-z0-9][a-z0-9_-]*, at most 32", name);
	if (with && !with_valid(with))
		return bad("--with '%.64s': expected Debian package names, comma-separated", with);
	if (dest && (!dest[0] || strlen(dest) >= PATH_MAX))
		return bad("--dest: expected a directory");
	tc_layout_find(exe_dir, NULL, &layout);
	in_build_tree = layout.builder_beside;
	snprintf(builder, sizeof(builder), "%s/build-rootfs", layout.path[TC_LAYOUT_LIBEXEC]);
	snprintf(utils, sizeof(utils), "%s/toolcell-utils", layout.path[TC_LAYOUT_LIBEXEC]);
	deflt = !strcmp(name, "default");
	snprintf(out, sizeof(out), "%s/rootfs%s%s", layout.path[TC_LAYOUT_STATE], deflt ? "" : "-",
		 deflt ? "" : name);
	args[n++] = builder;
	args[n++] = "--name";
	args[n++] = (char *)name;
	args[n++] = "--out";
	args[n++] = dest ? (char *)dest : out;
	if (with) {
		args[n++] = "--with";
		args[n++] = (char *)with;
	}
	if (!strcmp(name, "workspace")) {
		args[n++] = "--utils";
		args[n++] = utils;
	}
	args[n] = NULL;
	/* a fixed environment: the builder reads only what the host installed */
	execve(builder, args, (char *[]){ "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL });
	fprintf(stderr, "toolcell: rootfs build: cannot run the builder %s: %s (%s)\n", builder,
		strerror(errno),
		in_build_tree ? "a broken build tree: run cmake again"
			      : "reinstall toolcell: the builder is part of the package");
	return 125;
}
