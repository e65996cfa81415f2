# Connect to an abstract unix socket the host listens on (name in $ABSTRACT).
import errno, os, socket
name = os.environ["ABSTRACT"]
for typ in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_UNIX, typ)
    try:
        if typ == socket.SOCK_STREAM:
            s.connect("\0" + name)
            print("LEAK connected", s.recv(64))
        else:
            s.sendto(b"hello", "\0" + name)
            print("LEAK sent")
    except OSError as e:
        print(typ.name, "blocked", errno.errorcode[e.errno])
