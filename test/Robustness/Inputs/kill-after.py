#!/usr/bin/env python3
"""Start a command, SIGKILL it after SECONDS, and succeed only if it was
still running then (so the kill really happened midway).

  kill-after.py SECONDS cmd args...
"""
import signal
import subprocess
import sys
import time

p = subprocess.Popen(sys.argv[2:])
time.sleep(float(sys.argv[1]))
if p.poll() is not None:
    sys.exit("kill-after: the command ended (exit %d) before the kill" % p.returncode)
p.send_signal(signal.SIGKILL)
p.wait()
