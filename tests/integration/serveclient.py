"""A test client for `toolcell serve` (serve.bats): send lines, print answers.

    serveclient.py SOCKET [--answers N] [--hangup-after S] < lines

Sends stdin's bytes as they are (one request per line, or anything at all),
then prints each answer line as it arrives until N answers came (default:
one per non-empty line sent) or the server closed the connection.
--hangup-after S: close the connection S seconds after sending, without
reading anything. Exit status 0, or 3 when the server closed first.

Imported by the tests' own clients (sys.path gets this folder): conn()
and line() below.
"""

import socket
import sys
import time


def conn(path, timeout=60):
    """A connection to the server at path, reads timing out after timeout s."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(timeout)
    return s


def line(s):
    """One line from s, or what came before the server closed and "<EOF>"."""
    buf = b""
    while not buf.endswith(b"\n"):
        b = s.recv(65536)
        if not b:
            return buf.decode() + "<EOF>"
        buf += b
    return buf.decode()


def main():
    path = sys.argv[1]
    opts = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    data = sys.stdin.buffer.read()
    want = int(opts.get("--answers", sum(1 for line in data.split(b"\n") if line.strip())))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(data)
    if "--hangup-after" in opts:
        time.sleep(float(opts["--hangup-after"]))
        s.close()
        return 0
    buf = b""
    got = 0
    while got < want:
        chunk = s.recv(1 << 20)
        if not chunk:
            return 3
        buf += chunk
        while b"\n" in buf and got < want:
            line, buf = buf.split(b"\n", 1)
            sys.stdout.buffer.write(line + b"\n")
            sys.stdout.flush()
            got += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
