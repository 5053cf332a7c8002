"""tl.analyze against the report tl-opt wrote for the same trace.

Every perf_report_csvs/ CSV of CLI_OUT must be a table of the analysis, with
the same columns and, cell by cell, the same numbers (read with Python's
csv module, not with tl); the findings must have the same ids, ranks and
impacts as CLI_OUT/findings.json.

Usage: compare_cli.py TRACE CLI_OUT ARCH PIPELINE [no-pandas]
"""
import csv
import json
import math
import os
import sys

if len(sys.argv) > 5 and sys.argv[5] == "no-pandas":
    sys.modules["pandas"] = None

import tl

trace, cli_out, arch, pipeline = sys.argv[1:5]
a = tl.analyze(trace, arch=arch, pipeline=pipeline, quiet=True)

csv_dir = os.path.join(cli_out, "perf_report_csvs")
names = sorted(f[:-4] for f in os.listdir(csv_dir) if f.endswith(".csv"))
assert sorted(a.tables) == names, (sorted(a.tables), names)


def rows_of(table):
    if isinstance(table, list):
        return table
    return table.to_dict("records")


def same(text, value):
    """A CLI cell (text) and the analysis's value for it."""
    if isinstance(value, str):
        return value == text
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return text == "" or text.lower() == "nan"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return text == str(bool(value))
    x = float(text)
    return float(value) == x or (math.isnan(x) and math.isnan(float(value)))


cells = 0
for name in names:
    with open(os.path.join(csv_dir, name + ".csv"), newline="", encoding="utf-8") as f:
        cli = list(csv.reader(f))
    got = a.tables[name]
    if not cli:  # an empty file: an empty table
        assert len(got) == 0, name
        continue
    header, body = cli[0], cli[1:]
    got_rows = rows_of(got)
    if isinstance(got, list):
        cols = list(got_rows[0]) if got_rows else header
    else:
        cols = list(got.columns)
    assert cols == header, (name, cols, header)
    assert len(got_rows) == len(body), (name, len(got_rows), len(body))
    for i, (row, want) in enumerate(zip(got_rows, body)):
        for col, text in zip(header, want):
            assert same(text, row[col]), (name, i, col, text, row[col])
            cells += 1

with open(os.path.join(cli_out, "findings.json"), encoding="utf-8") as f:
    cli_report = json.load(f)
key = lambda f: (f["id"], f["tier"], f["rank"], f["global_rank"], f["impact"])
assert [key(f) for f in a.findings] == [key(f) for f in cli_report["findings"]]
for k in ("gpu_utilization", "trace_quality", "workload", "counts", "arch"):
    assert a.report[k] == cli_report[k], k
for k in ("hash", "size_bytes"):
    assert a.report["trace"][k] == cli_report["trace"][k], k
print("tables: %d, cells: %d, findings: %d" % (len(names), cells, len(a.findings)))
