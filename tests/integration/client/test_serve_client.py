"""toolcell.serve.Client's side of the wire against a scripted server (a
UNIX socket in a thread, no toolcell): the request line is exactly
json.dumps(request, ensure_ascii=False, separators=(",", ":")) plus "\\n";
an answer is exactly what json.loads makes of its line however it arrives
(byte by byte, a UTF-8 character cut between reads, two answers in one
read, over one read's size, blanks around it, UTF-8-encoded surrogates),
and a line json.loads refuses is ToolcellError with json.loads's words."""
import json
import os
import socket
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clienttest import TMP  # noqa: E402 (it puts the package on sys.path)
from toolcell.client import ToolcellError  # noqa: E402
from toolcell.serve import RECV, Client  # noqa: E402


class Scripted:
    """A server that reads one request line per answer script, then sends
    the script's byte strings one send() each; the lines it read in .got."""

    def __init__(self, scripts):
        self.dir = tempfile.mkdtemp(prefix="serve-client.", dir=TMP)
        self.path = os.path.join(self.dir, "s.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.scripts, self.got = scripts, []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        conn, _ = self.listener.accept()
        buf = b""
        with conn:
            for script in self.scripts:
                while b"\n" not in buf:
                    buf += conn.recv(65536)
                line, buf = buf.split(b"\n", 1)
                self.got.append(line)
                for piece in script:
                    conn.sendall(piece)

    def close(self):
        self.thread.join(10)
        self.listener.close()
        os.unlink(self.path)
        os.rmdir(self.dir)


def answer(i, **members):
    return json.dumps({"id": i, **members}, ensure_ascii=False).encode("utf-8")


class ServeClientWire(unittest.TestCase):
    def exchange(self, scripts, calls):
        """calls: (source, args, limits) each; the answers and the lines sent."""
        server = Scripted(scripts)
        try:
            with Client(server.path, timeout=10) as c:
                got = [c.call(src, args, **limits) for src, args, limits in calls]
        finally:
            server.close()
        return got, server.got

    def test_request_line_is_json_dumps_compact_unicode(self):
        src = 'def run(args):\n    return "é ✓ \\u00e9"\n'
        scripts = [[answer(1, ok=True) + b"\n"], [answer(2, ok=True) + b"\n"]]
        _, lines = self.exchange(scripts, [(src, {"k": ["ü", 1.5, None]}, {}),
                                           (src, None, {"timeout": 2, "memory": None})])
        want = [{"kind": "call", "source": src, "args": {"k": ["ü", 1.5, None]}, "id": 1},
                {"kind": "call", "source": src, "args": None, "id": 2,
                 "limits": {"timeout": 2}}]
        self.assertEqual(lines, [json.dumps(w, ensure_ascii=False, separators=(",", ":"))
                                 .encode("utf-8") for w in want])

    def test_answers_as_json_loads_makes_them_however_they_arrive(self):
        big = "x" * (3 * RECV)
        one = '{"id": 1, "ok": true, "data": "é ✓ 😀 \\ud800"}\n'.encode("utf-8")  # escaped
        two = answer(2, ok=True, data=big) + b"\n"
        three = b'  ' + answer(3, ok=True, data=[1, 2.5, None]) + b' \t\n'
        four = b'{"id": 4, "ok": true, "data": "\xed\xa0\x80"}\n'  # UTF-8 of a surrogate
        five = answer(5, ok=True, data="kept") + b"\n" + answer(6, ok=True, data="next") + b"\n"
        scripts = [[one[i:i + 1] for i in range(len(one))], [two], [three], [four], [five], []]
        got, _ = self.exchange(scripts, [("", None, {})] * 6)
        want = [json.loads(one), json.loads(two), json.loads(three), json.loads(four),
                json.loads(five.split(b"\n")[0]), json.loads(five.split(b"\n")[1])]
        self.assertEqual(got, want)
        self.assertEqual(got[0]["data"], "é ✓ 😀 \ud800")
        self.assertEqual(len(got[1]["data"]), 3 * RECV)
        self.assertEqual(got[3]["data"], "\ud800")

    def test_an_answer_that_is_not_json_says_what_json_loads_says(self):
        for bad in (b'{"id": 1, "ok": tru}', b'{"id": 1} {"id": 2}', b'\xff{"id": 1}', b""):
            with self.subTest(bad=bad):
                try:
                    json.loads(bad)
                except ValueError as e:
                    words = f"the server's answer is not JSON: {e}"
                server = Scripted([[bad + b"\n"]])
                try:
                    with Client(server.path, timeout=10) as c:
                        with self.assertRaises(ToolcellError) as cm:
                            c.call("", None)
                finally:
                    server.close()
                self.assertEqual(str(cm.exception), words)


if __name__ == "__main__":
    unittest.main()
