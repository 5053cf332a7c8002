#!/usr/bin/env python3
"""Run a command and check its exit code, wall time and peak RSS.

  limited.py --exit C --max-rss-mb M --max-seconds S -- cmd args...

Peak RSS comes from getrusage(RUSAGE_CHILDREN). Under sanitizers (env
TL_LIMIT_SCALE, set by lit.local.cfg) both bounds are multiplied, since
ASan/TSan shadow memory and slow-down are not the program's own cost.
"""
import argparse
import os
import resource
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--exit", type=int, default=0)
p.add_argument("--max-rss-mb", type=float, required=True)
p.add_argument("--max-seconds", type=float, required=True)
p.add_argument("cmd", nargs=argparse.REMAINDER)
a = p.parse_args()
cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
scale = float(os.environ.get("TL_LIMIT_SCALE", "1"))
t0 = time.monotonic()
try:
    rc = subprocess.call(cmd, timeout=a.max_seconds * scale)
except subprocess.TimeoutExpired:
    sys.exit("limited: timed out after %.0f s" % (a.max_seconds * scale))
secs = time.monotonic() - t0
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
sys.stderr.write("limited: exit %d, %.1f s, peak RSS %.0f MB\n" % (rc, secs, rss_mb))
if rc != a.exit:
    sys.exit("limited: exit code %d, expected %d" % (rc, a.exit))
if rss_mb > a.max_rss_mb * scale:
    sys.exit("limited: peak RSS %.0f MB over the %.0f MB bound" % (rss_mb, a.max_rss_mb * scale))
