"""Check a job's multirank/ranks.csv against each rank's own
perf_report_csvs/gpu_timeline.csv: every ms and percent field must be the
same text (the same double). With REF=csv arguments (rank=path), also
against a reference gpu_timeline.csv (relative tolerance 1e-9).

usage: check_ranks.py OUT [RANK=REFERENCE.csv ...]
"""
import csv
import math
import os
import sys

TYPES = ["computation_time", "exposed_comm_time", "exposed_memcpy_time",
         "busy_time", "idle_time", "total_time", "total_comm_time",
         "total_memcpy_time"]


def timeline(path):
    with open(path, newline="") as f:
        return {r["type"]: (r["time ms"], r["percent"]) for r in csv.DictReader(f)}


def main():
    out = sys.argv[1]
    refs = dict(a.split("=", 1) for a in sys.argv[2:])
    with open(os.path.join(out, "multirank", "ranks.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    bad = 0
    for row in rows:
        rank = row["rank"]
        own = timeline(os.path.join(out, "rank" + rank, "perf_report_csvs",
                                    "gpu_timeline.csv"))
        ref = timeline(refs[rank]) if rank in refs else None
        for t in TYPES:
            cols = [(t + "_ms", 0)] + ([] if t == "total_time" else [(t + "_pct", 1)])
            for col, i in cols:
                if row[col] != own[t][i]:
                    print(f"rank {rank} {col}: ranks.csv {row[col]} != gpu_timeline.csv {own[t][i]}")
                    bad += 1
                if ref is not None and not math.isclose(float(row[col]), float(ref[t][i]),
                                                        rel_tol=1e-9, abs_tol=1e-12):
                    print(f"rank {rank} {col}: ranks.csv {row[col]} != reference {ref[t][i]}")
                    bad += 1
    print(f"checked {len(rows)} ranks, {len(refs)} against a reference: {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
