"""toolcell-tool-exec: ThreeGate's TOOL-EXEC runner (run_tool_request.py,
ERA backend) on toolcell. It reads a Tool Request in ThreeGate's own
format (threegate.py), checks each input's sha256 while copying it into a
private folder bound read-only at /in, runs the command line with one
`toolcell run` (era.py's rules; the request's time, CPU and memory limits
enforced; /out the workspace), collects the expected outputs without
following symbolic links, and writes the Tool Result exactly as ThreeGate's
runner does, plus toolcell's own keys. Exit 0 accepted, 2 rejected, 3
runtime error, as the runner. Imports: os, sys, time, _json, _signal and
_sha256 (no enum, no re, no ctypes, no OpenSSL for small files: start-up
time); hashlib only for a file over HASH_SMALL."""

import os
import sys
import time

from toolcell import binary, threegate
from toolcell.era import Failed, Refused, base_options, find_toolcell, limit_options
from toolcell.era import SANDBOX_PYTHON, parse_options, sandbox_argv, shown

PROG = "toolcell-tool-exec"

# Named limits on what comes from outside (HACKING.md, style rule 11).
REQUEST_MAX = 1024 * 1024  # bytes of a Tool Request
INPUT_FILE_MAX = 64 * 1024 * 1024  # bytes of one input
INPUTS_TOTAL_MAX = 256 * 1024 * 1024  # bytes of all inputs together
OUTPUT_FILE_MAX = 64 * 1024 * 1024  # bytes of one collected output
OUTPUTS_TOTAL_MAX = 256 * 1024 * 1024  # bytes of all collected outputs
RECORD_MAX = 1024 * 1024  # bytes of toolcell's result record read back
STDERR_TAIL = 4096  # bytes of toolcell's stderr read back for a reason
REMOVE_MAX = 1 << 22  # entries one clean-up removes before it gives up
REAPER_WAIT = 30  # seconds the reaper waits for toolcell to end
HASH_SMALL = 1 << 20  # bytes up to which Python's own sha256 hashes a file:
# loading OpenSSL (hashlib) costs more than hashing that much 7 times slower

EXIT_ACCEPTED, EXIT_REJECTED, EXIT_RUNTIME = 0, 2, 3
INSIDE_IN, INSIDE_OUT = "/in", "/out"
O_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
O_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_NO_TMPFILE = (95, 21, 22)  # EOPNOTSUPP, EISDIR, EINVAL: a file system or kernel without O_TMPFILE

USAGE = "usage: toolcell-tool-exec --request TR.md --results-dir DIR [--inputs-dir DIR]"

HELP = (
    USAGE
    + """

ThreeGate's TOOL-EXEC runner (tool-exec/era/run_tool_request.py) with
toolcell as the backend: one Tool Request in ThreeGate's format
(schema_version 1) in, one Tool Result in ThreeGate's format out.

Options (--opt VALUE or --opt=VALUE; each at most once):
  --request FILE      the Tool Request (required): UTF-8, at most 1 MiB,
                      a regular file, not a symbolic link
  --results-dir DIR   the folder for the Tool Result (required; made if
                      missing, as the runner does)
  --inputs-dir DIR    where the request's inputs are (default: the
                      request's own folder)
  -h, --help          this text

The request: front matter between "---" lines, then the H2 sections
## Command, ## Input Files, ## Output Expectations, ## Risk Assessment,
in that order. Required keys: request_type (tool_request),
schema_version (1), request_id (1-128 of A-Z a-z 0-9 . _ -), created_utc
and approved_utc (2026-02-09T16:05:01Z), requested_by, approved_by,
purpose, language (python), network (none), cpu_limit, memory_limit_mb,
time_limit_sec (enforced, each at most the policy's ceiling). Optional:
backend (ERA, the default), network_allowlist (empty), inputs (a list of
"- name: FILE" with "sha256: HEX": FILE is copied from the inputs folder,
its sha256 checked, and shown read-only at /in/FILE), outputs_expected (a
list of "- path: FILE" with an optional "description:": collected from
/out, the command's working directory), constraints (kept, not used).
Values plain, "double" or 'single' quoted; lists as indented "- " items
or [a, b]; other keys draw a WARNING and are ignored. The command is the
first non-empty line after "## Command", with era-wrapper's rules
(era-wrapper --help): split as a POSIX shell would, never given to one,
the first word python3. At most 1 MiB, 64 keys, 64 entries per list,
4096 characters per value; inputs at most 64 MiB each, 256 MiB in all.

The Tool Result, as ThreeGate's runner writes it: in DIR,
TS-<created_utc without - and :>-<request_id>.md and its .stdout.txt and
.stderr.txt; front matter result_type, schema_version, result_id,
created_utc, request_id, executor, backend, exit_code, runtime_sec (wall
seconds in the sandbox), network_used, network_destinations, artifacts
(path and sha256 of each file written), stdout_sha256, stderr_sha256,
then toolcell's added keys: toolcell_status (ok, exit_nonzero, timeout,
memory_limit, ...), toolcell_limits (in force, and by what),
toolcell_record (toolcell's result record, written beside as
.record.json), toolcell_outputs (each collected output, in the folder
TS-....out/, made only when something was collected) and
toolcell_outputs_missing; sections Summary, Provenance, Outputs, Stdout,
Stderr and Safety Notes. The result is written last and never removed.

Environment: TOOLCELL, TOOLCELL_POLICY and TOOLCELL_ROOTFS as for
era-wrapper (the policy must allow ro_bind and workspace); toolcell runs
with only PATH and LANG. Private folders go under TMPDIR (default /tmp)
and are removed however the run ends, by a helper process if this one is
killed outright.

Exit status (ThreeGate's runner's):
  0   accepted: "ACCEPT: wrote Tool Result PATH" on stdout (the command's
      own outcome is the result's exit_code and toolcell_status)
  2   rejected: "REJECT: ..." on stderr, then one "ERROR: ..." line per
      problem (and "WARNING: ..." lines); the command never ran, nothing
      written. Limits above the policy's ceiling are rejected too, with
      toolcell's reason: toolcell refused the run (exit 125) and accepts
      the same run without the request's limits (decided by exit status,
      never by toolcell's words); a policy that refuses the run anyway
      is a runtime error (3)
  3   runtime error: "ERROR: ..." on stderr; toolcell could not run the
      command, the results could not be written, or SIGTERM, SIGINT or
      SIGHUP arrived; nothing is left in DIR
"""
)


class Rejected(Exception):
    """Exit 2: .head is the REJECT line, .errors the ERROR lines."""

    def __init__(self, head, errors=(), warnings=()):
        super().__init__(head)
        self.head, self.errors, self.warnings = head, list(errors), list(warnings)


class Interrupted(Exception):
    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


# ---------------------------------------------------------------- files in


def read_capped(fd, cap):
    """All of fd up to cap bytes, or None when there is more."""
    chunks, size = [], 0
    while True:
        b = os.read(fd, min(1 << 20, cap + 1 - size))
        if not b:
            return b"".join(chunks)
        chunks.append(b)
        size += len(b)
        if size > cap:
            return None


def read_request(path):
    """The request's text; raises Rejected with the reason."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        why = "a symbolic link; name the real file" if e.errno == 40 else e.strerror
        raise Rejected("Tool Request validation failed.", ["%s: %s" % (path, why)])
    try:
        if not _is_reg(os.fstat(fd).st_mode):
            raise Rejected("Tool Request validation failed.", ["%s: not a regular file" % path])
        data = read_capped(fd, REQUEST_MAX)
    finally:
        os.close(fd)
    if data is None:
        raise Rejected(
            "Tool Request validation failed.",
            ["%s: larger than %d bytes (1 MiB), the most a Tool Request may hold"
             % (path, REQUEST_MAX)],
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Rejected("Tool Request validation failed.", ["%s: not UTF-8 (byte %d)" % (path, e.start)])
    if "\0" in text:
        raise Rejected("Tool Request validation failed.", ["%s: holds a NUL character" % path])
    return text.removeprefix("\ufeff")


def _is_reg(mode):
    return (mode & 0o170000) == 0o100000


def _kind(mode):
    t = mode & 0o170000
    return {0o040000: "a folder", 0o120000: "a symbolic link", 0o010000: "a FIFO"}.get(
        t, "a special file"
    )


def copy_hashed(src, dst, cap):
    """Copy fd src to fd dst up to cap bytes: (bytes, sha256 hex), or None
    when src holds more than cap."""
    h, size = _sha256(os.fstat(src).st_size), 0
    while True:
        b = os.read(src, min(1 << 20, cap + 1 - size))
        if not b:
            return size, h.hexdigest()
        size += len(b)
        if size > cap:
            return None
        h.update(b)
        view = memoryview(b)
        while view:
            view = view[os.write(dst, view) :]


def copy_inputs(req, in_dir, dst_dir):
    """Copy each input into dst_dir, checking its sha256; raises Rejected
    listing every input that is missing, not a regular file, too large or
    not what the request's sha256 says."""
    errors, total = [], 0
    mode = 0o644 if os.geteuid() == 0 else 0o600  # as root, the sandbox reads by "other"
    try:
        sfd = os.open(in_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise Rejected("Tool Request validation failed.",
                       ["the inputs folder %s: %s" % (in_dir, e.strerror)])
    dfd = os.open(dst_dir, O_DIR)
    try:
        for name, want in req.inputs:
            try:
                src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                              dir_fd=sfd)
            except OSError as e:
                why = "a symbolic link, never followed" if e.errno == 40 else e.strerror
                errors.append("input %s: %s (in %s)" % (shown(name), why, in_dir))
                continue
            try:
                st = os.fstat(src)
                if not _is_reg(st.st_mode):
                    errors.append("input %s is %s, not a regular file" % (shown(name), _kind(st.st_mode)))
                    continue
                cap = min(INPUT_FILE_MAX, INPUTS_TOTAL_MAX - total)
                dst = os.open(name, O_NEW, mode, dir_fd=dfd)
                try:
                    os.fchmod(dst, mode)  # whatever the umask
                    got = copy_hashed(src, dst, cap)
                finally:
                    os.close(dst)
            finally:
                os.close(src)
            if got is None:
                errors.append("input %s: more than %d bytes (64 MiB each, 256 MiB in all)"
                              % (shown(name), cap))
            elif got[1] != want:
                errors.append("input %s: sha256 is %s, the request says %s" % (shown(name), got[1], want))
            else:
                total += got[0]
    finally:
        os.close(sfd)
        os.close(dfd)
    if errors:
        raise Rejected("Tool Request inputs do not match the request.", errors)


# ---------------------------------------------------------------- removing a tree


def remove_tree(parent_fd, name):
    """Remove name in parent_fd and, if it is a folder, everything in it,
    never following a symbolic link and never recursing (a tree the tool
    made may be any depth: one fd open at a time, climbing back up by
    "..", checked against the device and inode it came from). Folders the
    tool left read-only are made writable first. Gives up after
    REMOVE_MAX entries or on anything unexpected; returns True when
    name is gone."""
    try:
        st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
    except OSError:
        return True
    if (st.st_mode & 0o170000) != 0o040000:
        return _unlink(parent_fd, name)
    top = (st.st_dev, st.st_ino)
    try:
        fd = os.open(name, O_DIR, dir_fd=parent_fd)
    except OSError:
        return False
    path = [(name, top)]  # from name down to the folder fd is open on
    budget = REMOVE_MAX
    try:
        while budget > 0:
            budget -= 1
            os.fchmod(fd, 0o700) if os.fstat(fd).st_mode & 0o700 != 0o700 else None
            child = _empty_out(fd)
            if child is not None:  # a folder inside: go down
                nfd = os.open(child, O_DIR, dir_fd=fd)
                cst = os.fstat(nfd)
                os.close(fd)
                fd = nfd
                path.append((child, (cst.st_dev, cst.st_ino)))
                continue
            gone, _ = path.pop()  # empty: climb up and remove it
            if not path:
                os.close(fd)
                fd = -1
                os.rmdir(name, dir_fd=parent_fd)
                return True
            up = os.open("..", O_DIR, dir_fd=fd)
            ust = os.fstat(up)
            os.close(fd)
            fd = up
            if (ust.st_dev, ust.st_ino) != path[-1][1]:
                return False  # the tree moved under us: stop
            os.rmdir(gone, dir_fd=fd)
        return False
    except OSError:
        return False
    finally:
        if fd >= 0:
            os.close(fd)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _unlink(dfd, name):
    try:
        os.unlink(name, dir_fd=dfd)
        return True
    except OSError:
        return False


def _empty_out(fd):
    """Unlink every non-folder in fd; the name of one folder left, or None.
    Reads the folder in batches, so a huge one never sits in memory."""
    with os.scandir(fd) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False):
                return e.name
            os.unlink(e.name, dir_fd=fd)
    return None


# ---------------------------------------------------------------- clean-up that survives SIGKILL


class Reaper:
    """A child process that removes this run's private folder and partial
    result files if toolcell-tool-exec ends before it could, even by
    SIGKILL. It is told what to remove in NUL-ended records on a pipe:
    P<path> a private path (its name holds 64 random bits), R<dev> <ino>
    <path> a result entry this run made, identified (removed only while
    path is still that file: never another run's file of the same name),
    K keep the result files, D all done; and toolcell itself as a pidfd on
    a datagram socket (SCM_RIGHTS), opened while toolcell is still our
    unreaped child, so that no pid read later can name another process. At
    EOF without D it sends toolcell SIGTERM (toolcell ends the sandbox and
    exits), waits for it to end and removes what it was told of.

    The pipe's buffer keeps what was written even after the writer is
    killed, and the socket the pidfds in flight, so the reaper need not
    read each record as it comes: it sleeps until EOF (a poll for POLLHUP
    only, which a write does not wake) and is woken early only when the
    pipe is full. A wake-up per record cost tool-exec a context switch
    each, milliseconds on a loaded machine."""

    def __init__(self):
        import _socket

        r, self.w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        poke_r, self.poke = os.pipe2(os.O_CLOEXEC)
        self.pidfds, pidfds_r = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_DGRAM)
        pid = os.fork()
        if pid == 0:  # the reaper
            code = 0
            try:
                os.close(self.w)
                os.close(self.poke)
                self.pidfds.close()
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):  # never hold a pipe our caller reads to EOF
                    os.dup2(null, fd)
                low = 3
                for keep in sorted((r, poke_r, pidfds_r.fileno())):
                    os.closerange(low, keep)
                    low = keep + 1
                os.closerange(low, 65536)
                import _signal

                for s in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
                    _signal.signal(s, _signal.SIG_IGN)  # outlive a group's signal
                _reaper_serve(r, poke_r, pidfds_r)
            except BaseException:
                code = 1
            os._exit(code)
        os.close(r)
        os.close(poke_r)
        pidfds_r.close()
        self.pid = pid

    def tell(self, what, arg=b""):
        data = memoryview(what + arg + b"\0")
        while data:
            try:
                data = data[os.write(self.w, data) :]
            except BlockingIOError:  # full: wake the reaper to read, and wait
                os.write(self.poke, b"!")
                os.set_blocking(self.w, True)
                try:
                    data = data[os.write(self.w, data) :]
                finally:
                    os.set_blocking(self.w, False)

    def track_toolcell(self, pid):
        """toolcell, our unreaped child pid, as a pidfd the reaper holds
        from now on, even if we are killed before it reads it."""
        import _socket

        fd = os.pidfd_open(pid)
        try:
            self.pidfds.sendmsg([b"W"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS,
                                          fd.to_bytes(4, sys.byteorder))])
        finally:
            os.close(fd)

    def track(self, path):
        """A private path, told before it exists: a kill between leaves nothing."""
        self.tell(b"P", os.fsencode(os.path.abspath(path)))

    def track_result(self, path, fd):
        """A result entry open as fd, which this run made: the reaper
        removes path only while it is still that file."""
        st = os.fstat(fd)
        self.tell(b"R", b"%d %d %s" % (st.st_dev, st.st_ino, os.fsencode(os.path.abspath(path))))

    def done(self):
        try:
            self.tell(b"D")
        except OSError:
            pass
        os.close(self.w)
        os.close(self.poke)
        self.pidfds.close()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


class _Told:
    """What the reaper was told so far."""

    def __init__(self):
        self.paths, self.results, self.done, self.buf = [], [], False, b""

    def feed(self, b):
        self.buf += b
        *records, self.buf = self.buf.split(b"\0")
        for rec in records:
            kind, arg = rec[:1], rec[1:]
            if kind == b"P":
                self.paths.append(arg)
            elif kind == b"R":
                dev, ino, path = arg.split(b" ", 2)
                self.results.append((path, (int(dev), int(ino))))
            elif rec == b"K":  # the result is written: never remove it
                self.results = []
            elif rec == b"D":
                self.done = True


def _drain(r, told):
    """Read all that is in the pipe; True at EOF."""
    while True:
        try:
            b = os.read(r, 65536)
        except BlockingIOError:
            return False
        if not b:
            return True
        told.feed(b)


def _last_pidfd(sock):
    """The newest toolcell pidfd sock holds (each run_toolcell sends one),
    the older ones closed; None when none came."""
    import _socket

    last = None
    while True:
        try:
            _, anc, _, _ = sock.recvmsg(1, _socket.CMSG_SPACE(4), _socket.MSG_DONTWAIT)
        except BlockingIOError:
            return last
        for level, kind, data in anc:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS and len(data) >= 4:
                if last is not None:
                    os.close(last)
                last = int.from_bytes(data[:4], sys.byteorder)


def _reaper_serve(r, poke, pidfds):
    import select

    told = _Told()
    os.set_blocking(r, False)
    p = select.poll()
    p.register(r, 0)  # POLLHUP only: a write does not wake us
    p.register(poke, select.POLLIN)
    while True:
        for fd, _ in p.poll():
            if fd == poke and not os.read(poke, 4096):
                p.unregister(poke)  # the writer is gone: r's EOF comes too
        if _drain(r, told) or told.done:
            break
    if told.done:
        return
    toolcell = _last_pidfd(pidfds)
    if toolcell is not None:  # toolcell's caller is gone: end it, and let it finish
        import _signal

        try:
            _signal.pidfd_send_signal(toolcell, _signal.SIGTERM)
        except OSError:
            pass  # it has ended already
        select.select([toolcell], [], [], REAPER_WAIT)
    for p, ident in reversed(told.results):
        _remove_if(p, ident)
    for p in reversed(told.paths):
        _remove_if(p, None)


def _remove_if(path, ident):
    """Remove path (a tree) if it is the file ident (dev, ino), or any when None."""
    d, n = os.path.split(path)
    try:
        dfd = os.open(d, O_DIR)
    except OSError:
        return
    try:
        if ident is not None:
            st = os.stat(n, dir_fd=dfd, follow_symlinks=False)
            if (st.st_dev, st.st_ino) != ident:
                return  # not ours (any more): another run's file of that name
        remove_tree(dfd, n)
    except OSError:
        pass
    finally:
        os.close(dfd)


# ---------------------------------------------------------------- running toolcell

_child = None  # toolcell's pid while it runs
_forwarded = None  # the signal passed on to it


def _on_signal(signum, frame):
    global _forwarded
    if _child is not None:
        _forwarded = signum
        try:
            os.kill(_child, signum)  # our own unreaped child: its pid is still ours
        except OSError:
            pass
        return
    raise Interrupted(signum)


def install_signal_handlers():
    """SIGTERM/SIGINT/SIGHUP: passed on to toolcell while it runs (it kills
    the sandbox and writes its record), else raised as Interrupted.
    _signal, not signal: the same calls without enum's start-up time."""
    import _signal

    for s in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP):
        _signal.signal(s, _on_signal)


def _exec_child(argv, fds, go):
    """In the forked child: wait until the parent has told the reaper our
    pid (EOF instead: the parent is gone, and nobody would end us; do not
    start), then stdio from fds and toolcell. Never returns."""
    try:
        if os.read(go, 1) != b"g":
            os._exit(125)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)  # dup2 clears close-on-exec on the target
        os.chdir("/")
        os.execve(argv[0], argv, {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    except BaseException:
        pass
    os._exit(127)


def run_toolcell(argv, fds, reaper):
    """Run toolcell (argv) with stdio fds; returns its wait status and the
    signal forwarded to it, if any. If this process dies first, the reaper
    ends toolcell (SIGTERM), so no sandbox outlives its caller."""
    global _child, _forwarded
    _forwarded = None
    go_r, go_w = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:
        os.close(go_w)  # the parent's end only: its death is our EOF
        _exec_child(argv, fds, go_r)
    os.close(go_r)
    _child = pid
    try:
        try:
            reaper.track_toolcell(pid)
            os.write(go_w, b"g")
        finally:
            os.close(go_w)
        while True:
            try:
                _, status = os.waitpid(pid, 0)
                break
            except InterruptedError:
                continue
    finally:
        _child = None
    return os.waitstatus_to_exitcode(status), _forwarded


def read_record(fd):
    """toolcell's result record in fd (a dict), or None."""
    size = os.fstat(fd).st_size
    if size > RECORD_MAX:
        return None
    try:
        return binary.parse_record(os.pread(fd, size, 0))
    except ValueError:
        return None


def toolcell_reason(fd):
    """toolcell's last line on the captured stderr."""
    size = os.fstat(fd).st_size
    return binary.last_diagnostic(os.pread(fd, STDERR_TAIL, max(0, size - STDERR_TAIL)))


def limits_refused(toolcell, fixed, reaper):
    """Whether toolcell refused a run for the request's limits: the same
    run with only the fixed options (python3 doing nothing) is accepted.
    toolcell's exit status decides, never its words; it runs on the refusal
    path only, so an accepted request pays nothing for it."""
    null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
    try:
        argv = [toolcell, "run", "--quiet"] + fixed + ["--", SANDBOX_PYTHON, "-S", "-c", "pass"]
        rc, forwarded = run_toolcell(argv, (null, null, null), reaper)
    finally:
        os.close(null)
    if forwarded is not None:
        raise Interrupted(forwarded)
    return rc == 0


# ---------------------------------------------------------------- one run


class Run:
    """One accepted request on its way to a Tool Result: the files it made
    in the results folder (removed again unless the result is written) and
    its private folder (always removed). The reaper removes both if this
    process is killed before it could."""

    def __init__(self, req, results):
        self.req, self.results = req, results
        self.results_abs = os.path.realpath(results)
        self.rfd = os.open(results, O_DIR)
        self.reaper = Reaper()
        self.created = []  # names in the results folder, in creation order
        self.tmp_base = self.tmp_name = None
        self.kept = False

    def private_folders(self):
        """(in copy, out folder) in a fresh folder under TMPDIR."""
        base = os.path.abspath(os.environ.get("TMPDIR") or "/tmp")
        name = "toolcell-tool-exec.%d.%s" % (os.getpid(), os.urandom(8).hex())
        self.reaper.track(os.path.join(base, name))
        try:
            self.tmp_base = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            os.mkdir(name, 0o700, dir_fd=self.tmp_base)
        except OSError as e:
            raise Failed("cannot make a private folder in %s (TMPDIR): %s" % (base, e.strerror))
        self.tmp_name = name
        root = os.path.join(base, name)
        tag = os.urandom(8).hex()
        in_copy, out_dir = os.path.join(root, "in-" + tag), os.path.join(root, "out-" + tag)
        os.mkdir(in_copy, 0o700)
        # 0700 as root too: toolcell opens binds with the caller's rights,
        # shows the caller's files as the tool's, and applies what the tool
        # wrote in /out to out_dir as the caller when the run ends
        os.mkdir(out_dir, 0o700)
        return in_copy, out_dir

    def create(self, name, data=b""):
        """A new file name in the results folder holding data, open for
        reading and writing; FileExistsError when name is taken (a file
        there is never replaced). Made without a name (O_TMPFILE), told to
        the reaper by its identity, then linked to name, complete: a kill
        at any point leaves nothing of ours and removes nothing of another
        run's. A file system without O_TMPFILE (or no /proc): see _create_named."""
        try:
            fd = os.open(".", os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, 0o644, dir_fd=self.rfd)
        except OSError as e:
            if e.errno not in _NO_TMPFILE:
                raise Failed("cannot write %s in %s: %s" % (name, self.results, e.strerror))
            return self._create_named(name, data)
        try:
            _write_all(fd, data)
            self.reaper.track_result(os.path.join(self.results_abs, name), fd)
            os.link("/proc/self/fd/%d" % fd, name, dst_dir_fd=self.rfd, follow_symlinks=True)
        except FileExistsError:
            os.close(fd)
            raise
        except OSError as e:
            os.close(fd)
            if e.errno == 2 and not os.path.exists("/proc/self/fd"):
                return self._create_named(name, data)
            raise Failed("cannot write %s in %s: %s" % (name, self.results, e.strerror))
        self.created.append(name)
        return fd

    def _create_named(self, name, data):
        """create() where O_TMPFILE is missing: data written under a
        temporary name made with O_EXCL, then linked to name. The reaper is
        told of each right after it exists, so a kill in those microseconds
        can leave that one file behind (never remove another's)."""
        tmp = ".%s.tmp" % name
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o644, dir_fd=self.rfd)
        except OSError as e:
            raise Failed("cannot write %s in %s: %s" % (tmp, self.results, e.strerror))
        self.reaper.track_result(os.path.join(self.results_abs, tmp), fd)
        try:
            _write_all(fd, data)
            self.reaper.track_result(os.path.join(self.results_abs, name), fd)
            os.link(tmp, name, src_dir_fd=self.rfd, dst_dir_fd=self.rfd, follow_symlinks=False)
        except BaseException:
            os.close(fd)
            _unlink(self.rfd, tmp)
            raise
        self.created.append(name)
        _unlink(self.rfd, tmp)
        return fd

    def reserve(self):
        """ThreeGate's result name, TS-<created_utc without - and :>-<id>,
        claimed by creating its stdout file (a second run in the same second
        waits for the next); (result_id, created_utc, fd)."""
        for _ in range(3):
            now = time.time()
            created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
            rid = "TS-%s-%s" % (created.replace(":", "").replace("-", ""), self.req.request_id)
            try:
                return rid, created, self.create(rid + ".stdout.txt")
            except FileExistsError:
                time.sleep(1.001 - (now % 1))
        raise Failed("cannot find a free result name in %s (three runs a second?)" % self.results)

    def write(self, name, data):
        """name, written in full before it appears. No fsync, as
        ThreeGate's runner: 5-20 ms a run on a busy disk."""
        os.close(self.create(name, data))

    def keep(self):
        """The result is written: from here on nothing removes it."""
        self.reaper.tell(b"K")
        self.kept = True

    def close(self):
        """Remove the private folder (never raises: the result, if written,
        stays whatever the tool left there), the partial results unless
        kept, and let the reaper go."""
        if self.tmp_name is not None:
            remove_tree(self.tmp_base, self.tmp_name)
        if self.tmp_base is not None:
            os.close(self.tmp_base)
        if not self.kept:
            for name in reversed(self.created):
                remove_tree(self.rfd, name)
        os.close(self.rfd)
        self.reaper.done()


def collect_outputs(run, out_dir, out_name):
    """Copy each expected output from out_dir into results/out_name/ (made
    only for the first one collected): (collected [(name, bytes, sha256)],
    missing [(name, reason)])."""
    collected, missing, total, cfd = [], [], 0, None
    ofd = os.open(out_dir, O_DIR)
    try:
        for name in run.req.outputs:
            try:  # no symbolic link followed, and a FIFO never blocks us
                src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY
                              | os.O_CLOEXEC, dir_fd=ofd)
            except OSError as e:
                why = {2: "not found in /out", 40: "a symbolic link, never followed"}
                missing.append((name, why.get(e.errno, "cannot be opened: %s" % e.strerror)))
                continue
            try:
                st = os.fstat(src)
                cap = min(OUTPUT_FILE_MAX, OUTPUTS_TOTAL_MAX - total)
                if not _is_reg(st.st_mode):
                    missing.append((name, "%s, not a regular file" % _kind(st.st_mode)))
                    continue
                if st.st_size > cap:
                    missing.append((name, "%d bytes, more than the %d allowed" % (st.st_size, cap)))
                    continue
                if cfd is None:
                    # told once made (by its identity: never another's of
                    # that name); a kill in between leaves it, empty
                    os.mkdir(out_name, 0o755, dir_fd=run.rfd)
                    run.created.append(out_name)
                    cfd = os.open(out_name, O_DIR, dir_fd=run.rfd)
                    run.reaper.track_result(os.path.join(run.results_abs, out_name), cfd)
                dst = os.open(name, O_NEW, 0o644, dir_fd=cfd)
                try:
                    got = copy_hashed(src, dst, cap)
                finally:
                    os.close(dst)
                if got is None:
                    os.unlink(name, dir_fd=cfd)
                    missing.append((name, "more than the %d bytes allowed" % cap))
                    continue
                total += got[0]
                collected.append((name, got[0], got[1]))
            finally:
                os.close(src)
    finally:
        os.close(ofd)
        if cfd is not None:
            os.close(cfd)
    if cfd is not None and not collected:  # never an empty TS-*.out/
        os.rmdir(out_name, dir_fd=run.rfd)
        run.created.remove(out_name)
    return collected, missing


# ---------------------------------------------------------------- the Tool Result

_LIMIT_WORDS = {
    "timeout": "the command reached its time limit",
    "memory_limit": "the command reached its memory limit",
    "pids_limit": "the command reached its process limit",
    "output_limit": "the command exceeded its output limit and was stopped",
    "syscall_denied": "the command made a forbidden system call",
    "signaled": "the command was killed by a signal",
}


def _num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def limits_in_force(record):
    """[(name, value text, enforced_by)] from the record's limits."""
    lim = record.get("limits") if isinstance(record.get("limits"), dict) else {}
    out = []
    for key, name, conv in (
        ("timeout", "time_limit_sec", lambda v: "%g" % (v / 1000)),
        ("cpus", "cpu_limit", lambda v: "%g" % v),
        ("memory", "memory_limit_mb", lambda v: "%g" % (v / (1 << 20))),
        ("pids", "pids", lambda v: "%d" % v),
    ):
        v = lim.get(key) if isinstance(lim.get(key), dict) else {}
        value = _num(v.get("value"))
        by = v.get("enforced_by") if isinstance(v.get("enforced_by"), str) else "none"
        out.append((name, conv(value) if value is not None else "null", by))
    return out


def _sha256(size):
    """A new sha256 for about size bytes: Python's own up to HASH_SMALL,
    hashlib's (OpenSSL) above."""
    if size <= HASH_SMALL:
        try:
            from _sha256 import sha256
        except ImportError:  # not Debian 12's Python 3.11: hashlib's
            from hashlib import sha256
    else:
        from hashlib import sha256
    return sha256()


def _sha256_file(fd):
    h, off = _sha256(os.fstat(fd).st_size), 0
    while True:
        b = os.pread(fd, 1 << 20, off)
        if not b:
            return h.hexdigest()
        h.update(b)
        off += len(b)


def result_fields(req, rid, created, record, rc, files, collected, missing):
    """The dict threegate.render takes."""
    yq = threegate.yq
    status = record.get("status") if isinstance(record.get("status"), str) else "unknown"
    wall = _num(record.get("wall_ms"))
    lims = limits_in_force(record)
    out_name = rid + ".out"
    arts = [(files[k][0], files[k][1]) for k in ("stdout", "stderr", "record")]
    arts += [("%s/%s" % (out_name, n), d) for n, _, d in collected]
    added = [
        ("toolcell_status", yq(status)),
        ("toolcell_exit_status", "%d" % rc),
        ("toolcell_limits", "\n" + "\n".join(
            "  %s: {value: %s, enforced_by: %s}" % (n, v, yq(b)) for n, v, b in lims)),
        ("toolcell_record", yq(files["record"][0])),
        ("toolcell_outputs", "\n" + "\n".join(
            "  - path: %s\n    bytes: %d\n    sha256: %s" % (yq("%s/%s" % (out_name, n)), s, yq(d))
            for n, s, d in collected) if collected else "[]"),
        ("toolcell_outputs_missing", "\n" + "\n".join(
            "  - path: %s\n    reason: %s" % (yq(n), yq(w)) for n, w in missing)
         if missing else "[]"),
    ]
    why = _LIMIT_WORDS.get(status)
    if status == "signaled" and isinstance(record.get("signal_name"), str):
        why = "the command was killed by %s" % record["signal_name"]
    return {
        "result_id": rid,
        "created": created,
        "request_id": req.request_id,
        "exit_code": rc,
        "runtime_sec": wall / 1000 if wall is not None else 0.0,
        "artifacts": arts,
        "stdout_sha256": files["stdout"][1],
        "stderr_sha256": files["stderr"][1],
        "stdout_name": files["stdout"][0],
        "stderr_name": files["stderr"][0],
        "cmd": req.command,
        "language": req.language,
        "outputs": [(n, "%s/%s" % (out_name, n), s, d) for n, s, d in collected],
        "missing": missing,
        "limits_line": ", ".join(
            "%s %s (%s)" % (n, v, "not enforced on this host" if b == "none" else "by " + b)
            for n, v, b in lims),
        "unexpected": (why + " (toolcell status %s)." % status) if why else "None observed.",
        "toolcell": added,
    }


# ---------------------------------------------------------------- main


def execute(req, in_dir, results, toolcell):
    """Copy the inputs, run, collect, write the Tool Result; its path."""
    run = Run(req, results)
    try:
        in_copy, out_dir = run.private_folders()
        if req.inputs:
            copy_inputs(req, in_dir, in_copy)
        rid, created, out_fd = run.reserve()
        files = {}
        try:
            err_fd = run.create(rid + ".stderr.txt")
        except BaseException:
            os.close(out_fd)
            raise
        rec_fd = os.memfd_create("toolcell-record", os.MFD_CLOEXEC)
        null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fixed = base_options() + ["--ro-bind", "%s:%s" % (in_copy, INSIDE_IN),
                                      "--workspace", "%s:%s" % (out_dir, INSIDE_OUT)]
            argv = [toolcell, "run", "--quiet", "--result-fd", "3"] + fixed
            argv += limit_options(req.timeout, req.cpus, req.mem_mib)
            argv += ["--"] + sandbox_argv(req.words)
            rc, forwarded = run_toolcell(argv, (null, out_fd, err_fd, rec_fd), run.reaper)
            if forwarded is not None:
                raise Interrupted(forwarded)
            record = read_record(rec_fd)
            if record is None or record.get("status") in ("sandbox_error", "rejected"):
                err = (record or {}).get("error")
                why = err.get("message") if isinstance(err, dict) else toolcell_reason(err_fd)
                if record is None and rc == binary.REFUSED and \
                        limits_refused(toolcell, fixed, run.reaper):
                    raise Rejected("Tool Request limits are above the policy's.",
                                   [why or "toolcell refused the request's limits"])
                raise Failed("execution failed: toolcell could not run the command (exit "
                             "status %d)%s" % (rc, ": " + why if why else ""))
            files["stdout"] = (rid + ".stdout.txt", _sha256_file(out_fd))
            files["stderr"] = (rid + ".stderr.txt", _sha256_file(err_fd))
            raw = os.pread(rec_fd, RECORD_MAX, 0)
        finally:
            for fd in (out_fd, err_fd, rec_fd, null):
                os.close(fd)
        run.write(rid + ".record.json", raw)
        h = _sha256(len(raw))
        h.update(raw)
        files["record"] = (rid + ".record.json", h.hexdigest())
        collected, missing = collect_outputs(run, out_dir, rid + ".out")
        fields = result_fields(req, rid, created, record, rc, files, collected, missing)
        run.write(rid + ".md", threegate.render(fields).encode("utf-8"))
        run.keep()
        return os.path.join(results, rid + ".md")
    finally:
        run.close()


def main(argv):
    opts = parse_options(argv, {"--request", "--results-dir", "--inputs-dir"}, PROG)
    if opts == "help":
        os.write(1, HELP.encode())
        return EXIT_ACCEPTED
    for key in ("--request", "--results-dir"):
        if key not in opts:
            raise Refused("%s is required (%s)" % (key, USAGE[7:]))
    path = opts["--request"]
    results = opts["--results-dir"]
    try:
        os.makedirs(results, exist_ok=True)
    except OSError as e:
        raise Failed("cannot make --results-dir %s: %s" % (results, e.strerror))
    errs = threegate.Errors(path)
    req = threegate.validate(read_request(path), errs)
    if errs.items:
        raise Rejected("Tool Request validation failed.", errs.lines(), errs.warnings)
    for w in errs.warnings:
        _line("WARNING: " + w)
    toolcell = find_toolcell(sys.argv[0])
    in_dir = opts.get("--inputs-dir") or os.path.dirname(os.path.abspath(path))
    md = execute(req, in_dir, results, toolcell)
    os.write(1, ("ACCEPT: wrote Tool Result %s\n" % md).encode())
    return EXIT_ACCEPTED


def _line(text, fd=2):
    try:
        os.write(fd, (text + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def run_main(argv):
    """main(argv) with every error as ThreeGate's runner words it, then exit."""
    for fd in (0, 1, 2):  # a closed std fd gets /dev/null, so no file lands there
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)
    install_signal_handlers()
    try:
        code = main(argv)
    except Refused as e:  # a bad option
        _line("REJECT: %s" % e)
        code = EXIT_REJECTED
    except Rejected as e:
        _line("REJECT: " + e.head)
        for t in e.errors:
            _line("ERROR: " + t)
        for t in e.warnings:
            _line("WARNING: " + t)
        code = EXIT_REJECTED
    except Failed as e:
        _line("ERROR: %s" % e)
        code = EXIT_RUNTIME
    except Interrupted as e:
        _line("ERROR: interrupted by signal %d" % e.signum)
        code = EXIT_RUNTIME
    except OSError as e:
        where = e.filename if e.filename is not None else ""
        _line("ERROR: %s%s" % (where + ": " if where else "", e.strerror or e))
        code = EXIT_RUNTIME
    except Exception as e:  # no traceback on any input: one line, and say it is ours
        _line("ERROR: internal error: %s: %s" % (type(e).__name__, e))
        code = EXIT_RUNTIME
    os._exit(code)
