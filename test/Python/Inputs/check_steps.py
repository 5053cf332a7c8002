"""tl.analyze(..., steps=...) on test/Steps/Inputs/four_steps.json.

The numbers are the ones worked by hand in test/Steps/hand-worked.test:
steps #3..#6, #3 a warm-up step and #6 a truncated one; steady keeps #4
(window 130 us, 80 compute, 30 exposed comm, 20 exposed memcpy, idle 0) and
#5 (90 us, 80 compute, idle 10); the window's gpu_timeline has total
0.22 ms, busy 0.21, idle 0.01.

Usage: check_steps.py TRACE NO_STEPS_TRACE
"""
import sys

import tl

trace, no_steps = sys.argv[1], sys.argv[2]


def rows(table):
    if isinstance(table, list):
        return table
    return table.to_dict("records")


def close(a, b):
    return abs(a - b) < 1e-12


assert "steps" in tl.keywords(), tl.keywords()

a = tl.analyze(trace, pipeline="none", steps="steady")
s = rows(a.steps)
assert [r["step"] for r in s] == [4, 5], s
assert close(s[0]["step_time_ms"], 0.13) and close(s[0]["idle_time_ms"], 0.0)
assert close(s[0]["exposed_memcpy_time_ms"], 0.02), s[0]
assert close(s[1]["computation_time_ms"], 0.08), s[1]
assert close(s[1]["idle_time_ms"], 0.01), s[1]
tlrows = {r["type"]: r["time ms"] for r in rows(a.tables["gpu_timeline"])}
assert close(tlrows["total_time"], 0.22) and close(tlrows["busy_time"], 0.21)
meta = a.report["steps"]
assert meta["selection"] == "steady" and meta["selected"] == [4, 5], meta
assert "--steps=steady: ProfilerStep#4..#5" in a.diagnostics, a.diagnostics
assert "**Steps analysed**: ProfilerStep#4..#5" in a.markdown()

# The default: every step, and the suggestion.
b = tl.analyze(trace, pipeline="none")
assert [r["step"] for r in rows(b.steps)] == [3, 4, 5, 6]
assert b.report["steps"]["suggestion"] == "--steps=steady"
assert "--steps=steady leaves them out" in b.diagnostics

# A range.
c = tl.analyze(trace, pipeline="none", steps="5..6")
assert [r["step"] for r in rows(c.steps)] == [5, 6]

# Errors: tl-opt's message as tl.Error.
for spec, msg in [("9..12", ": --steps=9..12: the trace has ProfilerStep#3..#6"),
                  ("bogus", "--steps=bogus: expected all, steady")]:
    try:
        tl.analyze(trace, pipeline="none", steps=spec)
        raise AssertionError("no error for " + spec)
    except tl.Error as e:
        assert msg in str(e), str(e)
try:
    tl.analyze(no_steps, pipeline="none", steps="steady")
    raise AssertionError("no error")
except tl.Error as e:
    assert str(e).endswith("no_steps.json: --steps=steady: the trace has no "
                           "ProfilerStep annotations (only --steps=all "
                           "applies)"), str(e)
d = tl.analyze(no_steps, pipeline="none")
assert d.steps is None and "steps" not in d.report
try:
    tl.analyze(trace, steps=3)
    raise AssertionError("no TypeError")
except TypeError:
    pass
print("ok")
