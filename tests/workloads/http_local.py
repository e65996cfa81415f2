"""Workload: an HTTP server on 127.0.0.1 port 0 in a thread, queried with
urllib.request, http.client and xmlrpc; JSON in and out."""
import http.client
import json
import sys
import threading
import urllib.error
import urllib.request
import xmlrpc.client
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

NAME = "http_local"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, obj, ctype="application/json"):
        body = json.dumps(obj).encode() if ctype == "application/json" else obj
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/hello"):
            self.reply(200, {"path": self.path, "agent": self.headers.get("User-Agent", "")})
        elif self.path == "/big":
            self.reply(200, b"x" * 500_000, "application/octet-stream")
        else:
            self.reply(404, {"error": "not found"})

    def do_POST(self):
        data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.reply(201, {"sum": sum(data["numbers"])})


httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
port = httpd.server_address[1]
t = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
t.start()
base = f"http://127.0.0.1:{port}"

opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
with opener.open(f"{base}/hello?x=1", timeout=5) as r:
    doc = json.load(r)
    check(r.status == 200 and doc["path"] == "/hello?x=1" and doc["agent"].startswith("Python-urllib"), f"GET {doc}")
req = urllib.request.Request(f"{base}/sum", data=json.dumps({"numbers": [1, 2, 3.5]}).encode(),
                             headers={"Content-Type": "application/json"}, method="POST")
with opener.open(req, timeout=5) as r:
    check(r.status == 201 and json.load(r) == {"sum": 6.5}, "POST JSON")
try:
    opener.open(f"{base}/missing", timeout=5)
except urllib.error.HTTPError as e:
    check(e.code == 404 and json.load(e) == {"error": "not found"}, "HTTPError body")
else:
    check(False, "404 did not raise")

conn = http.client.HTTPConnection("localhost", port, timeout=5)
for _ in range(3):  # keep-alive: one connection, several requests
    conn.request("GET", "/big")
    resp = conn.getresponse()
    body = resp.read()
    check(resp.status == 200 and len(body) == 500_000 and resp.getheader("Content-Type") == "application/octet-stream", "http.client keep-alive")
conn.close()

# concurrent clients against the threading server
results = []


def fetch(i):
    with opener.open(f"{base}/hello/{i}", timeout=5) as r:
        results.append(json.load(r)["path"])


ts = [threading.Thread(target=fetch, args=(i,)) for i in range(8)]
for x in ts:
    x.start()
for x in ts:
    x.join()
check(sorted(results) == sorted(f"/hello/{i}" for i in range(8)), "concurrent GETs")
httpd.shutdown()
httpd.server_close()


class Quiet(SimpleXMLRPCRequestHandler):
    def log_message(self, *args):
        pass


rpc = SimpleXMLRPCServer(("127.0.0.1", 0), requestHandler=Quiet, allow_none=True, logRequests=False)
rpc.register_function(lambda a, b: a * b, "mul")
rpc.register_function(lambda s: s.upper(), "upper")
threading.Thread(target=rpc.serve_forever, args=(0.05,), daemon=True).start()
proxy = xmlrpc.client.ServerProxy(f"http://127.0.0.1:{rpc.server_address[1]}/")
check(proxy.mul(6, 7) == 42 and proxy.upper("ünï") == "ÜNÏ", "xmlrpc")
rpc.shutdown()
rpc.server_close()

print(f"ok {NAME}")
