/* `toolcell serve`: a foreground server on a UNIX socket that answers
 * `call` and `exec` requests (JSON lines) from a warm pool of single-use
 * sandboxes. Each pool entry is a runner child of the server running one
 * whole sandbox (tc_sandbox_run) whose interpreter has already started the
 * warm harness (rootfs/serve.py) and imported the policy's modules, and
 * waits, blocked reading its stdin, for exactly one request; it is used
 * once and ends with its PID namespace. serve.c owns the socket, the
 * connections and the protocol's framing; serve-pool.c the entries;
 * serve-proto.c the pure request parser. Runs in the parent, single-
 * threaded, one poll loop. */
#ifndef TOOLCELL_SERVE_H
#define TOOLCELL_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli.h"
#include "toolcell/config.h"
#include "toolcell/error.h"

#define TC_SERVE_CLIENT_MAX    (64u << 20) /* the client's bound on a tool or request it reads */
#define TC_SERVE_ARGV_MAX      64	   /* exec: arguments after the script */
#define TC_SERVE_NAME_MAX      64	   /* the tool's file name inside (/tool/NAME) */
#define TC_SERVE_IDS_MAX       32	   /* serve.allow_uids / serve.allow_gids entries */
#define TC_SERVE_IMPORTS_MAX   32	   /* serve.preimport entries */
#define TC_SERVE_POOL_MAX      64	   /* --pool */
#define TC_SERVE_SANDBOXES_MAX 1024	   /* --max-sandboxes */
#define TC_SERVE_QUEUE_MAX     4096	   /* --queue */
#define TC_SERVE_CONNS_MAX     4096	   /* --max-connections */
#define TC_SERVE_SESSIONS_UID  4	   /* serve.sessions_per_uid's default */
#define TC_SERVE_IDLE_S	       1800	   /* serve.session_idle_s's default */
#define TC_SERVE_IDLE_S_MAX    86400	   /* its largest: a session's lifetime */

/* The bytes of unfinished request lines the server holds for all its
 * callers together: as many as 16 of the longest lines. The caller whose
 * line would pass it is answered Busy and the rest of that line skipped. */
#define TC_SERVE_PENDING_MAX(line_max) (16 * (size_t)(line_max))

/* The largest request line, from the policy's request_size (limits
 * .request_size), which bounds the source and the args (or stdin) each:
 * both escaped (at most 6 bytes per byte: \u00XX), plus the rest. */
#define TC_SERVE_LINE_MAX(request_max) (12 * (size_t)(request_max) + 65536)

enum tc_serve_kind {
	TC_SERVE_CALL,	/* run(args) of a tool: the `call` envelope */
	TC_SERVE_EXEC,	/* a script with argv and stdin: stdout, stderr, exit code */
	TC_SERVE_STATS, /* the pools and counters */
	/* a session (`toolcell session --server`): the session harness in a
	 * warm entry, and the connection a stream to it (serve-session.c) */
	TC_SERVE_SESSION,
};

/* One request line, checked (the caller's untrusted input). */
struct tc_serve_request {
	char *id; /* raw JSON of "id" (a string or a number), or NULL; owned */
	enum tc_serve_kind kind;
	char *source; /* the tool's or script's source, decoded; owned */
	size_t source_len;
	char *input; /* call: the raw JSON of "args"; exec: the decoded "stdin"; owned */
	size_t input_len;
	char name[TC_SERVE_NAME_MAX + 1]; /* "tool.py" unless "name" says */
	char *argv[TC_SERVE_ARGV_MAX];	  /* exec: decoded; owned */
	size_t argc;
	uint64_t limit_ms; /* this call's wall time: the ceiling, or "timeout_s" below it */
	/* This call's limits: the server's, or lower ones the request's
	 * "limits" (and "timeout_s") asked for; limit[TC_LIMIT_WALL] ==
	 * limit_ms. asked: the request set it; clamped: it asked for more than
	 * the server's and got the server's. */
	uint64_t limit[TC_LIMIT__MAX];
	bool asked[TC_LIMIT__MAX], clamped[TC_LIMIT__MAX];
	/* session: the raw JSON arrays of "allow_imports" (MODULE) and
	 * "default_imports" (ALIAS=MODULE), or NULL; owned. The server puts
	 * the harness's config in source and its working folder in argv[0]
	 * (the frame's argv) */
	char *allow_imports, *default_imports;
};

/* Whether a request's "limits" may set limit id: the wall clock, the
 * output caps (the server's), and the rlimits the warm harness lowers for
 * the tool's interpreter before its code runs (memory, cpu_time,
 * file_size, open_files). The rest are fixed when an entry starts. */
bool tc_serve_limit_per_call(enum tc_limit_id id);

/* Fill r->limit (and asked, clamped, limit_ms) from the raw JSON of a
 * request's "limits" object and "timeout_s" number (either may be NULL)
 * against ceiling. -EINVAL with err naming the key. Pure
 * (serve-limits.c). */
int tc_serve_limits_parse(const char *raw, const char *timeout_s, size_t max_bytes,
			  const uint64_t *ceiling, struct tc_serve_request *r,
			  struct tc_error *err);

/* Check one request line of at most max_bytes against the server's
 * limits (ceiling, indexed by enum tc_limit_id). "source", "args" (call:
 * any JSON value) and "stdin" (or "stdin_base64") are each at most
 * ceiling[TC_LIMIT_REQUEST] bytes; "timeout_s" and "limits" only lower
 * the ceiling (a higher value is clamped to it). -EINVAL (err says why;
 * ret->id is set when the line had a valid one), -E2BIG, -ENOMEM. Release
 * with tc_serve_request_release, also after a failure. Pure. */
int tc_serve_request_parse(const char *line, size_t len, size_t max_bytes,
			   const uint64_t ceiling[TC_LIMIT__MAX], struct tc_serve_request *ret,
			   struct tc_error *err);
void tc_serve_request_release(struct tc_serve_request *r);

/* The policy's "serve" section (policy keys serve.allow_uids,
 * serve.allow_gids, serve.preimport, serve.sessions_per_uid,
 * serve.session_idle_s). */
struct tc_serve_policy {
	bool present;
	bool has_lists; /* allow_uids or allow_gids given: only they may connect */
	uid_t allow_uids[TC_SERVE_IDS_MAX];
	size_t n_allow_uids;
	gid_t allow_gids[TC_SERVE_IDS_MAX];
	size_t n_allow_gids;
	bool has_preimport;			  /* else the default list */
	char preimport[TC_SERVE_IMPORTS_MAX][64]; /* module names */
	size_t n_preimport;
	unsigned sessions_per_uid; /* sessions one caller uid may hold open (0: none) */
	unsigned session_idle_s;   /* a session with no byte either way this long ends */
};

/* Parse the "serve" section's JSON text (pure); origin names the policy. */
int tc_serve_policy_parse(const char *json, const char *origin, struct tc_serve_policy *ret,
			  struct tc_error *err);

/* true when a peer with these credentials may connect: its uid, its
 * primary gid or one of its n supplementary groups is listed, or (neither
 * list given) it is the server's own uid. Pure. */
bool tc_serve_peer_allowed(const struct tc_serve_policy *p, uid_t self, uid_t uid, gid_t gid,
			   const gid_t *groups, size_t n);

/* What `toolcell serve` was asked for. */
struct tc_serve_options {
	const char *socket_path;  /* NULL: the default (tc_serve_default_socket) */
	unsigned pool;		  /* ready entries per key */
	unsigned max_sandboxes;	  /* entries alive at once, ready or busy */
	unsigned queue;		  /* calls waiting for an entry before Busy */
	unsigned max_connections; /* callers connected at once; one more is answered Busy */
	unsigned max_sessions;	  /* sessions open at once (waiting or running); then Busy */
	const char *policy_path;  /* --policy, or NULL */
};

/* The command line of `toolcell serve` (argv[1] is "serve"); ret_help
 * true for --help. -EINVAL with err naming the option. Pure. */
int tc_serve_cli_parse(int argc, char **argv, struct tc_serve_options *ret, bool *ret_help,
		       struct tc_error *err);
/* Its options, one row each (tc_cli_help(TC_VERB_SERVE) is its --help). */
extern const struct tc_cli_subopt tc_serve_opts[];
extern const size_t tc_serve_n_opts;

/* /run/toolcell/toolcell.sock for root, $XDG_RUNTIME_DIR/toolcell.sock
 * otherwise (NULL when that is unset); nothing is made (a client asks it
 * too). */
const char *tc_serve_default_socket(char *buf, size_t n);

struct tc_policy;
struct cJSON;

/* A session request's "allow_imports" and "default_imports" (raw JSON, or
 * NULL) into o's --allow-import and --default-import lists, pointing into
 * trees (the caller's to cJSON_Delete, also after a failure): arrays of at
 * most TC_MAX_IMPORTS strings each; -EINVAL or -E2BIG with err naming the
 * key. The policy checks the names (tc_policy_session_config). Pure
 * (serve-session.c). */
int tc_serve_session_imports(const char *allow, const char *defaults, struct tc_overrides *o,
			     struct cJSON *trees[2], struct tc_error *err);

/* What the server runs with, from the policy and the host. */
struct tc_serve_setup {
	const struct tc_config *cfg;
	const struct tc_policy *session_policy; /* the whole policy: its "session" section */
	struct tc_serve_policy policy;
	const char *policy_path;
	char policy_sha256[65], rootfs_sha256[65];
	const char *harness; /* the warm harness inside, e.g. /usr/lib/toolcell/serve.pyc */
	/* SIGHUP: the policy and the rootfs loaded again, as at the start
	 * (serve-verb.c); NULL with err saying why when they do not load, and
	 * the server keeps this setup */
	const struct tc_serve_setup *(*reload)(const struct tc_serve_setup *now,
					       struct tc_error *err);
	/* a setup replaced by a reload, once no entry runs with it any more:
	 * what it holds (the shared lock on its rootfs) is given back */
	void (*release)(const struct tc_serve_setup *setup);
	void *owner; /* the loader's own state */
};

/* Run the server until SIGTERM/SIGINT (then drain); returns an exit
 * status (0, or 125 when it could not start, with the reason on stderr). */
int tc_serve_run(const struct tc_serve_options *opt, const struct tc_serve_setup *setup);

struct tc_cli;

/* `toolcell call --server SOCKET TOOL.py < request`: send the tool's
 * source, the request and the command line's per-call limits to the
 * server cli->server, print the envelope (and the record to --result);
 * returns the exit status of `call` (0 ok, 1 the tool failed, 125
 * toolcell's own). Options a server cannot take are refused (125). */
int tc_serve_client_call(const struct tc_cli *cli, size_t request_max);

/* The first option of the command line a server cannot take (its policy,
 * rootfs, binds, environment and the limits an entry is built with are the
 * server's), or NULL. */
const char *tc_serve_client_unsendable(const struct tc_cli *cli);

/* A request's "limits": the command line's own, in the policy's units. */
void tc_serve_client_add_limits(struct cJSON *doc, const struct tc_cli *cli);

/* `toolcell python --server SOCKET SCRIPT [ARGS]`: send the script's
 * source, its arguments, stdin (read whole, at most request_max bytes) and
 * the per-call limits as an exec request; write the script's stdout and
 * stderr to ours and return its exit status as `toolcell python` gives
 * it (124 for a time limit, 125 for toolcell's own failures); a script
 * ended by a signal returns 125 with *ret_signal set, for the caller to
 * end by the same signal. */
int tc_serve_client_python(const struct tc_cli *cli, size_t request_max, int *ret_signal);

#endif
