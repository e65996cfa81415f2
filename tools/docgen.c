/* Build-time generator: the parts of toolcell's documentation that come
 * from the command line's tables (src/cli-internal.h, src/cli-table.c), so they
 * cannot drift from the parser.
 *   docgen man TEMPLATE   the template with its @OPTIONS@, @LIMITS@,
 *                         @ENVIRONMENT@ and @ROOTFS_BUILD_OPTIONS@ lines
 *                         replaced by roff
 *   docgen bash           the bash completion script
 * Output on stdout; exit 1 on any error. */
#include <stdio.h>
#include <string.h>

#include "rootfs.h"
#include "util.h"

#include "../src/cli-internal.h"

/* Text for a roff text line: the help's '\n' line breaks become spaces,
 * '\' becomes \e, '-' becomes \- and a leading '.' or '\'' is escaped. */
static void roff_text(const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		switch (*s) {
		case '\n':
			putchar(' ');
			break;
		case '\\':
			fputs("\\e", stdout);
			break;
		case '-':
			fputs("\\-", stdout);
			break;
		default:
			putchar(*s);
		}
	}
}

static void roff_verbs(unsigned verbs)
{
	const char *sep = "";

	fputs("Commands: ", stdout);
	for (int v = TC_VERB_RUN; v <= TC_VERB_HELP; v++) {
		if (!(verbs & VB(v)))
			continue;
		printf("%s\\fB%s\\fR", sep, tc_cli_verb_name((enum tc_verb)v));
		sep = ", ";
	}
	puts(".");
}

static void man_options(void)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		puts(".TP");
		if (o->id == OPT_HELP)
			fputs("\\fB\\-h\\fR, ", stdout);
		fputs("\\fB", stdout);
		roff_text(o->name);
		fputs("\\fR", stdout);
		if (o->metavar) {
			fputs(" \\fI", stdout);
			roff_text(o->metavar);
			fputs("\\fR", stdout);
		}
		putchar('\n');
		roff_text(o->desc);
		if (o->id == OPT_HELP)
			fputs(" (for \\fBpython\\fR only \\fB\\-\\-help\\fR: \\fB\\-h\\fR is python3's)",
			      stdout);
		puts(".");
		if (o->check_desc) {
			fputs("For \\fBcheck\\fR: ", stdout);
			roff_text(o->check_desc);
			puts(".");
		}
		if (o->env)
			printf("Variable: \\fB\\%%%s\\fR.\n", o->env);
		roff_verbs(o->verbs);
	}
}

/* 'rootfs build''s options, indented under its COMMANDS entry */
static void man_rootfs_build(void)
{
	puts(".RS");
	for (size_t i = 0; i < tc_rootfs_build_n_opts; i++) {
		const struct tc_rootfs_build_opt *o = &tc_rootfs_build_opts[i];

		puts(".TP");
		fputs("\\fB", stdout);
		roff_text(o->name);
		fputs("\\fR \\fI", stdout);
		roff_text(o->metavar);
		puts("\\fR");
		roff_text(o->desc);
		puts(".");
	}
	puts(".RE");
}

static void man_limits(void)
{
	char range[96], def[32];

	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const struct tc_limit_info *li = &tc_limit_info[l];
		const char *env = tc_cli_limits[l].env;

		if (!li->option)
			continue;
		tc_limit_range((enum tc_limit_id)l, range, sizeof(range));
		tc_limit_format(li->unit, li->def, false, def, sizeof(def));
		puts(".TP");
		fputs("\\fB", stdout);
		roff_text(li->option);
		printf("\\fR \\fI%s\\fR\n", tc_unit_info[li->unit].metavar);
		roff_text(tc_cli_limits[l].desc);
		printf(". Policy key \\fB%s\\fR; default.json: ", li->name);
		roff_text(def);
		fputs("; range ", stdout);
		roff_text(range);
		puts(".");
		if (env)
			printf("Variable: \\fB\\%%%s\\fR.\n", env);
		roff_verbs(VB_SANDBOX);
	}
}

static void man_env(void)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		if (!o->env)
			continue;
		printf(".TP\n\\fB%s\\fR=\\fI", o->env);
		roff_text(o->env_value ? o->env_value : o->metavar);
		fputs("\\fR\nAs \\fB", stdout);
		roff_text(o->name);
		fputs("\\fR", stdout);
		roff_text(o->env_note ? o->env_note : "");
		puts(".");
	}
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const char *env = tc_cli_limits[l].env;

		if (!env)
			continue;
		printf(".TP\n\\fB%s\\fR=\\fI%s\\fR\nAs \\fB", env,
		       tc_unit_info[tc_limit_info[l].unit].metavar);
		roff_text(tc_limit_info[l].option);
		puts("\\fR.");
	}
}

static int man(const char *template)
{
	char line[4096];
	FILE *f = fopen(template, "re");

	if (!f) {
		perror(template);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "@OPTIONS@\n"))
			man_options();
		else if (!strcmp(line, "@LIMITS@\n"))
			man_limits();
		else if (!strcmp(line, "@ENVIRONMENT@\n"))
			man_env();
		else if (!strcmp(line, "@ROOTFS_BUILD_OPTIONS@\n"))
			man_rootfs_build();
		else
			fputs(line, stdout);
	}
	fclose(f);
	return 0;
}

/* The options of verb, space-separated, for compgen -W. */
static void bash_opts(enum tc_verb verb)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].verbs & VB(verb))
			printf(" %s", tc_cli_opts[i].name);
	if (VB_SANDBOX & VB(verb))
		for (int l = 0; l < TC_LIMIT__MAX; l++)
			if (tc_limit_info[l].option)
				printf(" %s", tc_limit_info[l].option);
}

/* What completes the value of an option with this metavar. */
static const char *bash_value(const char *metavar)
{
	if (!strcmp(metavar, "FILE"))
		return "_toolcell_files";
	if (!strcmp(metavar, "DIR") || !strcmp(metavar, "DIR[:INSIDE]"))
		return "_toolcell_dirs";
	if (!strcmp(metavar, "HOST[:INSIDE]"))
		return "_toolcell_files";
	if (!strcmp(metavar, "NAME"))
		return "mapfile -t COMPREPLY < <(compgen -e -- \"$cur\")";
	if (!strcmp(metavar, "NAME=VALUE"))
		return "mapfile -t COMPREPLY < <(compgen -e -S = -- \"$cur\"); compopt -o nospace";
	return "COMPREPLY=()"; /* a number or a size: nothing to offer */
}

/* Every option that takes a value, as a case pattern: a | b | ... */
static void bash_valued(void)
{
	const char *sep = "";

	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].metavar) {
			printf("%s%s", sep, tc_cli_opts[i].name);
			sep = " | ";
		}
	for (int l = 0; l < TC_LIMIT__MAX; l++)
		if (tc_limit_info[l].option)
			printf(" | %s", tc_limit_info[l].option);
}

static int bash(void)
{
	static const enum tc_verb verbs[] = { TC_VERB_RUN, TC_VERB_PYTHON, TC_VERB_CALL,
					      TC_VERB_SESSION, TC_VERB_CHECK };

	fputs("# bash completion for toolcell(1). Generated by tools/docgen.c from the\n"
	      "# option table in src/cli-table.c: do not edit.\n"
	      "\n"
	      "_toolcell_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); }\n"
	      "_toolcell_dirs() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); }\n"
	      "\n"
	      "_toolcell() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev='' verb=${COMP_WORDS[1]:-} i w\n"
	      "\tCOMPREPLY=()\n"
	      "\t# --opt=VALUE: readline splits at '=' (COMP_WORDBREAKS)\n"
	      "\tif [ \"$cur\" = = ]; then\n"
	      "\t\tcur=\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\telif [ \"$COMP_CWORD\" -ge 2 ] && [ \"${COMP_WORDS[COMP_CWORD - 1]}\" = = ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n"
	      "\telif [ \"$COMP_CWORD\" -ge 1 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tfi\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tmapfile -t COMPREPLY < <(compgen -W 'run python call session check policy "
	      "rootfs version help --help --version' -- \"$cur\")\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tcase $verb in\n"
	      "\thelp)\n"
	      "\t\t[ \"$COMP_CWORD\" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W 'run python "
	      "call session check policy rootfs version help' -- \"$cur\")\n"
	      "\t\treturn 0 ;;\n"
	      "\tpolicy)\n"
	      "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\t\tmapfile -t COMPREPLY < <(compgen -W 'check' -- \"$cur\")\n"
	      "\t\telse\n"
	      "\t\t\t_toolcell_files\n"
	      "\t\tfi\n"
	      "\t\treturn 0 ;;\n"
	      "\trootfs)\n"
	      "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\t\tmapfile -t COMPREPLY < <(compgen -W 'build' -- \"$cur\")\n"
	      "\t\telif [ \"$prev\" = --dest ]; then\n"
	      "\t\t\t_toolcell_dirs\n"
	      "\t\telif [[ $cur == -* ]]; then\n"
	      "\t\t\tmapfile -t COMPREPLY < <(compgen -W '",
	      stdout);
	for (size_t i = 0; i < tc_rootfs_build_n_opts; i++)
		printf("%s ", tc_rootfs_build_opts[i].name);
	puts("--help' -- \"$cur\")\n"
	     "\t\tfi\n"
	     "\t\treturn 0 ;;\n"
	     "\trun | python | call | session | check) ;;\n"
	     "\t*) return 0 ;;\n"
	     "\tesac\n"
	     "\t# toolcell's options end at \"--\" or the first word that is neither an\n"
	     "\t# option nor an option's value\n"
	     "\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
	     "\t\tw=${COMP_WORDS[i]}\n"
	     "\t\t[ \"$w\" = -- ] && { i=$((i + 1)); break; }\n"
	     "\t\t[[ $w == -* || $w == = ]] && continue\n"
	     "\t\t[ \"${COMP_WORDS[i - 1]}\" = = ] && continue\n"
	     "\t\tcase ${COMP_WORDS[i - 1]} in");
	fputs("\t\t", stdout);
	bash_valued();
	puts(") continue ;;\n"
	     "\t\tesac\n"
	     "\t\tbreak\n"
	     "\tdone\n"
	     "\tif [ \"$i\" -ge \"$COMP_CWORD\" ]; then\n"
	     "\t\tcase $prev in");
	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].metavar)
			printf("\t\t%s) %s; return 0 ;;\n", tc_cli_opts[i].name,
			       bash_value(tc_cli_opts[i].metavar));
	fputs("\t\t", stdout);
	for (int l = 0, first = 1; l < TC_LIMIT__MAX; l++)
		if (tc_limit_info[l].option) {
			printf("%s%s", first ? "" : " | ", tc_limit_info[l].option);
			first = 0;
		}
	puts(") return 0 ;;\n"
	     "\t\tesac\n"
	     "\t\tif [[ $cur == -* ]]; then\n"
	     "\t\t\tcase $verb in");
	for (size_t v = 0; v < TC_ARRAY_SIZE(verbs); v++) {
		printf("\t\t\t%s) mapfile -t COMPREPLY < <(compgen -W '",
		       tc_cli_verb_name(verbs[v]));
		bash_opts(verbs[v]);
		puts(" ' -- \"$cur\") ;;");
	}
	puts("\t\t\tesac\n"
	     "\t\t\treturn 0\n"
	     "\t\tfi\n"
	     "\tfi\n"
	     "\tcase $verb in\n"
	     "\trun) if [ \"$i\" -ge \"$COMP_CWORD\" ]; then mapfile -t COMPREPLY < <(compgen -c -- \"$cur\"); "
	     "else _toolcell_files; fi ;;\n"
	     "\tpython | call) _toolcell_files ;;\n"
	     "\tesac\n"
	     "\treturn 0\n"
	     "}\n"
	     "complete -F _toolcell toolcell");
	return 0;
}

int main(int argc, char **argv)
{
	int r;

	if (argc == 3 && !strcmp(argv[1], "man"))
		r = man(argv[2]);
	else if (argc == 2 && !strcmp(argv[1], "bash"))
		r = bash();
	else {
		fputs("usage: docgen man TEMPLATE | docgen bash\n", stderr);
		return 1;
	}
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return r;
}
