"""One request through `toolcell serve`, its answer taken apart for a test
(serve-lib.bash): the one-shot suites' runner for served calls.

    servecall.py SOCKET OUTDIR FILE [--argv JSON] [--stdin FILE]
                 [--timeout-s S] [--name NAME]

Sends {"id": 1, "kind": "exec", "source": FILE's text, ...} on a fresh
connection and reads exactly one answer line. Writes into OUTDIR:
answer.json (the line), record.json (its record, when it has one), stdout
and stderr (the script's bytes, from "stdout" or "stdout_base64"), and
status: the exit status `toolcell python` gives for the same outcome
(README "Exit status"): 124 for a time limit, 125 for toolcell's own
refusal or failure, 128+N for a signal N, else the script's exit code.
Exit status 0, or 2 when no answer came (said on stderr).
"""

import base64
import json
import signal
import socket
import sys


def one_shot_status(ans):
    st = ans.get("status")
    if st == "timeout":
        return 124
    if st in ("sandbox_error", "rejected") or "status" not in ans:
        return 125
    sig = ans.get("signal")
    if sig:
        return 128 + signal.Signals["SIG" + sig].value
    return ans["exit_code"]


def main():
    sock, outdir, path = sys.argv[1:4]
    opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    req = {"id": 1, "kind": "exec", "source": open(path, encoding="utf-8").read()}
    if "--argv" in opts:
        req["argv"] = json.loads(opts["--argv"])
    if "--stdin" in opts:
        req["stdin"] = open(opts["--stdin"], encoding="utf-8").read()
    if "--timeout-s" in opts:
        req["timeout_s"] = float(opts["--timeout-s"])
    if "--name" in opts:
        req["name"] = opts["--name"]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    s.sendall(json.dumps(req).encode() + b"\n")
    buf = b""
    while b"\n" not in buf:
        chunk = s.recv(1 << 20)
        if not chunk:
            print("servecall: the server closed the connection without an answer: %r" % buf,
                  file=sys.stderr)
            return 2
        buf += chunk
    line = buf.split(b"\n", 1)[0]
    ans = json.loads(line)
    open(outdir + "/answer.json", "wb").write(line + b"\n")
    if "record" in ans:
        json.dump(ans["record"], open(outdir + "/record.json", "w"))
    for key in ("stdout", "stderr"):
        if key in ans:
            data = ans[key].encode()
        else:
            data = base64.b64decode(ans.get(key + "_base64", ""))
        open(outdir + "/" + key, "wb").write(data)
    open(outdir + "/status", "w").write("%d\n" % one_shot_status(ans))
    return 0


if __name__ == "__main__":
    sys.exit(main())
