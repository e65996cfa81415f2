"""toolcell session harness: one Python interpreter whose state lives
across requests, inside the sandbox. Run by toolcell as

    python3 -I -S /usr/lib/toolcell/session.pyc CONFIG

CONFIG is JSON: {"allowed_imports": [...], "default_imports": {alias: module},
"max_bytes": N}. toolcell writes one line per request on stdin,
{"nonce": N, "request": {...}}, and reads one line per answer from the
descriptor that was stdout when this started, {"nonce": N, ...}. Nothing
the code under test prints reaches that descriptor, and it reads no
request: stdout and stderr are captured per request, sys.stdin is empty,
and descriptors 0 and 1 themselves are /dev/null. A reset is a fresh
sandbox (toolcell's doing), not something this file does.
toolcell, not this file, owns the answer's id, timed_out, duration_s and
state_lost.

"allowed_imports" names modules (dotted: "matplotlib.pyplot" allows it
and what is below it). A default import that fails (ModuleNotFoundError)
is written once on stderr and answers every request, which then does not
run: no code runs without the state it was promised.

The import allow-list is a convenience for the caller's contract, not a
security boundary: the sandbox around this process is the boundary.
"""

import _thread
import builtins
import io
import json
import os
import stat
import sys

# Not imported here: traceback (linecache, tokenize: ~5 ms of a warm entry's
# session start, more than the first request's own work) waits for the
# first exception, and base64 (~0.7 ms) for the first request with files;
# the lock is threading's own type (threading.Lock is _thread.allocate_lock)
# without threading's import (~1 ms).
_base64 = None


def _site_packages():
    """The rootfs's site-packages folders (dist-packages on Debian) on
    sys.path, their .pth files read, as python3 -I has them: this runs
    with -S, which leaves out site's builtins (exit, help, ...) and these
    folders with them, yet an allowed import of numpy must find numpy."""
    import site

    for folder in site.getsitepackages():
        if os.path.isdir(folder):
            site.addsitedir(folder)


_site_packages()
CONFIG = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
ALLOWED = frozenset(CONFIG.get("allowed_imports") or ())
DEFAULTS = dict(CONFIG.get("default_imports") or {})
MAX_BYTES = int(CONFIG.get("max_bytes") or 1 << 20)
WORKDIR = os.getcwd()

_real_import = builtins.__import__
# errors="replace": a lone surrogate the code printed becomes "?", so an
# answer is always valid UTF-8
_answers = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="replace", buffering=1)
# newline="\n": toolcell frames by "\n" alone; a "\r" is JSON white space
_requests = os.fdopen(os.dup(0), "r", encoding="utf-8", newline="\n")
_null = os.open(os.devnull, os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
os.close(_null)
sys.stdin = io.StringIO("")


def _allowed(name):
    """name, or a package above it, is on the list: "matplotlib.pyplot" on
    the list allows matplotlib.pyplot and below, not matplotlib itself."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in ALLOWED for i in range(1, len(parts) + 1))


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    # `from matplotlib import pyplot` asks for matplotlib with fromlist
    # ("pyplot",): allowed when each name it takes is
    if level == 0 and not (_allowed(name) or (
            fromlist and all(isinstance(f, str) and _allowed(f"{name}.{f}")
                             for f in fromlist))):
        # with no list at all, also the words of an interpreter without
        # __import__ (rustic's PythonExecExecutor without a whitelist)
        raise ImportError(
            f"Import of '{name}' is not allowed. Allowed imports: {sorted(ALLOWED)}"
            + ("" if ALLOWED else " (__import__ not found: this session allows no imports)"))
    return _real_import(name, globals, locals, fromlist, level)


class _Capture(io.TextIOBase):
    """A text stream that keeps at most MAX_BYTES characters; shared by
    every thread, so a stray thread's print lands in whatever request is
    running (never in an answer's framing)."""

    def __init__(self):
        self._parts, self._n, self._lock = [], 0, _thread.allocate_lock()
        self.truncated = False

    def writable(self):
        return True

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        with self._lock:
            room = MAX_BYTES - self._n
            if len(s) > room:
                s, self.truncated = s[:max(room, 0)], True
            self._parts.append(s)
            self._n += len(s)
        return len(s)

    def value(self):
        with self._lock:
            return "".join(self._parts)


def _fresh_state():
    """The globals every request starts from, and the exception of a
    default import that failed (None when all were imported)."""
    b = dict(vars(builtins))
    b["__import__"] = _guarded_import
    state = {"__name__": "__main__", "__builtins__": b}
    for alias, module in DEFAULTS.items():
        try:
            value = _real_import(module)
            for part in module.split(".")[1:]:
                value = getattr(value, part)
        except Exception as e:  # ModuleNotFoundError, above all
            failed = {"type": type(e).__name__,
                      "message": f"default import {alias} = {module} failed: {e}",
                      "traceback": None}
            # toolcell passes this on to its own stderr
            sys.stderr.write(f"session: {failed['message']} ({failed['type']})\n")
            sys.stderr.flush()
            return state, failed
        state[alias] = value
    return state, None


def _jsonable(value):
    try:
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError):
        return repr(value)


def _files_codec():
    """base64, imported at the first request with files: before its code
    runs, so nothing that code does to sys.modules or sys.path can take it
    away later (an ImportError here is the request's exception)."""
    global _base64
    if _base64 is None:
        import base64

        if not isinstance(base64, type(sys)):  # the code put something else there
            raise ImportError("base64: sys.modules holds no module under that name")
        _base64 = base64


def _write_inputs(files):
    for name, data in (files or {}).items():
        if not isinstance(name, str) or "/" in name or name in ("", ".", ".."):
            raise ValueError(f"input file name {name!r}: a plain file name, no '/'")
        blob = _base64.b64decode(data, validate=True)
        fd = os.open(os.path.join(WORKDIR, name),
                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(blob)


def _read_outputs(names):
    out = {}
    if _base64 is None:  # its import failed: the request's exception says why
        return out
    for name in names or ():
        if not isinstance(name, str) or "/" in name or name in ("", ".", ".."):
            out[str(name)] = None
            continue
        try:
            fd = os.open(os.path.join(WORKDIR, name),
                         os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            out[name] = None
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                out[name] = None
                continue
            data = os.read(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
        out[name] = _base64.b64encode(data[:MAX_BYTES]).decode("ascii")
    return out


def _traceback(e):
    """The traceback of the caller's code, without this file's frames."""
    try:
        import traceback

        here = _traceback.__code__.co_filename  # session.py, also when run as session.pyc
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename != here]
        return "".join(["Traceback (most recent call last):\n"]
                       + traceback.format_list(frames)
                       + traceback.format_exception_only(type(e), e))
    except BaseException:  # the code took traceback away or replaced it: its words alone
        try:
            words = str(e)
        except BaseException:
            words = "<exception str() failed>"
        return f"{type(e).__name__}: {words}\n"


def _run(state, req):
    out, err = _Capture(), _Capture()
    answer = {"success": False, "stdout": "", "stderr": "", "globals": {},
              "exception": None, "output_files": {}}
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        if req.get("input_files") or req.get("output_files"):
            _files_codec()
        _write_inputs(req.get("input_files"))
        globs = req.get("globals") or {}
        if not isinstance(globs, dict):
            raise TypeError("globals: expected an object")
        state.update(globs)
        code = req.get("code")
        if not isinstance(code, str):
            raise TypeError("code: expected a string")
        exec(compile(code, "<session>", "exec"), state)
        answer["success"] = True
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: the session goes on
        answer["exception"] = {"type": type(e).__name__, "message": str(e),
                               "traceback": _traceback(e)}
    finally:
        sys.stdout, sys.stderr = saved
    answer["stdout"], answer["stderr"] = out.value(), err.value()
    names = req.get("return_globals") or []
    answer["globals"] = {n: _jsonable(state[n]) for n in names
                         if isinstance(n, str) and n in state}
    try:
        answer["output_files"] = _read_outputs(req.get("output_files"))
    except OSError as e:
        answer["output_files"] = {}
        answer["stderr"] += f"\nsession: output files: {e}"
    return answer


def main():
    state, failed = _fresh_state()
    for line in _requests:
        try:
            msg = json.loads(line)
            nonce, req = msg["nonce"], msg["request"]
        except (ValueError, KeyError, TypeError):
            continue  # not from toolcell: nothing to answer
        if failed:  # no request runs without the state it was promised
            answer = {"success": False, "stdout": "", "stderr": "", "globals": {},
                      "exception": failed, "output_files": {}}
        else:
            answer = _run(state, req)
        answer["nonce"] = nonce
        try:
            line = json.dumps(answer, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:  # never expected: the harness's own fault
            line = json.dumps({"nonce": nonce, "success": False, "exception": {
                "type": "InvalidResponse", "message": f"session: {e}", "traceback": None}})
        _answers.write(line + "\n")


if __name__ == "__main__":
    main()
