# Prints the names of its environment variables, sorted, one per line.
import os

for name in sorted(os.environ):
    print(name)
