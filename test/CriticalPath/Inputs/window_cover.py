"""Print each window of a critical_path.json: step, start, end, length (µs,
three decimals) and whether its segments cover it (sum within 1e-3 µs,
contiguous) and the walk reached its start."""
import json
import sys

cp = json.load(open(sys.argv[1]))
for w in cp["windows"]:
    h = w["window"]
    segs = w["segments"]
    total = sum(s["dur_us"] for s in segs)
    contiguous = all(abs(a["end_us"] - b["start_us"]) < 1e-6 for a, b in zip(segs, segs[1:]))
    ends = not segs or (abs(segs[0]["start_us"] - h["start_us"]) < 1e-6 and
                        abs(segs[-1]["end_us"] - h["end_us"]) < 1e-6)
    ok = abs(total - h["length_us"]) < 1e-3 and contiguous and ends
    print("%s %.3f %.3f %.3f %s %s" % (h["step"], h["start_us"], h["end_us"], h["length_us"],
                                      "covered" if ok else "NOT-covered",
                                      "reached" if h["reached_start"] else "stopped"))
