/* The command line's tables (see cli-internal.h): every option with its
 * description and TOOLCELL_* variable, each limit's description and
 * variable, and the commands with their synopsis and summary. The parser
 * (cli.c, cli-opts.c), --help (cli-help.c) and the generated man page and
 * completion (tools/docgen.c) all read them. Pure data. */
#include <stddef.h>

#include "cli.h"
#include "rootfs.h"
#include "serve.h"
#include "verb.h"
#include "util.h"

#include "cli-internal.h"

/* A number in a description; clang-format is off around those lines, as
 * it cannot lay out a macro between string literals. */
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x)

/* where a path option's value goes */
#define SLOT(member) .slot = offsetof(struct tc_cli, member)

const struct tc_cli_opt tc_cli_opts[] = {
	{ "--policy", "FILE", OPT_POLICY, VB_SANDBOX | VB(TC_VERB_CHECK),
	  .desc = "the policy: defaults and ceilings for every\n"
		  "setting. A path, or a name (production) found as\n"
		  "NAME.json in /etc/toolcell/policies, then among the\n"
		  "shipped ones (default: default.json, the same way)",
	  .check_desc = "the policy to check (default: the installed\n"
			"default.json)",
	  .env = "TOOLCELL_POLICY", SLOT(policy_path) },
	{ "--rootfs", "DIR", OPT_ROOTFS, VB_SANDBOX,
	  .desc = "the read-only root filesystem to run in: a variant's\n"
		  "NAME or a DIR the policy's allow.rootfs lists, made\n"
		  "by 'toolcell rootfs build' (default: the policy's)",
	  .env = "TOOLCELL_ROOTFS", SLOT(overrides.rootfs) },
	{ "--cgroup-parent", "DIR", OPT_CGROUP_PARENT, VB_SANDBOX | VB(TC_VERB_CHECK),
	  .desc = "a cgroup v2 directory delegated to the caller;\n"
		  "each run gets a leaf under it with memory, pids\n"
		  "and cpu limits. Where allow.cgroup_parent says so,\n"
		  "at or below the policy's cgroup_parent (default:\n"
		  "that, else the parent of toolcell's own cgroup\n"
		  "when delegated, else rlimits)",
	  .check_desc = "the delegated cgroup v2 directory to check\n"
			"(default: as for run)",
	  .env = "TOOLCELL_CGROUP_PARENT", SLOT(overrides.cgroup_parent) },
	{ "--ro-bind", "HOST[:INSIDE]", OPT_RO_BIND, VB_SANDBOX,
	  .desc = "show the host path HOST read-only at INSIDE (default:\n"
		  "the same path); both absolute. Split at the last\n"
		  "':' only when '/' follows it: /a:b:/c binds '/a:b'\n"
		  "at '/c', /a:b binds '/a:b' at '/a:b'. Opened with\n"
		  "the caller's rights (as root the caller's files\n"
		  "appear as the tool's); a source holding a socket\n"
		  "or another mount is refused. Repeatable",
	  .env = "TOOLCELL_RO_BIND", .env_value = "HOST[:INSIDE],...",
	  .env_note = ", comma-separated" },
	{ "--bind", "HOST[:INSIDE]", OPT_BIND, VB_SANDBOX,
	  /* clang-format off */
	  .desc = "the same, writable and live (see LIVE BINDS; prefer\n"
		  "--workspace). Repeatable. At most " CLI_STR(TC_MAX_BINDS) " binds in all\n"
		  "(--ro-bind and --bind together)",
	  /* clang-format on */
	  .env = "TOOLCELL_BIND", .env_value = "HOST[:INSIDE],...",
	  .env_note = ", comma-separated" },
	{ "--workspace", "DIR[:INSIDE]", OPT_WORKSPACE, VB_SANDBOX,
	  .desc = "an absolute host directory, mounted writable at\n"
		  "INSIDE (default /workspace; see \"Working\n"
		  "directory\" below). The tool writes into a layer\n"
		  "(--workspace-size, --workspace-files); regular\n"
		  "files, folders and deletions reach DIR, as the\n"
		  "caller, when the run ends. Not /tmp, /var/tmp or\n"
		  "another shared system folder",
	  .env = "TOOLCELL_WORKSPACE" },
	{ "--env", "NAME=VALUE", OPT_ENV, VB_SANDBOX,
	  .desc = "set NAME in the tool's environment, which is\n"
		  "otherwise only what the policy sets. Repeatable" },
	{ "--pass-env", "NAME", OPT_PASS_ENV, VB_SANDBOX,
	  .desc = "pass toolcell's own NAME on to the tool (TOOLCELL_*\n"
		  /* clang-format off */
		  "variables never pass). Repeatable. At most " CLI_STR(TC_MAX_ENV) "\n"
		  "--env and --pass-env together",
	  /* clang-format on */
	  .env = "TOOLCELL_PASS_ENV", .env_value = "NAME,...", .env_note = ", comma-separated" },
	{ "--result", "FILE", OPT_RESULT, VB_RECORD,
	  .desc = "write the result record to FILE (see below)", .env = "TOOLCELL_RESULT",
	  .env_note = " (unless --result-fd is given)", SLOT(result_path) },
	{ "--result-fd", "N", OPT_RESULT_FD, VB_RECORD,
	  .desc = "write the result record to descriptor N, 3 or\n"
		  "above, inherited open; not with --result" },
	{ "--quiet", NULL, OPT_QUIET, VB_SANDBOX,
	  .desc = "no stderr notice of the limit that ended the tool;\n"
		  "why toolcell itself failed is still printed" },
	{ "--verbose", NULL, OPT_VERBOSE, VB_SANDBOX,
	  .desc = "print on stderr the time each set-up stage took" },
	{ "--script-dir", NULL, OPT_SCRIPT_DIR, VB(TC_VERB_PYTHON),
	  .desc = "also bind the script's folder read-only, at its\n"
		  "absolute path",
	  .env = "TOOLCELL_SCRIPT_DIR", .env_value = "1", .env_note = " (0: off)" },
	{ "--allow-import", "MODULE", OPT_ALLOW_IMPORT, VB(TC_VERB_SESSION),
	  .desc = "let the code import MODULE (and what is below it:\n"
		  "matplotlib.pyplot allows matplotlib.pyplot.*),\n"
		  "besides the policy's session.allowed_imports; only\n"
		  "within session.max_imports. Repeatable" },
	{ "--default-import", "ALIAS=MODULE", OPT_DEFAULT_IMPORT, VB(TC_VERB_SESSION),
	  .desc = "import MODULE as ALIAS before the first request\n"
		  "(np=numpy); within session.max_imports. Repeatable" },
	{ "--server", "SOCKET", OPT_SERVER,
	  VB(TC_VERB_CALL) | VB(TC_VERB_PYTHON) | VB(TC_VERB_SESSION),
	  .desc = "send the tool's or script's source (and the\n"
		  "request, or stdin and ARGS) to the 'toolcell\n"
		  "serve' listening on SOCKET and give its answer as\n"
		  "this verb would; session: start each sandbox from\n"
		  "a warm entry of that server (SOCKET may be left\n"
		  "out: the default socket). The server's policy\n"
		  "applies, and only the limits --timeout, --memory,\n"
		  "--cpu-time, --file-size, --open-files,\n"
		  "--stdout-size and --stderr-size may be given, each\n"
		  "only lowering the server's (a higher one is\n"
		  "clamped to it)" },
	{ "--help", NULL, OPT_HELP, VB_SANDBOX | VB(TC_VERB_CHECK), .desc = "this text" },
};

const size_t tc_cli_n_opts = TC_ARRAY_SIZE(tc_cli_opts);

/* What each limit bounds; lines of at most 80 - 26 columns. */
const struct tc_cli_limit tc_cli_limits[TC_LIMIT__MAX] = {
	[TC_LIMIT_MEMORY] = { "TOOLCELL_MEMORY",
			      "memory of the whole sandbox: memory.max with cgroup\n"
			      "v2, else each process's address-space rlimit\n"
			      "(approximate: the record says which)" },
	[TC_LIMIT_CPUS] = { "TOOLCELL_CPUS", "CPUs, fractional (cpu.max); needs cgroup v2, else\n"
					     "not enforced and the record says \"none\"" },
	[TC_LIMIT_PIDS] = { "TOOLCELL_PIDS", "processes and threads, together" },
	[TC_LIMIT_WALL] = { "TOOLCELL_TIMEOUT",
			    "wall-clock time; then the sandbox is killed and\n"
			    "toolcell exits 124 (status \"timeout\"); the\n"
			    "sandbox's init kills it 1 s later if toolcell cannot" },
	[TC_LIMIT_CPU_TIME] = { NULL, "CPU time of each process (RLIMIT_CPU, whole\n"
				      "seconds); then SIGXCPU ends it, exit 124" },
	[TC_LIMIT_TMP] = { NULL, "size of the private /tmp" },
	[TC_LIMIT_TMP_INODES] = { NULL, "number of files in the private /tmp" },
	[TC_LIMIT_SHM] = { NULL, "size of the private /dev/shm" },
	[TC_LIMIT_FILE_SIZE] = { NULL, "largest file the tool may write (RLIMIT_FSIZE)" },
	[TC_LIMIT_OPEN_FILES] = { NULL, "open descriptors per process (RLIMIT_NOFILE)" },
	[TC_LIMIT_REQUEST] = { NULL, "bytes of a call request, and of the tool's\n"
				     "response" },
	[TC_LIMIT_STDOUT] = { NULL, "bytes of stdout; one more ends the tool (status\n"
				    "\"output_limit\"), what came before is delivered" },
	[TC_LIMIT_STDERR] = { NULL, "bytes of stderr; one more ends the tool (status\n"
				    "\"output_limit\", stderr_truncated), what came\n"
				    "before is delivered" },
	[TC_LIMIT_WORKSPACE] = { NULL, "bytes the tool may write into the workspace\n"
				       "(its layer); then ENOSPC" },
	[TC_LIMIT_WORKSPACE_FILES] = { NULL, "files and folders the tool may make in the\n"
					     "workspace; then ENOSPC" },
};

/* In the overview's order. A synopsis line is read after "toolcell ". */
const struct tc_cli_verb tc_cli_verbs[] = {
	{ TC_VERB_RUN, "run", "run", .usage = "run [OPTIONS] [--] PROGRAM [ARGS...]",
	  .summary = "run PROGRAM in the sandbox, relaying its stdio" },
	{ TC_VERB_PYTHON, "python", "python", .usage = "python [OPTIONS] [--] [PYTHON3-ARGS...]",
	  .summary = "a drop-in for python3: same command line, output and\n"
		     "exit codes, inside the sandbox" },
	{ TC_VERB_CALL, "call", "call", .usage = "call [OPTIONS] [--] TOOL.py < request.json",
	  .summary = "one JSON request on stdin, one JSON envelope on stdout" },
	{ TC_VERB_SESSION, "session", "session", .usage = "session [OPTIONS] < requests.jsonl",
	  .summary = "one long-lived sandbox with Python state; JSON lines\n"
		     "in, JSON lines out" },
	{ TC_VERB_CHECK, "check", "check", .usage = "check [OPTIONS]",
	  .summary = "what isolation this host can give; exit 0 if the\n"
		     "policy can run here, 125 if not" },
	{ TC_VERB_POLICY_CHECK, "policy", "policy check", .usage = "policy check FILE",
	  .summary = "validate a policy file, print the effective policy as\n"
		     "JSON" },
	{ TC_VERB_SERVE, "serve", "serve", .usage = "serve [OPTIONS]",
	  .summary = "answer call and exec requests on a UNIX socket from a\n"
		     "pool of warm, single-use sandboxes",
	  .subopts = tc_serve_opts, .n_subopts = &tc_serve_n_opts },
	{ TC_VERB_ROOTFS_BUILD, "rootfs", "rootfs build", .usage = "rootfs build [OPTIONS]",
	  .summary = "build or update a rootfs from this host's Debian\n"
		     "packages, switched in with one rename(2)",
	  .subopts = tc_rootfs_build_opts, .n_subopts = &tc_rootfs_build_n_opts },
	{ TC_VERB_VERSION, "version", "version",
	  .usage = "version [--paths [NAME | --json]]\n--version",
	  .summary = "print toolcell's version, or (--paths) where it finds\n"
		     "its own files",
	  .subopts = tc_version_opts, .n_subopts = &tc_version_n_opts },
	{ TC_VERB_HELP, "help", "help", .usage = "help [COMMAND]\n--help | -h\nCOMMAND --help",
	  .summary = "print the overview, or a command's help: toolcell help COMMAND" },
};

const size_t tc_cli_n_verbs = TC_ARRAY_SIZE(tc_cli_verbs);
/* every command but TC_VERB_NONE has its row (test_cli: exactly one each) */
_Static_assert(sizeof(tc_cli_verbs) / sizeof(tc_cli_verbs[0]) == TC_VERB_HELP,
	       "a command of enum tc_verb has no row in tc_cli_verbs");
