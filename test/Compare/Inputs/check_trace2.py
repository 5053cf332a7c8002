"""Compare the comparative-only manifest members (trace2_gpu_utilization,
trace2_ops_summary_by_category), comparison_scope and
metadata/trace2_gpu_utilization.json of two output dirs (ours, reference).
Numbers must agree within 1e-9 relative; prints one line per check and
RESULT: OK / FAIL."""
import json
import math
import os
import sys


def close(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return close(a, b)


def load(d, rel):
    with open(os.path.join(d, rel)) as f:
        return json.load(f)


ours, ref = sys.argv[1], sys.argv[2]
ok = True
mo, mr = load(ours, "category_data/category_manifest.json"), load(
    ref, "category_data/category_manifest.json")
for key in ("comparison_scope", "trace2_gpu_utilization",
            "trace2_ops_summary_by_category"):
    good = same(mo.get(key), mr.get(key))
    ok &= good
    print(f"manifest {key}: {'same' if good else 'DIFFERENT'}")
    if not good:
        print("  ours:", json.dumps(mo.get(key)))
        print("  ref: ", json.dumps(mr.get(key)))
rel = "metadata/trace2_gpu_utilization.json"
good = same(load(ours, rel), load(ref, rel))
ok &= good
print(f"{rel}: {'same' if good else 'DIFFERENT'}")
rel = "category_data/fusion_candidates.json"
good = same(load(ours, rel), load(ref, rel))
ok &= good
print(f"{rel}: {'same' if good else 'DIFFERENT'}")
print("RESULT:", "OK" if ok else "FAIL")
