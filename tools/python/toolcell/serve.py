"""The client of `toolcell serve`: one persistent connection to the server's
UNIX socket, JSON lines both ways (README "A warm pool: toolcell serve").

    with Client("/run/toolcell/toolcell.sock") as c:
        env = c.call("def run(args):\\n    return args['a'] + 1\\n", {"a": 41})
        # {"id": 1, "ok": true, "data": 42, "meta": {...}, "record": {...}}
        out = c.exec("import sys; print(sys.argv[1:])", argv=["x"], stdin="")
        # {"id": 2, "ok": true, "status": "ok", "exit_code": 0, "stdout": "['x']\\n", ...}
        c.stats()
        with c.session(allowed_imports=["json"]) as s:  # `toolcell session --server`
            s.execute("x = 41")

call() and exec() send the tool's source (the server never reads a file for
a caller; call_file() reads one here and sends its text) and return the
answer as a dict: the tool's failures and the limits that ended it are
answers with ok false, never exceptions. Each call runs in a fresh sandbox
from the server's warm pool. One request is in flight at a time per Client;
answers to other ids (none, used this way) are kept.

A call's own limits are keyword arguments named like the policy's limits
(and toolcell's options, '_' for '-'): timeout (seconds), memory ("128M" or
bytes), cpu_time (seconds), file_size, open_files, stdout_size, stderr_size.
Each only lowers the server's; one above it is clamped to it, and the answer
says so in "limits_clamped_to". exec()'s stdin may be str or bytes (bytes
that are not UTF-8 go as "stdin_base64"); stdout and stderr come back as
text, or as "stdout_base64" / "stderr_base64" when they are not UTF-8
(exec_bytes() decodes them).

Errors: ToolcellRefused, with the server's own message and .type, when the
server refuses the request or the connection (BadRequest, Busy,
PermissionDenied) or could not build the call's sandbox (SandboxError);
.envelope holds the answer. ToolcellError when the connection breaks or an
answer is not JSON; OSError when the socket cannot be reached.
"""

import base64
import itertools
import json
import os
import socket

from toolcell.client import ToolcellError, ToolcellRefused

__all__ = ["Client"]

ANSWER_MAX = 512 * 1024 * 1024  # bytes of one answer line accepted
# bytes one recv asks for: a call's answer (~4 KB) in one, and a buffer
# malloc takes from its heap (1 MiB was an mmap, mremap and munmap a call)
RECV = 1 << 16
# the limits a call may set for itself (README, "A warm pool")
LIMITS = ("timeout", "memory", "cpu_time", "file_size", "open_files", "stdout_size",
          "stderr_size")
# toolcell's own refusals and failures: raised, never returned
REFUSALS = ("BadRequest", "Busy", "PermissionDenied", "SandboxError")
# made once: json.dumps(..., ensure_ascii=False, separators=(",", ":")) and
# json.loads make theirs at every call
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_DECODER = json.JSONDecoder()


def _raise_refusal(answer):
    """The answer, unless it is toolcell's refusal of the request or its
    failure to build the sandbox: then ToolcellRefused with its words."""
    error = answer.get("error")
    if (isinstance(error, dict) and error.get("source") == "toolcell"
            and error.get("type") in REFUSALS):
        raise ToolcellRefused(error.get("message", error["type"]), type=error["type"],
                              envelope=answer, record=answer.get("record"))
    return answer


def default_socket():
    """The server's default socket: /run/toolcell/toolcell.sock for root,
    else $XDG_RUNTIME_DIR/toolcell.sock."""
    if os.geteuid() == 0:
        return "/run/toolcell/toolcell.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if not runtime:
        raise ToolcellError("no socket given and XDG_RUNTIME_DIR is not set")
    return os.path.join(runtime, "toolcell.sock")


class Client:
    def __init__(self, socket_path=None, timeout=None):
        self.path = socket_path or default_socket()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._sock.connect(self.path)
        self._buf = b""  # what came after the last answer read
        self._ids = itertools.count(1)
        self._kept = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def call(self, source, args=None, *, name=None, timeout_s=None, **limits):
        """run(args) of the tool whose text is source: the `call` envelope
        plus "id" and "record"."""
        return self._ask({"kind": "call", "source": source, "args": args}, name, timeout_s,
                         limits)

    def call_file(self, path, args=None, *, timeout_s=None, **limits):
        """call() with the text of the tool file at path (read here)."""
        with open(path, encoding="utf-8") as f:
            source = f.read()
        name = os.path.basename(path)
        return self.call(source, args, name=name if name.endswith(".py") else None,
                         timeout_s=timeout_s, **limits)

    def exec(self, source, argv=(), stdin="", *, name=None, timeout_s=None, **limits):
        """The script whose text is source, as python3 SCRIPT ARGV... with
        stdin (str or bytes): ok, status, exit_code, signal, stdout, stderr
        and record."""
        request = {"kind": "exec", "source": source, "argv": list(argv)}
        text = stdin
        if isinstance(stdin, (bytes, bytearray)):
            try:
                text = bytes(stdin).decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if text is None or "\0" in text:  # a JSON string of the server's holds no NUL
            data = stdin if text is None else text.encode("utf-8")
            request["stdin_base64"] = base64.b64encode(bytes(data)).decode("ascii")
        else:
            request["stdin"] = text
        return self._ask(request, name, timeout_s, limits)

    def exec_bytes(self, source, argv=(), stdin=b"", **kwargs):
        """exec(), with the answer's stdout and stderr as bytes whatever
        they were sent as."""
        answer = self.exec(source, argv, stdin, **kwargs)
        for key in ("stdout", "stderr"):
            if key + "_base64" in answer:
                answer[key] = base64.b64decode(answer.pop(key + "_base64"))
            else:
                answer[key] = answer.get(key, "").encode("utf-8")
        return answer

    def stats(self):
        """The server's pools, calls by status and dispatch latencies."""
        return self._ask({"kind": "stats"}, None, None, {})

    def session(self, **kwargs):
        """A toolcell_client.Session whose sandboxes are warm entries of this
        server (`toolcell session --server`; a connection of its own):
        execute() keeps globals between calls. kwargs as Session's."""
        from toolcell.client import Session

        return Session(server=self.path, **kwargs)

    def _ask(self, request, name, timeout_s, limits):
        if self._sock is None:
            raise ToolcellError("the client is closed")
        request["id"] = next(self._ids)
        if name is not None:
            request["name"] = name
        if timeout_s is not None:
            request["timeout_s"] = timeout_s
        if limits:
            unknown = sorted(set(limits) - set(LIMITS))
            if unknown:
                raise TypeError(f"unknown limit {unknown[0]!r} (a call may set: "
                                f"{', '.join(LIMITS)})")
            given = {k: v for k, v in limits.items() if v is not None}
            if given:
                request["limits"] = given
        line = _ENCODER.encode(request) + "\n"
        try:
            self._sock.sendall(line.encode("utf-8"))
        except OSError:
            pass  # a refused caller still reads why below
        while request["id"] not in self._kept:
            answer = self._read_answer()
            self._kept[answer.get("id")] = answer
        return _raise_refusal(self._kept.pop(request["id"]))

    def _read_line(self):
        buf = self._buf
        chunks, size, end = [buf] if buf else [], len(buf), buf.find(b"\n")
        while end < 0:
            try:
                chunk = self._sock.recv(RECV)
            except OSError as e:
                raise ToolcellError(f"the connection to {self.path} broke: {e}") from None
            if not chunk:
                raise ToolcellError(f"the server at {self.path} closed the connection")
            end = chunk.find(b"\n")
            if end >= 0:
                end += size
            chunks.append(chunk)
            size += len(chunk)
            if size > ANSWER_MAX:
                raise ToolcellError("an answer longer than the client accepts")
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        self._buf = data[end + 1:]
        return data[:end]

    def _read_answer(self):
        line = self._read_line()
        try:
            try:  # json.loads(line), without its encoding guess and whitespace regexes
                text = line.decode("utf-8")
                answer, end = _DECODER.raw_decode(text)
                if end != len(text):
                    raise ValueError
            except ValueError:  # what json.loads says of it, or its answer
                answer = json.loads(line)
        except ValueError as e:
            raise ToolcellError(f"the server's answer is not JSON: {e}") from None
        error = answer.get("error") if isinstance(answer, dict) else None
        if isinstance(error, dict) and error.get("type") == "PermissionDenied":
            self.close()
            raise ToolcellRefused(error.get("message", "refused"), type="PermissionDenied")
        if not isinstance(answer, dict):
            raise ToolcellError("the server's answer is not an object")
        return answer
