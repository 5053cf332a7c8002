"""Make three differences in a copy of a reference CSV directory that only
tl-conform --strict reports (perf-strict-agent-h100-bert.test):
ops_summary rows 1 and 2 swapped, gpu_timeline without its 'percent'
column (so ours has an extra one), and GEMM's first empty TB/s_std cell
written as 'None'.

usage: perturb-csv.py <dir>
"""
import csv
import os
import sys

d = sys.argv[1]


def rw(name, fn):
    p = os.path.join(d, name)
    with open(p, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    rows = fn(rows)
    with open(p, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def swap(rows):
    rows[1], rows[2] = rows[2], rows[1]
    return rows


def drop_percent(rows):
    i = rows[0].index("percent")
    return [r[:i] + r[i + 1:] for r in rows]


def none_text(rows):
    i = rows[0].index("TB/s_std")
    for r in rows[1:]:
        if r[i] == "":
            r[i] = "None"
            return rows
    sys.exit("no empty TB/s_std cell")


rw("ops_summary.csv", swap)
rw("gpu_timeline.csv", drop_percent)
rw("GEMM.csv", none_text)
