/* Build-time generator: the parts of toolcell's documentation that come
 * from the command line's tables (src/cli-internal.h, src/cli-table.c) and
 * the help texts (src/cli-help.c), so they cannot drift from the parser.
 *   docgen man TEMPLATE   the template with its @SYNOPSIS@, @COMMANDS@,
 *                         @OPTIONS@, @LIMITS@, @EXIT_STATUS@ and
 *                         @ENVIRONMENT@ lines replaced by roff
 *   docgen bash           the bash completion script
 * Output on stdout; exit 1 on any error. */
#include <ctype.h>
#include <stdbool.h>
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

/* help's "  CODE      what it means" lines (further lines of a meaning
 * indented deeper) as a list; the lines after it as text. */
static void man_exit_table(const char *s)
{
	puts(".RS\n.PD 0");
	for (const char *nl; *s; s = nl ? nl + 1 : s + strlen(s)) {
		char line[256];
		size_t code;

		nl = strchr(s, '\n');
		snprintf(line, sizeof(line), "%.*s", nl ? (int)(nl - s) : (int)strlen(s), s);
		if (line[0] != ' ') {
			puts(".PD\n.RE\n.IP");
			roff_text(s);
			putchar('\n');
			return;
		}
		if (line[2] == ' ') { /* a meaning's further line */
			roff_text(line + strspn(line, " "));
			putchar('\n');
			continue;
		}
		code = strstr(line + 2, "  ") ? (size_t)(strstr(line + 2, "  ") - line)
					      : strlen(line);
		line[code] = '\0';
		puts(".TP");
		fputs(".B ", stdout);
		roff_text(line + 2);
		putchar('\n');
		if (code < sizeof(line) - 1 && line[code + 1]) {
			roff_text(line + code + 1 + strspn(line + code + 1, " "));
			putchar('\n');
		}
	}
	puts(".PD\n.RE");
}

/* A synopsis line (cli.h: after "toolcell "), as .SY "toolcell NAME" and
 * the rest: options in bold, what stands for a value in italics,
 * brackets, '|', '<' and "..." in roman, a bracketed part never split. */
static void roff_synopsis(const char *name, const char *line)
{
	size_t len = strlen(name);
	const char *s = line, *rest;
	int depth = 0;

	fputs(".SY \"toolcell", stdout);
	if (!strncmp(s, name, len) && (!s[len] || s[len] == ' ')) {
		putchar(' ');
		roff_text(name);
		s += len + (s[len] == ' ');
	}
	puts("\"");
	rest = s;
	while (*s) {
		size_t n = strcspn(s, " []|<,");
		const char *dots = strstr(s, "...");
		char word[128];

		if (*s == ' ' && depth > 0) {
			fputs("\\ ", stdout);
			s++;
			continue;
		}
		if (!strncmp(s, "...", 3)) {
			fputs("\\&...", stdout);
			s += 3;
			continue;
		}
		if (n == 0) {
			depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
			putchar(*s++);
			continue;
		}
		if (dots && (size_t)(dots - s) < n)
			n = (size_t)(dots - s);
		snprintf(word, sizeof(word), "%.*s", (int)n, s);
		fputs(word[0] == '-' ? "\\fB" : "\\fI", stdout);
		roff_text(word);
		fputs("\\fR", stdout);
		s += n;
	}
	if (s != rest)
		putchar('\n');
	puts(".YS");
}

static void man_synopsis(void)
{
	char line[256];

	puts(".PD 0");
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		for (unsigned l = 0; tc_cli_usage_line(tc_cli_verbs[i].verb, l, line, sizeof(line));
		     l++)
			roff_synopsis(tc_cli_verbs[i].name, line);
	puts(".PD");
}

/* Summary lines as a sentence: "A drop-in for python3: ... sandbox." */
static void roff_sentence(const char *s)
{
	char first[2] = { (char)toupper((unsigned char)s[0]), '\0' };

	roff_text(first);
	roff_text(s + 1);
	puts(".");
}

/* A command's own options, indented under its entry. */
static void man_subopts(const struct tc_cli_verb *row)
{
	puts("Its options:");
	puts(".RS");
	for (size_t i = 0; i < *row->n_subopts; i++) {
		const struct tc_cli_subopt *o = &row->subopts[i];

		puts(".TP");
		fputs("\\fB", stdout);
		roff_text(o->name);
		fputs("\\fR", stdout);
		if (o->metavar) {
			fputs(o->optional ? " [\\fI" : " \\fI", stdout);
			roff_text(o->metavar);
			fputs(o->optional ? "\\fR]" : "\\fR", stdout);
		}
		putchar('\n');
		roff_text(o->desc);
		if (o->max)
			printf("; \\fI%s\\fR from 1 to %u", o->metavar, o->max);
		puts(".");
	}
	puts(".RE");
}

static void man_commands(void)
{
	for (size_t i = 0; i < tc_cli_n_verbs; i++) {
		const struct tc_cli_verb *row = &tc_cli_verbs[i];

		puts(".TP");
		fputs(".B ", stdout);
		roff_text(row->name);
		putchar('\n');
		roff_sentence(row->summary);
		if (row->subopts)
			man_subopts(row);
	}
}

/* Each command's exit status, as its --help says it; commands that share
 * one (run and python) under one entry. */
static void man_exit_status(void)
{
	for (size_t i = 0; i < tc_cli_n_verbs; i++) {
		const char *text = tc_cli_exit_status(tc_cli_verbs[i].verb), *colon;
		bool shown = false;

		for (size_t j = 0; j < i; j++)
			shown |= tc_cli_exit_status(tc_cli_verbs[j].verb) == text;
		if (shown || !*text)
			continue;
		puts(".TP");
		for (size_t j = i, first = 1; j < tc_cli_n_verbs; j++)
			if (tc_cli_exit_status(tc_cli_verbs[j].verb) == text) {
				printf("%s\\fB", first ? "" : ", ");
				roff_text(tc_cli_verbs[j].name);
				fputs("\\fR", stdout);
				first = 0;
			}
		putchar('\n');
		/* the help's "Exit status (call): " is the entry's head here */
		colon = strchr(text, ':');
		text = colon ? colon + 1 : text;
		text += strspn(text, " ");
		if (*text == '\n') {
			man_exit_table(text + 1);
		} else {
			roff_text(text);
			putchar('\n');
		}
	}
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
		else if (!strcmp(line, "@SYNOPSIS@\n"))
			man_synopsis();
		else if (!strcmp(line, "@COMMANDS@\n"))
			man_commands();
		else if (!strcmp(line, "@EXIT_STATUS@\n"))
			man_exit_status();
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
	if (!strcmp(metavar, "HOST[:INSIDE]") || !strcmp(metavar, "SOCKET"))
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

/* Every command's word, space-separated, for compgen -W. */
static void bash_words(void)
{
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		printf("%s%s", i ? " " : "", tc_cli_verbs[i].word);
}

/* The second word of a two-word command ("check" of "policy check"), or NULL. */
static const char *second_word(const struct tc_cli_verb *row)
{
	const char *sp = strchr(row->name, ' ');

	return sp ? sp + 1 : NULL;
}

/* A command with options of its own: its second word, values, options. */
static void bash_subopts(const struct tc_cli_verb *row)
{
	printf("\t%s)\n", row->word);
	if (second_word(row))
		printf("\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
		       "\t\t\tmapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\")\n"
		       "\t\t\treturn 0\n"
		       "\t\tfi\n",
		       second_word(row));
	puts("\t\tcase $prev in");
	for (size_t i = 0; i < *row->n_subopts; i++) {
		const struct tc_cli_subopt *o = &row->subopts[i];
		const char *m = o->metavar;

		if (o->words)
			/* a value left out: the next option is completed */
			printf("\t\t%s)\n"
			       "\t\t\tmapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\")\n"
			       "\t\t\t%s ;;\n",
			       o->name, o->words,
			       o->optional ? "[[ $cur == -* ]] || return 0" : "return 0");
		else if (m)
			printf("\t\t%s) %s; return 0 ;;\n", o->name,
			       !strcmp(m, "DIR")			  ? "_toolcell_dirs"
			       : !strcmp(m, "FILE") || !strcmp(m, "PATH") ? "_toolcell_files"
									  : "COMPREPLY=()");
	}
	puts("\t\tesac\n"
	     "\t\tif [[ $cur == -* ]]; then");
	fputs("\t\t\tmapfile -t COMPREPLY < <(compgen -W '", stdout);
	for (size_t i = 0; i < *row->n_subopts; i++)
		printf("%s ", row->subopts[i].name);
	puts("--help' -- \"$cur\")\n"
	     "\t\tfi\n"
	     "\t\treturn 0 ;;");
}

/* The commands with no options: policy check (a FILE after its second
 * word), version and help (nothing). */
static void bash_plain(const struct tc_cli_verb *row)
{
	if (!second_word(row))
		return;
	printf("\t%s)\n"
	       "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	       "\t\t\tmapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\")\n"
	       "\t\telse\n"
	       "\t\t\t_toolcell_files\n"
	       "\t\tfi\n"
	       "\t\treturn 0 ;;\n",
	       row->word, second_word(row));
}

/* The commands whose options are tc_cli_opts[]'s: a case pattern. */
static void bash_table_verbs(void)
{
	const char *sep = "\t";

	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		if ((VB_SANDBOX | VB(TC_VERB_CHECK)) & VB(tc_cli_verbs[i].verb)) {
			printf("%s%s", sep, tc_cli_verbs[i].word);
			sep = " | ";
		}
	puts(") ;;");
}

static void bash_head(void)
{
	fputs("# bash completion for toolcell(1). Generated by tools/docgen.c from the\n"
	      "# command and option tables in src/cli-table.c: do not edit.\n"
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
	      "\t\tmapfile -t COMPREPLY < <(compgen -W '",
	      stdout);
	bash_words();
	fputs(" --help --version' -- \"$cur\")\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tcase $verb in\n"
	      "\thelp)\n"
	      "\t\t[ \"$COMP_CWORD\" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W '",
	      stdout);
	bash_words();
	puts("' -- \"$cur\")\n"
	     "\t\treturn 0 ;;");
	for (size_t i = 0; i < tc_cli_n_verbs; i++) {
		if (tc_cli_verbs[i].subopts)
			bash_subopts(&tc_cli_verbs[i]);
		else if (!((VB_SANDBOX | VB(TC_VERB_CHECK)) & VB(tc_cli_verbs[i].verb)))
			bash_plain(&tc_cli_verbs[i]);
	}
	bash_table_verbs();
	puts("\t*) return 0 ;;\n"
	     "\tesac");
}

static int bash(void)
{
	bash_head();
	puts("\t# toolcell's options end at \"--\" or the first word that is neither an\n"
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
	for (size_t v = 0; v < tc_cli_n_verbs; v++) {
		if (!((VB_SANDBOX | VB(TC_VERB_CHECK)) & VB(tc_cli_verbs[v].verb)))
			continue;
		printf("\t\t\t%s) mapfile -t COMPREPLY < <(compgen -W '", tc_cli_verbs[v].word);
		bash_opts(tc_cli_verbs[v].verb);
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
