#!/usr/bin/env python3
"""Compare our diff_stats.csv with TraceLens's (comparative references).

Rows are keyed by (source, gpu_op_uid). Prints one line per check so lit
tests can FileCheck them; exit 1 when a checked property differs.
Usage: check_diff_stats.py OURS.csv REFERENCE.csv [OURS_UNIFIED REF_UNIFIED]
With the unified_perf_summary pair, also compares its comparative columns
(rows keyed by name and the four argument columns).
"""
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


NUM = ["speedup (trace2/trace1)", "delta_us (trace2 - trace1)",
       "lca_count_trace2", "lca_total_kernel_time_trace1_us",
       "lca_total_kernel_time_trace2_us"]


def check_unified(ours, ref):
    ukey = lambda r: (r["name"], r["Input Dims"], r["Input type"],
                      r["Input Strides"], r["Concrete Inputs"],
                      r.get("num_kernels", ""))
    o = {}
    for r in ours:
        o.setdefault(ukey(r), []).append(r)
    bad = 0
    matched = 0
    for r in ref:
        cands = o.get(ukey(r), [])
        if not cands:
            print(f"unified: reference row {r['name']} {r['Input Dims']} missing")
            bad += 1
            continue
        x = cands.pop(0)
        matched += 1
        for c in NUM:
            a, b = x.get(c, ""), r[c]
            if a == "" or b == "":
                ok = a == b
            else:
                ok = abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))
            if not ok:
                print(f"unified: {r['name']} {c}: ours={a} ref={b}")
                bad += 1
        if x.get("lca_name") != r["lca_name"]:
            print(f"unified: {r['name']} lca_name differs")
            bad += 1
    print(f"unified comparative columns: rows ref={len(ref)} matched={matched} mismatches={bad}")
    return bad


def main():
    ours, ref = load(sys.argv[1]), load(sys.argv[2])
    key = lambda r: (r["source"], r["gpu_op_uid"])
    o = {key(r): r for r in ours}
    f = {key(r): r for r in ref}
    bad = 0
    for src in ("trace1", "trace2"):
        no = sum(1 for r in ours if r["source"] == src)
        nr = sum(1 for r in ref if r["source"] == src)
        print(f"{src}: rows ref={nr} ours={no} common={len([k for k in f if k[0] == src and k in o])}")
        bad += no != nr
    missing = sorted(set(f) - set(o))
    extra = sorted(set(o) - set(f))
    print(f"rows missing={len(missing)} extra={len(extra)}")
    bad += bool(missing or extra)
    cols = ["name", "cpu_op_name", "cpu_op_uid", "Input Dims", "Input type",
            "Input Strides", "Concrete Inputs", "nn_module_stack",
            "nn_module_parent", "lowest_common_ancestor_name"]
    for c in cols + ["kernel_time", "busy_time"]:
        diff = 0
        for k in f:
            if k not in o:
                continue
            a, b = o[k][c], f[k][c]
            if c in ("kernel_time", "busy_time"):
                same = abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))
            else:
                same = a == b
            diff += not same
        print(f"column {c}: mismatches={diff}")
        bad += diff > 0 and c not in ("cpu_op_uid",)
    # LCA grouping: the partition of GPU events into LCA groups (ids are
    # numbered differently; see docs/Comparative.md).
    def groups(rows):
        g = {}
        for r in rows:
            if r["lowest_common_ancestor_id"] == "":
                continue
            g.setdefault(r["lowest_common_ancestor_id"], set()).add(key(r))
        return {frozenset(v) for v in g.values()}
    go, gr = groups(ours), groups(ref)
    print(f"lca groups: ref={len(gr)} ours={len(go)} equal={len(go & gr)}")
    bad += go != gr
    same_ids = sum(1 for k in f if k in o and o[k]["lowest_common_ancestor_id"] == f[k]["lowest_common_ancestor_id"])
    print(f"lca ids equal: {same_ids}/{len(f)} (informational)")
    # Order: rows grouped by LCA in the same order.
    order_o = [key(r) for r in ours if key(r) in f]
    order_r = [key(r) for r in ref if key(r) in o]
    print(f"row order: {'same' if order_o == order_r else 'different'}")
    bad += order_o != order_r
    if len(sys.argv) > 4:
        bad += check_unified(load(sys.argv[3]), load(sys.argv[4]))
    print("RESULT:", "OK" if not bad else "MISMATCH")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
