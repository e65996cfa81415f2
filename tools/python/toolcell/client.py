"""Call toolcell from a Python agent framework: standard library only (Python 3.11).

Four entry points, one per way a framework runs Python tools:

    call(tool, request, **limits) -> dict
        `toolcell call`: one JSON request in, the envelope out, as a dict
        ({"ok": true, "data": ..., "meta": {...}} or {"ok": false, "error":
        {"type", "message", "source"}, "meta": {...}}). The tool's own failure,
        and every limit that ended it (Timeout, MemoryError, MemoryLimit, ...),
        is an envelope with ok false, never an exception.

    run(argv, stdin=b"", **limits) -> (exit_code, stdout, stderr, record)
        `toolcell run` (or `toolcell python` with verb="python"): the raw
        relay. exit_code is subprocess's (-N when the tool was killed by
        signal N), stdout and stderr are bytes, record is the result record
        (README.md, "The result record") read through --result-fd.

    Client(socket_path=None)
        `toolcell serve`'s client (toolcell.serve): one persistent connection;
        call(source, args, **limits), exec(source, argv, stdin, **limits),
        exec_bytes() and stats(), each answered from a fresh warm sandbox;
        a call's limits (timeout, memory, cpu_time, file_size, open_files,
        stdout_size, stderr_size) only lower the server's; the server's
        refusals raise ToolcellRefused with its words.

    Session(allowed_imports=None, default_imports=None, **limits)
        `toolcell session`: a long-lived interpreter that keeps globals
        between calls, spoken to over JSON lines. Two shapes of call:
        execute(code=, globals_dict=, return_globals=) -> Result, whose
        .success, .error, .stdout, .stderr and .globals are the
        PythonExecExecutor document's (Result is also the answer dict);
        run(CodeSnippet or str, timeout_seconds=60, input_files=,
        output_filenames=) -> ExecutionResult, the fields of rustic's code
        (stdout, stderr, exit_code 0 or -1, exception, timed_out,
        duration_seconds, output_files, ...).

Limits and settings are keyword arguments named like toolcell's options with
'_' for '-': memory="128M" (or bytes as an int), timeout=2.5 (seconds), cpus,
pids, cpu_time, tmp_size, tmp_inodes, shm_size, file_size, open_files,
request_size, stdout_size, stderr_size, policy, rootfs, cgroup_parent,
workspace, ro_bind and bind (a path, "HOST:INSIDE", a (host, inside) pair, or
a list of them), pass_env (a name or a list), env (a dict), quiet, verbose,
script_dir (python only). A value of None means "not given"; an unknown name
is a TypeError. The policy stays the ceiling: a limit above it is refused.

Which toolcell runs: the toolcell= argument when given, else $TOOLCELL when
set and not empty, else `toolcell` on PATH. A binary that is not there (or
not executable) raises ToolcellNotFound; nothing falls back silently.

Errors:
    ToolcellNotFound  the binary is missing or cannot be executed
    ToolcellRefused   toolcell refused the run or could not build the sandbox
                      (exit 125 with a toolcell-sourced error, or a record whose
                      status is "rejected" / "sandbox_error", or a command it
                      does not know, such as `session` on an older toolcell);
                      .message is toolcell's own words
    ToolcellError     the base class; raised as such when toolcell broke its
                      own contract (no envelope, no record, a malformed reply)
    ValidationError   (a ValueError) Session.run() was given a language other
                      than python
"""

import base64
import dataclasses
import fcntl
import itertools
import json
import os
import selectors
import subprocess
import textwrap
import threading
import time

from toolcell import binary

__all__ = [
    "CodeSnippet",
    "ExecutionException",
    "ExecutionResult",
    "Result",
    "ToolcellError",
    "ToolcellNotFound",
    "ToolcellRefused",
    "Session",
    "ValidationError",
    "call",
    "find_toolcell",
    "run",
]

REFUSED = binary.REFUSED
STDERR_KEEP = 64 * 1024  # bytes of toolcell's stderr a Session keeps for its errors
LINE_MAX = 256 * 1024 * 1024  # longest session response line accepted
SESSION_GRACE = 30.0  # seconds past a request's timeout_s before the client gives up
STDERR_WAIT = 1.0  # seconds to wait for toolcell's stderr line about a failed default import
DEFAULT_IMPORT_FAILED = "default import "  # how the session's message for one begins
CLOSE_WAIT = 5.0  # seconds close() waits for `toolcell session` to exit

class ToolcellError(Exception):
    """toolcell itself failed; the base of the other two."""

    def __init__(self, message, *, exit_code=None, stderr=b""):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr


class ToolcellNotFound(ToolcellError):
    """The toolcell binary is missing or cannot be executed."""


class ToolcellRefused(ToolcellError):
    """toolcell refused (bad option, limit above the policy, bad request, unknown
    command) or could not build the sandbox. .type is the envelope's error type
    (BadRequest, SandboxError) or the record's status when there is one;
    .envelope / .record hold what toolcell printed or wrote, when it did."""

    def __init__(self, message, *, type=None, envelope=None, record=None, exit_code=REFUSED,
                 stderr=b""):
        super().__init__(message, exit_code=exit_code, stderr=stderr)
        self.type = type
        self.envelope = envelope
        self.record = record


class ValidationError(ValueError):
    """Session.run() was asked for a language it does not run."""


@dataclasses.dataclass
class CodeSnippet:
    """What Session.run() runs (rustic's CodeSnippet: any object with
    .language and .code will do)."""
    code: str
    language: str = "python"


@dataclasses.dataclass
class ExecutionException:
    """The exception a run raised (rustic's ExecutionException)."""
    type: str
    message: str
    traceback: str | None = None


@dataclasses.dataclass
class ExecutionResult:
    """One Session.run() (rustic's ExecutionResult): exit_code 0 when the code
    ran to its end, -1 when it raised or ran out of time."""
    input_snippet: object
    exit_code: int
    stdout: str = ""
    stderr: str = ""
    exception: ExecutionException | None = None
    timed_out: bool = False
    duration_seconds: float | None = None
    output_files: dict = dataclasses.field(default_factory=dict)
    logs: list = dataclasses.field(default_factory=list)
    resources_used: dict | None = None


class Result(dict):
    """toolcell session's answer: a dict of its fields, which are also
    attributes (result.success, result.stdout, result.globals, ...), plus
    .error: None on success, else "Type: message" (the PythonExecExecutor
    document's shape)."""

    def __getattr__(self, name):
        if name == "error":
            e = self.get("exception")
            if self.get("success") or not isinstance(e, dict):
                return None if self.get("success") else "failed"
            return f"{e.get('type')}: {e.get('message')}"
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


# ---------------------------------------------------------------- finding and options


def find_toolcell(toolcell=None):
    """The toolcell binary to run: toolcell= when given, else $TOOLCELL, else PATH."""
    try:
        return binary.find(toolcell)
    except binary.NotFound as e:
        raise ToolcellNotFound(str(e)) from None


def _options(limits, verb):
    """toolcell's options for the keyword arguments in limits."""
    return binary.options(limits, verb)


def _last_toolcell_line(stderr):
    """toolcell's last diagnostic ("toolcell: ...") in stderr, without the
    prefix; else the end of stderr."""
    line = binary.last_diagnostic(stderr)
    if line is not None:
        return line
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    return text.strip()[-2000:]


def _spawn_error(exe, e):
    return ToolcellNotFound(f"cannot run toolcell {exe}: {e.strerror}")


def _encode(value, what):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} is not JSON: {e}") from None


# ---------------------------------------------------------------- call


def call(tool, request, *, toolcell=None, cwd=None, **limits):
    """Run `toolcell call TOOL` on one request; return the envelope as a dict.

    request is any JSON-serialisable value (or bytes holding JSON, sent as they
    are). Returns the envelope for exit 0 (ok true) and 1 (the tool failed in
    any way: its exception, its own error, a limit, a bad response). Raises
    ToolcellRefused for exit 125 (.type BadRequest or SandboxError, .message
    toolcell's reason), ToolcellNotFound when toolcell is missing, and
    ToolcellError when toolcell printed no envelope.
    """
    exe = find_toolcell(toolcell)
    argv = [exe, "call", *_options(limits, "call"), "--", os.fspath(tool)]
    data = _encode(request, "request")
    try:
        proc = subprocess.run(argv, input=data, capture_output=True, cwd=cwd, check=False)
    except (FileNotFoundError, PermissionError) as e:
        raise _spawn_error(exe, e) from None
    rc = proc.returncode
    try:
        envelope = json.loads(proc.stdout)
        if not isinstance(envelope, dict) or type(envelope.get("ok")) is not bool:
            raise ValueError("not an envelope")
    except ValueError:
        if rc == REFUSED:
            raise ToolcellRefused(_last_toolcell_line(proc.stderr), stderr=proc.stderr) from None
        raise ToolcellError(f"toolcell call printed no envelope (exit {rc}): "
                            f"{_last_toolcell_line(proc.stderr)}",
                            exit_code=rc, stderr=proc.stderr) from None
    error = envelope.get("error") if not envelope["ok"] else None
    if rc == REFUSED:
        if isinstance(error, dict) and error.get("source") == "toolcell":
            raise ToolcellRefused(str(error.get("message", "")), type=error.get("type"),
                                  envelope=envelope, stderr=proc.stderr)
        raise ToolcellError(f"toolcell call exited 125 without a toolcell error: {envelope!r}",
                            exit_code=rc, stderr=proc.stderr)
    if rc not in (0, 1):
        raise ToolcellError(f"toolcell call ended with status {rc}: "
                            f"{_last_toolcell_line(proc.stderr)}", exit_code=rc,
                            stderr=proc.stderr)
    return envelope


# ---------------------------------------------------------------- run


def _read_all(fd, out):
    with os.fdopen(fd, "rb") as f:
        out.append(f.read())


def run(argv, stdin=b"", *, toolcell=None, verb="run", cwd=None, **limits):
    """Run `toolcell run [OPTIONS] -- ARGV...` (verb="python": `toolcell python`,
    ARGV being python3's own command line); return (exit_code, stdout, stderr,
    record).

    exit_code is the tool's, as subprocess reports it (-N for a signal; 124 for
    a toolcell time limit); the record dict, not the code, says what happened.
    stdin is bytes (a str is sent as UTF-8). Raises ToolcellRefused when toolcell
    refused or could not build the sandbox, ToolcellNotFound when it is
    missing, ToolcellError when it wrote no record.
    """
    if verb not in ("run", "python"):
        raise ValueError(f"verb must be 'run' or 'python', not {verb!r}")
    if isinstance(argv, (str, bytes)):
        raise TypeError("argv is a list of arguments, not one string")
    if stdin is None:
        stdin = b""
    elif isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    exe = find_toolcell(toolcell)
    r, w = os.pipe()
    try:
        if w < 3:  # --result-fd wants 3 or above
            w3 = fcntl.fcntl(w, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(w)
            w = w3
        cmd = [exe, verb, *_options(limits, verb), "--result-fd", str(w), "--",
               *[os.fspath(a) for a in argv]]
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, pass_fds=(w,), cwd=cwd)
        except (FileNotFoundError, PermissionError) as e:
            raise _spawn_error(exe, e) from None
    except BaseException:
        os.close(r)
        os.close(w)
        raise
    os.close(w)
    # the record is read beside stdout and stderr, so that no pipe can fill and stall toolcell
    chunks = []
    reader = threading.Thread(target=_read_all, args=(r, chunks), daemon=True)
    reader.start()
    stdout, stderr = proc.communicate(stdin)
    reader.join()
    raw = chunks[0] if chunks else b""
    rc = proc.returncode
    try:
        record = binary.parse_record(raw)
    except ValueError:
        raise ToolcellError(f"toolcell wrote a partial result record (exit {rc})",
                            exit_code=rc, stderr=stderr) from None
    if record is None:
        if rc == REFUSED:
            raise ToolcellRefused(_last_toolcell_line(stderr), stderr=stderr)
        raise ToolcellError(f"toolcell wrote no result record (exit {rc}): "
                            f"{_last_toolcell_line(stderr)}", exit_code=rc, stderr=stderr)
    if record.get("status") in ("rejected", "sandbox_error"):
        err = record.get("error") or {}
        raise ToolcellRefused(str(err.get("message") or _last_toolcell_line(stderr)),
                              type=record["status"], record=record, exit_code=rc,
                              stderr=stderr)
    return rc, stdout, stderr, record


# ---------------------------------------------------------------- session


class Session:
    """A `toolcell session`: one sandboxed interpreter that keeps its globals
    between execute() calls.

    The process starts here; a toolcell that cannot run raises ToolcellNotFound
    now, one that refuses (a limit above the policy, or no `session` command
    at all) raises ToolcellRefused on the first request. Use it as a context
    manager, or call close().

    Requests and responses are JSON lines (README.md, "Stateful sessions"):
    toolcell owns each response's id, timed_out, duration_s and state_lost.

    server: each sandbox of the session is a warm entry of the `toolcell
    serve` at that socket (True: the default socket), started in a few
    milliseconds; the server's policy applies, and only its limits may be
    lowered here (toolcell session --server).
    """

    def __init__(self, *, toolcell=None, cwd=None, allowed_imports=None, default_imports=None,
                 server=None, **limits):
        exe = find_toolcell(toolcell)
        argv = [exe, "session", *_options(limits, "session")]
        if server:
            argv += ["--server"] + ([] if server is True else [os.fspath(server)])
        # within the policy's session.max_imports (toolcell refuses others)
        for name in [allowed_imports] if isinstance(allowed_imports, str) else \
                allowed_imports or ():
            argv += ["--allow-import", str(name)]
        for alias, module in dict(default_imports or {}).items():
            argv += ["--default-import", f"{alias}={module}"]
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, cwd=cwd)
        except (FileNotFoundError, PermissionError) as e:
            raise _spawn_error(exe, e) from None
        self._ids = itertools.count(1)
        self._buf = bytearray()
        self._stderr = bytearray()
        self._closed = False
        self._failed = None  # a default import that failed: every request raises it
        self._lock = threading.Lock()
        self._drain = threading.Thread(target=self._drain_stderr, daemon=True)
        self._drain.start()

    # -- public

    def execute(self, code, globals=None, return_globals=None, timeout_s=None,
                input_files=None, output_files=None, *, globals_dict=None):
        """Run code; return the answer as a Result (a dict whose keys are also
        attributes): id, success, stdout, stderr, globals (the names asked for
        in return_globals), exception (None or {"type", "message",
        "traceback"}), timed_out, duration_s, output_files (name -> bytes,
        decoded from the protocol's base64), state_lost, timeout_clamped_to
        (when timeout_s was above the session's --timeout), and .error.

        globals (or globals_dict, the document's name): names to set first
        (JSON values); input_files: name -> bytes (or str, sent as UTF-8)
        placed for the code to read; output_files: names whose contents come
        back. code indented as a whole (a triple-quoted block) is dedented.
        The code's own failure is a result with success false, never an
        exception; a default import that failed raises ToolcellRefused.
        """
        if globals is not None and globals_dict is not None:
            raise TypeError("give globals or globals_dict, not both")
        if globals_dict is not None:
            globals = globals_dict
        request = {"id": next(self._ids),
                   "code": textwrap.dedent(code) if isinstance(code, str) else code}
        if globals is not None:
            request["globals"] = dict(globals)
        if return_globals is not None:
            request["return_globals"] = list(return_globals)
        if timeout_s is not None:
            request["timeout_s"] = timeout_s
        if input_files is not None:
            request["input_files"] = {
                name: base64.b64encode(data.encode("utf-8") if isinstance(data, str)
                                       else bytes(data)).decode("ascii")
                for name, data in input_files.items()}
        if output_files is not None:
            request["output_files"] = list(output_files)
        response = self._request(request, timeout_s)
        files = response.get("output_files")
        if isinstance(files, dict):
            try:
                response["output_files"] = {name: base64.b64decode(data, validate=True)
                                            for name, data in files.items()}
            except (TypeError, ValueError):
                raise self._broken("output_files is not base64") from None
        self._check_default_imports(response)
        return Result(response)

    def run(self, code, timeout_seconds=60, input_files=None, output_filenames=None):
        """Run a CodeSnippet (or a str of Python); return an ExecutionResult,
        rustic's shape: exit_code 0, or -1 with .exception when the code
        raised or ran past its time (timed_out). timeout_seconds above the
        session's --timeout runs with --timeout. Raises ValidationError for a
        language other than python."""
        language = getattr(code, "language", "python")
        text = getattr(code, "code", code)
        if str(language).lower() != "python":
            raise ValidationError(f"Unsupported language: {language}. Supported: ['python']")
        if not isinstance(text, str):
            raise TypeError("code: expected a str or a CodeSnippet")
        r = self.execute(text, timeout_s=timeout_seconds, input_files=input_files,
                         output_files=output_filenames)
        e = r.get("exception")
        files = {k: v for k, v in (r.get("output_files") or {}).items() if v is not None}
        return ExecutionResult(
            input_snippet=code if not isinstance(code, str) else CodeSnippet(code),
            exit_code=0 if r.get("success") else -1,
            stdout=r.get("stdout", ""), stderr=r.get("stderr", ""),
            exception=ExecutionException(str(e.get("type")), str(e.get("message")),
                                         e.get("traceback")) if isinstance(e, dict) else None,
            timed_out=bool(r.get("timed_out")), duration_seconds=r.get("duration_s"),
            output_files=files,
            resources_used={"state_lost": r.get("state_lost"),
                            "timeout_clamped_to": r.get("timeout_clamped_to")})

    def reset(self):
        """Forget every global; return toolcell's response."""
        return self._request({"id": next(self._ids), "op": "reset"}, None)

    def shutdown(self):
        """rustic's shutdown(): forget every global; the session goes on
        (a later run starts from an empty state). close() ends it."""
        return self.reset()

    def close(self):
        """Ask toolcell to shut the session down and wait for it (then kill it).
        Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        proc = self._proc
        try:
            proc.stdin.write(b'{"op":"shutdown"}\n')
            proc.stdin.flush()
        except OSError:
            pass
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._finish()

    @property
    def returncode(self):
        """toolcell's exit status once it ended, else None."""
        return self._proc.poll()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # -- protocol

    def _check_default_imports(self, response):
        """A default import that failed answers every request: raise it,
        with toolcell's stderr."""
        e = response.get("exception")
        if not (isinstance(e, dict) and e.get("traceback") is None and
                str(e.get("message", "")).startswith(DEFAULT_IMPORT_FAILED)):
            return
        end = time.monotonic() + STDERR_WAIT
        while DEFAULT_IMPORT_FAILED.encode() not in self._stderr and time.monotonic() < end:
            time.sleep(0.01)  # the line toolcell copied from the session, on its way
        # no request can run in this session: end it, which also makes
        # toolcell pass on all of the session's stderr
        self.close()
        stderr = bytes(self._stderr)
        self._failed = ToolcellRefused(
            f"{e.get('type')}: {e.get('message')}; toolcell's stderr: "
            f"{stderr.decode('utf-8', 'replace').strip()}",
            type=e.get("type"), exit_code=self._proc.returncode, stderr=stderr)
        raise self._failed

    def _request(self, request, timeout_s):
        if self._failed is not None:
            raise self._failed
        if self._closed:
            raise ToolcellError("the session is closed")
        line = _encode(request, "session request") + b"\n"
        try:
            self._proc.stdin.write(line)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._ended() from None
        deadline = None
        if isinstance(timeout_s, (int, float)) and not isinstance(timeout_s, bool):
            deadline = time.monotonic() + timeout_s + SESSION_GRACE
        raw = self._readline(deadline)
        try:
            response = json.loads(raw)
        except ValueError:
            raise self._broken("a response line is not JSON") from None
        if not isinstance(response, dict):
            raise self._broken("a response is not a JSON object")
        if response.get("id") != request["id"]:
            raise self._broken(f"response id {response.get('id')!r} answers no request "
                               f"(expected {request['id']!r})")
        return response

    def _readline(self, deadline):
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buf.find(b"\n")
                if end >= 0:
                    line = bytes(self._buf[:end])
                    del self._buf[:end + 1]
                    return line
                if len(self._buf) > LINE_MAX:
                    raise self._broken(f"a response line is longer than {LINE_MAX} bytes")
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not sel.select(wait):
                    raise self._broken("no response in time")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise self._ended()
                self._buf += chunk

    def _drain_stderr(self):
        stream = self._proc.stderr
        try:
            while True:
                chunk = stream.read1(1 << 16)
                if not chunk:
                    break
                self._stderr += chunk
                if len(self._stderr) > STDERR_KEEP:
                    del self._stderr[:len(self._stderr) - STDERR_KEEP]
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    def _ended(self):
        """The error for a session whose toolcell went away."""
        self._closed = True
        try:
            rc = self._proc.wait(CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            rc = self._proc.wait()
        self._finish()
        stderr = bytes(self._stderr)
        if rc == REFUSED:
            return ToolcellRefused(_last_toolcell_line(stderr) or "toolcell session refused",
                                   stderr=stderr)
        return ToolcellError(f"toolcell session ended (exit {rc}): "
                             f"{_last_toolcell_line(stderr)}", exit_code=rc, stderr=stderr)

    def _broken(self, why):
        """The error for a session that broke the protocol: it is killed."""
        self._closed = True
        self._proc.kill()
        rc = self._proc.wait()
        self._finish()
        return ToolcellError(f"toolcell session: {why}; the session was ended", exit_code=rc,
                             stderr=bytes(self._stderr))

    def _finish(self):
        """Close our ends of the pipes once toolcell has exited."""
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._drain.join(1)


def __getattr__(name):
    """Client, the `toolcell serve` client (toolcell.serve), loaded when asked for."""
    if name == "Client":
        from toolcell.serve import Client

        return Client
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
