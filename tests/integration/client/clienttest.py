"""Shared set-up for the client tests (tests/integration/client.bats runs them
with /usr/bin/python3 -I): imports toolcell_client from $TC_CLIENT_DIR, and
writes tools into $TC_TMP, a folder the sandbox's uid can read."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ["TC_CLIENT_DIR"])

import toolcell_client as tc  # noqa: E402

__all__ = ["FAKE", "REAL", "TMP", "EnvCase", "tc", "tool"]

TMP = os.environ["TC_TMP"]
REAL = os.environ["TOOLCELL"]  # the toolcell under test
FAKE = os.path.join(HERE, "fake_toolcell")  # a protocol double, no sandbox


def tool(name, source):
    """Write a tool file readable by the sandbox; return its absolute path."""
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(source)
    os.chmod(path, 0o644)
    return path


class EnvCase(unittest.TestCase):
    """A test case that may change os.environ: restored after each test."""

    def setUp(self):
        self._env = dict(os.environ)
        os.environ.pop("FAKE_TOOLCELL", None)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self._env)
