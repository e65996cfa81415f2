/* `toolcell serve`: its own command line (serve-cli.c), this policy and
 * rootfs, then the server's loop (serve.c) until it drains. Parent side;
 * the sandboxes are the pool's. */
#include <stdio.h>
#include <string.h>

#include "provenance.h"
#include "rootfs.h"
#include "serve.h"
#include "verb.h"

int tc_verb_serve(struct tc_invocation *v, int argc, char **argv)
{
	struct tc_serve_options opt;
	struct tc_serve_setup setup = { .harness = TC_ROOTFS_SERVE };
	struct tc_error e = { 0 };
	bool help;

	if (tc_serve_cli_parse(argc, argv, &opt, &help, &e) < 0)
		return tc_verb_fail(v, &e);
	if (help) {
		fputs(tc_cli_help(TC_VERB_SERVE), stdout);
		return 0;
	}
	v->cli.policy_path = opt.policy_path;
	v->cli.verb = TC_VERB_RUN;
	if (tc_verb_load(v, &e) < 0)
		return tc_verb_fail(v, &e);
	tc_outcome_init(&v->out);
	tc_provenance_run(&v->out, v->policy.sha256, v->policy_path, v->cfg.rootfs);
	if (tc_serve_policy_parse(v->policy.serve_json, v->policy_path, &setup.policy, &e) < 0)
		return tc_verb_fail(v, &e);
	setup.cfg = &v->cfg;
	setup.policy_path = v->policy_path;
	memcpy(setup.policy_sha256, v->out.policy_sha256, sizeof(setup.policy_sha256));
	memcpy(setup.rootfs_sha256, v->out.rootfs_sha256, sizeof(setup.rootfs_sha256));
	return tc_serve_run(&opt, &setup);
}
