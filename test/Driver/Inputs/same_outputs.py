"""Usage: same_outputs.py DIR_A DIR_B NEEDLE...

Succeeds when DIR_A and DIR_B hold the same files, byte for byte, and no
file of either contains any NEEDLE (absolute paths of the run: the output
directories, the trace). For test/Driver/reproducible.test.
"""
import os
import sys

a, b, needles = sys.argv[1], sys.argv[2], [n.encode() for n in sys.argv[3:]]


def files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


fa, fb = files(a), files(b)
if fa != fb:
    sys.exit("same_outputs: file sets differ: %s" % sorted(fa ^ fb))
if not fa:
    sys.exit("same_outputs: no files")
bad = []
for rel in sorted(fa):
    da = open(os.path.join(a, rel), "rb").read()
    db = open(os.path.join(b, rel), "rb").read()
    if da != db:
        bad.append(rel + ": differs")
    for n in needles:
        if n in da:
            bad.append(rel + ": contains " + n.decode())
if bad:
    sys.exit("same_outputs: " + "; ".join(bad))
print("same_outputs: %d files identical" % len(fa))
