# A netlink route socket would let us list and change interfaces and routes.
import errno, socket
try:
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    print("LEAK netlink socket", s.fileno())
except OSError as e:
    print("blocked", errno.errorcode[e.errno])
