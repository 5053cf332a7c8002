"""Print the link rating of each memcpy finding and count compute findings
that rate a copy (copy-links.test)."""
import json
import sys

out = sys.argv[1]
d = json.load(open(out + "/findings.json"))
for f in d["findings"]:
    if f["category"] != "memcpy":
        continue
    m = {x["name"]: x["value"] for x in f["metrics"]}
    print(m["direction"], " ".join(
        "%s=%s" % (k, m.get(k, "-")) for k in
        ["link", "cause", "achieved_gbps", "link_gbps", "link_pct",
         "link_name"]).replace("link=", "link=", 1))
bad = [f for f in d["findings"] if f["tier"] == "compute" and any(
    k.startswith(("Memcpy", "Memset")) for k in f.get("kernels", []) +
    [c for e in f["evidence"] for r in e["rows"] for c in r
     if isinstance(c, str)])]
print("compute findings with copy kernels:", len(bad))
ew = json.load(open(out + "/category_data/elementwise_metrics.json"))
print("reference elementwise group members:",
      sum(g["member_count"] for g in ew["category_findings"]))
