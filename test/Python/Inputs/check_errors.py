"""Bad input through tl.analyze: a tl.Error (a RuntimeError) with the
message tl-opt prints after "tl-opt: error: ", one line, no crash; the
module keeps working afterwards.

Usage: check_errors.py GOOD_TRACE TRUNCATED_TRACE SCRATCH_DIR
"""
import os
import sys

import tl

good, truncated, scratch = sys.argv[1:4]
missing = os.path.join(scratch, "missing.json")
a_file = os.path.join(scratch, "a-file")
open(a_file, "w").close()

cases = [
    ("missing", missing, {}),
    ("directory", scratch, {}),
    ("truncated", truncated, {}),
    ("arch", good, {"arch": "NoSuchGPU"}),
    ("pipeline", good, {"pipeline": "nosuch"}),
    ("config", good, {"config": os.path.join(scratch, "nosuch.yaml")}),
    ("out", good, {"out": os.path.join(a_file, "report")}),
]
for name, path, kw in cases:
    try:
        tl.analyze(path, **kw)
    except tl.Error as e:
        assert isinstance(e, RuntimeError)
        msg = str(e)
        assert "\n" not in msg, msg
        print("%s: %s" % (name, msg))
    else:
        raise AssertionError("%s: no tl.Error" % name)

# Still usable: the next analysis runs normally.
a = tl.analyze(good, arch="H100", pipeline="other", quiet=True)
print("after errors: %s" % ",".join(a.passes))
