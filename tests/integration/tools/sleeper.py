# Sleeps 30 s (longer than any timeout the tests set), then prints "woke".
import time

time.sleep(30)
print("woke")
