"""toolcell_client.call(): the envelope back as a dict, the tool's failures as
envelopes, toolcell's refusals and a missing binary as exceptions."""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clienttest import FAKE, REAL, TMP, EnvCase, tc, tool  # noqa: E402

ADD = tool("client_add.py", "def run(args):\n    return {'sum': args['a'] + args['b']}\n")


class Call(EnvCase):
    def setUp(self):
        super().setUp()
        os.environ["TOOLCELL"] = REAL

    def test_run_tool_result_is_the_envelope(self):
        env = tc.call(ADD, {"a": 2, "b": 3})
        self.assertIs(env["ok"], True)
        self.assertEqual(env["data"], {"sum": 5})
        self.assertEqual(env["meta"]["status"], "ok")
        self.assertEqual(env["meta"]["exit_code"], 0)

    def test_big_integers_stay_exact(self):
        env = tc.call(ADD, {"a": 2**70, "b": 1})
        self.assertEqual(env["data"], {"sum": 2**70 + 1})

    def test_non_dict_result_is_wrapped(self):
        path = tool("client_list.py", "def run(args):\n    return [args, None, 'x']\n")
        env = tc.call(path, "text")
        self.assertEqual(env["data"], ["text", None, "x"])

    def test_tool_exception_is_an_envelope_not_an_exception(self):
        path = tool("client_raise.py", "def run(args):\n    return {}[args['key']]\n")
        env = tc.call(path, {"key": "missing"})
        self.assertIs(env["ok"], False)
        self.assertEqual(env["error"]["type"], "KeyError")
        self.assertEqual(env["error"]["source"], "tool")
        self.assertIn("missing", env["error"]["message"])

    def test_tool_own_error_passes_through(self):
        path = tool("client_err.py", "def run(args):\n    return {'ok': False, 'error': "
                    "{'type': 'NotFound', 'message': 'no item 7'}}\n")
        env = tc.call(path, {})
        self.assertEqual(env["error"], {"type": "NotFound", "message": "no item 7",
                                        "source": "tool"})

    def test_timeout_is_an_envelope(self):
        path = tool("client_sleep.py", "import time\ndef run(args):\n    time.sleep(30)\n")
        t0 = time.monotonic()
        env = tc.call(path, {}, timeout=0.5)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertIs(env["ok"], False)
        self.assertEqual(env["error"]["type"], "Timeout")
        self.assertEqual(env["error"]["source"], "toolcell")
        self.assertEqual(env["meta"]["status"], "timeout")

    def test_memory_limit_is_an_envelope(self):
        # filled step by step, so toolcell measures the memory at the limit
        path = tool("client_hog.py", "def run(args):\n"
                    "    return len([bytearray(1 << 20) for _ in range(200)])\n")
        env = tc.call(path, {}, memory="64M")
        self.assertIs(env["ok"], False)
        # rlimits: Python's own MemoryError; cgroup v2: toolcell's MemoryLimit
        self.assertIn(env["error"]["type"], ("MemoryError", "MemoryLimit"))
        self.assertEqual(env["meta"]["status"], "memory_limit")

    def test_limit_above_the_policy_is_refused(self):
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.call(ADD, {"a": 1, "b": 1}, memory="1G")
        e = cm.exception
        self.assertEqual(e.type, "BadRequest")
        self.assertEqual(e.exit_code, 125)
        self.assertIn("256M", e.message)
        self.assertEqual(e.envelope["meta"]["status"], "rejected")

    def test_request_that_is_not_json_is_refused(self):
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.call(ADD, b"{not json")
        self.assertEqual(cm.exception.type, "BadRequest")

    def test_missing_tool_file_is_refused(self):
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.call(os.path.join(TMP, "no-such-tool.py"), {})
        self.assertIn("no-such-tool.py", cm.exception.message)

    def test_nan_is_refused_before_toolcell_runs(self):
        with self.assertRaises(ValueError):
            tc.call(ADD, {"a": float("nan"), "b": 1}, toolcell=FAKE)

    def test_unknown_option_is_a_type_error(self):
        with self.assertRaises(TypeError):
            tc.call(ADD, {}, memroy="64M")


class Binary(EnvCase):
    def test_explicit_missing_binary(self):
        with self.assertRaises(tc.ToolcellNotFound):
            tc.call(ADD, {}, toolcell=os.path.join(TMP, "no-such-toolcell"))

    def test_env_missing_binary(self):
        os.environ["TOOLCELL"] = os.path.join(TMP, "no-such-toolcell")
        with self.assertRaises(tc.ToolcellNotFound) as cm:
            tc.call(ADD, {})
        self.assertIn("$TOOLCELL", cm.exception.message)

    def test_not_on_path(self):
        os.environ.pop("TOOLCELL", None)
        os.environ["PATH"] = os.path.join(TMP, "empty-bin")
        with self.assertRaises(tc.ToolcellNotFound) as cm:
            tc.call(ADD, {})
        self.assertIn("PATH", cm.exception.message)

    def test_found_on_path(self):
        bindir = os.path.join(TMP, "client-bin")
        os.makedirs(bindir, exist_ok=True)
        if not os.path.lexists(os.path.join(bindir, "toolcell")):
            os.symlink(REAL, os.path.join(bindir, "toolcell"))
        os.environ.pop("TOOLCELL", None)
        os.environ["PATH"] = bindir
        self.assertEqual(tc.call(ADD, {"a": 1, "b": 2})["data"], {"sum": 3})

    def test_explicit_argument_wins_over_env(self):
        os.environ["TOOLCELL"] = os.path.join(TMP, "no-such-toolcell")
        self.assertEqual(tc.call(ADD, {"a": 1, "b": 2}, toolcell=REAL)["data"], {"sum": 3})

    def test_a_file_that_is_not_executable(self):
        path = tool("not-executable", "#!/bin/sh\n")
        with self.assertRaises(tc.ToolcellNotFound):
            tc.call(ADD, {}, toolcell=path)


class Options(EnvCase):
    """What the client puts on toolcell's command line (checked on the double)."""

    def test_limits_map_to_options(self):
        env = tc.call(ADD, {"a": 1, "b": "é"}, toolcell=FAKE, memory="64M", timeout=1.5,
                      cpus=0.5, pids=8, cpu_time=2, tmp_size=1 << 20, ro_bind=["/a", ("/b", "/c")],
                      pass_env="OPENFANG_AGENT_ID", env={"K": "v=1"}, quiet=True,
                      policy="/etc/p.json", workspace=None, verbose=False)
        self.assertEqual(env["data"]["argv"], [
            "call", "--memory", "64M", "--timeout", "1.5", "--cpus", "0.5", "--pids", "8",
            "--cpu-time", "2", "--tmp-size", "1048576", "--ro-bind", "/a", "--ro-bind", "/b:/c",
            "--pass-env", "OPENFANG_AGENT_ID", "--env", "K=v=1", "--quiet", "--policy",
            "/etc/p.json", "--", ADD])
        self.assertEqual(env["data"]["request"], '{"a":1,"b":"é"}')

    def test_bytes_request_is_sent_as_is(self):
        env = tc.call(ADD, b'{"a": 1,  "b": 2}', toolcell=FAKE)
        self.assertEqual(env["data"]["request"], '{"a": 1,  "b": 2}')

    def test_refusal_envelope_raises(self):
        os.environ["FAKE_TOOLCELL"] = "refuse"
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.call(ADD, {}, toolcell=FAKE)
        self.assertEqual(cm.exception.message, "fake refusal")

    def test_no_envelope_is_a_toolcell_error_not_a_refusal(self):
        os.environ["FAKE_TOOLCELL"] = "garbage"
        with self.assertRaises(tc.ToolcellError) as cm:
            tc.call(ADD, {}, toolcell=FAKE)
        self.assertNotIsInstance(cm.exception, tc.ToolcellRefused)
        self.assertEqual(cm.exception.exit_code, 1)


if __name__ == "__main__":
    unittest.main()
