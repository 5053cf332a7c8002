"""tl.analyze on mm-nonzero.json, values worked out by hand.

The trace (H100): two aten::mm (128x256)x(256x512) bf16 whose kernels run
40 us at 1000 and 60 us at 1100; one aten::nonzero over 2048 floats whose
kernel runs 50 us at 1200. E2E = 1250 - 1000 = 250 us = 0.25 ms.

Usage: check_analyze.py TRACE OUTDIR [no-pandas]
"""
import os
import re
import sys
import tempfile

if len(sys.argv) > 3 and sys.argv[3] == "no-pandas":
    sys.modules["pandas"] = None  # `import pandas` raises ImportError

import tl

trace, outdir = sys.argv[1], sys.argv[2]


def rows(table):
    """A table as a list of dicts, DataFrame or not."""
    if isinstance(table, list):
        return table
    return table.to_dict("records")


def close(a, b):
    return abs(a - b) < 1e-9


# The report goes to a temporary directory under $TMPDIR, removed after it
# is read back (the test gives an empty TMPDIR).
tmp = tempfile.gettempdir()
assert os.listdir(tmp) == [], os.listdir(tmp)
a = tl.analyze(trace, arch="H100", pipeline="gemm,other", threads=2)
assert os.listdir(tmp) == [], os.listdir(tmp)
assert a.out is None
assert a.trace == trace
assert a.passes == ["gemm", "other"], a.passes
assert a.failures == [] and a.fail_on == []
assert "report in memory" in a.diagnostics, a.diagnostics

# Kernel durations (kernel_summary): the GEMM kernel 40 + 60 = 100 us over
# 2 launches (min 40, max 60, mean 50), 100 / 250 = 40 % of E2E; nonzero
# 50 us once, 50 / 250 = 20 %.
ks = {r["Kernel name"]: r for r in rows(a.tables["kernel_summary"])}
gemm = ks["sm90_xmma_gemm_bf16bf16_bf16f32"]
assert close(gemm["Kernel duration (µs)_sum"], 100.0), gemm
assert gemm["Kernel duration (µs)_count"] == 2
assert close(gemm["Kernel duration (µs)_min"], 40.0)
assert close(gemm["Kernel duration (µs)_max"], 60.0)
assert close(gemm["Kernel duration (µs)_mean"], 50.0)
assert close(gemm["Percent of total time (%)"], 40.0)
nz = ks["void at::native::nonzero_kernel<float>(float const*)"]
assert close(nz["Kernel duration (µs)_sum"], 50.0), nz
assert nz["Kernel duration (µs)_count"] == 1
assert close(nz["Percent of total time (%)"], 20.0)

# gpu_timeline: busy 150 us = 0.15 ms (60 %), idle 100 us (40 %), total 0.25.
tl_rows = {r["type"]: r for r in rows(a.tables["gpu_timeline"])}
assert close(tl_rows["busy_time"]["time ms"], 0.15), tl_rows
assert close(tl_rows["idle_time"]["time ms"], 0.1)
assert close(tl_rows["total_time"]["time ms"], 0.25)
assert close(tl_rows["idle_time"]["percent"], 40.0)

# GEMM sheet: bytes = (128*256 + 256*512 + 128*512) * 2 = 458752 B =
# 0.4375 MiB; FLOPs = 2*128*256*512 = 33554432 -> 73.142857 FLOPs/byte,
# below the ridge 989e12/3.35e12 = 295.2: memory-bound.
g = rows(a.tables["GEMM"])[0]
assert close(g["Data Moved (MB)_first"], 0.4375), g
assert close(g["FLOPS/Byte_first"], 33554432 / 458752)
assert g["Roofline Bound_first"] == "MEMORY_BOUND"
assert close(g["Kernel Time (µs)_sum"], 100.0)

# Findings, in report order (tier, then rank).
by_pass = {f["pass"]: f for f in a.findings}
assert [f["pass"] for f in a.findings] == ["gemm", "other"], a.findings
# other (heuristic, no perf model for aten::nonzero): 20 % of E2E ->
# mid 0.30 * 20 = 6.0, low 0.15 * 20 = 3.0, high 0.45 * 20 = 9.0.
o = by_pass["other"]
assert re.fullmatch(r"other\.other\.[0-9a-f]{16}", o["id"]), o["id"]
assert o["tier"] == "compute" and o["p_item"] == "P2"
assert o["impact"]["quantified"] is False
assert o["impact"]["score"] == {"low": 3.0, "mid": 6.0, "high": 9.0,
                                "estimate_method": "heuristic"}, o["impact"]
assert o["title"] == "Unmodelled other op aten::nonzero without a performance model"
# gemm (quantified): roofline time 458752 B / 3.35e12 B/s = 0.136941 us;
# efficiency 0.136941/40 = 0.342353 % and 0.136941/60 = 0.228235 %, mean
# 0.285294 -> 0.29 %. Gap 1 - 0.0029 = 0.9971; high = 0.9971 * 0.1 / 0.25
# * 100 = 39.884 -> 39.88, mid = 0.875 * 39.884 = 34.8985 -> 34.9, low =
# 0.75 * 39.884 = 29.913 -> 29.91.
gf = by_pass["gemm"]
assert re.fullmatch(r"gemm\.GEMM\.[0-9a-f]{16}", gf["id"]), gf["id"]
assert gf["p_item"] == "P1"
assert gf["impact"]["quantified"] is True
assert gf["impact"]["score"]["high"] == 39.88, gf["impact"]
assert gf["impact"]["score"]["mid"] == 34.9
assert gf["impact"]["score"]["low"] == 29.91
assert a.report["schema_version"] == 5
assert a.report["arch"]["name"] == "H100", a.report["arch"]

# The HTML report, and its notebook form: an iframe whose srcdoc is the
# page, escaped.
h = a.html()
assert h.startswith("<!DOCTYPE html>"), h[:40]
assert "Unmodelled other op aten::nonzero" in h
r = a._repr_html_()
assert r.startswith('<iframe srcdoc="') and r.endswith("</iframe>")
import html as _html
srcdoc = r[len('<iframe srcdoc="'):r.index('" style=')]
assert '"' not in srcdoc and _html.unescape(srcdoc) == h
assert a.markdown().startswith("# Net - H100 Standalone Analysis"), a.markdown()[:60]
assert "tl.Analysis" in repr(a) and "2 finding(s)" in repr(a)

# out=: the report stays in that directory, as tl-opt -o writes it.
b = tl.analyze(trace, arch="H100", pipeline="gemm,other", out=outdir)
assert b.out == outdir
for f in ("analysis.md", "analysis.html", "findings.json",
          "perf_report_csvs/kernel_summary.csv"):
    assert os.path.isfile(os.path.join(outdir, f)), f
assert open(os.path.join(outdir, "analysis.html"), encoding="utf-8").read() == b.html()
assert [f["id"] for f in b.findings] == [f["id"] for f in a.findings]
assert "report in " + outdir in b.diagnostics, b.diagnostics

# Keywords: None is "not given"; a wrong type or value is a Python error.
c = tl.analyze(trace, arch="H100", pipeline="other", threads=None, out=None)
assert c.passes == ["other"]
for kw, exc, text in [({"threads": "2"}, TypeError, "threads= takes an int"),
                      ({"threads": -1}, ValueError, "threads= takes an int >= 0"),
                      ({"threads": True}, TypeError, "threads= takes an int"),
                      ({"quiet": 1}, TypeError, "quiet= takes a bool"),
                      ({"pipelines": "x"}, TypeError, "unexpected keyword argument 'pipelines'"),
                      ({"load_pass_plugin": [1]}, TypeError, "load_pass_plugin= takes a str")]:
    try:
        tl.analyze(trace, **kw)
    except exc as e:
        assert text in str(e), (kw, str(e))
    else:
        raise AssertionError("no %s for %r" % (exc.__name__, kw))
assert "pipeline" in tl.keywords() and "out" in tl.keywords()

# Without pandas the tables are lists of dicts with numbers as numbers.
if sys.modules.get("pandas", 0) is None:
    assert isinstance(a.tables["kernel_summary"], list)
    assert nz["Kernel duration (µs)_count"] == 1 and isinstance(
        nz["Kernel duration (µs)_count"], int)
print("ok")
