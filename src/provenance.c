/* The record's provenance (provenance.h): sha256 of the policy, the rootfs
 * manifest and the tool. Parent side, before clone. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "provenance.h"
#include "sha256.h"
#include "util.h"

static void hash_file(const char *path, char out[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	unsigned char d[32];

	out[0] = '\0';
	if (fd >= 0 && tc_sha256_file(fd, TC_TOOL_FILE_MAX, d) >= 0)
		tc_hex_sha256(d, out);
}

/* 64 lower-case hex digits and a newline, as build-rootfs writes them */
static bool read_digest(const char *path, char out[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char buf[66];

	if (fd < 0 || tc_read_full(fd, buf, sizeof(buf)) != 65 || buf[64] != '\n')
		return false;
	for (int i = 0; i < 64; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
			return false;
	memcpy(out, buf, 64);
	out[64] = '\0';
	return true;
}

void tc_provenance_run(struct tc_outcome *o, const unsigned char policy_sha256[32],
		       const char *policy_path, const char *rootfs)
{
	char manifest[PATH_MAX + 64];

	tc_hex_sha256(policy_sha256, o->policy_sha256);
	o->policy_path = policy_path;
	/* the builder's digest of its manifest (the rootfs is trusted); hash
	 * the manifest only for a rootfs built without one */
	snprintf(manifest, sizeof(manifest), "%s%s", rootfs, TC_PROVENANCE_DIGEST);
	if (!read_digest(manifest, o->rootfs_sha256)) {
		snprintf(manifest, sizeof(manifest), "%s%s", rootfs, TC_PROVENANCE_MANIFEST);
		hash_file(manifest, o->rootfs_sha256);
	}
}

void tc_provenance_tool(struct tc_outcome *o, const char *tool_host_path)
{
	o->tool_path = tool_host_path;
	hash_file(tool_host_path, o->tool_sha256);
}
