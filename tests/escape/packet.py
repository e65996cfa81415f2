# A packet socket sniffs and injects raw frames on an interface.
import errno, socket
try:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    print("LEAK packet socket", s.fileno())
except OSError as e:
    print("blocked", errno.errorcode[e.errno])
