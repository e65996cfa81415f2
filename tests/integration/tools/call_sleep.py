# call tool: sleeps far longer than the test's --timeout.
import time


def run(args):
    time.sleep(30)
    return {"woke": True}
