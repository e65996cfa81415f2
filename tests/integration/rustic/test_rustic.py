"""Rustic AI's PythonExecExecutor contract, replayed through
toolcell_client.Session against the real toolcell (clean-room: the
assertions of rustic's own stateful tests, of its removed DockerExecutor's
tests, and of the PythonExecExecutor document, written anew).

Run by rustic.bats as `python3 -I -B test_rustic.py -v` with TC_CLIENT_DIR
(the folder of toolcell_client.py) and TOOLCELL set.
"""
import os
import sys
import time
import unittest

sys.path.insert(0, os.environ["TC_CLIENT_DIR"])
import toolcell_client as tc  # noqa: E402

TOOLCELL = os.environ["TOOLCELL"]


def executor(**kw):
    """One agent's executor: a session with rustic's own defaults where the
    test gives none (a memory cap like the Docker executor's 512m)."""
    kw.setdefault("memory", "256M")
    return tc.Session(toolcell=TOOLCELL, **kw)


class Stateful(unittest.TestCase):
    """rustic's test_python_exec_executor.py, one assertion set each."""

    def setUp(self):
        self.ex = executor()
        self.addCleanup(self.ex.close)

    def run_code(self, code, ex=None):
        return (ex or self.ex).run(tc.CodeSnippet(code=code, language="python"))

    def test_01_basic(self):
        r = self.run_code('x = 1 + 2\nprint(f"Result: {x}")')
        self.assertEqual(r.exit_code, 0)
        self.assertEqual(r.stdout, "Result: 3\n")
        self.assertEqual(r.stderr, "")
        self.assertIsNone(r.exception)

    def test_02_state_persists(self):
        self.assertEqual(self.run_code("x = 42").exit_code, 0)
        self.assertEqual(self.run_code("print(x)").stdout, "42\n")

    def test_03_zero_division(self):
        r = self.run_code("1/0")
        self.assertEqual(r.exit_code, -1)
        self.assertEqual(r.exception.type, "ZeroDivisionError")
        self.assertIn("division by zero", r.exception.message)

    def test_04_syntax_error(self):
        r = self.run_code("if True print('invalid')")
        self.assertEqual(r.exit_code, -1)
        self.assertEqual(r.exception.type, "SyntaxError")

    def test_05_no_whitelist_no_import(self):
        r = self.run_code("import sys")
        self.assertEqual(r.exit_code, -1)
        self.assertEqual(r.exception.type, "ImportError")
        self.assertIn("__import__ not found", r.exception.message)

    def test_06_stdout_then_exception(self):
        r = self.run_code("print('to stdout')\nraise Exception('to stderr')")
        self.assertIn("to stdout", r.stdout)
        self.assertEqual(r.exit_code, -1)
        self.assertEqual(r.exception.type, "Exception")
        self.assertIn("to stderr", r.exception.message)

    def test_07_unsupported_language(self):
        with self.assertRaises(tc.ValidationError) as cm:
            self.ex.run(tc.CodeSnippet(code="console.log(1)", language="javascript"))
        self.assertIn("Unsupported language: javascript", str(cm.exception))

    def test_08_shutdown_clears_state(self):
        self.run_code("x = 42")
        self.ex.shutdown()
        r = self.run_code("print(x)")
        self.assertEqual(r.exit_code, -1)
        self.assertEqual(r.exception.type, "NameError")
        self.assertIn("name 'x' is not defined", r.exception.message)

    def test_09_whitelist_allows(self):
        with executor(allowed_imports={"math", "json"}) as ex:
            r = self.run_code("from math import sqrt\nprint(sqrt(16))", ex)
            self.assertIn("4.0", r.stdout)
            self.assertEqual(r.stderr, "")

    def test_10_whitelist_refuses(self):
        with executor(allowed_imports={"math", "json"}) as ex:
            r = self.run_code("import sys", ex)
            self.assertEqual(r.exception.type, "ImportError")
            self.assertIn("Import of 'sys' is not allowed", r.exception.message)

    def test_11_default_imports(self):
        with executor(default_imports={"m": "math", "json_lib": "json"}) as ex:
            r = self.run_code("print(m.pi)\nprint(json_lib.dumps([1, 2, 3]))", ex)
            self.assertIn("3.14159", r.stdout)
            self.assertIn("[1, 2, 3]", r.stdout)


class DockerExecutorShape(unittest.TestCase):
    """What rustic's removed DockerExecutor tests asked of a real sandbox."""

    def test_files_in_and_out(self):
        with executor(allowed_imports=["pathlib"]) as ex:
            r = ex.run("import pathlib\n"
                       "t = pathlib.Path('input.txt').read_bytes()\n"
                       "pathlib.Path('output.txt').write_bytes(t.upper())",
                       input_files={"input.txt": b"hello world"},
                       output_filenames=["output.txt"])
            self.assertEqual(r.exit_code, 0, r.exception)
            self.assertEqual(r.output_files["output.txt"], b"HELLO WORLD")

    def test_value_error(self):
        with executor() as ex:
            r = ex.run("raise ValueError('Boom')")
            self.assertNotEqual(r.exit_code, 0)
            self.assertEqual(f"{r.exception.type}: {r.exception.message}", "ValueError: Boom")

    def test_timeout(self):
        with executor(allowed_imports=["time"], timeout=2) as ex:
            t0 = time.monotonic()
            r = ex.run("import time\ntime.sleep(5)", timeout_seconds=2)
            self.assertLess(time.monotonic() - t0, 4.5)
            self.assertEqual(r.exit_code, -1)
            self.assertTrue(r.timed_out)
            self.assertIsNotNone(r.exception)
            self.assertEqual(r.exception.type, "Timeout")

    def test_rustic_default_timeout_is_clamped(self):
        # run()'s timeout_seconds=60 over a 2-second session: clamped, said so
        with executor(timeout=2) as ex:
            r = ex.run("print('ok')")
            self.assertEqual(r.exit_code, 0)
            self.assertEqual(r.resources_used["timeout_clamped_to"], 2.0)


class SeedDocument(unittest.TestCase):
    """The PythonExecExecutor document: execute(code=, globals_dict=,
    return_globals=) -> success, error, stdout, stderr, globals."""

    def test_execute_shape(self):
        with executor() as ex:
            result = ex.execute(code="""
            total = sum(input_data)
            output = {"total": total, "n": len(input_data)}
            print("done")
            """, globals_dict={"input_data": [1, 2, 3]}, return_globals=["output"])
            self.assertTrue(result.success)
            self.assertIsNone(result.error)
            self.assertEqual(result.stdout, "done\n")
            self.assertEqual(result.stderr, "")
            self.assertEqual(result.globals.get("output"), {"total": 6, "n": 3})
            self.assertEqual(result["globals"], result.globals)  # the answer dict too

    def test_execute_error(self):
        with executor() as ex:
            result = ex.execute(code="output = input_data['missing']",
                                globals_dict={"input_data": {}}, return_globals=["output"])
            self.assertFalse(result.success)
            self.assertEqual(result.error, "KeyError: 'missing'")
            self.assertEqual(result.globals, {})

    def test_dotted_whitelist(self):
        # the document whitelists "matplotlib.pyplot"; the rootfs has no
        # matplotlib, so the same shape with xml.etree.ElementTree
        with executor(allowed_imports=["xml.etree.ElementTree"]) as ex:
            ok = ex.execute("import xml.etree.ElementTree as ET\n"
                            "from xml.etree import ElementTree\n"
                            "output = ET.fromstring('<a>1</a>').text", return_globals=["output"])
            self.assertTrue(ok.success, ok.error)
            self.assertEqual(ok.globals, {"output": "1"})
            no = ex.execute("import xml.dom")
            self.assertEqual(no.error, "ImportError: Import of 'xml.dom' is not allowed. "
                             "Allowed imports: ['xml.etree.ElementTree']")

    def test_missing_default_import_raises_with_stderr(self):
        with executor(default_imports={"np": "numpy"}) as ex:
            for _ in range(2):  # every request, not only the first
                with self.assertRaises(tc.ToolcellRefused) as cm:
                    ex.execute("print(1)")
                self.assertEqual(cm.exception.type, "ModuleNotFoundError")
                self.assertIn("default import np = numpy failed: No module named 'numpy'",
                              cm.exception.message)
                self.assertIn("toolcell's stderr: session: default import np = numpy failed",
                              cm.exception.message)

    def test_import_beyond_policy_ceiling(self):
        policy = os.path.join(os.environ["TC_TMP"], "ceiling.json")
        with open(policy, "w") as f:
            f.write('{"version": 1, "session": {"max_imports": ["json"]}}')
        os.chmod(policy, 0o644)
        ex = executor(policy=policy, allowed_imports=["os"])
        with self.assertRaises(tc.ToolcellRefused) as cm:
            ex.execute("print(1)")
        self.assertIn("--allow-import os: the policy's session.max_imports does not include os",
                      cm.exception.message)
        ex.close()


if __name__ == "__main__":
    unittest.main()
