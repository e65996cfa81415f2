# Netlink: only the route family opens (if_nameindex, getifaddrs), and it
# shows the sandbox's own network namespace alone and changes nothing
# there; every other family (audit, uevents, sock_diag, ...) is refused.
import errno, socket, struct
for name, proto in (("audit", 9), ("kobject_uevent", 15), ("sock_diag", 4),
                    ("netfilter", 12), ("generic", 16), ("xfrm", 6)):
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        print("LEAK netlink", name, s.fileno())
    except OSError as e:
        print("blocked", name, errno.errorcode[e.errno])
print("interfaces", socket.if_nameindex())
# RTM_NEWLINK to set lo down: the tool has no CAP_NET_ADMIN in its namespace
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
RTM_NEWLINK, NLM_F_REQUEST, NLM_F_ACK = 16, 1, 4
ifinfo = struct.pack("BxHiII", socket.AF_UNSPEC, 0, 1, 0, 1)  # index 1, IFF_UP masked to 0
msg = struct.pack("IHHII", 16 + len(ifinfo), RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 1, 0) + ifinfo
s.sendto(msg, (0, 0))
reply = s.recv(4096)
length, kind, flags, seq, pid, err = struct.unpack("IHHIIi", reply[:20])
print("set lo down:", "refused " + errno.errorcode[-err] if err < 0 else "LEAK accepted")
