"""Workload: sysconfig, site and importlib.metadata queries."""
import importlib.metadata
import importlib.util
import site
import sys
import sysconfig

NAME = "sysconfig_info"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


check(sysconfig.get_python_version() == "3.11", "get_python_version")
plat = sysconfig.get_platform()
check(plat.startswith("linux-"), f"get_platform {plat}")
paths = sysconfig.get_paths()
check({"stdlib", "purelib", "platlib", "include", "scripts", "data"} <= set(paths), f"get_paths {sorted(paths)}")
check(paths["stdlib"] == "/usr/lib/python3.11", f"stdlib path {paths['stdlib']}")
check(sysconfig.get_config_var("SOABI").startswith("cpython-311-"), "SOABI")
check(sysconfig.get_config_var("EXT_SUFFIX").endswith(".so") and sysconfig.get_config_var("VERSION") == "3.11", "EXT_SUFFIX/VERSION")
cv = sysconfig.get_config_vars()
check(len(cv) > 100 and cv["prefix"] == "/usr", f"config vars {len(cv)}")
check("posix_prefix" in sysconfig.get_scheme_names() and sysconfig.get_default_scheme() in sysconfig.get_scheme_names(), "schemes")
check(sysconfig.get_path("purelib", vars={"base": "/opt/x"}).startswith("/opt/x"), "get_path with vars")
check(isinstance(sysconfig.is_python_build(), bool), "is_python_build")
check(isinstance(site.getsitepackages(), list) and isinstance(site.ENABLE_USER_SITE, (bool, type(None))), "site")
check(importlib.util.find_spec("json").origin.endswith("json/__init__.py"), "find_spec json")
check(importlib.util.find_spec("no_such_module_wl") is None, "find_spec missing")
check(importlib.util.find_spec("_sqlite3").origin.endswith(".so"), "extension module spec")
dists = list(importlib.metadata.distributions())
check(isinstance(dists, list), "distributions")
try:
    importlib.metadata.version("no-such-dist-wl")
except importlib.metadata.PackageNotFoundError:
    pass
else:
    check(False, "found a missing distribution")

print(f"ok {NAME}")
