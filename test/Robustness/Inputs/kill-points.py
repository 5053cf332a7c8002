#!/usr/bin/env python3
"""Kill a report run at random points; the output directory must hold the
old report or the new one, byte for byte, never a mix (issue 25 item 8).

  kill-points.py COUNT WORK TL_OPT TRACE 'OLD ARGS' 'NEW ARGS'

Writes the old report into WORK/ref_old and the new one into WORK/ref_new
(siblings of WORK/out, so the relative paths inside are the same), then
COUNT times: WORK/out := ref_old, start the new run into it, SIGKILL it
after a random time in [0, 1.2 x the new run's time], compare. Two more
rounds end the run with SIGTERM and SIGINT. At the end one full run into
WORK/out must clear what the killed runs left beside it. TL_KILL_SEED sets
the seed (printed).
"""
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time


def tree(root):
    """{relative path: bytes} of every file, {dirs}; links are a failure."""
    files, dirs = {}, set()
    for d, subdirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        if rel != ".":
            dirs.add(rel)
        for n in names + subdirs:
            p = os.path.join(d, n)
            if os.path.islink(p):
                sys.exit("kill-points: %s is a symbolic link" % p)
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                files[os.path.normpath(os.path.join(rel, n))] = f.read()
    return files, dirs


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode not in (0, 2, 3):
        sys.exit("kill-points: %s failed (%d): %s"
                 % (" ".join(cmd), r.returncode, r.stderr.decode()))


def main():
    count, work, tl, trace = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    old_args, new_args = shlex.split(sys.argv[5]), shlex.split(sys.argv[6])
    seed = int(os.environ.get("TL_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    ref_old, ref_new, out = (os.path.join(work, n) for n in ("ref_old", "ref_new", "out"))
    run([tl, "--quiet"] + old_args + [trace, "-o", ref_old])
    t0 = time.monotonic()
    run([tl, "--quiet"] + new_args + [trace, "-o", ref_new])
    duration = time.monotonic() - t0
    old, new = tree(ref_old), tree(ref_new)
    if old == new:
        sys.exit("kill-points: the old and the new report are the same")
    seen = {"old": 0, "new": 0}
    sigs = [signal.SIGKILL] * count + [signal.SIGTERM, signal.SIGINT]
    for i, sig in enumerate(sigs):
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(ref_old, out, symlinks=True)
        delay = rng.uniform(0, 1.2 * duration)
        p = subprocess.Popen([tl, "--quiet"] + new_args + [trace, "-o", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if p.poll() is None:
            p.send_signal(sig)
        p.wait()
        got = tree(out)
        if got == old:
            seen["old"] += 1
        elif got == new:
            seen["new"] += 1
        else:
            f_old, f_new = set(old[0]), set(new[0])
            f_got = set(got[0])
            diff = sorted((f_got ^ f_old) | {k for k in f_got & f_old if got[0][k] != old[0][k]})
            sys.exit("kill-points: seed %d, kill %d (%s after %.2f s of %.2f s): "
                     "out is neither the old nor the new report; differs from the "
                     "old one in %s, from the new one in %s"
                     % (seed, i, signal.Signals(sig).name, delay, duration, diff[:5],
                        sorted((f_got ^ f_new) | {k for k in f_got & f_new
                                                  if got[0][k] != new[0][k]})[:5]))
    # A full run clears what the killed ones left beside out.
    run([tl, "--quiet"] + new_args + [trace, "-o", out])
    if tree(out) != new:
        sys.exit("kill-points: the run after the kills did not write the new report")
    left = sorted(n for n in os.listdir(work) if n.startswith(".out."))
    if left:
        sys.exit("kill-points: left beside out after a full run: %s" % left)
    print("kill-points: seed %d: %d kills (%d SIGKILL, SIGTERM, SIGINT) over %.2f s runs: "
          "%d old, %d new, 0 mixed" % (seed, len(sigs), count, duration, seen["old"], seen["new"]))


main()
