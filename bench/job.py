#!/usr/bin/env python3
"""Job half of bench/run.sh (--job=RANKSxMB): one tl-gen job of RANKS traces
of MB each, analysed (a) one trace per tl-opt run, one after another (the
baseline), (b) as one job with --threads workers, (c) as one job under
mpirun -n P --mpi. Prints a markdown table: median wall time of N runs,
MB/s, peak RSS (per process; for the baseline the largest single run) and
the ratio to the baseline."""
import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GNU_TIME = "/usr/bin/time"
ENV = dict(os.environ, TL_NO_PROGRESS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def timed(cmd, rss_dir):
    """Runs cmd; returns (wall s, [peak RSS KiB of each tl-opt process])."""
    for f in glob.glob(os.path.join(rss_dir, "rss.*")):
        os.remove(f)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=ENV, text=True)
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 3):
        sys.exit("bench/job.py: error: %s failed (%d):\n%s"
                 % (" ".join(cmd), p.returncode, p.stdout[-2000:]))
    rss = []
    for f in sorted(glob.glob(os.path.join(rss_dir, "rss.*"))):
        txt = open(f).read().split()
        if txt and txt[-1].isdigit():
            rss.append(int(txt[-1]))
    return wall, rss


def wrap(tlopt, rss_dir, tag):
    """tl-opt under GNU time writing its peak RSS to rss_dir/rss.<tag>."""
    return [GNU_TIME, "-f", "%M", "-o", os.path.join(rss_dir, "rss." + tag),
            tlopt]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--job", required=True, help="directory of rank<R>.json")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--mpi", default="2", help="process counts, e.g. 2 or 1,2 ('' = none)")
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    tlopt = os.path.join(a.bin, "tl-opt")
    traces = sorted(glob.glob(os.path.join(a.job, "*.json")))
    mb = sum(os.path.getsize(t) for t in traces) / 1e6
    rss_dir = tempfile.mkdtemp(dir=a.work)
    out = os.path.join(a.work, "job-out")
    common = ["--quiet", "--threads=%d" % a.threads]
    mpirun = shutil.which("mpirun")

    def one_by_one():
        walls, peaks = 0.0, []
        for i, t in enumerate(traces):
            o = os.path.join(out, "single%d" % i)
            shutil.rmtree(o, ignore_errors=True)
            w, r = timed(wrap(tlopt, rss_dir, str(i)) + common + [t, "-o", o],
                         rss_dir)
            walls += w
            peaks += r
        shutil.rmtree(out, ignore_errors=True)
        return walls, peaks

    def job():
        shutil.rmtree(out, ignore_errors=True)
        return timed(wrap(tlopt, rss_dir, "0") + common + [a.job, "-o", out],
                     rss_dir)

    def mpi(n):
        # The cores shared by the processes (--threads is per process).
        cores = a.threads or os.cpu_count() or 1
        per_process = max(1, cores // n)

        def f():
            shutil.rmtree(out, ignore_errors=True)
            # GNU time's -o gets the MPI rank from a shell per process.
            cmd = [mpirun, "--oversubscribe", "-n", str(n), "sh", "-c",
                   'exec %s -f %%M -o %s/rss.$OMPI_COMM_WORLD_RANK "$@"'
                   % (GNU_TIME, rss_dir), "sh", tlopt, "--mpi", "--quiet",
                   "--threads=%d" % per_process] + [a.job, "-o", out]
            return timed(cmd, rss_dir)
        return f

    configs = [("one trace per run, one after another", one_by_one),
               ("job, --threads=%d" % a.threads, job)]
    if mpirun and a.mpi:
        for n in a.mpi.split(","):
            t = max(1, (a.threads or os.cpu_count() or 1) // int(n))
            configs.append(("job, mpirun -n %s --mpi --threads=%d" % (n, t),
                            mpi(int(n))))
    rows, base = [], None
    for name, fn in configs:
        walls, rss = [], []
        for _ in range(a.runs):
            w, r = fn()
            walls.append(w)
            rss.append(max(r) if r else 0)
            print("bench: %s: %.1f s, %d MB" % (name, w, (max(r) if r else 0) // 1024),
                  file=sys.stderr)
        wall = statistics.median(walls)
        base = base or wall
        rows.append((name, wall, mb / wall, max(rss) / 1024, wall / base))
    print("\nJob: %d traces, %.0f MB of JSON (%s), %d run(s) each, median wall time\n"
          % (len(traces), mb, os.path.basename(a.job.rstrip("/")), a.runs))
    print("| run | wall s | MB/s | peak RSS MB (per process) | vs one by one |")
    print("|---|---:|---:|---:|---:|")
    for name, wall, mbs, rss, ratio in rows:
        print("| %s | %.1f | %.1f | %.0f | %.2fx |" % (name, wall, mbs, rss, ratio))
    shutil.rmtree(rss_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
