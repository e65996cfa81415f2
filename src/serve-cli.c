/* `toolcell serve`'s command line (see serve.h): its options in one table
 * that the parser, --help (cli-help.c), toolcell(1) and the bash completion
 * (tools/docgen.c) all read, and the default socket's path. Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"
#include "util.h"

#include "cli-internal.h"

enum {
	SO_SOCKET,
	SO_POOL,
	SO_MAX_SANDBOXES,
	SO_QUEUE,
	SO_MAX_CONNECTIONS,
	SO_MAX_SESSIONS,
	SO_POLICY,
};

const struct tc_cli_subopt tc_serve_opts[] = {
	[SO_SOCKET] = { "--socket", "PATH",
			"listen on PATH (mode 0660; default:\n"
			"/run/toolcell/toolcell.sock for root, else\n"
			"$XDG_RUNTIME_DIR/toolcell.sock); a socket\n"
			"passed by systemd (LISTEN_FDS) comes first",
			0 },
	[SO_POOL] = { "--pool", "N", "keep N warm entries ready per caller (default 2)",
		      TC_SERVE_POOL_MAX },
	[SO_MAX_SANDBOXES] = { "--max-sandboxes", "N",
			       "at most N sandboxes at once, warm or busy\n"
			       "(default 16)",
			       TC_SERVE_SANDBOXES_MAX },
	[SO_QUEUE] = { "--queue", "N",
		       "at most N calls wait for an entry; one more is\n"
		       "answered Busy at once (default 64)",
		       TC_SERVE_QUEUE_MAX },
	[SO_MAX_CONNECTIONS] = { "--max-connections", "N",
				 "at most N callers connected at once; one more\n"
				 "is answered Busy and closed (default 64)",
				 TC_SERVE_CONNS_MAX },
	[SO_MAX_SESSIONS] = { "--max-sessions", "N",
			      "at most N sessions open at once, waiting or\n"
			      "running; one more is answered Busy (default:\n"
			      "half of --max-sandboxes, at least 1)",
			      TC_SERVE_SANDBOXES_MAX },
	[SO_POLICY] = { "--policy", "FILE", "the policy for every call (default: default.json)",
			0 },
};

const size_t tc_serve_n_opts = TC_ARRAY_SIZE(tc_serve_opts);

static int number(const char *name, const char *v, unsigned max, unsigned *ret,
		  struct tc_error *err)
{
	char *end = NULL;
	unsigned long n;

	errno = 0;
	n = v ? strtoul(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || n < 1 || n > max || v[0] == '-' || v[0] == '+')
		return tc_error_set(err, TC_STAGE_CLI, EINVAL,
				    "serve: %s expects a number from 1 to %u", name, max);
	*ret = (unsigned)n;
	return 0;
}

static int apply(size_t id, const char *v, struct tc_serve_options *o, struct tc_error *err)
{
	switch (id) {
	case SO_SOCKET:
		if (!v || v[0] != '/')
			return tc_error_set(err, TC_STAGE_CLI, EINVAL,
					    "serve: --socket expects an absolute path");
		o->socket_path = v;
		return 0;
	case SO_POOL:
		return number("--pool", v, tc_serve_opts[id].max, &o->pool, err);
	case SO_MAX_SANDBOXES:
		return number("--max-sandboxes", v, tc_serve_opts[id].max, &o->max_sandboxes, err);
	case SO_QUEUE:
		return number("--queue", v, tc_serve_opts[id].max, &o->queue, err);
	case SO_MAX_CONNECTIONS:
		return number("--max-connections", v, tc_serve_opts[id].max, &o->max_connections,
			      err);
	case SO_MAX_SESSIONS:
		return number("--max-sessions", v, tc_serve_opts[id].max, &o->max_sessions, err);
	case SO_POLICY:
		if (!v || !*v)
			return tc_error_set(err, TC_STAGE_CLI, EINVAL,
					    "serve: --policy expects a file");
		o->policy_path = v;
		return 0;
	}
	return 0;
}

int tc_serve_cli_parse(int argc, char **argv, struct tc_serve_options *ret, bool *ret_help,
		       struct tc_error *err)
{
	*ret = (struct tc_serve_options){
		.pool = 2, .max_sandboxes = 16, .queue = 64, .max_connections = 64
	};
	*ret_help = false;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *v;
		size_t len = eq ? (size_t)(eq - a) : strlen(a), id = 0;
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			*ret_help = true;
			return 0;
		}
		while (id < tc_serve_n_opts && (strlen(tc_serve_opts[id].name) != len ||
						strncmp(a, tc_serve_opts[id].name, len)))
			id++;
		if (id == tc_serve_n_opts && a[0] != '-')
			return tc_error_set(err, TC_STAGE_CLI, EINVAL,
					    "serve: unexpected argument '%.64s'; serve takes only "
					    "options (see 'toolcell serve --help')",
					    a);
		if (id == tc_serve_n_opts)
			return tc_cli_unknown_option(err, TC_VERB_SERVE, a);
		v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		r = apply(id, v, ret, err);
		if (r < 0)
			return r;
	}
	if (ret->pool > ret->max_sandboxes)
		return tc_error_set(err, TC_STAGE_CLI, EINVAL,
				    "serve: --pool %u is above --max-sandboxes %u", ret->pool,
				    ret->max_sandboxes);
	if (ret->max_sessions > ret->max_sandboxes)
		return tc_error_set(err, TC_STAGE_CLI, EINVAL,
				    "serve: --max-sessions %u is above --max-sandboxes %u",
				    ret->max_sessions, ret->max_sandboxes);
	/* sessions hold their entries for long: calls keep the other half */
	if (!ret->max_sessions)
		ret->max_sessions = ret->max_sandboxes / 2 ? ret->max_sandboxes / 2 : 1;
	return 0;
}

const char *tc_serve_default_socket(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (geteuid() == 0) {
		snprintf(buf, n, "/run/toolcell/toolcell.sock");
		return buf;
	}
	if (!xdg || xdg[0] != '/')
		return NULL;
	snprintf(buf, n, "%s/toolcell.sock", xdg);
	return buf;
}
