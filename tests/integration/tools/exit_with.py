# Exits with the status given as its first argument, after one line of output.
import sys

print("exiting", sys.argv[1])
sys.exit(int(sys.argv[1]))
