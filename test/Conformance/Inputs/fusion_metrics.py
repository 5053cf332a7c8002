"""Print a fusion finding's measured and reference figures from findings.json.

usage: fusion_metrics.py <report dir> <operation>
"""
import json
import os
import sys

with open(os.path.join(sys.argv[1], "findings.json")) as f:
    data = json.load(f)
for fd in data["findings"]:
    if fd["tier"] != "fusion":
        continue
    if not any(l.get("name") == sys.argv[2] for l in fd["locations"]):
        continue
    m = {x["name"]: x["value"] for x in fd["metrics"]}
    print("%s %s" % (sys.argv[2], " ".join(
        "%s=%s" % (k, m.get(k)) for k in
        ["time_ms", "instance_count", "reference_time_ms",
         "reference_instance_count"])))
    action = fd["recommendation"]["action"]
    print("%s action=%s" % (sys.argv[2], "SDPA" if "scaled_dot_product_attention" in action else action))
