#!/usr/bin/env python3
"""Two runs into one output directory (issue 25 item 3).

  lock-check.py OUT CMD...    (CMD without -o; its first run sleeps)

Starts CMD -o OUT, waits for its lock beside OUT, then runs CMD -o OUT
again (must fail at once, exit 1, with one line) and CMD --wait-lock -o OUT
(must wait for the first and succeed). Prints the second run's stderr and
what happened, for FileCheck.
"""
import os
import subprocess
import sys
import time

out, cmd = sys.argv[1], sys.argv[2:]
lock = os.path.join(os.path.dirname(out), "." + os.path.basename(out) + ".tl-lock")
first = subprocess.Popen(cmd + ["-o", out])
deadline = time.monotonic() + 30
while not os.path.exists(lock):
    if time.monotonic() > deadline or first.poll() is not None:
        sys.exit("lock-check: the first run took no lock at %s" % lock)
    time.sleep(0.02)
t0 = time.monotonic()
second = subprocess.run(cmd + ["-o", out], stderr=subprocess.PIPE)
took = time.monotonic() - t0
sys.stdout.write(second.stderr.decode())
print("second: exit %d, %s" % (second.returncode,
                               "at once" if took < 2 else "after %.1f s" % took))
if first.poll() is not None:
    sys.exit("lock-check: the first run ended before the second one was tried")
third = subprocess.Popen(cmd + ["--wait-lock", "-o", out])
first_rc = first.wait()
third_rc = third.wait()
print("first: exit %d; waiting run: exit %d" % (first_rc, third_rc))
print("lock left: %s" % os.path.exists(lock))
