"""The installed Python module: imported from the prefix (not the build
tree), it finds TLCore and the passes under that prefix.

Usage: check_installed.py PREFIX TRACE
"""
import os
import sys

import tl
from tl import _tl

prefix, trace = os.path.realpath(sys.argv[1]), sys.argv[2]
for f in (tl.__file__, _tl.__file__):
    assert os.path.realpath(f).startswith(prefix + os.sep), (f, prefix)
print("imported from the prefix")
a = tl.analyze(trace, arch="H100", pipeline="gemm,other", quiet=True)
print("passes:", ",".join(a.passes))
print("findings:", ",".join(f["pass"] for f in a.findings))
