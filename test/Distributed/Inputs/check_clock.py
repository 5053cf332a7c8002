"""Check a job report's clock offsets against tl-gen's truth (--truth with
--clock-offset): multirank/ranks.csv's clock_offset_us of every rank must
be its node's injected offset against node 0 (0 for node 0; 1e-6 us), and
multirank/findings.json must hold MR-CLOCK exactly when WANT_CLOCK is 1.
Prints a one-line summary.

usage: check_clock.py OUT TRUTH.json WANT_CLOCK
"""
import csv
import json
import os
import sys


def main():
    out, truth_path, want = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    truth = json.load(open(truth_path))
    gpn = truth["gpus_per_node"]
    offsets = {c["node"]: c["offset_us"] for c in truth["clock_offsets"]}
    errors = []
    rows = list(csv.DictReader(open(os.path.join(out, "multirank", "ranks.csv"))))
    for r in rows:
        rank = int(r["rank"])
        exp = offsets.get(rank // gpn, 0.0)
        got = r["clock_offset_us"]
        if got == "" or abs(float(got) - exp) > 1e-6:
            errors.append("rank %d: clock_offset_us %r, the truth %s" % (rank, got, exp))
    findings = json.load(open(os.path.join(out, "multirank", "findings.json")))
    has = any(f["id"] == "MR-CLOCK" for f in findings["findings"])
    if has != want:
        errors.append("MR-CLOCK %s" % ("present" if has else "missing"))
    for e in errors:
        print("error: " + e)
    if errors:
        sys.exit(1)
    print("clock: %d ranks, offsets %s: all found" % (len(rows), sorted(offsets.items())))


main()
