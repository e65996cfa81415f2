# Rename the machine (a UTS namespace makes that local; the filter ends it anyway).
import socket
print("hostname", socket.gethostname(), flush=True)
socket.sethostname("pwned")
print("hostname now", socket.gethostname(), flush=True)
