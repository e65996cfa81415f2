"""toolcell_client.run(): exit code, stdout, stderr and the result record of
`toolcell run` / `toolcell python`; refusals and a missing record raise."""
import hashlib
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clienttest import FAKE, REAL, EnvCase, tc  # noqa: E402

PY = "/usr/bin/python3"


class Run(EnvCase):
    def setUp(self):
        super().setUp()
        os.environ["TOOLCELL"] = REAL

    def test_exit_code_streams_and_record(self):
        rc, out, err, record = tc.run(
            [PY, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"])
        self.assertEqual((rc, out, err), (3, b"out\n", b"err\n"))
        self.assertEqual(record["status"], "exit_nonzero")
        self.assertEqual(record["exit_code"], 3)
        self.assertIsNone(record["signal"])

    def test_stdin_reaches_the_tool_whole(self):
        data = os.urandom(3 << 20)
        rc, out, _, record = tc.run(
            [PY, "-c", "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read())"
             ".hexdigest())"], stdin=data)
        self.assertEqual(rc, 0)
        self.assertEqual(out.decode().strip(), hashlib.sha256(data).hexdigest())
        self.assertEqual(record["status"], "ok")

    def test_python_verb(self):
        rc, out, _, record = tc.run(["-c", "print(6 * 7)"], verb="python")
        self.assertEqual((rc, out), (0, b"42\n"))
        self.assertEqual(record["status"], "ok")

    def test_killed_by_a_signal_is_minus_n(self):
        rc, _, _, record = tc.run([PY, "-c", "import os; os.kill(os.getpid(), 9)"])
        self.assertEqual(rc, -9)
        self.assertEqual(record["status"], "signaled")
        self.assertEqual(record["signal"], 9)

    def test_timeout(self):
        rc, _, _, record = tc.run([PY, "-c", "import time; time.sleep(30)"], timeout=0.5)
        self.assertEqual(rc, 124)
        self.assertEqual(record["status"], "timeout")

    def test_memory_limit(self):
        _, _, _, record = tc.run([PY, "-c", "x = [bytearray(1 << 20) for _ in range(200)]"],
                                 memory="64M")
        self.assertEqual(record["status"], "memory_limit")

    def test_limits_reach_toolcell(self):
        _, _, _, record = tc.run([PY, "-c", "pass"], memory="128M", pids=16, timeout=7,
                                 cpus=0.5)
        limits = record["limits"]
        self.assertEqual(limits["memory"]["value"], 128 << 20)
        self.assertEqual(limits["pids"]["value"], 16)
        self.assertEqual(limits["timeout"]["value"], 7000)

    def test_tool_exiting_125_is_not_a_refusal(self):
        rc, _, _, record = tc.run([PY, "-c", "import sys; sys.exit(125)"])
        self.assertEqual(rc, 125)
        self.assertEqual(record["status"], "exit_nonzero")

    def test_program_missing_inside_is_127(self):
        rc, _, _, record = tc.run(["/no/such/program"])
        self.assertEqual(rc, 127)
        self.assertEqual(record["exit_code"], 127)

    def test_large_stdout_beside_the_record(self):
        rc, out, _, record = tc.run([PY, "-c", "import sys; sys.stdout.write('x' * 900000)"])
        self.assertEqual((rc, len(out)), (0, 900000))
        self.assertEqual(record["stdout_bytes"], 900000)

    def test_limit_above_the_policy_is_refused(self):
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.run([PY, "-c", "pass"], memory="1G")
        self.assertIn("256M", cm.exception.message)
        self.assertIsNone(cm.exception.record)

    def test_missing_binary(self):
        with self.assertRaises(tc.ToolcellNotFound):
            tc.run([PY, "-c", "pass"], toolcell="/no/such/dir/toolcell")

    def test_bad_arguments(self):
        with self.assertRaises(TypeError):
            tc.run("python3 -c pass")
        with self.assertRaises(ValueError):
            tc.run([PY], verb="call")
        with self.assertRaises(TypeError):
            tc.run([PY], script_dir=True)


class Double(EnvCase):
    """The paths a healthy toolcell does not take, on the double."""

    def test_command_line(self):
        rc, out, _, record = tc.run(["-c", "pass"], stdin="é", toolcell=FAKE, verb="python",
                                    script_dir=True, memory=1 << 26)
        self.assertEqual(rc, 0)
        argv = record["argv"]
        fd = argv[argv.index("--result-fd") + 1]
        self.assertEqual(argv, ["python", "--script-dir", "--memory", "67108864",
                                "--result-fd", fd, "--", "-c", "pass"])
        self.assertGreaterEqual(int(fd), 3)
        self.assertIn('"stdin": "\\u00e9"', out.decode())

    def test_no_record_is_a_toolcell_error(self):
        os.environ["FAKE_TOOLCELL"] = "no-record"
        with self.assertRaises(tc.ToolcellError) as cm:
            tc.run(["x"], toolcell=FAKE)
        self.assertNotIsInstance(cm.exception, tc.ToolcellRefused)
        self.assertEqual(cm.exception.exit_code, 3)

    def test_sandbox_error_is_a_refusal(self):
        os.environ["FAKE_TOOLCELL"] = "sandbox"
        with self.assertRaises(tc.ToolcellRefused) as cm:
            tc.run(["x"], toolcell=FAKE)
        self.assertEqual(cm.exception.type, "sandbox_error")
        self.assertEqual(cm.exception.message, "fake mount failure")


if __name__ == "__main__":
    unittest.main()
