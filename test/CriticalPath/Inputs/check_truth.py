"""Compare tl's critical_path.json / memory_timeline.json with the truth that
tl-gen --shape=critical-path --truth wrote (what the generator emitted).

Exits 1 naming the first difference; prints one OK line per checked item.
Times are µs printed with three decimals around 1.7e12 µs, so sums of
differences may be off by a few 1e-4 µs in double arithmetic: 2e-3 tolerance.
"""
import json
import sys

CATS = ["gpu_compute", "cpu_op", "cpu_runtime", "host_untraced",
        "launch_latency", "gpu_gap", "sync_return"]
TOL = 2e-3


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def main():
    truth = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    cp = json.load(open(out + "/critical_path.json"))
    wins = cp["windows"]
    if len(wins) != len(truth["critical_path"]):
        fail("windows %d != steps %d" % (len(wins), len(truth["critical_path"])))
    for w, t in zip(wins, truth["critical_path"]):
        h = w["window"]
        if h["step"] != t["step"]:
            fail("step %s != %s" % (h["step"], t["step"]))
        for k in ("start_us", "end_us"):
            if abs(h[k] - float(t[k])) > TOL:
                fail("step %d %s %r != %r" % (t["step"], k, h[k], t[k]))
        got = {r["category"]: r["us"] for r in w["summary"]}
        for c in CATS:
            if abs(got[c] - float(t[c])) > TOL:
                fail("step %d %s %r != %r" % (t["step"], c, got[c], t[c]))
        other = sum(v for c, v in got.items()
                    if c not in CATS and c not in ("cpu_bound", "gpu_bound", "overhead"))
        if abs(other) > TOL:
            fail("step %d: time in other categories %r" % (t["step"], other))
        if not h["reached_start"]:
            fail("step %d: walk did not reach the window start" % t["step"])
    print("OK critical path: %d steps" % len(wins))
    m = truth.get("memory")
    if m:
        mem = json.load(open(out + "/memory_timeline.json"))
        dev = [d["device"] for d in mem["devices"] if d["device"]["device"] == m["device"]]
        if not dev:
            fail("no device " + m["device"])
        d = dev[0]
        for k in ("baseline_bytes", "peak_allocated_bytes", "peak_reserved_bytes",
                  "final_allocated_bytes", "peak_op"):
            if d[k] != m[k]:
                fail("memory %s %r != %r" % (k, d[k], m[k]))
        if abs(d["peak_ts_us"] - float(m["peak_ts_us"])) > TOL:
            fail("memory peak_ts_us %r != %r" % (d["peak_ts_us"], m["peak_ts_us"]))
        if d["consistency_violations"] or d["unmatched_frees"] or d["open_at_end"]:
            fail("memory pairing: %r" % d)
        print("OK memory peak: %d bytes in %s" % (d["peak_allocated_bytes"], d["peak_op"]))


main()
