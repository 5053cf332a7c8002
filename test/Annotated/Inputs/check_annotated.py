"""Checks trace_annotated.json.gz against its input trace (stdlib only).

  check_annotated.py small ORIG ANNOTATED
      the hand-made trace Inputs/small.json with Inputs/small.findings.json:
      the added events must be exactly the ones worked out below.
  check_annotated.py real ORIG ANNOTATED FINDINGS_JSON [GPU_TIMELINE_CSV]
      any trace: one instant per distinct (finding, event uid) of
      findings.json, on that event's pid/tid/ts; counters well formed;
      with a reference gpu_timeline.csv (TraceLens), the time the GPU busy
      and exposed communication counters spend at 1 equals its busy_time
      and exposed_comm_time.
  check_annotated.py tables ORIG ANNOTATED ORIG_CSV_DIR RE_CSV_DIR
      the perf tables of a re-import equal the original's, cell for cell,
      except the UIDs of synthetic ops: the perf report numbers them after
      the last traceEvents entry, so they move by the number of added
      entries.

The first two modes also check that the output is one JSON document whose text is the
input's with the new elements inserted before the `]` closing traceEvents
(every original byte kept, trailing bytes after the top-level object
dropped).
"""
import gzip
import json
import sys


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    return data


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def root_end(text):
    """Offset just past the top-level object's closing brace."""
    depth, in_str, esc = 0, False, False
    for i, c in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif c == 0x5C:
                esc = True
            elif c == 0x22:
                in_str = False
        elif c == 0x22:
            in_str = True
        elif c in (0x7B, 0x5B):
            depth += 1
        elif c in (0x7D, 0x5D):
            depth -= 1
            if depth == 0:
                return i + 1
    fail("no end of the top-level object")


def split_output(orig, out):
    """The added elements, after checking the byte-level splice."""
    orig = orig[:root_end(orig)]
    doc = json.loads(orig)
    ann = json.loads(out)
    if list(ann) != list(doc):
        fail("top-level keys differ: %s vs %s" % (list(ann), list(doc)))
    for k in doc:
        if k != "traceEvents" and ann[k] != doc[k]:
            fail("top-level %r differs" % k)
    n = len(doc["traceEvents"])
    if ann["traceEvents"][:n] != doc["traceEvents"]:
        fail("the original events changed")
    # Bytes: out = orig[:c] + added + orig[c:] + "\n", orig[c] the ']' that
    # closes traceEvents (the added text starts with ',' or a newline, so
    # the common prefix ends at c).
    c = 0
    while c < len(orig) and c < len(out) and orig[c] == out[c]:
        c += 1
    rest = orig[c:] + b"\n"
    if orig[c:c + 1] != b"]" or not out.endswith(rest) or \
            len(out) < c + len(rest):
        fail("output is not the input with text inserted before a ']'")
    return doc, ann["traceEvents"][n:]


def by_kind(added):
    meta = [e for e in added if e.get("ph") == "M"]
    inst = [e for e in added if e.get("ph") == "i"]
    ctr = [e for e in added if e.get("ph") == "C"]
    # The critical path's arrows (checked in critical-path-flows.test):
    # pairs of 's' and 'f' with one id.
    flow = [e for e in added if e.get("cat") == "tl.critical_path"]
    if [e.get("ph") for e in flow] != ["s", "f"] * (len(flow) // 2) or \
            any(a["id"] != b["id"] for a, b in zip(flow[0::2], flow[1::2])):
        fail("critical path flows are not s/f pairs")
    if len(meta) + len(inst) + len(ctr) + len(flow) != len(added):
        fail("unexpected phases among the added events")
    return meta, inst, ctr


def series(ctr, name):
    return [(e["ts"], e["args"]["value"]) for e in ctr if e["name"] == name]


def check_small(orig_path, out_path):
    orig, out = read_text(orig_path), read_text(out_path)
    doc, added = split_output(orig, out)
    meta, inst, ctr = by_kind(added)
    # Integer pids of the trace: 1 (CPU), 0 (GPU); "Spans" is a string.
    if meta != [{"ph": "M", "name": "process_name", "pid": 2, "tid": 0,
                 "args": {"name": "tl analysis"}}]:
        fail("metadata: %r" % meta)
    title1 = ("Memory-bound GEMM kernels at 0-30% of roofline: a title "
              "longer than sixty bytes")
    # (uid, pid, tid, ts) from Inputs/small.json: finding 1 points at uids
    # 3, 1, 3 (again: one instant) and 999 (no such event: none); finding 2
    # at the [memory] instant (uid 10) and the string-pid span (uid 11).
    want = [
        ("P1 compute: " + title1[:60].rstrip() + "...", 0, 7, 120.5, 3,
         "compute", "P1", 1, "medium", 2.0, title1, "test-findings"),
        ("P1 compute: " + title1[:60].rstrip() + "...", 1, 1, 100.5, 1,
         "compute", "P1", 1, "medium", 2.0, title1, "test-findings"),
        ("P1 system: Allocator event", 1, 1, 175.125, 10,
         "system", "P1", 2, "high", None, "Allocator event", "test-findings"),
        ("P1 system: Allocator event", "Spans", "Train", 100, 11,
         "system", "P1", 2, "high", None, "Allocator event", "test-findings"),
    ]
    got = [(e["name"], e["pid"], e["tid"], e["ts"], e["args"]["event_uid"],
            e["args"]["tier"], e["args"]["p_item"], e["args"]["global_rank"],
            e["args"]["severity"], e["args"]["impact_pct"], e["args"]["title"],
            e["args"]["pass"]) for e in inst]
    if got != want:
        fail("instants:\n  got  %r\n  want %r" % (got, want))
    for e in inst:
        if e["s"] != "t" or e["cat"] != "tl.finding" or \
                not e["args"]["finding_id"].startswith("test-findings."):
            fail("instant fields: %r" % e)
    if [e["args"]["finding_id"] for e in inst][0] != inst[1]["args"]["finding_id"]:
        fail("one finding, two ids")
    # GPU intervals (µs): gemm [120.5, 150.5], nccl [165, 205] (comm),
    # elementwise [180, 190]. Busy = their union.
    want_busy = [(120.5, 1), (150.5, 0), (165, 1), (205, 0)]
    # Communication minus computation: [165, 180] and [190, 205].
    want_comm = [(165, 1), (180, 0), (190, 1), (205, 0)]
    # Launch start -> GPU end: [110.25, 150.5], [150.5, 205], [171, 190]; at
    # 150.5 one leaves and one enters: no point there.
    want_queue = [(110.25, 1), (171, 2), (190, 1), (205, 0)]
    for name, w in (("GPU busy", want_busy),
                    ("exposed communication", want_comm),
                    ("queue depth", want_queue)):
        if series(ctr, name) != w:
            fail("%s: got %r want %r" % (name, series(ctr, name), w))
    if len(ctr) != 12 or any(e["pid"] != 2 or e["cat"] != "tl" for e in ctr):
        fail("counter events: %r" % ctr)
    print("ok: %d instants, %d counter points" % (len(inst), len(ctr)))


def time_at_one(points):
    """Total length (µs) of the segments where a 0/1 step function is 1."""
    if any(v not in (0, 1) for _, v in points):
        fail("not a 0/1 counter: %r" % points[:10])
    return sum(b[0] - a[0] for a, b in zip(points, points[1:]) if a[1] == 1)


def queue_by_correlation(events):
    """Queue depth recomputed from the raw events: a GPU event is queued from
    the start of the runtime/driver event with its correlation id (when
    exactly one has it and, in a trace with launch flows, an ac2g flow
    start and end carry that id: tl links GPU events through the flows) to
    its own end."""
    flows = {}
    for e in events:
        if e.get("cat") in ("ac2g", "async_cpu_to_gpu") and e.get("ph") in ("s", "f"):
            flows.setdefault(e.get("id"), set()).add(e["ph"])
    runtime = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver"):
            c = e.get("args", {}).get("correlation")
            if c is not None:
                runtime.setdefault(c, []).append(e)
    changes = []
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        c = e.get("args", {}).get("correlation")
        rs = runtime.get(c, [])
        if len(rs) != 1 or (flows and flows.get(c) != {"s", "f"}):
            continue
        start, end = rs[0]["ts"], e["ts"] + e["dur"]
        if end > start:
            changes += [(start, 1), (end, -1)]
    changes.sort(key=lambda c: c[0])
    out, v, last, i = [], 0, 0, 0
    while i < len(changes):
        ts = changes[i][0]
        while i < len(changes) and changes[i][0] == ts:
            v += changes[i][1]
            i += 1
        if v != last:
            out.append((ts, v))
            last = v
    return out


def check_real(orig_path, out_path, findings_path, timeline=None):
    orig, out = read_text(orig_path), read_text(out_path)
    doc, added = split_output(orig, out)
    meta, inst, ctr = by_kind(added)
    events = doc["traceEvents"]
    with open(findings_path) as f:
        findings = json.load(f)["findings"]
    want = []
    for fd in findings:
        seen = set()
        for loc in fd["locations"]:
            if loc["kind"] == "event" and loc["uid"] not in seen:
                seen.add(loc["uid"])
                want.append((fd["id"], loc["uid"]))
    got = [(e["args"]["finding_id"], e["args"]["event_uid"]) for e in inst]
    if got != want:
        fail("instants: %d, findings.json has %d event locations"
             % (len(got), len(want)))
    ranks = {fd["id"]: fd["global_rank"] for fd in findings}
    for e in inst:
        ev = events[e["args"]["event_uid"]]
        if (e["pid"], e["tid"], e["ts"]) != (ev["pid"], ev["tid"], ev["ts"]):
            fail("instant %r is not on its event %r" % (e, ev))
        if e["args"]["global_rank"] != ranks[e["args"]["finding_id"]]:
            fail("global_rank of %r" % e)
    pids = {ev.get("pid") for ev in events}
    if len(meta) != 1 or meta[0]["pid"] in pids:
        fail("tl process: %r" % meta)
    for name in ("GPU busy", "exposed communication", "queue depth"):
        s = series(ctr, name)
        if any(b[0] <= a[0] or b[1] == a[1] for a, b in zip(s, s[1:])):
            fail(name + ": points not at increasing ts with changing values")
        if s and s[-1][1] != 0:
            fail(name + ": does not end at 0")
    if series(ctr, "queue depth") != queue_by_correlation(events):
        fail("queue depth differs from the correlation-linked recount")
    if timeline:
        import csv
        with open(timeline) as f:
            ref = {r[0]: float(r[1]) for r in csv.reader(f) if r and r[0] != "type"}
        for name, key in (("GPU busy", "busy_time"),
                          ("exposed communication", "exposed_comm_time")):
            got_ms = time_at_one(series(ctr, name)) / 1000
            if abs(got_ms - ref[key]) > 1e-6 * max(1.0, ref[key]):
                fail("%s: %.9f ms at 1, reference %s %.9f ms"
                     % (name, got_ms, key, ref[key]))
            print("%s: %.6f ms = reference %s" % (name, got_ms, key))
    print("ok: %d instants = %d finding event locations; %d counter points"
          % (len(inst), len(want), len(ctr)))


def check_tables(orig_path, out_path, orig_dir, re_dir):
    import csv
    import os
    n = len(json.loads(read_text(orig_path)[:root_end(read_text(orig_path))])["traceEvents"])
    added = len(json.loads(read_text(out_path))["traceEvents"]) - n
    names = sorted(os.listdir(orig_dir))
    if names != sorted(os.listdir(re_dir)) or not names:
        fail("different tables: %r vs %r" % (names, sorted(os.listdir(re_dir))))
    shifted = 0
    for name in names:
        with open(os.path.join(orig_dir, name), newline="") as f:
            a = list(csv.reader(f))
        with open(os.path.join(re_dir, name), newline="") as f:
            b = list(csv.reader(f))
        if len(a) != len(b):
            fail("%s: %d vs %d rows" % (name, len(a), len(b)))
        for i, (ra, rb) in enumerate(zip(a, b)):
            if len(ra) != len(rb):
                fail("%s row %d: %d vs %d cells" % (name, i, len(ra), len(rb)))
            for x, y in zip(ra, rb):
                if x == y:
                    continue
                if x.isdigit() and y.isdigit() and int(x) >= n and \
                        int(y) - int(x) == added:
                    shifted += 1
                    continue
                fail("%s row %d: %r vs %r" % (name, i, x[:80], y[:80]))
    print("tables equal: %d files, %d synthetic-op uids moved by %d"
          % (len(names), shifted, added))


if __name__ == "__main__":
    if sys.argv[1] == "small":
        check_small(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "tables":
        check_tables(*sys.argv[2:])
    else:
        check_real(*sys.argv[2:])
