"""Check a job's multirank/critical_job.csv against tl-gen's construction.

tl-gen -o DIR/ --straggler=R:US puts the delay in the GEMM before every
collective R is in, so R is the last arriver of each of them: at every
collective the job path goes to R (or stays there) and never leaves it
before the step's start. Each step ends the same way on every rank: the
last GPU work, then cudaDeviceSynchronize returns 5 us later and
ProfilerStep#N ends 1 us after that: a TAIL_US = 6 us tail on the rank
whose step ends last (the lowest such rank, read from the traces), before
the path reaches that rank's last collective. So per step: the sink rank
from the traces; it owns TAIL_US when it is not R; R owns the rest; every
other rank 0; the shares add up to the job length.

Usage: check_cp_truth.py OUTDIR TRUTH.json TRACEDIR TAIL_US
"""
import csv
import glob
import json
import sys


def fail(msg):
    sys.exit("check_cp_truth: " + msg)


def step_ends(tracedir):
    """{step: {rank: end_us}} of every ProfilerStep#N."""
    ends = {}
    for path in glob.glob(tracedir + "/rank*.json"):
        t = json.load(open(path))
        rank = t["distributedInfo"]["rank"]
        for e in t["traceEvents"]:
            if e.get("ph") == "X" and e["name"].startswith("ProfilerStep#"):
                n = e["name"][len("ProfilerStep#"):]
                ends.setdefault(n, {})[rank] = e["ts"] + e["dur"]
    return ends


def main():
    out, truth, tracedir = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
    tail = float(sys.argv[4])
    want = truth["expected_straggler"]
    ends = step_ends(tracedir)
    steps = {}
    with open(out + "/multirank/critical_job.csv") as f:
        for row in csv.DictReader(f):
            steps.setdefault(row["step"], []).append(row)
    if not steps or set(steps) != set(ends):
        fail("steps %s, the traces have %s" % (sorted(steps), sorted(ends)))
    jumps = 0
    for step, rows in sorted(steps.items()):
        length = float(rows[0]["job_length_us"])
        latest = max(ends[step].values())
        sink = min(r for r, e in ends[step].items() if e == latest)
        if int(rows[0]["sink_rank"]) != sink:
            fail("step %s: sink rank %s, not %d" % (step, rows[0]["sink_rank"], sink))
        for r in rows:
            rank, us = int(r["rank"]), float(r["critical_us"])
            if rank == want:
                expect = length - (tail if sink != want else 0)
            else:
                expect = tail if rank == sink else 0
            if abs(us - expect) > 1e-6 * max(1.0, length):
                fail("step %s: rank %d has %r us, expected %r" % (step, rank, us, expect))
        jumps += int(rows[0]["jumps"])
    print("cp truth: %d steps, straggler %d owns the path, %d jumps"
          % (len(steps), want, jumps))


main()
