#!/usr/bin/env python3
"""Replay fuzzer inputs through tl-opt: each must import and verify (exit 0)
or be refused with one clean error line (exit 1) -- never crash or hang.

  replay.py TL-OPT DIR...
"""
import os
import subprocess
import sys

tl_opt, dirs = sys.argv[1], sys.argv[2:]
bad = 0
count = 0
for d in dirs:
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        count += 1
        try:
            r = subprocess.run([tl_opt, "--print-ir=summary", "--verify-ir", path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=60)
        except subprocess.TimeoutExpired:
            print("HANG %s" % path)
            bad += 1
            continue
        err = r.stderr.decode("utf-8", "replace")
        lines = err.strip().splitlines()
        ok = r.returncode == 0 or (
            r.returncode == 1 and len(lines) == 1 and
            lines[0].startswith("tl-opt: error: "))
        if not ok:
            print("FAIL %s: exit %d\n%s" % (path, r.returncode, err))
            bad += 1
print("replayed %d inputs, %d bad" % (count, bad))
sys.exit(1 if bad else 0)
