"""With pandas, .tables are DataFrames whose numbers are the CSV's exact
doubles (read with float_precision="round_trip").

Usage: check_pandas.py TRACE   (mm-nonzero.json; values as in check_analyze.py)
"""
import sys

import pandas

import tl

a = tl.analyze(sys.argv[1], arch="H100", pipeline="gemm,other")
for name, t in a.tables.items():
    assert isinstance(t, pandas.DataFrame), (name, type(t))
ks = a.tables["kernel_summary"].set_index("Kernel name")
assert str(ks["Kernel duration (µs)_sum"].dtype) == "float64"
assert str(ks["Kernel duration (µs)_count"].dtype) == "int64"
assert ks.loc["sm90_xmma_gemm_bf16bf16_bf16f32", "Kernel duration (µs)_sum"] == 100.0
g = a.tables["GEMM"]
# FLOPs / bytes = 33554432 / 458752, the same double to the last bit.
assert g.loc[0, "FLOPS/Byte_first"] == 33554432 / 458752, g.loc[0, "FLOPS/Byte_first"]
# Sorting and filtering work as on any DataFrame: the longest kernel first.
top = a.tables["kernel_summary"].sort_values("Kernel duration (µs)_sum", ascending=False)
print("top kernel:", top.iloc[0]["Kernel name"])
