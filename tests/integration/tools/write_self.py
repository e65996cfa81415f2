# Tries to append to its own file; prints the errno name of the refusal, or
# "WRITTEN" if the write went through.
import errno

try:
    with open(__file__, "a") as f:
        f.write("# tampered\n")
    print("WRITTEN")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
