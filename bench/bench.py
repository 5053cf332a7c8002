#!/usr/bin/env python3
"""Measurement half of bench/run.sh: runs tl-floor and the tl-opt stages on
each input and prints markdown tables. Stages the driver cannot run yet are
reported as "n/a" (detected by trying them on samples/sample_cuda.json.gz)."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "samples", "sample_cuda.json.gz")
GNU_TIME = "/usr/bin/time"
ENV = dict(os.environ, TL_NO_PROGRESS="1")

# Stage name -> tl-opt arguments (before the trace path). "{out}" is a fresh
# output directory per run.
STAGES = [
    ("import", ["--print-ir=summary", "--quiet"]),
    ("import+analyses", ["--stop-after=analyses", "--quiet", "-o", "{out}"]),
    ("full (system,compute)", ["--pass-pipeline=system,compute", "--quiet", "-o", "{out}"]),
]


def run_once(cmd):
    """Returns (wall s, peak RSS KiB or None, returncode, output, CPU s or None)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        if os.access(GNU_TIME, os.X_OK):
            full = [GNU_TIME, "-f", "%M %U %S", "-o", rss.name] + cmd
        else:  # fresh wrapper process so ru_maxrss is this run's child only
            full = [sys.executable, "-c",
                    "import resource,subprocess,sys\n"
                    "r=subprocess.run(sys.argv[2:]).returncode\n"
                    "u=resource.getrusage(resource.RUSAGE_CHILDREN)\n"
                    "open(sys.argv[1],'w').write('%d %f %f' % (u.ru_maxrss,"
                    " u.ru_utime, u.ru_stime))\n"
                    "sys.exit(r)", rss.name] + cmd
        t0 = time.perf_counter()
        p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=ENV, text=True)
        wall = time.perf_counter() - t0
        txt = open(rss.name).read().strip().splitlines()
        fields = txt[-1].split() if txt else []
        kib = int(fields[0]) if len(fields) == 3 and fields[0].isdigit() else None
        cpu = float(fields[1]) + float(fields[2]) if kib is not None else None
    return wall, kib, p.returncode, p.stdout + p.stderr, cpu


def measure(cmd_template, runs, work):
    """Returns (median wall s, max RSS MB, error lines or None, median CPU s)."""
    walls, rss, cpus = [], [], []
    for i in range(runs):
        out = os.path.join(work, f"out{i}")
        shutil.rmtree(out, ignore_errors=True)
        cmd = [c.replace("{out}", out) for c in cmd_template]
        wall, kib, rc, text, cpu = run_once(cmd)
        shutil.rmtree(out, ignore_errors=True)
        if rc != 0:
            return None, None, text.strip().splitlines()[-1:] or ["failed"], None
        walls.append(wall)
        if kib:
            rss.append(kib)
        if cpu is not None:
            cpus.append(cpu)
    return (statistics.median(walls), (max(rss) / 1024 if rss else None), None,
            statistics.median(cpus) if cpus else None)


def supported(tlopt, args, work):
    if not os.path.exists(tlopt):
        return False
    out = os.path.join(work, "probe")
    cmd = [tlopt] + [a.replace("{out}", out) for a in args] + [SAMPLE]
    _, _, rc, _, _ = run_once(cmd)
    shutil.rmtree(out, ignore_errors=True)
    return rc == 0


def floor_info(floor, path):
    p = subprocess.run([floor, path], stdout=subprocess.PIPE, text=True)
    m = re.search(r"(\d+) bytes, (\d+) events", p.stdout)
    return (int(m.group(1)), int(m.group(2))) if m else (os.path.getsize(path), 0)


def fmt(x, spec):
    return "n/a" if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", required=True)
    ap.add_argument("--stress", nargs="*", default=[])
    ap.add_argument("inputs", nargs="*")
    a = ap.parse_args()
    tlopt = os.path.join(a.bin, "tl-opt")
    floor = os.path.join(a.bin, "tl-floor")
    ok = {name: supported(tlopt, args, a.work) for name, args in STAGES}
    threads_ok = ok[STAGES[2][0]] and supported(
        tlopt, STAGES[2][1] + ["--threads=2"], a.work)

    print(f"## tl benchmark ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"median of {a.runs} runs)\n")
    print(f"Load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}. "
          "`CPU s` = user+sys of the process (less sensitive to other load).\n")
    print("| input | JSON MB | events | stage | median s | CPU s | MB/s | Mevents/s | "
          "peak RSS MB | RSS / JSON | x floor |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    first_gen = None
    for path in a.inputs:
        name = os.path.basename(path)
        size, events = floor_info(floor, path)
        mb = size / 1e6
        fl, fl_rss, err, fl_cpu = measure([floor, path], a.runs, a.work)
        rows = [("floor (gunzip+parse)", fl, fl_rss, err, fl_cpu)]
        for stage, args in STAGES:
            if not ok[stage]:
                rows.append((stage, None, None, None, None))
                continue
            t, r, err, c = measure([tlopt] + args + [path], a.runs, a.work)
            rows.append((stage, t, r, err, c))
        for stage, t, r, err, c in rows:
            print(f"| {name} | {mb:.1f} | {events} | {stage}"
                  f"{' (error: ' + err[0] + ')' if err else ''} | {fmt(t, '.3f')} | "
                  f"{fmt(c, '.3f')} | "
                  f"{fmt(mb / t if t else None, '.0f')} | "
                  f"{fmt(events / t / 1e6 if t else None, '.2f')} | {fmt(r, '.0f')} | "
                  f"{fmt(r / mb if r else None, '.2f')} | "
                  f"{fmt(t / fl if t and fl else None, '.2f')} |")
        if first_gen is None and name.startswith("tlgen_"):
            first_gen = path
        sys.stdout.flush()

    print("\n### Threads (full pipeline)\n")
    if threads_ok and first_gen:
        # The issue's target is the analysis-and-passes phase: the full run
        # minus the import, each measured at the same thread count (the
        # import itself uses a second thread too).
        full, imp = {}, {}
        for n in (1, 2):
            full[n], _, _, _ = measure([tlopt] + STAGES[2][1] + [f"--threads={n}", first_gen],
                                       a.runs, a.work)
            imp[n], _, _, _ = measure([tlopt] + STAGES[0][1] + [f"--threads={n}", first_gen],
                                      a.runs, a.work)
        ph = {n: full[n] - imp[n] if full[n] and imp[n] else None for n in (1, 2)}
        print("| input | threads | full s | import s | full - import s |\n"
              "|---|---:|---:|---:|---:|")
        for n in (1, 2):
            print(f"| {os.path.basename(first_gen)} | {n} | {fmt(full[n], '.3f')} | "
                  f"{fmt(imp[n], '.3f')} | {fmt(ph[n], '.3f')} |")
        print(f"\nSpeed-up with --threads=2: whole run "
              f"{fmt(full[1] / full[2] if full[1] and full[2] else None, '.2f')}x, "
              f"import {fmt(imp[1] / imp[2] if imp[1] and imp[2] else None, '.2f')}x, "
              f"analysis-and-passes phase "
              f"{fmt(ph[1] / ph[2] if ph[1] and ph[2] else None, '.2f')}x.")
    else:
        print("n/a (full pipeline or --threads not available yet)")

    if a.stress:
        stage = next((s for s, _ in reversed(STAGES) if ok[s]), None)
        print(f"\n### Stress shapes (stage: {stage or 'n/a'})\n")
        print("| input | events | floor s | stage s | x balanced |\n|---|---:|---:|---:|---:|")
        base = None
        for path in a.stress:
            _, events = floor_info(floor, path)
            fl, _, _, _ = measure([floor, path], a.runs, a.work)
            t = None
            if stage:
                args = dict(STAGES)[stage]
                t, _, _, _ = measure([tlopt] + args + [path], a.runs, a.work)
            if base is None:
                base = t
            print(f"| {os.path.basename(path)} | {events} | {fmt(fl, '.3f')} | "
                  f"{fmt(t, '.3f')} | {fmt(t / base if t and base else None, '.2f')} |")


if __name__ == "__main__":
    main()
