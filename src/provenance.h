/* The record's provenance: the sha256 of the policy file, of the rootfs's
 * manifest (the builder's own digest of it when present) and of the tool
 * file. Parent side, before clone; reads files, never follows a link at
 * their last component. */
#ifndef TOOLCELL_PROVENANCE_H
#define TOOLCELL_PROVENANCE_H

#include "rootfs.h"
#include "toolcell/record.h"

/* Below the rootfs's top: the manifest, and the digest of it that
 * rootfs/build-rootfs writes (64 lower-case hex digits and a newline). */
#define TC_PROVENANCE_MANIFEST TC_ROOTFS_MANIFEST
#define TC_PROVENANCE_DIGEST   TC_PROVENANCE_MANIFEST ".sha256"

/* The run's part: the policy's digest and path (borrowed), and the rootfs
 * manifest's digest (the builder's digest file, else the manifest hashed:
 * the rootfs is trusted; "" when neither can be read). Once per run. */
void tc_provenance_run(struct tc_outcome *o, const unsigned char policy_sha256[32],
		       const char *policy_path, const char *rootfs);

/* The tool file's path (borrowed) and digest ("" when it cannot be read),
 * hashed up to TC_TOOL_FILE_MAX bytes. */
void tc_provenance_tool(struct tc_outcome *o, const char *tool_host_path);

#endif
