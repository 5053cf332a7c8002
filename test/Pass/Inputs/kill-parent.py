# Start tl-opt (the command line after the signal name), wait until it has
# forked the child of an isolated pass, kill tl-opt with the signal, and
# report whether the child is gone within 10 s:
#   %python kill-parent.py KILL <tl-opt command...>
import glob
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, "SIG" + sys.argv[1])
proc = subprocess.Popen(sys.argv[2:], stderr=subprocess.DEVNULL)


def children(pid):
    kids = []
    for f in glob.glob("/proc/%d/task/*/children" % pid):
        try:
            kids += [int(k) for k in open(f).read().split()]
        except OSError:
            pass
    return kids


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


kids = []
deadline = time.time() + 60
while not kids and time.time() < deadline and proc.poll() is None:
    time.sleep(0.05)
    kids = children(proc.pid)
if not kids:
    print("no child started")
    sys.exit(1)
# The child has started its pass (it hangs); now take the parent away.
time.sleep(0.3)
proc.send_signal(sig)
proc.wait()
deadline = time.time() + 10
while any(alive(k) for k in kids) and time.time() < deadline:
    time.sleep(0.05)
print("parent: %s; child gone: %s" % (
    "killed by SIG" + sys.argv[1] if proc.returncode == -sig else "rc %d" % proc.returncode,
    not any(alive(k) for k in kids)))
