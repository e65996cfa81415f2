/* The --help texts (see cli.h: tc_cli_help), built from the command
 * line's tables (cli-table.c): each option's and each limit's line comes
 * from its row, so help cannot disagree with the parser, the man page or
 * the completion. Pure: text into a static buffer per command. Runs in the
 * parent. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"

#include "cli-internal.h"

/* Built once per verb into a static buffer (toolcell is single-threaded):
 * the limit options come from tc_limit_info[], so help cannot disagree
 * with the parser or the table. */
#define HELP_MAX   16384
#define HELP_COL   26 /* where option descriptions start */
#define HELP_WIDTH 79 /* the widest line a filled text makes */
#define CMD_COL	   16 /* where the overview's command summaries start */

struct help_buf {
	char *buf;
	size_t len, cap;
};

static void hb_printf(struct help_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hb_printf(struct help_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->cap - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < b->cap - 1 ? b->len + (size_t)n : b->cap - 1;
}

/* "  LEFT      first line of desc", further lines at column col. */
static void hb_col(struct help_buf *b, const char *left, const char *desc, int col)
{
	const char *line = desc, *nl;
	int width = (int)strlen(left) + 2;

	if (width > col - 1) {
		hb_printf(b, "  %s\n", left);
		width = 0;
	} else {
		hb_printf(b, "  %s", left);
	}
	do {
		nl = strchr(line, '\n');
		hb_printf(b, "%*s%.*s\n", col - width, "",
			  nl ? (int)(nl - line) : (int)strlen(line), line);
		width = 0;
		line = nl + 1;
	} while (nl);
}

static void hb_opt(struct help_buf *b, const char *left, const char *desc)
{
	hb_col(b, left, desc, HELP_COL);
}

/* prefix, then text filled to HELP_WIDTH columns, further lines indented
 * by indent; a bracketed part ("[--pool N]") is never split. */
static void hb_wrap(struct help_buf *b, const char *prefix, int indent, const char *text)
{
	int col = (int)strlen(prefix), depth = 0;
	const char *s = text, *e;

	hb_printf(b, "%s", prefix);
	while (*s) {
		for (e = s; *e && (*e != ' ' || depth > 0); e++)
			depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
		if (s != text && col + 1 + (int)(e - s) > HELP_WIDTH) {
			hb_printf(b, "\n%*s", indent, "");
			col = indent;
		} else if (s != text) {
			hb_printf(b, " ");
			col++;
		}
		hb_printf(b, "%.*s", (int)(e - s), s);
		col += (int)(e - s);
		s = *e ? e + 1 : e;
	}
	hb_printf(b, "\n");
}

/* verb's synopsis lines: the first after first, the others after other
 * ("Usage: toolcell ", "       toolcell "). */
static void help_usage(struct help_buf *b, enum tc_verb verb, const char *first, const char *other)
{
	const char *name = tc_cli_verb_name(verb);
	char line[256];

	for (unsigned l = 0; tc_cli_usage_line(verb, l, line, sizeof(line)); l++) {
		const char *prefix = l ? other : first;
		int indent = (int)strlen(prefix);

		if (tc_startswith(line, name))
			indent += (int)strlen(name) + 1;
		hb_wrap(b, prefix, indent, line);
	}
}

static const char help_values[] =
	"Values: SIZE is whole bytes, or a number with K, M, G or T (binary:\n"
	"1K = 1024; KiB, MiB, GiB, TiB too; with a unit, fractions such as 1.5G).\n"
	"SECONDS may be fractional and end in s (30, 0.25, 1.5s); CPUS may be\n"
	"fractional (0.5 is half a CPU); N is a whole number. --opt VALUE and\n"
	"--opt=VALUE are the same; a limit given twice takes the last value.\n";

static const char help_policy_rule[] =
	"The policy is the operator's ceiling. A caller may tighten any limit;\n"
	"raising one above the policy's value, or adding binds, a workspace,\n"
	"--env or --pass-env, needs the policy's allow/max for that key and stays\n"
	"within it. The shipped default.json allows tightening any limit,\n"
	"read-only binds, one writable workspace, --env and --pass-env, but no\n"
	"raise and no writable --bind; production.json is stricter. Binds of /,\n"
	"/proc, /sys, /dev, /run, a home directory root, sockets and device\n"
	"nodes are always refused. Whatever is refused ends toolcell with 125\n"
	"before anything runs.\n";

static const char help_record[] =
	"The result record: one JSON object written by toolcell, never by the\n"
	"tool, after the tool ended, to --result FILE (opened before the sandbox\n"
	"starts, through no symlink anywhere in its path, and refused inside the\n"
	"workspace or a writable bind, where the tool could replace it) or\n"
	"--result-fd N; with neither, none is written.\n"
	"It holds the status (ok, exit_nonzero, signaled, timeout,\n"
	"memory_limit, pids_limit, output_limit, syscall_denied, rejected,\n"
	"sandbox_error), the exit code or signal, times, peaks, output sizes, each\n"
	"limit and what enforced it, the isolation in force, and sha256 of the\n"
	"policy, the tool and the rootfs manifest. A missing or partial record\n"
	"means toolcell itself failed.\n";

static const char help_exit_relay[] =
	"Exit status:\n"
	"  0-255     the tool's own exit status, passed through unchanged\n"
	"  124       a toolcell time limit ended the tool (wall clock, or CPU\n"
	"            time via SIGXCPU)\n"
	"  125       toolcell refused or failed: bad option, bad policy, bad\n"
	"            request, sandbox set-up failed, the result record could\n"
	"            not be written whole (reason on stderr)\n"
	"  126, 127  (run) PROGRAM not executable / not found inside the sandbox\n"
	"  signal N  the tool was killed by signal N: toolcell writes the record,\n"
	"            then ends itself by the same signal (no core dump), so a\n"
	"            shell sees 128+N and Python's subprocess sees -N; a memory\n"
	"            limit kill shows as SIGKILL and the record says why; a\n"
	"            forbidden system call as SIGSYS (159, -31)\n"
	"A tool may itself exit 124-127: the record, not the code, is the\n"
	"authority on what happened.\n";

static const char help_exit_call[] =
	"Exit status (call): 0 when the envelope says \"ok\": true; 1 when the\n"
	"tool failed in any way (its error, a limit, a bad response); 125 when\n"
	"the request was refused, the sandbox could not be built or the result\n"
	"record could not be written. An envelope is printed in every case.\n";

/* The table's rows for verb, in table order. */
static void help_opt_rows(struct help_buf *b, enum tc_verb verb)
{
	char left[64];

	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];
		const char *desc = verb == TC_VERB_CHECK && o->check_desc ? o->check_desc : o->desc;

		if (!(o->verbs & VB(verb)))
			continue;
		if (o->id == OPT_HELP && verb == TC_VERB_PYTHON)
			/* python3 has -h of its own */
			snprintf(left, sizeof(left), "%s", o->name);
		else if (o->id == OPT_HELP)
			snprintf(left, sizeof(left), "-h, %s", o->name);
		else
			snprintf(left, sizeof(left), "%s%s%s", o->name, o->metavar ? " " : "",
				 o->metavar ? o->metavar : "");
		if (o->id == OPT_HELP && verb == TC_VERB_PYTHON)
			desc = "this text (-h is python3's: see above)";
		hb_opt(b, left, desc);
	}
}

static void help_options(struct help_buf *b, enum tc_verb verb)
{
	char range[96], left[64], desc[512], def[32];

	hb_printf(b, "Options:\n");
	help_opt_rows(b, verb);
	hb_printf(b, "\nLimits. Each defaults to the policy's value (the shipped default.json's\n"
		     "is shown; 'toolcell policy check FILE' prints a policy's); a value\n"
		     "outside the range is refused:\n");
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const struct tc_limit_info *li = &tc_limit_info[l];

		if (!li->option)
			continue;
		tc_limit_range((enum tc_limit_id)l, range, sizeof(range));
		tc_limit_format(li->unit, li->def, false, def, sizeof(def));
		snprintf(left, sizeof(left), "%s %s", li->option, tc_unit_info[li->unit].metavar);
		snprintf(desc, sizeof(desc), "%s\ndefault.json: %s; range %s\n(policy key \"%s\")",
			 tc_cli_limits[l].desc, def, range, li->name);
		hb_opt(b, left, desc);
	}
	hb_printf(b, "\n%s\n", help_values);
	if (verb == TC_VERB_SESSION) {
		hb_printf(b, "Working directory: /workspace with --workspace, else /tmp.\n\n%s",
			  help_policy_rule);
		return;
	}
	if (verb == TC_VERB_CALL)
		hb_printf(b, "Working directory: /workspace with --workspace, else /.\n\n");
	else
		hb_printf(b,
			  "Working directory: the caller's own (at its place inside) when it lies\n"
			  "inside a bound path; else /workspace with --workspace; else /.\n\n");
	hb_printf(b, "%s\n%s", help_policy_rule, help_record);
}

/* The TOOLCELL_* variables of the options verb takes. */
static void help_env(struct help_buf *b, enum tc_verb verb)
{
	char left[80], desc[96];

	hb_printf(b, "Settings from the environment, for a caller that cannot pass options\n"
		     "(tools/toolcell-python as an interpreter path): each means its option,\n"
		     "for every command that takes the option. An option on the command line\n"
		     "wins over its variable; a list option given at all replaces its\n"
		     "variable's whole list; an empty variable counts as unset; no TOOLCELL_*\n"
		     "variable reaches the tool:\n");
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		if (!o->env || !(o->verbs & VB(verb)))
			continue;
		snprintf(left, sizeof(left), "%s=%s", o->env,
			 o->env_value ? o->env_value : o->metavar);
		snprintf(desc, sizeof(desc), "as %s%s", o->name, o->env_note ? o->env_note : "");
		hb_opt(b, left, desc);
	}
	for (int l = 0; l < TC_LIMIT__MAX && (VB_SANDBOX & VB(verb)); l++) {
		const struct tc_limit_info *li = &tc_limit_info[l];

		if (!tc_cli_limits[l].env)
			continue;
		snprintf(left, sizeof(left), "%s=%s", tc_cli_limits[l].env,
			 tc_unit_info[li->unit].metavar);
		snprintf(desc, sizeof(desc), "as %s", li->option);
		hb_opt(b, left, desc);
	}
	if (VB_SANDBOX & VB(verb))
		hb_printf(b, "A path in a comma-separated list cannot itself contain ','.\n");
	hb_printf(b, "\n");
}

/* "NAME also takes --a, --b; " (more) or "NAME takes no --c; ": the
 * options row's command has and run has not, or run has and it has not */
static void help_differ(struct help_buf *t, const struct tc_cli_verb *row, bool more)
{
	const char *sep = more ? " also takes " : " takes no ";
	bool any = false;

	for (size_t o = 0; o < tc_cli_n_opts; o++) {
		bool in_verb = tc_cli_opts[o].verbs & VB(row->verb);
		bool in_run = tc_cli_opts[o].verbs & VB(TC_VERB_RUN);

		if (in_verb == in_run || in_verb != more)
			continue;
		hb_printf(t, "%s%s%s", any ? "" : row->name, any ? ", " : sep, tc_cli_opts[o].name);
		any = true;
	}
	if (any)
		hb_printf(t, "; ");
}

/* "run, python, call and session take these options (python also takes
 * --script-dir; session takes no --result, --result-fd; ...)", from the
 * option table's verb masks: the overview lists run's options. */
static void help_sandbox_intro(struct help_buf *b)
{
	char text[1024] = "";
	struct help_buf t = { text, 0, sizeof(text) };
	size_t k = 0, all = 0;

	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		all += (VB_SANDBOX & VB(tc_cli_verbs[i].verb)) != 0;
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		if (VB_SANDBOX & VB(tc_cli_verbs[i].verb))
			hb_printf(&t, "%s%s",
				  !k++	     ? ""
				  : k == all ? " and "
					     : ", ",
				  tc_cli_verbs[i].name);
	hb_printf(&t, " take these options (");
	for (size_t i = 0; i < tc_cli_n_verbs; i++) {
		if (!(VB_SANDBOX & VB(tc_cli_verbs[i].verb)) || tc_cli_verbs[i].verb == TC_VERB_RUN)
			continue;
		help_differ(&t, &tc_cli_verbs[i], true);
		help_differ(&t, &tc_cli_verbs[i], false);
	}
	hb_printf(&t, "see 'toolcell help COMMAND'):");
	hb_wrap(b, "", 0, text);
}

static void help_overview(struct help_buf *b)
{
	hb_printf(b, "toolcell: run untrusted code in a sandbox with no network, no view of\n"
		     "the host, and hard limits on memory, CPU, processes, time and output.\n"
		     "\n"
		     "Usage:\n");
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		help_usage(b, tc_cli_verbs[i].verb, "  toolcell ", "  toolcell ");
	hb_printf(b, "\nCommands:\n");
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		hb_col(b, tc_cli_verbs[i].name, tc_cli_verbs[i].summary, CMD_COL);
	hb_printf(b, "\n"
		     "In run and python, toolcell prints nothing of its own on stdout, which\n"
		     "belongs to the tool; its diagnostics go to stderr, one line each,\n"
		     "prefixed \"toolcell: \".\n"
		     "\n");
	help_sandbox_intro(b);
	help_options(b, TC_VERB_RUN);
	hb_printf(b,
		  "\n%s\n%s"
		  "The other commands' exit status: see 'toolcell help COMMAND'. A command\n"
		  "line toolcell cannot parse: 125.\n",
		  help_exit_relay, help_exit_call);
}

static const char help_exit_session[] =
	"Exit status: 0 when the session ended (shutdown or EOF); 125 when an\n"
	"option or the policy is refused (before any request is read), or with\n"
	"--server when the server gives no sandbox (at the start, or for a later\n"
	"request, which is answered SandboxError first).\n";

static const char help_exit_check[] =
	"Exit status: 0 when the policy can run on this host; 125 when it\n"
	"cannot, or the policy is invalid (the reason on stderr).\n";

/* A command's own text, after its Usage lines (cli-table.c's row) and
 * before its options, and its exit status, which ends its help. */
struct help_page {
	const char *text;
	const char *exit_status;
	const char *after; /* after the options, before the exit status, or NULL */
};

/* A number in the text; clang-format is off around those lines, as it
 * cannot lay out a macro between string literals. */
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x)

static const struct help_page help_pages[TC_VERB_HELP + 1] = {
	[TC_VERB_RUN] = { "Run PROGRAM in a new sandbox as if it were run directly: its stdin,\n"
			  "stdout and stderr are relayed (stdout and stderr with size caps) and its\n"
			  "exit status is toolcell's. PROGRAM is looked up inside the sandbox (the\n"
			  "rootfs), not on the host. The first argument that is not an option, or\n"
			  "whatever follows \"--\", is PROGRAM; everything after it goes to PROGRAM\n"
			  "untouched. toolcell prints nothing of its own on stdout.\n"
			  "\n",
			  help_exit_relay },
	[TC_VERB_PYTHON] = { "A drop-in for python3: 'toolcell python SCRIPT.py ARGS' behaves as\n"
			     "'python3 SCRIPT.py ARGS' would, inside the sandbox, with the same\n"
			     "output and exit codes (a missing script is python's own message and exit\n"
			     "2). toolcell's options come first; the first argument that is not one of\n"
			     "them (SCRIPT.py, -c, -m, -u, -, --version, ...), or whatever follows\n"
			     "\"--\", starts python3's command line, passed on untouched. With nothing\n"
			     "after the options, python3 reads its program from stdin.\n"
			     "  toolcell python --help      this text\n"
			     "  toolcell python -h          python3's help (so is: -- --help)\n"
			     "  toolcell python --version   python3's version ('toolcell version' for\n"
			     "                              toolcell's)\n"
			     "A mistyped toolcell option (--memroy) is refused, not given to python3.\n"
			     "\n"
			     "The script (the first python3 argument that names a file; none with -c,\n"
			     "-m or -) is seen through a bind that already covers it, else bound\n"
			     "read-only at its absolute path (its folder with --script-dir). A path\n"
			     "with a symbolic link in it, or inside /usr, /etc or the sandbox's own\n"
			     "/tmp itself, is refused (exit 125). The working directory stays the\n"
			     "caller's when it lies inside a bound path (see below).\n"
			     "PYTHONPYCACHEPREFIX points into /tmp, so bytecode never lands next to\n"
			     "the script and -m py_compile works on a read-only bind. toolcell prints\n"
			     "nothing of its own on stdout.\n"
			     "\n",
			     help_exit_relay },
	/* clang-format off */
	[TC_VERB_CALL] = { 		"Run the Python tool TOOL.py once on one JSON request and print one JSON\n"
		"envelope on stdout. Nothing follows TOOL.py: the request comes on stdin.\n"
		"\n"
		"The request: exactly one JSON value, at most the --request-size limit in\n"
		"bytes, nested at most " CLI_STR(TC_JSON_DEPTH_MAX) " deep, valid UTF-8, no duplicate keys; anything\n"
		"else is refused before a sandbox is built.\n"
		"\n"
		"The tool: if TOOL.py defines a top-level run(args), or else default(args)\n"
		"(found by reading its source, not by importing it), it is imported and\n"
		"that function is called with the request; a return value that is not\n"
		"already {\"ok\": ...} becomes \"data\", an exception becomes an error\n"
		"named by its Python type with its message, and a stray print() goes to\n"
		"stderr. Otherwise TOOL.py runs as a script that reads the request on\n"
		"stdin and prints one JSON document. A SyntaxError in TOOL.py is an\n"
		"error of type SyntaxError whose message names the line.\n"
		"\n"
		"The envelope, always exactly one JSON document:\n"
		"  {\"ok\": true, \"data\": ..., \"meta\": {...}}\n"
		"  {\"ok\": false, \"error\": {\"type\": \"...\", \"message\": \"...\",\n"
		"   \"source\": \"tool\" or \"toolcell\"}, \"meta\": {...}}\n"
		"toolcell builds \"meta\" (a subset of the record) and every \"source\":\n"
		"\"toolcell\" error (BadRequest, Timeout, MemoryLimit, OutputLimit,\n"
		"InvalidResponse, SyscallDenied, SandboxError) from its own observations;\n"
		"whatever the tool claims is \"source\": \"tool\". The tool's response is\n"
		"held to the request's limits, and \"data\" is passed on byte for byte.\n"
		"\n",
		help_exit_call },
	/* clang-format on */
	[TC_VERB_SESSION] = { "One long-lived sandbox for an agent: Python state (variables,\n"
			      "functions, classes, imports) lives from one request to the next. One\n"
			      "JSON object per line on stdin, one answer per line on stdout, in order:\n"
			      "  {\"id\": ID, \"code\": \"...\", \"globals\": {...}, \"return_globals\":\n"
			      "   [\"name\"], \"timeout_s\": S, \"input_files\": {\"name\": \"BASE64\"},\n"
			      "   \"output_files\": [\"name\"]}   run code (only \"code\" is needed)\n"
			      "  {\"id\": ID, \"op\": \"reset\"}     a fresh sandbox, state cleared\n"
			      "  {\"id\": ID, \"op\": \"shutdown\"}  end the session (so does EOF)\n"
			      "An answer: {\"id\", \"success\", \"stdout\", \"stderr\", \"globals\",\n"
			      "\"exception\": {\"type\", \"message\", \"traceback\"} or null,\n"
			      "\"output_files\": {\"name\": \"BASE64\" or null}, \"timed_out\",\n"
			      "\"duration_s\", \"state_lost\"}. toolcell, not the code, sets \"id\" (the\n"
			      "request's, byte for byte), \"timed_out\", \"duration_s\" and\n"
			      "\"state_lost\", and passes on only the answer to the request it sent.\n"
			      "\n"
			      "--timeout is each request's limit (\"timeout_s\" may lower it). A\n"
			      "request past it ends the sandbox: the answer says \"timed_out\": true and\n"
			      "the next request runs in a fresh sandbox with \"state_lost\": true (so\n"
			      "after a memory limit or any other end). The other limits hold for the\n"
			      "whole session; the sandbox itself ends after 24 hours. Files are read\n"
			      "and written in the working directory (/workspace, else /tmp). Imports:\n"
			      "only the policy's session.allowed_imports and --allow-import (none by\n"
			      "default); session.default_imports and --default-import are imported\n"
			      "before the first request, and one that fails (ModuleNotFoundError)\n"
			      "answers every request with that exception. A \"timeout_s\" above\n"
			      "--timeout runs with --timeout, and the answer says\n"
			      "\"timeout_clamped_to\": SECONDS. A bad\n"
			      "request is answered with exception type \"BadRequest\"; toolcell's own\n"
			      "types: Timeout, MemoryLimit, PidsLimit, OutputLimit, SyscallDenied,\n"
			      "SandboxExited, SandboxError, InvalidResponse.\n"
			      "\n",
			      help_exit_session },
	[TC_VERB_CHECK] = { "Report what isolation this host can give (namespaces, seccomp,\n"
			    "landlock, cgroup v2 delegation), one line each; whether the host\n"
			    "meets the policy's \"require\" (cgroup v2, a Landlock ABI); then run\n"
			    "python3 in a real sandbox under the policy, and give a verdict.\n"
			    "\n",
			    help_exit_check },
	[TC_VERB_POLICY_CHECK] = { "Validate the policy FILE (unknown keys, wrong types and out-of-range\n"
				   "values are refused) and print the effective policy, every default\n"
				   "filled in, as JSON on stdout: itself a policy file that means the\n"
				   "same. Its \"seccomp\" lists every system call the tool may make\n"
				   "(\"allow\") and every one that ends it (\"kill\"). Each dangerous call\n"
				   "the policy allows (one toolcell's default kills for) gets a warning\n"
				   "line on stderr. The schema: policies/README.md.\n"
				   "\n",
				   "Exit status: 0 when the policy is valid, warnings or not; 125 when\n"
				   "it is not (the reason, naming the key, on stderr).\n" },
	[TC_VERB_SERVE] = { "Answer `call` and `exec` requests (JSON lines) on a UNIX socket from a\n"
			    "pool of warm, single-use sandboxes: each is built, its Python started and\n"
			    "the policy's serve.preimport modules imported before any request; it runs\n"
			    "exactly one call and ends with its PID namespace. Who may connect: the\n"
			    "server's own uid, or, when the policy has serve.allow_uids or\n"
			    "serve.allow_gids, exactly the uids and gids they list (SO_PEERCRED; a\n"
			    "gid matches the caller's primary or any supplementary group); each\n"
			    "caller uid has its own pool. Runs in the foreground;\n"
			    "READY=1 goes to $NOTIFY_SOCKET once the pool is warm. SIGTERM or SIGINT:\n"
			    "no new calls, running ones finish within their limits. SIGHUP: the policy\n"
			    "and its rootfs are read again and the warm entries replaced (a policy that\n"
			    "does not load keeps the old one, and stderr says why). A session\n"
			    "(toolcell session --server) holds its entry while it lives: at most\n"
			    "--max-sessions are open at once and serve.sessions_per_uid (default 4)\n"
			    "for one caller uid (beyond: Busy); one without a byte either way for\n"
			    "serve.session_idle_s (default 1800; at least its request timeout) ends.\n"
			    "\n",
			    .after =
				    "The protocol (README \"toolcell serve\"): one JSON object per line, e.g.\n"
				    "  {\"id\":1,\"kind\":\"call\",\"source\":\"def run(a): ...\",\"args\":{...}}\n"
				    "answered by one line with the same id. Client: toolcell call --server PATH.\n"
				    "\n",
			    .exit_status =
				    "Exit status: 0 after a drain, 125 when the server cannot start.\n" },
	[TC_VERB_ROOTFS_BUILD] = { "Build (or rebuild) a read-only Python rootfs from this host's installed\n"
				   "Debian packages: Debian's python3.11, its standard library and the shared\n"
				   "libraries they need, plus the --with packages, the python3-* packages\n"
				   "they depend on and their libraries. No shell and no other program is\n"
				   "added. The new tree is built beside the old one and switched in with one\n"
				   "rename(2); a running sandbox keeps the tree it started with, which is\n"
				   "removed once no run holds it. Nothing is rebuilt when nothing changed.\n"
				   "\n",
				   .after =
					   "The tree records the Debian package and version of every file it copied\n"
					   "(usr/lib/toolcell/packages.txt, and an SPDX 2.3 SBOM in sbom.spdx.json);\n"
					   "'toolcell check' warns when the host has changed one of them since.\n"
					   "\n",
				   .exit_status =
					   "Exit status: the builder's (0 built or up to date, 1 refused), 125 for a\n"
					   "bad command line or a builder that cannot be started.\n" },
	[TC_VERB_VERSION] = { "Print toolcell's version on stdout. With --paths, print instead where\n"
			      "this toolcell finds its own files, one \"NAME PATH\" line each (with\n"
			      "NAME, only that path; with --json, one JSON object):\n"
			      "  libexec   the rootfs builder, toolcell-utils, the front ends\n"
			      "  policies  the shipped policies\n"
			      "  site      the site folder: toolcell.conf and the site's policies\n"
			      "  state     where 'toolcell rootfs build' puts its trees\n"
			      "  rootfs    the default rootfs (TOOLCELL_ROOTFS's, when set)\n"
			      "Scripts ask for these instead of knowing the install layout.\n"
			      "\n",
			      "Exit status: 0; 125 for an unknown NAME or argument.\n" },
	[TC_VERB_HELP] = { "Print the overview, or the help of COMMAND, on stdout. COMMAND:\n",
			   "Exit status: 0; 125 for a COMMAND toolcell does not have.\n" },
};

/* The options of a command that runs a sandbox (with its limits and
 * variables) or of check (with its variables). */
static void help_options_part(struct help_buf *b, enum tc_verb verb)
{
	if (verb == TC_VERB_CHECK) {
		hb_printf(b, "Options:\n");
		help_opt_rows(b, TC_VERB_CHECK);
		hb_printf(b, "\n");
		help_env(b, TC_VERB_CHECK);
		return;
	}
	help_env(b, verb);
	help_options(b, verb);
	hb_printf(b, "\n");
}

/* The options of a command with a command line of its own. */
static void help_subopts(struct help_buf *b, const struct tc_cli_verb *row)
{
	char left[64];

	hb_printf(b, "Options:\n");
	for (size_t i = 0; i < *row->n_subopts; i++) {
		const struct tc_cli_subopt *o = &row->subopts[i];
		char desc[512];

		snprintf(left, sizeof(left), "%s%s%s%s%s", o->name, o->metavar ? " " : "",
			 o->optional ? "[" : "", o->metavar ? o->metavar : "",
			 o->optional ? "]" : "");
		if (o->max)
			snprintf(desc, sizeof(desc), "%s\n%s from 1 to %u", o->desc, o->metavar,
				 o->max);
		else
			snprintf(desc, sizeof(desc), "%s", o->desc);
		hb_opt(b, left, desc);
	}
	hb_opt(b, "-h, --help", "this text");
	hb_printf(b, "\n");
}

/* Usage, the command's text, its options, its exit status. */
static void help_build(struct help_buf *b, enum tc_verb verb)
{
	const struct tc_cli_verb *row = tc_cli_verb_row(verb);
	const struct help_page *page = &help_pages[verb];

	if (!row) {
		help_overview(b);
		return;
	}
	help_usage(b, verb, "Usage: toolcell ", "       toolcell ");
	hb_printf(b, "\n%s", page->text);
	if (verb == TC_VERB_HELP) {
		hb_wrap(b, "  ", 2, tc_cli_verb_list());
		hb_printf(b, "\n");
	}
	if (row->subopts)
		help_subopts(b, row);
	else if ((VB_SANDBOX | VB(TC_VERB_CHECK)) & VB(verb))
		help_options_part(b, verb);
	else
		hb_printf(b, "Options:\n  -h, --help              this text\n\n");
	if (page->after)
		hb_printf(b, "%s", page->after);
	hb_printf(b, "%s", page->exit_status);
}

const char *tc_cli_help(enum tc_verb verb)
{
	static char bufs[TC_VERB_HELP + 1][HELP_MAX];
	struct help_buf b;

	if ((unsigned)verb > TC_VERB_HELP)
		verb = TC_VERB_NONE;
	if (!bufs[verb][0]) {
		b = (struct help_buf){ bufs[verb], 0, HELP_MAX };
		help_build(&b, verb);
	}
	return bufs[verb];
}

const char *tc_cli_exit_status(enum tc_verb verb)
{
	if ((unsigned)verb > TC_VERB_HELP || verb == TC_VERB_NONE)
		return "";
	return help_pages[verb].exit_status;
}
