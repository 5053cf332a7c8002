"""Check the perf-model columns of our perf-sheet rows against the
reference's rows for the same op name and params, when the two tables cannot
be compared whole (tl-conform needs equal row sets): a trace analysed without
the capture merge has only some of the reference's rows, and a capture trace
analysed alone has other counts and kernel times.

usage: model-rows.py <our_csv_dir> <reference_csv_dir> <table> [<table>...]
       [--names=a,b]   only our rows with these op names

A reference row matches one of ours when the name and every `param:` cell set
in both agree (numbers compared as floats: the reference prints mixed
int/missing columns as floats) and neither has a param the other lacks,
except `transpose` (taken from replayed kernel names). '', 'nan' and 'None'
count as missing (the references print None and NaN as '').
Then GFLOPS_first, Data Moved (MB)_first, FLOPS/Byte_first (|rel| < 1e-9)
and Compute Spec must be equal. Prints one line per row and a summary;
exits 1 on a mismatch or a row without reference.
"""
import ast
import csv
import os
import sys

MODEL_COLS = ["GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first"]
MISSING = ("", "nan", "None")


def norm(v):
    """Python literal with every number as a float, for comparison."""
    try:
        x = ast.literal_eval(v)
    except (ValueError, SyntaxError):
        return v
    def conv(o):
        if isinstance(o, bool) or o is None or isinstance(o, str):
            return o
        if isinstance(o, (int, float)):
            return float(o)
        if isinstance(o, (list, tuple)):
            return tuple(conv(e) for e in o)
        return o
    return conv(x)


def params(row):
    return {k: norm(v) for k, v in row.items()
            if k.startswith("param: ") and v not in MISSING}


def same_params(a, b):
    keys = (set(a) | set(b)) - {"param: transpose"}
    return all(k in a and k in b and a[k] == b[k] for k in keys) and all(
        a[k] == b[k] for k in set(a) & set(b))


def close(a, b):
    if a in MISSING or b in MISSING:
        return (a in MISSING) == (b in MISSING)
    x, y = float(a), float(b)
    return x == y or abs(x - y) <= 1e-9 * max(abs(x), abs(y))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--names=")]
    names = None
    for a in sys.argv[1:]:
        if a.startswith("--names="):
            names = set(a[len("--names="):].split(","))
    ours, ref, tables = args[0], args[1], args[2:]
    ok = bad = 0
    for t in tables:
        O = list(csv.DictReader(open(os.path.join(ours, t + ".csv"),
                                     encoding="utf-8")))
        R = list(csv.DictReader(open(os.path.join(ref, t + ".csv"),
                                     encoding="utf-8")))
        for o in O:
            if names is not None and o["name"] not in names:
                continue
            po = params(o)
            cands = [r for r in R if r["name"] == o["name"] and
                     same_params(po, params(r))]
            label = "%s %s %s" % (t, o["name"], sorted(
                (k[7:], v) for k, v in po.items()))
            if not cands:
                print("NO REFERENCE ROW: " + label)
                bad += 1
                continue
            r = cands[0]
            diffs = [c for c in MODEL_COLS if not close(o[c], r[c])]
            if o["Compute Spec"] != r["Compute Spec"]:
                diffs.append("Compute Spec")
            if diffs:
                print("MISMATCH %s: %s" % (label, ", ".join(
                    "%s ours %r ref %r" % (c, o[c], r[c]) for c in diffs)))
                bad += 1
            else:
                print("match %s %s GFLOPS %s MB %s" % (
                    t, o["name"], o["GFLOPS_first"],
                    o["Data Moved (MB)_first"]))
                ok += 1
    print("model-rows: %d matched, %d failed" % (ok, bad))
    sys.exit(1 if bad else 0)


main()
