# Reads sibling.txt from its own folder; prints its text, or the errno name
# when it cannot be opened.
import errno
import os

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sibling.txt")
try:
    with open(path) as f:
        print("READ " + f.read().strip())
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
