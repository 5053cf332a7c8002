"""tl.analyze(..., mode=...): the --mode setting as a keyword.

b200/eager_trace (vLLM, eager, no serving iteration annotation): the
default (auto) keeps the training layout of ops_summary; mode="inference"
gives the inference one (parent_module, call_stack_first; no
kernel_summary); a bad value is a tl.Error naming the three values.

Usage: check_mode.py TRACE
"""
import sys

import tl

trace = sys.argv[1]


def columns(table):
    if isinstance(table, list):
        return list(table[0].keys())
    return list(table.columns)


assert "mode" in tl.keywords(), tl.keywords()
a = tl.analyze(trace, pipeline="none", arch="none")
assert "parent_module" not in columns(a.tables["ops_summary"])
assert "kernel_summary" in a.tables, sorted(a.tables)
b = tl.analyze(trace, pipeline="none", arch="none", mode="inference")
cols = columns(b.tables["ops_summary"])
assert cols[:2] == ["name", "parent_module"], cols
assert "call_stack_first" in cols, cols
assert "kernel_summary" not in b.tables, sorted(b.tables)
try:
    tl.analyze(trace, pipeline="none", mode="eval")
    raise SystemExit("no error for mode='eval'")
except tl.Error as e:
    assert "'auto', 'training' or 'inference'" in str(e), str(e)
print("ok")
