"""Check what tl-conform (which matches rows by key) does not: our CSV has
the reference's exact header and its rows in the reference's order.

usage: csv-order.py <our.csv> <reference.csv> <order column>
Prints "order OK <n> rows" or the first difference and exits 1.
"""
import csv
import sys

ours, ref, col = sys.argv[1], sys.argv[2], sys.argv[3]
O = list(csv.reader(open(ours, encoding="utf-8")))
R = list(csv.reader(open(ref, encoding="utf-8")))
if O[0] != R[0]:
    print("header differs:\n ours %s\n ref  %s" % (O[0], R[0]))
    sys.exit(1)
i = R[0].index(col)
a = [r[i] for r in O[1:]]
b = [r[i] for r in R[1:]]
if a != b:
    print("row order differs (%s):\n ours %s\n ref  %s" % (col, a, b))
    sys.exit(1)
print("order OK %d rows" % len(a))
