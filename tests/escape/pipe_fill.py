# Hold memory in pipe buffers: grow each pipe with F_SETPIPE_SZ, fill it,
# keep both ends, until the open-files limit. Prints the F_SETPIPE_SZ answer
# and the bytes the pipes held ("held N MiB").
import errno, fcntl, os
F_SETPIPE_SZ = 1031
chunk = b"x" * 65536
held, pipes, grow = 0, [], "ok"
while True:
    try:
        r, w = os.pipe()
    except OSError:
        break
    pipes.append((r, w))
    try:
        fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 20)
    except OSError as e:
        grow = errno.errorcode[e.errno]
    os.set_blocking(w, False)
    try:
        while True:
            held += os.write(w, chunk)
    except BlockingIOError:
        pass
print("F_SETPIPE_SZ", grow, flush=True)
print("pipes", len(pipes), "held", held >> 20, "MiB", flush=True)
