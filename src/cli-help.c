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
#define HELP_MAX 16384
#define HELP_COL 26 /* where option descriptions start */

struct help_buf {
	char *buf;
	size_t len;
};

static void hb_printf(struct help_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hb_printf(struct help_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= HELP_MAX - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, HELP_MAX - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < HELP_MAX - 1 ? b->len + (size_t)n : HELP_MAX - 1;
}

/* "  LEFT      first line of desc", further lines at HELP_COL. */
static void hb_opt(struct help_buf *b, const char *left, const char *desc)
{
	const char *line = desc, *nl;
	int width = (int)strlen(left) + 2;

	if (width > HELP_COL - 1) {
		hb_printf(b, "  %s\n", left);
		width = 0;
	} else {
		hb_printf(b, "  %s", left);
	}
	do {
		nl = strchr(line, '\n');
		hb_printf(b, "%*s%.*s\n", HELP_COL - width, "",
			  nl ? (int)(nl - line) : (int)strlen(line), line);
		width = 0;
		line = nl + 1;
	} while (nl);
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

static void help_overview(struct help_buf *b)
{
	hb_printf(b, "toolcell: run untrusted code in a sandbox with no network, no view of\n"
		     "the host, and hard limits on memory, CPU, processes, time and output.\n"
		     "\n"
		     "Usage:\n"
		     "  toolcell run    [OPTIONS] [--] PROGRAM [ARGS...]\n"
		     "  toolcell python [OPTIONS] [--] [PYTHON3-ARGS...]\n"
		     "  toolcell call   [OPTIONS] [--] TOOL.py  < request.json\n"
		     "  toolcell session [OPTIONS]  < requests.jsonl\n"
		     "  toolcell check  [--policy FILE] [--cgroup-parent DIR]\n"
		     "  toolcell policy check FILE\n"
		     "  toolcell rootfs build [--name NAME] [--with PKG,...] [--dest DIR]\n"
		     "  toolcell version            (also: toolcell --version)\n"
		     "  toolcell help [COMMAND]     (also: --help, -h, COMMAND --help)\n"
		     "\n"
		     "Commands:\n"
		     "  run           run PROGRAM in the sandbox, relaying its stdio\n"
		     "  python        a drop-in for python3: same command line, output and\n"
		     "                exit codes, inside the sandbox\n"
		     "  call          one JSON request on stdin, one JSON envelope on stdout\n"
		     "  session       one long-lived sandbox with Python state; JSON lines\n"
		     "                in, JSON lines out\n"
		     "  check         what isolation this host can give; exit 0 if the\n"
		     "                policy can run here, 125 if not\n"
		     "  policy check  validate a policy file, print the effective policy as\n"
		     "                JSON\n"
		     "  rootfs build  build or update a rootfs from this host's Debian\n"
		     "                packages (see 'toolcell rootfs build --help')\n"
		     "  version       print toolcell's version\n"
		     "  help          this text, or a command's: toolcell help COMMAND\n"
		     "\n"
		     "In run and python, toolcell prints nothing of its own on stdout, which\n"
		     "belongs to the tool; its diagnostics go to stderr, one line each,\n"
		     "prefixed \"toolcell: \".\n"
		     "\n"
		     "run, python, call and session take these options (python also\n"
		     "takes --script-dir; session takes no --result or --result-fd; see\n"
		     "'toolcell help COMMAND'):\n");
	help_options(b, TC_VERB_RUN);
	hb_printf(b,
		  "\n%s\n%s"
		  "Exit status (check, policy check, version, help): 0 on success, 125\n"
		  "otherwise; a command line toolcell cannot parse: 125.\n",
		  help_exit_relay, help_exit_call);
}

static const char help_exit_session[] =
	"Exit status: 0 when the session ended (shutdown or EOF); 125 when an\n"
	"option or the policy is refused (before any request is read).\n";

static const char help_exit_check[] =
	"Exit status: 0 when the policy can run on this host; 125 when it\n"
	"cannot, or the policy is invalid (the reason on stderr).\n";

/* A command's own text, then (for a command with options) its options,
 * variables and exit status. */
struct help_page {
	const char *text;
	const char *exit_status; /* NULL: the text says it */
};

/* A number in the text; clang-format is off around those lines, as it
 * cannot lay out a macro between string literals. */
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x)

static const struct help_page help_pages[TC_VERB_HELP + 1] = {
	[TC_VERB_RUN] = { "Usage: toolcell run [OPTIONS] [--] PROGRAM [ARGS...]\n"
			  "\n"
			  "Run PROGRAM in a new sandbox as if it were run directly: its stdin,\n"
			  "stdout and stderr are relayed (stdout and stderr with size caps) and its\n"
			  "exit status is toolcell's. PROGRAM is looked up inside the sandbox (the\n"
			  "rootfs), not on the host. The first argument that is not an option, or\n"
			  "whatever follows \"--\", is PROGRAM; everything after it goes to PROGRAM\n"
			  "untouched. toolcell prints nothing of its own on stdout.\n"
			  "\n",
			  help_exit_relay },
	[TC_VERB_PYTHON] = { "Usage: toolcell python [OPTIONS] [--] [PYTHON3-ARGS...]\n"
			     "\n"
			     "A drop-in for python3: 'toolcell python SCRIPT.py ARGS' behaves as\n"
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
	[TC_VERB_CALL] = { "Usage: toolcell call [OPTIONS] [--] TOOL.py  < request.json\n"
		"\n"
		"Run the Python tool TOOL.py once on one JSON request and print one JSON\n"
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
	[TC_VERB_SESSION] = { "Usage: toolcell session [OPTIONS] < requests.jsonl\n"
			      "\n"
			      "One long-lived sandbox for an agent: Python state (variables,\n"
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
	[TC_VERB_CHECK] = { "Usage: toolcell check [--policy FILE] [--cgroup-parent DIR]\n"
			    "\n"
			    "Report what isolation this host can give (namespaces, seccomp,\n"
			    "landlock, cgroup v2 delegation), one line each; whether the host\n"
			    "meets the policy's \"require\" (cgroup v2, a Landlock ABI); then run\n"
			    "python3 in a real sandbox under the policy, and give a verdict.\n"
			    "\n",
			    help_exit_check },
	[TC_VERB_POLICY_CHECK] = { "Usage: toolcell policy check FILE\n"
				   "\n"
				   "Validate the policy FILE (unknown keys, wrong types and out-of-range\n"
				   "values are refused) and print the effective policy, every default\n"
				   "filled in, as JSON on stdout: itself a policy file that means the\n"
				   "same. Its \"seccomp\" lists every system call the tool may make\n"
				   "(\"allow\") and every one that ends it (\"kill\"). Each dangerous call\n"
				   "the policy allows (one toolcell's default kills for) gets a warning\n"
				   "line on stderr. The schema: policies/README.md.\n"
				   "\n"
				   "Exit status: 0 when the policy is valid, warnings or not; 125 when\n"
				   "it is not (the reason, naming the key, on stderr).\n",
				   NULL },
	[TC_VERB_VERSION] = { "Usage: toolcell version\n"
			      "       toolcell --version\n"
			      "\n"
			      "Print toolcell's version on stdout. Exit status 0.\n",
			      NULL },
	[TC_VERB_HELP] = { "Usage: toolcell help [COMMAND]\n"
			   "       toolcell --help | -h\n"
			   "       toolcell COMMAND --help\n"
			   "\n"
			   "Print the overview, or the help of COMMAND (run, python, call,\n"
			   "session, check, policy check, version, help), on stdout. Exit\n"
			   "status 0.\n",
			   NULL },
};

/* The options and limits of a command that runs a sandbox (check: only its
 * options), its variables, its exit status. */
static void help_options_part(struct help_buf *b, enum tc_verb verb, const char *exit_status)
{
	if (verb == TC_VERB_CHECK) {
		hb_printf(b, "Options:\n");
		help_opt_rows(b, TC_VERB_CHECK);
		hb_printf(b, "\n");
		help_env(b, TC_VERB_CHECK);
		hb_printf(b, "%s", exit_status);
		return;
	}
	help_env(b, verb);
	help_options(b, verb);
	hb_printf(b, "\n%s", exit_status);
}

static void help_build(struct help_buf *b, enum tc_verb verb)
{
	const struct help_page *page = &help_pages[verb];

	if (verb == TC_VERB_NONE) {
		help_overview(b);
		return;
	}
	hb_printf(b, "%s", page->text);
	if (page->exit_status)
		help_options_part(b, verb, page->exit_status);
}

const char *tc_cli_help(enum tc_verb verb)
{
	static char bufs[TC_VERB_HELP + 1][HELP_MAX];
	struct help_buf b;

	if ((unsigned)verb > TC_VERB_HELP)
		verb = TC_VERB_NONE;
	if (!bufs[verb][0]) {
		b = (struct help_buf){ bufs[verb], 0 };
		help_build(&b, verb);
	}
	return bufs[verb];
}
