# Hold memory in socket buffers: fill 16 loopback TCP connections and 16
# unix socket pairs nobody reads, first as they come (TCP autotuning), then
# after raising SO_SNDBUF / SO_RCVBUF. Prints the bytes queued each way.
import errno, socket
chunk = b"x" * 65536
def fill(s):
    n = 0
    s.setblocking(False)
    try:
        while True:
            n += s.send(chunk)
    except OSError:
        pass
    return n
def round_(grow):
    held, answers = 0, set()
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    pairs = []
    for _ in range(16):
        c = socket.create_connection(srv.getsockname())
        a, _ = srv.accept()
        pairs.append((c, a))
    for _ in range(16):
        pairs.append(socket.socketpair())
    for x, y in pairs:
        if grow:
            for s in (x, y):
                for opt in (socket.SO_SNDBUF, socket.SO_RCVBUF):
                    try:
                        s.setsockopt(socket.SOL_SOCKET, opt, 64 << 20)
                        answers.add("ok")
                    except OSError as e:
                        answers.add(errno.errorcode[e.errno])
        held += fill(x)
    print("SO_SNDBUF" if grow else "as they come", ",".join(sorted(answers)) or "-",
          "held", held >> 20, "MiB", flush=True)
    for x, y in pairs:
        x.close()
        y.close()
    srv.close()
round_(False)
round_(True)
