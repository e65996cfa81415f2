/* Bind sources, on the parent's side before clone: every host path the
 * caller hands the sandbox is opened here with the caller's own rights (no
 * symlink anywhere in the path), checked for what it must not carry into the
 * sandbox (other file systems mounted inside it, sockets), and turned into a
 * detached mount (open_tree without AT_RECURSIVE) that the child attaches
 * with move_mount, so the child never resolves a host path. */
#ifndef TOOLCELL_BINDSRC_H
#define TOOLCELL_BINDSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "toolcell/error.h"

/* How many directory entries the socket scan of one bind source reads
 * before it gives up and refuses the source (sockets must be ruled out,
 * and a bigger tree cannot be checked in bounded time). */
#define TC_BIND_SCAN_MAX 20000
/* How deep the scan goes (deeper trees are refused the same way). */
#define TC_BIND_SCAN_DEPTH 64
/* The largest /proc/self/mountinfo read for the submount check. */
#define TC_MOUNTINFO_MAX (8u << 20)

/* Open `path` (absolute) as O_PATH with no symlink anywhere in it, as the
 * caller, and check the caller may read it (a directory: read and search).
 * On failure err names the path component that stops the caller. */
int tc_bindsrc_open(const char *path, int *ret_fd, struct stat *ret_st, struct tc_error *err);

/* The text of /proc/self/mountinfo (at most TC_MOUNTINFO_MAX), read once
 * for all of a run's sources; free it. */
int tc_bindsrc_read_mountinfo(char **ret_text, struct tc_error *err);

/* Refuse a source that is, or holds, a mount point of another file system
 * (binds carry no submounts; a proc or sysfs inside would show the host),
 * by the mount table `mountinfo` (tc_bindsrc_read_mountinfo). */
int tc_bindsrc_check_mounts(const char *mountinfo, const char *path, bool is_dir,
			    struct tc_error *err);

/* True when fd (O_PATH will do) is on ext4, XFS, Btrfs, overlayfs or F2FS
 * (statfs's magic number), none of those tc_bindsrc_special_fs names: for
 * a file there the mount table's check could find nothing more. (Neither
 * looks into an overlay's layers: an overlay over a special file system
 * passes both.) */
bool tc_bindsrc_plain_fs(int fd);

/* Pure: the mount point (field 5) and file system type of one
 * /proc/self/mountinfo line, octal escapes decoded. false on a bad line. */
bool tc_bindsrc_parse_mountinfo(const char *line, char *ret_point, size_t point_size,
				char *ret_fstype, size_t fstype_size);

/* Pure: true for file systems that show kernel or host state (proc, sysfs,
 * cgroup, devtmpfs, ...). */
bool tc_bindsrc_special_fs(const char *fstype);

/* Refuse a directory that holds a socket anywhere below it (a bound host
 * socket can be connected to even on a read-only mount), or more than
 * TC_BIND_SCAN_MAX entries, or deeper than TC_BIND_SCAN_DEPTH. */
int tc_bindsrc_check_sockets(int dir_fd, const char *path, struct tc_error *err);

/* Refuse a shared system folder (/tmp, /var/tmp, /dev/shm, ...) as a place
 * the tool may write: compared by device and inode, so another name for the
 * same folder is refused too. */
int tc_bindsrc_check_shared(const char *path, const struct stat *st, const char *what,
			    struct tc_error *err);

/* A detached, non-recursive copy of the mount at fd with attrs
 * (MOUNT_ATTR_*) set, idmapped through userns_fd when it is >= 0 (a
 * read-only one is bound unmapped where its file system cannot be; a
 * writable one is refused).
 * -EPERM when the caller may not make detached mounts (unprivileged). */
int tc_bindsrc_detach(int fd, const char *path, unsigned long long attrs, int userns_fd,
		      int *ret_tree, struct tc_error *err);

#endif
