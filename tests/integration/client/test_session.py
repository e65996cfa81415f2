"""toolcell_client.Session: the JSON-lines protocol of `toolcell session`
(checked on the protocol double), and a clean ToolcellRefused from a toolcell
that has no `session` command."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clienttest import FAKE, REAL, EnvCase, tc  # noqa: E402


def real_has_session():
    return subprocess.run([REAL, "help", "session"], capture_output=True).returncode == 0


class RealToolcell(EnvCase):
    def test_session_on_this_toolcell(self):
        with tc.Session(toolcell=REAL) as s:
            if real_has_session():
                r = s.execute("x = 6 * 7", return_globals=["x"])
                self.assertIs(r["success"], True)
                self.assertEqual(r["globals"], {"x": 42})
            else:  # toolcell: unknown command 'session' ..., exit 125
                with self.assertRaises(tc.ToolcellRefused) as cm:
                    s.execute("x = 1")
                self.assertIn("unknown command", cm.exception.message)
                self.assertIn("session", cm.exception.message)
                with self.assertRaises(tc.ToolcellError):
                    s.execute("x = 1")  # the session is over
        self.assertEqual(s.returncode, 0 if real_has_session() else 125)

    def test_limit_above_the_policy_is_refused(self):
        s = tc.Session(toolcell=REAL, memory="1G")
        with self.assertRaises(tc.ToolcellRefused):
            s.reset()
        s.close()

    def test_missing_binary(self):
        with self.assertRaises(tc.ToolcellNotFound):
            tc.Session(toolcell="/no/such/dir/toolcell")


class Protocol(EnvCase):
    def session(self, **limits):
        s = tc.Session(toolcell=FAKE, **limits)
        self.addCleanup(s.close)
        return s

    def test_globals_persist_between_requests(self):
        s = self.session()
        self.assertIs(s.execute("x = 20")["success"], True)
        r = s.execute("y = x + a", globals={"a": 22}, return_globals=["y", "nope"])
        self.assertEqual(r["globals"], {"y": 42})

    def test_stdout_and_exception_are_data(self):
        s = self.session()
        r = s.execute("print('hi')\n1 / 0")
        self.assertIs(r["success"], False)
        self.assertEqual(r["stdout"], "hi\n")
        self.assertEqual(r["exception"]["type"], "ZeroDivisionError")
        self.assertIn("Traceback", r["exception"]["traceback"])

    def test_reset_forgets_globals(self):
        s = self.session()
        s.execute("x = 1")
        self.assertEqual(s.reset()["id"], 2)
        r = s.execute("x")
        self.assertEqual(r["exception"]["type"], "NameError")

    def test_files_in_and_out_as_bytes(self):
        s = self.session()
        blob = bytes(range(256))
        r = s.execute("open('out.bin', 'wb').write(open('in.bin', 'rb').read()[::-1])",
                      input_files={"in.bin": blob, "note.txt": "héllo"},
                      output_files=["out.bin", "absent"])
        self.assertEqual(r["output_files"], {"out.bin": blob[::-1]})
        sent = r["echo"]["request"]["input_files"]
        self.assertEqual(sent["note.txt"], "aMOpbGxv")

    def test_request_fields_and_ids(self):
        s = self.session(memory="64M")
        r1 = s.execute("pass", timeout_s=3)
        r2 = s.execute("pass")
        self.assertEqual((r1["id"], r2["id"]), (1, 2))
        self.assertEqual(r1["echo"]["request"], {"id": 1, "code": "pass", "timeout_s": 3})
        self.assertEqual(r1["echo"]["argv"], ["session", "--memory", "64M"])

    def test_close_is_idempotent_and_ends_the_process(self):
        with tc.Session(toolcell=FAKE) as s:
            s.execute("pass")
        s.close()
        self.assertEqual(s.returncode, 0)
        with self.assertRaises(tc.ToolcellError):
            s.execute("pass")

    def test_an_answer_to_no_request_ends_the_session(self):
        os.environ["FAKE_TOOLCELL"] = "wrong-id"
        s = self.session()
        with self.assertRaises(tc.ToolcellError) as cm:
            s.execute("pass")
        self.assertNotIsInstance(cm.exception, tc.ToolcellRefused)
        self.assertIn("answers no request", cm.exception.message)
        self.assertIsNotNone(s.returncode)

    def test_a_line_that_is_not_json_ends_the_session(self):
        os.environ["FAKE_TOOLCELL"] = "garbage"
        with self.assertRaises(tc.ToolcellError):
            self.session().execute("pass")

    def test_toolcell_dying_is_an_error_with_its_diagnostic(self):
        os.environ["FAKE_TOOLCELL"] = "die"
        with self.assertRaises(tc.ToolcellError) as cm:
            self.session().execute("pass")
        self.assertNotIsInstance(cm.exception, tc.ToolcellRefused)
        self.assertEqual(cm.exception.exit_code, 2)
        self.assertIn("fake failure", cm.exception.message)


if __name__ == "__main__":
    unittest.main()
