"""Workload: pathlib and shutil in /tmp: trees, copy/copytree/move/rmtree,
links, permissions, times, glob, file locks, disk usage, fifo."""
import errno
import fcntl
import filecmp
import fnmatch
import glob
import os
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path

NAME = "files_shutil"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


base = Path(tempfile.mkdtemp(prefix="wl-files-"))
try:
    src = base / "src"
    (src / "pkg" / "sub").mkdir(parents=True)
    (src / "README.md").write_text("# readme\n", encoding="utf-8")
    (src / "pkg" / "__init__.py").write_text("VERSION = '1.0'\n")
    (src / "pkg" / "sub" / "data.bin").write_bytes(bytes(range(256)) * 64)
    (src / "pkg" / "sub" / "notes.txt").write_text("ünïcode\n" * 10, encoding="utf-8")
    (src / "empty").mkdir()
    os.chmod(src / "README.md", 0o640)
    os.utime(src / "README.md", (1_000_000_000, 1_000_000_000))

    check(sorted(p.relative_to(src).as_posix() for p in src.rglob("*")) ==
          ["README.md", "empty", "pkg", "pkg/__init__.py", "pkg/sub", "pkg/sub/data.bin", "pkg/sub/notes.txt"], "rglob")
    check(sorted(p.name for p in src.glob("pkg/**/*.txt")) == ["notes.txt"], "glob **")
    check(sorted(glob.glob(str(src / "*" / "*.py"))) == [str(src / "pkg" / "__init__.py")], "glob module")
    check(fnmatch.filter(["a.py", "b.txt", "c.PY"], "*.py") == ["a.py"], "fnmatch")
    check((src / "pkg" / "sub" / "notes.txt").stat().st_size == 100, "stat size")
    check(Path("/tmp/x/../y/./z.tar.gz").suffixes == [".tar", ".gz"] and Path("a/b.txt").with_suffix(".md").as_posix() == "a/b.md", "pure paths")

    # copytree keeps modes and times (copy2/copystat); compare the trees
    dst = base / "dst"
    shutil.copytree(src, dst)
    check(stat.S_IMODE((dst / "README.md").stat().st_mode) == 0o640, "copytree mode")
    check((dst / "README.md").stat().st_mtime == 1_000_000_000, "copytree mtime")
    cmp = filecmp.dircmp(src, dst)
    check(not cmp.left_only and not cmp.right_only and not cmp.diff_files, "dircmp")
    check(filecmp.cmp(src / "pkg/sub/data.bin", dst / "pkg/sub/data.bin", shallow=False), "filecmp")
    shutil.copytree(src, base / "filtered", ignore=shutil.ignore_patterns("*.bin", "empty"))
    check(not (base / "filtered/pkg/sub/data.bin").exists() and (base / "filtered/pkg/sub/notes.txt").exists(), "ignore_patterns")
    shutil.copytree(src / "pkg", dst / "pkg", dirs_exist_ok=True)

    # single files: copyfile (sendfile), copy, copy2, copyfileobj
    shutil.copyfile(src / "pkg/sub/data.bin", base / "one.bin")
    shutil.copy(src / "README.md", base / "two.md")
    shutil.copy2(src / "README.md", base / "three.md")
    with open(base / "one.bin", "rb") as fi, open(base / "four.bin", "wb") as fo:
        shutil.copyfileobj(fi, fo, length=1000)
    check((base / "four.bin").read_bytes() == (src / "pkg/sub/data.bin").read_bytes(), "copyfileobj")
    check(os.path.getmtime(base / "three.md") == 1_000_000_000 != os.path.getmtime(base / "two.md"), "copy vs copy2 times")
    with open(base / "one.bin", "rb") as fi, open(base / "five.bin", "wb") as fo:
        n = os.sendfile(fo.fileno(), fi.fileno(), 0, 1 << 20)
    check(n == 16384, "os.sendfile")
    with open(base / "one.bin", "rb") as fi, open(base / "six.bin", "wb") as fo:
        check(os.copy_file_range(fi.fileno(), fo.fileno(), 1 << 20) == 16384, "os.copy_file_range")

    # links, rename, replace, move
    os.symlink("README.md", src / "link.md")
    os.link(src / "README.md", src / "hard.md")
    check(os.readlink(src / "link.md") == "README.md" and (src / "link.md").resolve() == (src / "README.md").resolve(), "symlink")
    check((src / "link.md").is_symlink() and os.lstat(src / "link.md").st_mode & stat.S_IFLNK, "lstat")
    check(os.stat(src / "hard.md").st_nlink == 2 and os.path.samefile(src / "hard.md", src / "README.md"), "hard link")
    (src / "hard.md").rename(src / "renamed.md")
    os.replace(base / "two.md", src / "renamed.md")
    shutil.move(str(base / "three.md"), str(base / "dst"))
    check((base / "dst" / "three.md").exists() and not (base / "three.md").exists(), "move into a dir")
    shutil.move(str(base / "filtered"), "/dev/shm/wl-moved")  # across file systems: copy + delete
    check(Path("/dev/shm/wl-moved/pkg/__init__.py").read_text() == "VERSION = '1.0'\n", "move across file systems")
    shutil.rmtree("/dev/shm/wl-moved")

    # permissions, access, times, truncate, scandir, statvfs
    f = base / "perm.txt"
    f.touch(mode=0o600)
    f.chmod(0o444)
    check(not os.access(f, os.W_OK) or os.geteuid() == 0, "access W_OK on 0444")
    f.chmod(0o644)
    os.truncate(f, 1000)
    check(f.stat().st_size == 1000 and f.read_bytes() == b"\0" * 1000, "truncate")
    ns = 1_234_567_890_123_456_789
    os.utime(f, ns=(ns, ns))
    check(f.stat().st_mtime_ns == ns, "utime ns")
    with os.scandir(src) as it:
        entries = {e.name: e.is_dir(follow_symlinks=False) for e in it}
    check(entries == {"README.md": False, "pkg": True, "empty": True, "link.md": False, "renamed.md": False}, f"scandir {entries}")
    check(os.statvfs("/tmp").f_bsize > 0 and shutil.disk_usage("/tmp").total > 0, "statvfs/disk_usage")
    check(shutil.which("python3") is not None, "which python3")
    os.mkfifo(base / "fifo")
    check(stat.S_ISFIFO(os.stat(base / "fifo").st_mode), "mkfifo")
    fd = os.open(base / "dirfd-target", os.O_CREAT | os.O_WRONLY, dir_fd=None)
    os.close(fd)
    dfd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    check(os.stat("dirfd-target", dir_fd=dfd).st_size == 0, "dir_fd stat")
    os.rename("dirfd-target", "dirfd-renamed", src_dir_fd=dfd, dst_dir_fd=dfd)
    os.unlink("dirfd-renamed", dir_fd=dfd)
    os.close(dfd)

    # advisory locks against a forked child. An exclusive lock between a
    # tool's own processes is fcntl.lockf (POSIX locks need the file open
    # for writing, which a shared read-only file never is); toolcell's filter
    # refuses flock(LOCK_EX) with ENOSYS, since the rootfs and read-only
    # binds are the same host files in every sandbox. Shared flocks work.
    lockfile = base / "lock"
    lockfile.touch()
    in_toolcell = os.path.exists("/usr/lib/toolcell/harness.py")
    with open(lockfile, "r+") as lf:
        try:
            fcntl.flock(lf, fcntl.LOCK_EX)
            check(not in_toolcell, "flock(LOCK_EX) taken inside toolcell")
            fcntl.flock(lf, fcntl.LOCK_UN)
        except OSError as e:
            check(in_toolcell and e.errno == errno.ENOSYS, f"flock(LOCK_EX): {e}")
        fcntl.flock(lf, fcntl.LOCK_SH)
        fcntl.lockf(lf, fcntl.LOCK_EX, 10, 0)
        pid = os.fork()
        if pid == 0:
            code = 0
            with open(lockfile, "r+") as other:
                try:
                    fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except OSError:
                    code = 1  # shared locks never conflict
                try:
                    fcntl.lockf(other, fcntl.LOCK_EX | fcntl.LOCK_NB, 10, 0)
                    code = 2
                except OSError as e:
                    if e.errno not in (errno.EAGAIN, errno.EACCES):
                        code = 3
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        check(os.waitstatus_to_exitcode(status) == 0, f"locks not exclusive ({os.waitstatus_to_exitcode(status)})")
        fcntl.flock(lf, fcntl.LOCK_UN)
        check(fcntl.fcntl(lf, fcntl.F_GETFL) & os.O_RDWR, "F_GETFL")

    # the read-only root refuses writes with an OSError a tool can handle
    try:
        open("/usr/lib/wl-should-not-exist", "w")
    except OSError:
        pass
    else:
        if os.geteuid() != 0:
            check(False, "wrote into /usr")
        os.unlink("/usr/lib/wl-should-not-exist")

    shutil.rmtree(dst)
    check(not dst.exists(), "rmtree")
    check(time.time() - (base / "one.bin").stat().st_mtime < 60, "mtime is now")
finally:
    shutil.rmtree(base)
check(not base.exists(), "cleanup")

print(f"ok {NAME}")
