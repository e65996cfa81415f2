# Reach a service on the host's loopback (a typical metadata/admin listener).
import errno, os, socket
port = int(os.environ["PORT"])
for addr in ("127.0.0.1", "127.0.0.2", "::ffff:127.0.0.1"):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect((addr, port))
        print("LEAK connected", addr, s.recv(64))
    except OSError as e:
        print(addr, "blocked", errno.errorcode.get(e.errno, e))
# and the world: a public address through the only interface
s = socket.socket()
s.settimeout(2)
try:
    s.connect(("1.1.1.1", 53))
    print("LEAK internet")
except OSError as e:
    print("internet", "blocked", errno.errorcode.get(e.errno, e))
