# A raw IP socket forges packets (ICMP, spoofed sources).
import errno, socket
for fam in (socket.AF_INET, socket.AF_INET6):
    try:
        s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        print("LEAK raw socket", fam)
    except OSError as e:
        print(fam.name, "blocked", errno.errorcode[e.errno])
