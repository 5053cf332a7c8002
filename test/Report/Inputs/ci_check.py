"""Check tl-opt's --junit and --sarif files (and findings.json `metrics`)
for test/Report/ci-files.test, with the standard library only.

Expected values are worked by hand from Inputs/four-steps.json and
Inputs/ci.findings.json (see the test for the arithmetic); relative paths
are computed here with os.path.relpath, independently of tl.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET

junit, sarif, findings, trace = sys.argv[1:5]


def check(cond, what):
    if not cond:
        sys.exit("ci_check: " + what)


# findings.json: the report-level metrics the gates compare.
m = json.load(open(findings))["metrics"]
check(m["e2e_ms"] == 1.14, "e2e_ms %r" % m["e2e_ms"])
check(abs(m["idle_pct"] - 740 / 1140 * 100) < 1e-9, "idle_pct %r" % m["idle_pct"])
check(abs(m["compute_pct"] - 400 / 1140 * 100) < 1e-9, "compute_pct")
check(m["step_ms"] == 0.32, "step_ms %r" % m["step_ms"])
check(m["steps"] == 4 and m["findings"] == 3, "steps/findings %r" % m)
check(m["exposed_comm_pct"] == 0 and m["exposed_memcpy_pct"] == 0, "comm/memcpy")

# JUnit: suites fail-on (one testcase per clause) and findings (one per
# ranked finding, global order); failures for what tripped.
root = ET.parse(junit).getroot()
check(root.tag == "testsuites", "root " + root.tag)
check(root.get("tests") == "6" and root.get("failures") == "3",
      "totals %r" % root.attrib)
suites = {s.get("name"): s for s in root.findall("testsuite")}
check(sorted(suites) == ["fail-on", "findings"], "suites %r" % sorted(suites))
rel = os.path.relpath(trace, os.path.dirname(os.path.abspath(junit)))
gates = suites["fail-on"].findall("testcase")
check([g.get("name") for g in gates] == ["idle_pct>60", "step_ms>0.5", "impact>=3"],
      "gate names")
check(all(g.get("file") == rel for g in gates), "gate file, want " + rel)
idle, step, impact = gates
f = idle.find("failure")
check(f is not None and f.get("message") == "idle_pct = 64.91 matches 'idle_pct>60'",
      "idle gate %r" % (f.attrib if f is not None else None))
check(step.find("failure") is None and step.findtext("system-out") == "step_ms = 0.32",
      "step gate")
f = impact.find("failure")
check(f is not None and f.get("message").startswith("findings match 'impact>=3': test-findings.gemm."),
      "impact gate")
cases = suites["findings"].findall("testcase")
check(len(cases) == 3 and suites["findings"].get("failures") == "1", "findings suite")
check([c.get("classname") for c in cases] ==
      ["findings.compute.test-findings", "findings.fusion.test-findings",
       "findings.system.test-findings"], "finding order")
check(cases[0].find("failure").get("message") == "matches 'impact>=3'", "gemm failure")
check(cases[1].find("failure") is None and cases[2].find("failure") is None,
      "only gemm fails")
check(cases[2].findtext("system-out").endswith("GPU idle & <waiting>"),
      "escaped title")
gemm_id = cases[0].get("name")

# SARIF 2.1.0: one result per finding, global order.
s = json.load(open(sarif))
check(s["version"] == "2.1.0" and "sarif-2.1.0" in s["$schema"], "version")
run = s["runs"][0]
check(run["tool"]["driver"]["name"] == "tl-opt", "driver")
check([r["id"] for r in run["tool"]["driver"]["rules"]] == ["test-findings"], "rules")
res = run["results"]
check(len(res) == 3, "results %d" % len(res))
check([r["level"] for r in res] == ["error", "warning", "note"], "levels")
check([r["properties"]["impact_pct"] for r in res] == [4.0, 2.0, None], "impacts")
check([r["properties"]["global_rank"] for r in res] == [1, 2, 3], "global ranks")
check(all(r["ruleId"] == "test-findings" and r["ruleIndex"] == 0 for r in res), "ruleId")
check(res[0]["properties"]["id"] == gemm_id and
      res[0]["partialFingerprints"]["tlFindingId/v1"] == gemm_id, "fingerprint")
check(res[0]["message"]["text"] == "Memory-bound GEMM kernels. Use a larger tile", "message")
check(res[0]["properties"].get("fail_on") == "impact>=3" and
      "fail_on" not in res[1]["properties"], "fail_on property")
srel = os.path.relpath(trace, os.path.dirname(os.path.abspath(sarif)))
for r in res:
    uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    check(uri == srel, "uri %s, want %s" % (uri, srel))
check(run["artifacts"][0]["location"]["uri"] == srel, "artifact uri")
print("ci_check: ok")
