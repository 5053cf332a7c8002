"""Rewrite analysis.md into the form tl wrote before names became code
spans: every code span of a table row replaced by its raw text (as the old
mdCell did, which escaped only '|'). Used to show that --validate-report's
names-render check fails the old form."""
import re
import sys

path = sys.argv[1]
span = re.compile(r"(`+)( ?)(.+?)\2\1")
out = []
for line in open(path, encoding="utf-8"):
    if line.startswith("|"):
        line = span.sub(lambda m: m.group(3), line)
    out.append(line)
open(path, "w", encoding="utf-8").writelines(out)
