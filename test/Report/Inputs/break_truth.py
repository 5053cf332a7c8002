"""Break tl's report of gemm-in-fusion.json the three ways
truth-audit-trace.test expects --validate-report to catch."""
import json
import sys

p = sys.argv[1] + "/findings.json"
d = json.load(open(p))
for f in d["findings"]:
    ms = {m["name"]: m for m in f["metrics"]}
    if f["category"] == "GEMM":
        ms["time_ms"]["value"] = 2.5
        ev = f["evidence"][0]
        k = ev["columns"].index("kernel")
        for r in ev["rows"]:
            r[k] = "Memcpy DtoH (Device -> Pageable)"
    if f["pass"] == "kernel-fusion":
        ms["time_ms"]["value"] = 1.9
        ev = f["evidence"][0]
        ev["rows"] = [r for r in ev["rows"] if "softmax" not in r[0]]
json.dump(d, open(p, "w"))
