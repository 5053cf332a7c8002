# Check the report of a run where one plugin pass misbehaved:
#   %python check-failed-pass.py <report dir> <pass> <message> [title...]
# findings.json names exactly that pass in failed_passes with that message,
# holds a finding with each given title (the other passes' results), and
# analysis.md lists the failure in its Warnings table. Prints "ok".
import json
import os
import sys

out, failed_pass, message = sys.argv[1:4]
titles = sys.argv[4:]
problems = []
with open(os.path.join(out, "findings.json")) as f:
    doc = json.load(f)
failed = [(p["pass"], p["message"]) for p in doc.get("failed_passes", [])]
if failed != [(failed_pass, message)]:
    problems.append("failed_passes is %r, expected %r" %
                    (failed, [(failed_pass, message)]))
have = {f["title"] for f in doc["findings"]}
for t in titles:
    if t not in have:
        problems.append("no finding titled %r (have %r)" % (t, sorted(have)))
with open(os.path.join(out, "analysis.md")) as f:
    md = f.read()
row = "| %s |" % failed_pass
if not any(l.startswith(row) and message in l for l in md.splitlines()):
    problems.append("analysis.md has no Warnings row for %s" % failed_pass)
for p in problems:
    print("check-failed-pass: " + p)
print("ok" if not problems else "FAILED")
sys.exit(1 if problems else 0)
