/* `toolcell serve`: its own command line (serve-cli.c), this policy and
 * rootfs, then the server's loop (serve.c) until it drains. SIGHUP loads
 * the policy and the rootfs again the same way (reload); a setup that no
 * entry uses any more gives its rootfs back (release). Parent side; the
 * sandboxes are the pool's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provenance.h"
#include "rootfs.h"
#include "serve.h"
#include "util.h"
#include "verb.h"

/* One loaded policy and rootfs: main's invocation for the first, a heap
 * one of our own for each reload. */
struct loaded {
	struct tc_invocation *v;
	bool own; /* v is ours to free */
	struct tc_serve_setup setup;
};

static const struct tc_serve_setup *reload(const struct tc_serve_setup *now, struct tc_error *err);

static void release(const struct tc_serve_setup *setup)
{
	struct loaded *l = setup->owner;

	/* the rootfs may be replaced and removed now: no sandbox of ours uses it */
	tc_closep(&l->v->rootfs_lock);
	if (!l->own)
		return;
	tc_policy_release(&l->v->policy);
	tc_config_release(&l->v->cfg);
	free(l->v->rootfs);
	free(l->v->policy_path);
	free(l->v);
	free(l);
}

/* The policy (the same --policy, or the site's default as it is now), its
 * rootfs chosen and held, the serve section parsed into l->setup. */
static int load(struct loaded *l, struct tc_error *e)
{
	struct tc_invocation *v = l->v;
	struct tc_serve_setup *setup = &l->setup;
	int r;

	v->cli.verb = TC_VERB_RUN;
	r = tc_verb_load(v, e);
	if (r >= 0) /* every entry runs the tree's serve.py */
		r = tc_rootfs_check_harness(v->rootfs, v->rootfs_rebuild, e);
	if (r < 0)
		return r;
	tc_outcome_init(&v->out);
	tc_provenance_run(&v->out, v->policy.sha256, v->policy_path, v->cfg.rootfs);
	r = tc_serve_policy_parse(v->policy.serve_json, v->policy_path, &setup->policy, e);
	if (r < 0)
		return r;
	setup->harness = TC_ROOTFS_SERVE;
	setup->cfg = &v->cfg;
	setup->session_policy = &v->policy;
	setup->policy_path = v->policy_path;
	memcpy(setup->policy_sha256, v->out.policy_sha256, sizeof(setup->policy_sha256));
	memcpy(setup->rootfs_sha256, v->out.rootfs_sha256, sizeof(setup->rootfs_sha256));
	setup->reload = reload;
	setup->release = release;
	setup->owner = l;
	return 0;
}

static const struct tc_serve_setup *reload(const struct tc_serve_setup *now, struct tc_error *err)
{
	const struct loaded *first = now->owner;
	struct loaded *l = calloc(1, sizeof(*l));

	if (!l || !(l->v = calloc(1, sizeof(*l->v)))) {
		free(l);
		tc_error_set(err, TC_STAGE_SERVE, ENOMEM, "out of memory");
		return NULL;
	}
	l->own = true;
	l->setup.owner = l; /* release finds it there, also after a failed load */
	l->v->rootfs_lock = l->v->result_fd = -1;
	l->v->exe_dir = first->v->exe_dir;
	l->v->cli.policy_path = first->v->cli.policy_path;
	if (load(l, err) < 0) {
		release(&l->setup);
		return NULL;
	}
	return &l->setup;
}

int tc_verb_serve(struct tc_invocation *v, int argc, char **argv)
{
	static struct loaded first;
	struct tc_serve_options opt;
	struct tc_error e = { 0 };
	bool help;

	if (tc_serve_cli_parse(argc, argv, &opt, &help, &e) < 0)
		return tc_verb_fail(v, &e);
	if (help) {
		fputs(tc_cli_help(TC_VERB_SERVE), stdout);
		return 0;
	}
	v->cli.policy_path = opt.policy_path;
	first.v = v;
	if (load(&first, &e) < 0)
		return tc_verb_fail(v, &e);
	return tc_serve_run(&opt, &first.setup);
}
