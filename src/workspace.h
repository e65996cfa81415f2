/* The layered workspace, on the parent's side after the sandbox ended: the
 * tool wrote into a size- and inode-limited tmpfs layer (overlayfs's upper
 * layer over the host folder, made in the child; see mount.c), and here
 * toolcell applies that layer to the host folder itself, as the caller,
 * through the folder's own descriptor (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS). Only regular files and directories reach the host,
 * with no set-id bits; deletions (whiteouts, opaque folders) are applied;
 * symlinks, FIFOs, sockets, devices and hard links are dropped and counted.
 * Each file is written under a temporary name in the host folder's top
 * and renamed into place. */
#ifndef TOOLCELL_WORKSPACE_H
#define TOOLCELL_WORKSPACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "toolcell/record.h"

/* The prefix of the temporary names files are written under, in the host
 * folder's top whatever their level, before the rename (a kill mid-apply
 * may leave one there; the next apply removes it). */
#define TC_WORKSPACE_TMP_PREFIX ".toolcell-apply."

/* Apply the layer at layer_fd (the tmpfs root holding "upper") to the host
 * folder host, which must still be the folder of device dev and inode ino.
 * Fills *st; returns 0, or -errno when nothing could be applied at all. */
int tc_workspace_apply(int layer_fd, const char *host, dev_t dev, ino_t ino,
		       struct tc_workspace_stats *st);

#endif
