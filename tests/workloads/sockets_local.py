"""Workload: blocking sockets on the sandbox's own loopback and in /tmp:
TCP (IPv4 and IPv6), UDP, UNIX stream/datagram/seqpacket, abstract names,
fd passing, peer credentials, socket options; name lookup of localhost;
a connection off the machine fails promptly with an OSError."""
import os
import socket
import struct
import sys
import tempfile
import threading

NAME = "sockets_local"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


def serve_once(srv, transform):
    conn, _ = srv.accept()
    with conn:
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
        conn.sendall(transform(data))


def tcp_round_trip(family, host):
    with socket.socket(family, socket.SOCK_STREAM) as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((host, 0))
        srv.listen(8)
        port = srv.getsockname()[1]
        t = threading.Thread(target=serve_once, args=(srv, lambda d: d[::-1]))
        t.start()
        with socket.create_connection((host, port), timeout=5) as c:
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            check(c.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1, "TCP_NODELAY")
            c.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)
            payload = os.urandom(300_000)
            c.sendall(payload)
            c.shutdown(socket.SHUT_WR)
            with c.makefile("rb") as f:
                back = f.read()
        t.join(5)
        check(back == payload[::-1], f"TCP {host} round trip ({len(back)} bytes)")


tcp_round_trip(socket.AF_INET, "127.0.0.1")
tcp_round_trip(socket.AF_INET6, "::1")

# UDP
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as a, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as b:
    a.bind(("127.0.0.1", 0))
    b.settimeout(5)
    a.settimeout(5)
    b.sendto(b"ping", a.getsockname())
    data, addr = a.recvfrom(100)
    a.sendto(b"pong", addr)
    check(data == b"ping" and b.recv(100) == b"pong", "UDP ping/pong")

with tempfile.TemporaryDirectory() as d:
    # UNIX stream socket on a path, with peer credentials and fd passing
    path = os.path.join(d, "tool.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    result = {}

    def unix_server():
        conn, _ = srv.accept()
        with conn:
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            result["cred"] = struct.unpack("3i", creds)
            msg, fds, _, _ = socket.recv_fds(conn, 100, 2)
            result["msg"] = msg
            with os.fdopen(fds[0], "rb") as f:
                result["passed"] = f.read()
            conn.sendall(b"done")

    t = threading.Thread(target=unix_server)
    t.start()
    secret = os.path.join(d, "secret.txt")
    with open(secret, "wb") as f:
        f.write(b"through SCM_RIGHTS")
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.settimeout(5)
    c.connect(path)
    fd = os.open(secret, os.O_RDONLY)
    socket.send_fds(c, [b"here is an fd"], [fd])
    os.close(fd)
    check(c.recv(10) == b"done", "UNIX stream reply")
    c.close()
    t.join(5)
    srv.close()
    check(result["cred"] == (os.getpid(), os.getuid(), os.getgid()), f"SO_PEERCRED {result['cred']}")
    check(result["msg"] == b"here is an fd" and result["passed"] == b"through SCM_RIGHTS", "fd passing")

    # UNIX datagram sockets on paths
    p1, p2 = os.path.join(d, "d1"), os.path.join(d, "d2")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s1, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s2:
        s1.bind(p1)
        s2.bind(p2)
        s2.sendto(b"dgram", p1)
        s1.settimeout(5)
        data, frm = s1.recvfrom(100)
        check(data == b"dgram" and frm == p2, "UNIX datagram")

# abstract namespace socket
name = f"\0wl-{os.getpid()}".encode()
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as srv:
    srv.bind(name)
    srv.listen(1)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
        c.connect(name)
        conn, _ = srv.accept()
        c.sendall(b"abstract")
        check(conn.recv(100) == b"abstract", "abstract socket")
        conn.close()

# seqpacket pair keeps message boundaries; ancillary-free sendmsg/recvmsg
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
a.sendmsg([b"one", b"-part"])
a.send(b"two")
check(b.recv(100) == b"one-part" and b.recvmsg(100)[0] == b"two", "SEQPACKET boundaries")
a.close()
b.close()

# name service: only files (/etc/hosts); the hostname resolves
infos = socket.getaddrinfo("localhost", 8080, proto=socket.IPPROTO_TCP)
check(("127.0.0.1", 8080) in [ai[4][:2] for ai in infos], f"getaddrinfo localhost {infos}")
check(socket.gethostbyname("localhost") == "127.0.0.1" and socket.gethostname(), "gethostbyname/gethostname")
check(socket.inet_pton(socket.AF_INET6, "::1")[-1] == 1 and socket.inet_aton("10.1.2.3") == b"\n\x01\x02\x03", "inet_pton/aton")
infos = socket.getaddrinfo("localhost", 80, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_ADDRCONFIG)
check(infos and all(ai[4][0] in ("127.0.0.1", "::1") for ai in infos), f"getaddrinfo AI_ADDRCONFIG {infos}")
# if_nameindex asks the kernel over a NETLINK_ROUTE socket, which the filter
# allows (README): the sandbox's network namespace has lo alone
check(socket.if_nameindex() == [(1, "lo")], f"if_nameindex: {socket.if_nameindex()}")
check(socket.if_nametoindex("lo") >= 1, "if_nametoindex(lo)")

# the outside world: a tool must get an OSError, not a hang
try:
    with socket.create_connection(("192.0.2.1", 9), timeout=0.3):
        pass
except OSError:
    pass
else:
    check(False, "connected to a TEST-NET address")

print(f"ok {NAME}")
