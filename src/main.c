/* toolcell's binary: fds 0-2 and SIGPIPE made safe, the command line
 * parsed, one verb dispatched, and its end turned into toolcell's own: an
 * exit status, or the tool's death by the same signal. The only file that
 * calls exit(); every verb and every rule lives in the core library
 * (verb.h and the files it names). */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rootfs.h"
#include "serve.h"
#include "session.h"
#include "verb.h"

extern char **environ;

/* The binary's folder: defaults are found next to it (build tree or prefix). */
static void find_exe_dir(char dir[PATH_MAX])
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0) {
		strcpy(dir, ".");
		return;
	}
	buf[n] = '\0';
	snprintf(dir, PATH_MAX, "%s", dirname(buf));
}

/* End by signal sig as the tool did, so a shell sees 128+N and Python's
 * subprocess -N, exactly as with the bare program. */
_Noreturn static void end_like(int sig)
{
	struct rlimit none = { 0, 0 };
	sigset_t s;

	/* the sandbox's init is reaped before we go (exit() would see to it) */
	tc_sandbox_reap_deferred();
	/* no core file of toolcell's own, then the same death as the tool */
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	kill(getpid(), sig);
	exit(128 + sig); /* a signal that does not end a process */
}

/* The verbs that run a sandbox: they get a run id (and an audit line). */
static bool runs_sandbox(enum tc_verb verb)
{
	return verb == TC_VERB_RUN || verb == TC_VERB_PYTHON || verb == TC_VERB_CALL ||
	       verb == TC_VERB_SESSION;
}

/* The verbs that are the library's (verb.h), by their enum value. */
static int (*const verbs[])(struct tc_invocation *) = {
	[TC_VERB_RUN] = tc_verb_run,	 [TC_VERB_PYTHON] = tc_verb_python,
	[TC_VERB_CALL] = tc_verb_call,	 [TC_VERB_SESSION] = tc_verb_session,
	[TC_VERB_CHECK] = tc_verb_check, [TC_VERB_POLICY_CHECK] = tc_verb_policy_check,
};

static int dispatch(struct tc_invocation *v)
{
	switch (v->cli.verb) {
	case TC_VERB_NONE:
		fputs(tc_cli_help(TC_VERB_NONE), stderr);
		return TC_EXIT_TOOLCELL;
	case TC_VERB_HELP:
		fputs(tc_cli_help(v->cli.help_verb), stdout);
		return 0;
	case TC_VERB_VERSION:
		return tc_verb_version(v);
	case TC_VERB_RUN:
	case TC_VERB_PYTHON:
	case TC_VERB_CALL:
	case TC_VERB_SESSION:
	case TC_VERB_CHECK:
	case TC_VERB_POLICY_CHECK:
		return verbs[v->cli.verb](v);
	/* these two read their own command lines: the whole of argv */
	case TC_VERB_SERVE:
		return tc_verb_serve(v, v->cli.argc, v->cli.argv);
	case TC_VERB_ROOTFS_BUILD:
		return tc_rootfs_build_main(v->cli.argc, v->cli.argv, v->exe_dir);
	}
	return TC_EXIT_TOOLCELL;
}

int main(int argc, char **argv)
{
	/* static: struct tc_outcome is large, and the verb lives until exit;
	 * zero-initialised, so that it is in .bss and its untouched pages are
	 * never mapped (with an initializer its 85 KB went into .data, each
	 * page written a copy-on-write fault from the file) */
	static struct tc_invocation v;
	static char exe_dir[PATH_MAX];
	struct tc_error e = { 0 };
	int code;

	v.rootfs_lock = -1;
	v.result_fd = -1;

	/* a closed reader of ours must not kill us before the record */
	signal(SIGPIPE, SIG_IGN);
	/* started with 0, 1 or 2 closed, the next open (a pipe, the record)
	 * would take its place and the tool's output would land there */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return TC_EXIT_TOOLCELL;
	if (tc_cli_parse(argc, argv, environ, &v.cli, &e) < 0)
		exit(tc_verb_fail(&v, &e));
	/* call and python --server: a warm pool answers, no sandbox of our own
	 * (nor any file of toolcell's: these come before find_exe_dir) */
	if (v.cli.verb == TC_VERB_CALL && v.cli.server)
		exit(tc_serve_client_call(&v.cli, TC_SERVE_CLIENT_MAX));
	if (v.cli.verb == TC_VERB_SESSION && v.cli.server)
		exit(tc_session_client(&v.cli));
	if (v.cli.verb == TC_VERB_PYTHON && v.cli.server) {
		code = tc_serve_client_python(&v.cli, TC_SERVE_CLIENT_MAX, &v.end_signal);
		if (v.end_signal)
			end_like(v.end_signal);
		exit(code);
	}
	find_exe_dir(exe_dir);
	v.exe_dir = exe_dir;
	/* fail closed: a run without an id would leave no trace */
	if (runs_sandbox(v.cli.verb) && tc_run_begin(&v.run, tc_cli_verb_name(v.cli.verb), &e) < 0)
		exit(tc_verb_fail(&v, &e));
	code = dispatch(&v);
	fflush(stdout);
	if (v.end_signal)
		end_like(v.end_signal);
	exit(code);
}
