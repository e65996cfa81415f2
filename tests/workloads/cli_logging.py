"""Workload: argparse, configparser, tomllib, shlex, getopt, logging to
files in /tmp (rotating, dictConfig), pprint, reprlib, gettext."""
import argparse
import configparser
import getopt
import gettext
import io
import logging
import logging.config
import logging.handlers
import os
import pprint
import reprlib
import shlex
import sys
import tempfile
import tomllib

NAME = "cli_logging"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


parser = argparse.ArgumentParser(prog="tool", description="demo")
parser.add_argument("-v", "--verbose", action="count", default=0)
parser.add_argument("--limit", type=int, default=10, choices=range(1, 101), metavar="N")
sub = parser.add_subparsers(dest="cmd", required=True)
run = sub.add_parser("run")
run.add_argument("files", nargs="+")
run.add_argument("--dry-run", action="store_true")
run.add_argument("--tag", action="append", default=[])
args = parser.parse_args(["-vv", "--limit", "5", "run", "a.txt", "b.txt", "--tag", "x", "--tag", "y", "--dry-run"])
check((args.verbose, args.limit, args.cmd, args.files, args.tag, args.dry_run) ==
      (2, 5, "run", ["a.txt", "b.txt"], ["x", "y"], True), f"argparse {args}")
err = io.StringIO()
try:
    sys.stderr, saved = err, sys.stderr
    parser.parse_args(["--limit", "500", "run", "f"])
except SystemExit as e:
    check(e.code == 2 and "invalid choice" in err.getvalue(), "argparse error exit")
finally:
    sys.stderr = saved
check("usage: tool" in parser.format_help(), "format_help")
opts, rest = getopt.getopt(["-a", "-b", "val", "--long=x", "file"], "ab:", ["long="])
check(opts == [("-a", ""), ("-b", "val"), ("--long", "x")] and rest == ["file"], "getopt")

check(shlex.split("cmd --name 'a b' \"c d\" e\\ f") == ["cmd", "--name", "a b", "c d", "e f"], "shlex.split")
check(shlex.quote("it's") == "'it'\"'\"'s'" and shlex.join(["a b", "c"]) == "'a b' c", "shlex.quote/join")

cfg = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())
cfg.read_string("""
[DEFAULT]
base = /srv
[paths]
data = ${base}/data
logs = ${data}/logs
[limits]
retries = 3
ratio = 0.5
enabled = yes
""")
check(cfg["paths"]["logs"] == "/srv/data/logs", "interpolation")
check(cfg.getint("limits", "retries") == 3 and cfg.getfloat("limits", "ratio") == 0.5 and cfg.getboolean("limits", "enabled"), "typed getters")
toml = tomllib.loads("""
title = "demo"
[owner]
name = "Tom"
dob = 1979-05-27T07:32:00-08:00
[[servers]]
ip = "10.0.0.1"
ports = [8000, 8001]
[[servers]]
ip = "10.0.0.2"
ports = []
""")
check(toml["owner"]["dob"].utcoffset().total_seconds() == -8 * 3600 and len(toml["servers"]) == 2, "tomllib")
check(toml["servers"][0]["ports"] == [8000, 8001], "toml arrays of tables")

with tempfile.TemporaryDirectory() as d:
    cfg_path = os.path.join(d, "tool.ini")
    with open(cfg_path, "w") as f:
        cfg.write(f)
    again = configparser.ConfigParser(interpolation=None)
    check(again.read(cfg_path) == [cfg_path] and again["paths"]["data"] == "${base}/data", "configparser file")
    with open(os.path.join(d, "c.toml"), "wb") as f:
        f.write(b'k = "v"\n')
    with open(os.path.join(d, "c.toml"), "rb") as f:
        check(tomllib.load(f) == {"k": "v"}, "tomllib.load")

    logfile = os.path.join(d, "tool.log")
    logging.config.dictConfig({
        "version": 1,
        "formatters": {"plain": {"format": "%(levelname)s %(name)s %(message)s"}},
        "handlers": {
            "file": {"class": "logging.FileHandler", "filename": logfile, "formatter": "plain", "encoding": "utf-8"},
            "rot": {"class": "logging.handlers.RotatingFileHandler", "filename": os.path.join(d, "rot.log"),
                    "maxBytes": 2000, "backupCount": 2, "formatter": "plain"},
        },
        "loggers": {"tool": {"level": "DEBUG", "handlers": ["file", "rot"], "propagate": False}},
    })
    log = logging.getLogger("tool.sub")
    log.debug("starting ✓")
    log.info("value=%d", 42)
    try:
        1 / 0
    except ZeroDivisionError:
        log.exception("failed")
    for i in range(300):
        log.warning("rotate me %03d", i)
    logging.shutdown()
    with open(logfile, encoding="utf-8") as f:
        lines = f.read().splitlines()
    check(lines[:2] == ["DEBUG tool.sub starting ✓", "INFO tool.sub value=42"], f"log lines {lines[:2]}")
    check(any("ZeroDivisionError" in line for line in lines), "log.exception traceback")
    check(sorted(n for n in os.listdir(d) if n.startswith("rot")) == ["rot.log", "rot.log.1", "rot.log.2"], "rotation")
    stream = io.StringIO()
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%Y"))
    other = logging.getLogger("other")
    other.addHandler(h)
    other.setLevel(logging.INFO)
    other.info("to a stream")
    check(stream.getvalue().endswith(" to a stream\n") and stream.getvalue()[:2] == "20", "StreamHandler")

check(pprint.pformat({"b": [1] * 3, "a": {"x": 1}}, width=20) == "{'a': {'x': 1},\n 'b': [1, 1, 1]}", "pprint")
check(reprlib.repr(list(range(100))) == "[0, 1, 2, 3, 4, 5, ...]", "reprlib")
check(gettext.NullTranslations().gettext("hello") == "hello" and gettext.gettext("x") == "x", "gettext")

print(f"ok {NAME}")
