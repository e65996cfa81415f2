# Copies stdin to stdout byte for byte (one read of all of stdin).
import sys

sys.stdout.buffer.write(sys.stdin.buffer.read())
