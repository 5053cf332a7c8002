"""Prints the critical-path flow arrows of a trace_annotated.json.gz, one
line each: id, step, and for each end its ts and the innermost complete
event on its pid/tid at that ts (the slice a viewer binds it to). Checks
that every arrow has one 's' and one 'f' with the same id, category and
name, in that order."""
import gzip
import json
import sys

ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
xs = [e for e in ev if e.get("ph") == "X"]
flows = [e for e in ev if e.get("cat") == "tl.critical_path"]


def slice_at(e):
    c = [x for x in xs if str(x["pid"]) == str(e["pid"])
         and str(x["tid"]) == str(e["tid"])
         and x["ts"] <= e["ts"] <= x["ts"] + x["dur"]]
    c.sort(key=lambda x: x["dur"])
    return c[0]["name"] if c else "?"


if len(flows) % 2:
    sys.exit("odd number of flow events")
for s, f in zip(flows[0::2], flows[1::2]):
    if s["ph"] != "s" or f["ph"] != "f" or s["id"] != f["id"] \
            or f.get("bp") != "e" or s["name"] != "critical path":
        sys.exit("bad pair %r %r" % (s, f))
    print("%d step=%d %g %s -> %g %s" % (s["id"], s["args"]["step"], s["ts"],
                                         slice_at(s), f["ts"], slice_at(f)))
print("arrows", len(flows) // 2)
