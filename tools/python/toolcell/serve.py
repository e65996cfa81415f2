"""The client of `toolcell serve`: one persistent connection to the server's
UNIX socket, JSON lines both ways (README "A warm pool: toolcell serve").

    with Client("/run/toolcell/toolcell.sock") as c:
        env = c.call("def run(args):\\n    return args['a'] + 1\\n", {"a": 41})
        # {"id": 1, "ok": true, "data": 42, "meta": {...}, "record": {...}}
        out = c.exec("import sys; print(sys.argv[1:])", argv=["x"], stdin="")
        # {"id": 2, "ok": true, "status": "ok", "exit_code": 0, "stdout": "['x']\\n", ...}
        c.stats()

call() and exec() send the tool's source (the server never reads a file for
a caller; call_file() reads one here and sends its text) and return the
answer as a dict: the tool's failures, the limits that ended it and the
server's Busy are answers with ok false, never exceptions. Each call runs in
a fresh sandbox from the server's warm pool. One request is in flight at a
time per Client; answers to other ids (none, used this way) are kept.

Errors: ToolcellRefused when the server refuses the connection
(PermissionDenied: the policy's serve.allow_uids / serve.allow_gids);
ToolcellError when the connection breaks or an answer is not JSON; OSError
when the socket cannot be reached.
"""

import itertools
import json
import os
import socket

from toolcell.client import ToolcellError, ToolcellRefused

__all__ = ["Client"]

ANSWER_MAX = 512 * 1024 * 1024  # bytes of one answer line accepted


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
        self._buf = b""
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

    def call(self, source, args=None, *, name=None, timeout_s=None):
        """run(args) of the tool whose text is source: the `call` envelope
        plus "id" and "record"."""
        return self._ask({"kind": "call", "source": source, "args": args}, name, timeout_s)

    def call_file(self, path, args=None, *, timeout_s=None):
        """call() with the text of the tool file at path (read here)."""
        with open(path, encoding="utf-8") as f:
            source = f.read()
        name = os.path.basename(path)
        return self.call(source, args, name=name if name.endswith(".py") else None,
                         timeout_s=timeout_s)

    def exec(self, source, argv=(), stdin="", *, name=None, timeout_s=None):
        """The script whose text is source, as python3 SCRIPT ARGV... with
        stdin: ok, status, exit_code, signal, stdout, stderr and record."""
        return self._ask({"kind": "exec", "source": source, "argv": list(argv), "stdin": stdin},
                         name, timeout_s)

    def stats(self):
        """The server's pools, calls by status and dispatch latencies."""
        return self._ask({"kind": "stats"}, None, None)

    def _ask(self, request, name, timeout_s):
        if self._sock is None:
            raise ToolcellError("the client is closed")
        request["id"] = next(self._ids)
        if name is not None:
            request["name"] = name
        if timeout_s is not None:
            request["timeout_s"] = timeout_s
        line = json.dumps(request, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            self._sock.sendall(line.encode("utf-8"))
        except OSError:
            pass  # a refused caller still reads why below
        while request["id"] not in self._kept:
            answer = self._read_answer()
            self._kept[answer.get("id")] = answer
        return self._kept.pop(request["id"])

    def _read_answer(self):
        while b"\n" not in self._buf:
            try:
                chunk = self._sock.recv(1 << 20)
            except OSError as e:
                raise ToolcellError(f"the connection to {self.path} broke: {e}") from None
            if not chunk:
                raise ToolcellError(f"the server at {self.path} closed the connection")
            self._buf += chunk
            if len(self._buf) > ANSWER_MAX:
                raise ToolcellError("an answer longer than the client accepts")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
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
