"""Workload: platform and sys introspection a tool prints in its report."""
import os
import platform
import struct
import sys

NAME = "platform_info"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


u = platform.uname()
check(u.system == "Linux" and u.machine == os.uname().machine and u.release == os.uname().release, f"uname {u}")
check(u.node == os.uname().nodename and u.version, "node/version")
check(platform.system() == "Linux" and platform.machine() == u.machine, "system/machine")
check(isinstance(platform.processor(), str), "processor")
check(platform.python_version().startswith("3.11.") and platform.python_version_tuple()[:2] == ("3", "11"), platform.python_version())
check(platform.python_implementation() == "CPython" and platform.python_compiler().startswith("GCC"), "implementation")
# architecture() asks the `file` program for the linkage; the sandbox's
# minimal root has no `file`, so the linkage may be "" there
bits, linkage = platform.architecture()
check(bits == f"{struct.calcsize('P') * 8}bit" and linkage in ("ELF", ""), f"architecture {bits} {linkage}")
lib, ver = platform.libc_ver()
check(lib == "glibc" and ver.count(".") == 1, f"libc_ver {lib} {ver}")
plat = platform.platform()
check(plat.startswith("Linux-") and "glibc" in plat, f"platform {plat}")
check(platform.python_build()[0] and platform.python_branch() is not None, "python_build")

check(sys.platform == "linux" and sys.byteorder in ("little", "big") and sys.maxsize == 2**63 - 1, "sys basics")
check(sys.version_info[:2] == (3, 11) and sys.implementation.name == "cpython", "version_info")
check(sys.executable == "/usr/bin/python3" or os.path.realpath(sys.executable).startswith("/usr/bin/python3"), sys.executable)
check(sys.prefix == "/usr" and sys.base_prefix == "/usr", f"prefix {sys.prefix}")
check(any(p.endswith("lib-dynload") for p in sys.path), "lib-dynload on sys.path")
check(sys.getrecursionlimit() >= 1000 and sys.getsizeof(0) > 0 and sys.getrefcount(None) > 0, "sys functions")
check(sys.flags.optimize == 0 and sys.float_info.dig == 15 and sys.hash_info.width == 64, "flags/float_info")
check(sys.thread_info.name == "pthread", "thread_info")
check(set(sys.builtin_module_names) >= {"sys", "builtins", "_thread", "posix"}, "builtin modules")
check("json" in sys.stdlib_module_names and len(sys.modules) > 10, "modules")

print(f"ok {NAME}")
