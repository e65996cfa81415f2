/* Unit tests for the host set-up hints: which cause is named for which
 * error on which host, and the /proc over-mount count from mountinfo. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tc-test.h"
#include "hint.h"

/* A Docker container's /proc: masked files, read-only folders. */
static const char docker_mounts[] =
	"636 561 0:55 / / rw,relatime master:300 - overlay overlay rw,lowerdir=/x\n"
	"637 636 0:58 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
	"638 636 0:59 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755\n"
	"570 637 0:58 /bus /proc/bus ro,nosuid,nodev,noexec,relatime - proc proc rw\n"
	"571 637 0:58 /fs /proc/fs ro,nosuid,nodev,noexec,relatime - proc proc rw\n"
	"577 637 0:64 / /proc/acpi ro,relatime - tmpfs tmpfs ro\n"
	"578 637 0:59 /null /proc/kcore rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755\n"
	"579 637 0:59 /null /proc/keys rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755\n";

/* A plain host: proc, and binfmt_misc below /proc/sys (an automount). */
static const char host_mounts[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
	"24 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw\n"
	"25 23 0:40 / /proc/sys/fs/binfmt_misc rw,relatime shared:13 - binfmt_misc "
	"binfmt_misc rw";

static const struct tc_host_facts plain = { .apparmor_restrict_userns = 0 };

static void test_overmounts(void **state)
{
	char ex[TC_HINT_EXAMPLE_MAX];

	(void)state;
	assert_int_equal(tc_hint_proc_overmounts(docker_mounts, ex, sizeof(ex)), 5);
	assert_string_equal(ex, "/proc/bus");
	assert_int_equal(tc_hint_proc_overmounts(host_mounts, ex, sizeof(ex)), 0);
	assert_string_equal(ex, "");
	/* /proc itself, /procfoo and a short or cut line are not over-mounts */
	assert_int_equal(tc_hint_proc_overmounts("1 2 0:1 / /proc rw - proc proc rw\n"
						 "3 1 0:2 / /procfoo rw - tmpfs t rw\n"
						 "4 1 0:2 / /proc/\n"
						 "5 1 0:3\n",
						 ex, sizeof(ex)),
			 0);
	assert_int_equal(tc_hint_proc_overmounts("", ex, sizeof(ex)), 0);
	/* the example is cut to its buffer */
	assert_int_equal(tc_hint_proc_overmounts(docker_mounts, ex, 6), 5);
	assert_string_equal(ex, "/proc");
}

static void test_masked_proc(void **state)
{
	struct tc_host_facts f = { .apparmor_restrict_userns = -1, .proc_overmounts = 5 };
	char hint[512];

	(void)state;
	snprintf(f.proc_overmount_example, sizeof(f.proc_overmount_example), "/proc/kcore");
	assert_true(tc_hint_for(TC_STAGE_PROC, EPERM, &f, hint, sizeof(hint)));
	assert_string_equal(hint,
			    " (this host's /proc has 5 file systems mounted over parts of it, such "
			    "as /proc/kcore, the way Docker and Kubernetes mask it, and the kernel "
			    "refuses a new /proc while any part of the old one is hidden; run the "
			    "container with /proc unmasked: docker run --security-opt "
			    "systempaths=unconfined, or Kubernetes securityContext.procMount: "
			    "Unmasked with hostUsers: false)");
	f.proc_overmounts = 1;
	assert_true(tc_hint_for(TC_STAGE_PROC, EPERM, &f, hint, sizeof(hint)));
	assert_non_null(strstr(hint, "has 1 file system mounted over"));
	/* a proc mount refused on an unmasked /proc: no cause to name */
	f.proc_overmounts = 0;
	assert_false(tc_hint_for(TC_STAGE_PROC, EPERM, &f, hint, sizeof(hint)));
	assert_string_equal(hint, "");
	/* another errno, another stage: not this cause */
	f.proc_overmounts = 5;
	assert_false(tc_hint_for(TC_STAGE_PROC, ENOMEM, &f, hint, sizeof(hint)));
	assert_false(tc_hint_for(TC_STAGE_MOUNT, EPERM, &f, hint, sizeof(hint)));
}

static void test_apparmor(void **state)
{
	struct tc_host_facts f = { .apparmor_restrict_userns = 1 };
	const enum tc_stage stages[] = { TC_STAGE_CLONE, TC_STAGE_USERNS, TC_STAGE_MOUNT,
					 TC_STAGE_PROC,	 TC_STAGE_NET,	  TC_STAGE_CAPS };
	char hint[512];

	(void)state;
	for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
		assert_true(tc_hint_for(stages[i], EPERM, &f, hint, sizeof(hint)));
		assert_string_equal(hint,
				    " (this host sets "
				    "kernel.apparmor_restrict_unprivileged_userns=1, which "
				    "leaves the user namespaces of unconfined programs without "
				    "capabilities; run toolcell as root, give it an AppArmor "
				    "profile that allows userns, or set the sysctl to 0)");
	}
	/* EACCES is a file's permissions; cli, policy and spawn stages are not
	 * namespace work; root is spared by the restriction */
	assert_false(tc_hint_for(TC_STAGE_MOUNT, EACCES, &f, hint, sizeof(hint)));
	assert_false(tc_hint_for(TC_STAGE_POLICY, EPERM, &f, hint, sizeof(hint)));
	assert_false(tc_hint_for(TC_STAGE_SPAWN, EPERM, &f, hint, sizeof(hint)));
	f.privileged = true;
	assert_false(tc_hint_for(TC_STAGE_MOUNT, EPERM, &f, hint, sizeof(hint)));
	/* the sysctl off or absent */
	assert_false(tc_hint_for(TC_STAGE_MOUNT, EPERM, &plain, hint, sizeof(hint)));
	f = (struct tc_host_facts){ .apparmor_restrict_userns = -1 };
	assert_false(tc_hint_for(TC_STAGE_MOUNT, EPERM, &f, hint, sizeof(hint)));
}

static void test_apply(void **state)
{
	struct tc_host_facts f = { .apparmor_restrict_userns = 1 };
	struct tc_error e = { .stage = TC_STAGE_MOUNT, .err = EPERM };

	(void)state;
	snprintf(e.message, sizeof(e.message),
		 "cannot mount a tmpfs on /tmp: Operation not "
		 "permitted");
	tc_hint_apply(&e, &f);
	assert_string_equal(e.message,
			    "cannot mount a tmpfs on /tmp: Operation not permitted (this host sets "
			    "kernel.apparmor_restrict_unprivileged_userns=1, which leaves the user "
			    "namespaces of unconfined programs without capabilities; run toolcell "
			    "as root, give it an AppArmor profile that allows userns, or set the "
			    "sysctl to 0)");
	/* clone's own message names the sysctl already: nothing added */
	e = (struct tc_error){ .stage = TC_STAGE_CLONE, .err = EPERM };
	snprintf(e.message, sizeof(e.message),
		 "cannot create: x (check "
		 "kernel.apparmor_restrict_unprivileged_userns)");
	tc_hint_apply(&e, &f);
	assert_string_equal(e.message, "cannot create: x (check "
				       "kernel.apparmor_restrict_unprivileged_userns)");
	/* a full message stays whole and terminated */
	e = (struct tc_error){ .stage = TC_STAGE_MOUNT, .err = EPERM };
	memset(e.message, 'x', sizeof(e.message) - 1);
	e.message[sizeof(e.message) - 1] = '\0';
	tc_hint_apply(&e, &f);
	assert_int_equal(strlen(e.message), sizeof(e.message) - 1);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_overmounts), cmocka_unit_test(test_masked_proc),
	     cmocka_unit_test(test_apparmor), cmocka_unit_test(test_apply))
