# call tool in script mode: reads the request and prints nothing.
import sys

sys.stdin.read()
