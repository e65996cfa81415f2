"""Workload: asyncio streams over socket.socketpair(), a TCP server on
127.0.0.1 port 0, UDP on loopback, sleep, gather, timeouts, queues,
run_in_executor and an asyncio subprocess."""
import asyncio
import socket
import sys
import time

NAME = "asyncio_sockets"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


async def echo_handler(reader, writer):
    while line := await reader.readline():
        writer.write(b"echo:" + line)
        await writer.drain()
    writer.close()
    await writer.wait_closed()


async def socketpair_echo():
    a, b = socket.socketpair()
    server_task = asyncio.create_task(echo_handler(*await asyncio.open_connection(sock=a)))
    reader, writer = await asyncio.open_connection(sock=b)
    got = []
    for msg in (b"one\n", b"two\n", "drei ü\n".encode()):
        writer.write(msg)
        await writer.drain()
        got.append(await asyncio.wait_for(reader.readline(), 5))
    writer.write_eof()
    check(await reader.read() == b"", "EOF after write_eof")
    writer.close()
    await writer.wait_closed()
    await asyncio.wait_for(server_task, 5)
    check(got == [b"echo:one\n", b"echo:two\n", "echo:drei ü\n".encode()], f"socketpair echo {got}")


async def tcp_loopback():
    server = await asyncio.start_server(echo_handler, "127.0.0.1", 0)
    host, port = server.sockets[0].getsockname()
    check(host == "127.0.0.1" and port > 0, f"bound to {host}:{port}")
    async with server:
        async def client(i):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            payload = f"client {i} ".encode() * 1000 + b"\n"
            writer.write(payload)
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), 5)
            writer.close()
            await writer.wait_closed()
            return line == b"echo:" + payload
        results = await asyncio.gather(*(client(i) for i in range(5)))
        check(all(results), f"TCP clients {results}")
    # localhost resolves through /etc/hosts
    infos = await asyncio.get_running_loop().getaddrinfo("localhost", 80, type=socket.SOCK_STREAM)
    check(any(ai[4][0] == "127.0.0.1" for ai in infos), f"getaddrinfo(localhost) {infos}")


class Udp(asyncio.DatagramProtocol):
    def __init__(self):
        self.got = asyncio.get_running_loop().create_future()

    def datagram_received(self, data, addr):
        if not self.got.done():
            self.got.set_result((data, addr))


async def udp_loopback():
    loop = asyncio.get_running_loop()
    rtrans, rproto = await loop.create_datagram_endpoint(Udp, local_addr=("127.0.0.1", 0))
    port = rtrans.get_extra_info("sockname")[1]
    strans, _ = await loop.create_datagram_endpoint(asyncio.DatagramProtocol, remote_addr=("127.0.0.1", port))
    strans.sendto(b"datagram")
    data, addr = await asyncio.wait_for(rproto.got, 5)
    check(data == b"datagram" and addr[0] == "127.0.0.1", "UDP loopback")
    strans.close()
    rtrans.close()


async def misc():
    t0 = time.monotonic()
    await asyncio.sleep(0.05)
    check(time.monotonic() - t0 >= 0.045, "asyncio.sleep too short")
    try:
        await asyncio.wait_for(asyncio.sleep(10), 0.02)
    except asyncio.TimeoutError:
        pass
    else:
        check(False, "wait_for timeout")
    q = asyncio.Queue()

    async def produce():
        for i in range(10):
            await q.put(i)
            await asyncio.sleep(0)
        await q.put(None)

    async def consume():
        out = []
        while (item := await q.get()) is not None:
            out.append(item)
        return out

    _, consumed = await asyncio.gather(produce(), consume())
    check(consumed == list(range(10)), "asyncio.Queue")
    loop = asyncio.get_running_loop()
    check(await loop.run_in_executor(None, sum, range(101)) == 5050, "run_in_executor")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import sys; print(sys.stdin.read()[::-1])",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(proc.communicate(b"olleh"), 10)
    check(out == b"hello\n" and proc.returncode == 0, f"asyncio subprocess {out!r}")
    lock, event = asyncio.Lock(), asyncio.Event()
    async with lock:
        loop.call_later(0.01, event.set)
        await asyncio.wait_for(event.wait(), 5)


async def main():
    await socketpair_echo()
    await tcp_loopback()
    await udp_loopback()
    await misc()


asyncio.run(main())
print(f"ok {NAME}")
