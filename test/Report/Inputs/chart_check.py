"""Check the content of the report's SVG charts (stdlib xml.etree only).

usage: chart_check.py <chart> <file.svg> [expectations...]

  breakdown  --seg LABEL=MS ...   segments (<title>LABEL: MS ms</title>) in
             this order, within 0.0005 ms; --comm requires the
             communication colour on the "Communication" segment
  roofline   --point AI,TFLOPS ...  op points: (cx, cy) mapped back through
             the plot's documented log10 transform (data-x0/-y0/-w/-h,
             data-log-x/-log-y) equal the hand-worked intensity and
             throughput within 1 % (coordinates have two decimals);
             --knee SPEC=AI ...  each roof's middle vertex maps back to
             AI = peak / bandwidth (within 1 %) and its flat part to the
             peak; --bw GBPS the slope's bandwidth
  topk       --kernel NAME=PCT ...  bars in this order with their % text
  timeline   --step LABEL=MS ...  step markers (<line class="step">, label
             = its <title>) at MS from the trace start, x mapped back
             through the axis group: ms = data-start-ms + (x - data-x0) /
             data-w * data-ms; --ticks 0.1,0.2 the tick labels, in order;
             every tick sits at its value and the step between ticks is
             1, 2 or 5 times a power of ten
  idle       --cause NAME=MS ...  the stacked causes (<rect class="cause">,
             data-cause, ms in the title) in this order; --stream LABEL=MS
             the per-stream idle bars in this order
  compare    --cat NAME=MS1,MS2 ...  per category (in this order) the two
             paired bars' ms (trace 1, trace 2) and the difference text
  memory     --device NAME  the device's plot (<g class="memory-device">,
             its data-* transform); --peak MS,BYTES the peak circle mapped
             back (ms since the first GPU allocator event; 0.2 % of the
             axis); --curve MS:BYTES,... the allocated step line's vertices
             in order (same tolerance); --live OWNER=BYTES ... the
             live-at-peak lines in order, adding up to the peak when all
             are given; --cached BYTES reserved minus allocated at the peak
             --trace FILE --peak-ts-us TS --peak-bytes B: the peak's ms
             from the trace's first GPU allocator event (read here);
             --mem-truth TRUTH.json takes TS and B from tl-gen's truth
  stacked    --kind step|rank  the rows (<g class=KIND>); --row
             ID=SERIES:US,... each row's parts in this order: data-us and
             the drawn width (data-w / data-max-us per us) within 0.0005 ms,
             and the row total = the sum; rows in the order given;
             --cp-truth TRUTH.json adds tl-gen's per-step categories
  skew       --cell RANK,COLL=US ...  heatmap cells' lateness (0.0015 us);
             --missing RANK,COLL ...  exactly these cells are "missing"
             (member without the instance);
             --truth TRUTH.json  tl-gen's truth: in every collective's
             column the darkest cell is the truth's last rank, late by its
             arrival skew, and the first rank's cell is 0; every cell's
             darkness (luminance) is ordered as its lateness

Every chart: no two series (fills of the legend / bars / points of
different series) share a colour. Prints one line per chart; exit 1 with a
message on stderr at the first failed check.
"""
import math
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
COMM = "#D55E00"


def fail(msg):
    sys.stderr.write("chart_check: " + msg + "\n")
    sys.exit(1)


def close(a, b, rel=0.01, absol=0.0):
    return abs(a - b) <= max(absol, rel * abs(b))


def args_of(argv, flag):
    out = []
    for i, a in enumerate(argv):
        if a == flag:
            out.append(argv[i + 1])
    return out


def title(el):
    t = el.find(NS + "title")
    return t.text if t is not None else None


def breakdown(root, argv):
    segs = []
    for r in root.iter(NS + "rect"):
        t = title(r)
        if t is None:
            continue
        m = re.fullmatch(r"(.*): ([0-9.]+) ms", t)
        if not m:
            fail("segment title not 'LABEL: MS ms': %r" % t)
        segs.append((m.group(1), float(m.group(2)), r.get("fill")))
    want = [s.split("=") for s in args_of(argv, "--seg")]
    if [s[0] for s in segs] != [w[0] for w in want]:
        fail("segments %s, expected %s" % ([s[0] for s in segs], [w[0] for w in want]))
    for (label, ms, _), (_, wms) in zip(segs, want):
        if not close(ms, float(wms), 0, 0.0005):
            fail("%s: %s ms, expected %s" % (label, ms, wms))
    fills = [s[2].upper() for s in segs]
    if len(set(fills)) != len(fills):
        fail("two segments share a colour: %s" % fills)
    if "--comm" in argv:
        comm = [s for s in segs if s[0] == "Communication"]
        if not comm or comm[0][2].upper() != COMM:
            fail("no Communication segment in %s" % COMM)
    elif COMM in fills:
        fail("communication colour without communication")
    return "%d segments" % len(segs)


def plot_transform(g):
    x0, y0 = float(g.get("data-x0")), float(g.get("data-y0"))
    w, h = float(g.get("data-w")), float(g.get("data-h"))
    xlo, xhi = map(float, g.get("data-log-x").split())
    ylo, yhi = map(float, g.get("data-log-y").split())
    fx = lambda px: 10 ** (xlo + (px - x0) / w * (xhi - xlo))
    fy = lambda py: 10 ** (ylo + (y0 + h - py) / h * (yhi - ylo))
    return fx, fy


def roofline(root, argv):
    g = [e for e in root.iter(NS + "g") if e.get("id") == "roofline-plot"]
    if not g:
        fail("no roofline-plot group")
    fx, fy = plot_transform(g[0])
    pts = [(fx(float(c.get("cx"))), fy(float(c.get("cy"))), c.get("fill"))
           for c in g[0].iter(NS + "circle")]
    want = [tuple(map(float, p.split(","))) for p in args_of(argv, "--point")]
    if len(pts) != len(want):
        fail("%d points, expected %d" % (len(pts), len(want)))
    for (x, y, _), (wx, wy) in zip(pts, want):
        if not close(x, wx) or not close(y, wy):
            fail("point (%g, %g), expected (%g, %g)" % (x, y, wx, wy))
    roofs = {p.get("data-spec"): p for p in g[0].iter(NS + "polyline")}
    bw = float(args_of(argv, "--bw")[0]) if "--bw" in argv else None
    for k in args_of(argv, "--knee"):
        spec, ai = k.split("=")
        if spec not in roofs:
            fail("no roof %s (have %s)" % (spec, sorted(roofs)))
        p = roofs[spec]
        v = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        if len(v) != 3:
            fail("roof %s has %d vertices" % (spec, len(v)))
        peak = float(p.get("data-peak-tflops"))
        if not close(fx(v[1][0]), float(ai)):
            fail("%s knee at %g, expected %s" % (spec, fx(v[1][0]), ai))
        if not close(fy(v[1][1]), peak) or not close(fy(v[2][1]), peak):
            fail("%s ceiling not at %g" % (spec, peak))
        if bw is not None and not close(fy(v[0][1]) / fx(v[0][0]), bw / 1000):
            fail("%s slope is not %g GB/s" % (spec, bw))
    if len(roofs) != len(args_of(argv, "--knee")):
        fail("roofs %s" % sorted(roofs))
    # Series = categories: a legend colour per category, none shared.
    legend = [r.get("fill").upper() for r in root.iter(NS + "rect")
              if r.get("class") == "legend"]
    if len(set(legend)) != len(legend):
        fail("two legend entries share a colour: %s" % legend)
    for _, _, f in pts:
        if f.upper() not in legend:
            fail("point colour %s not in the legend" % f)
    return "%d points, %d roofs" % (len(pts), len(roofs))


def topk(root, argv):
    got = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "kernel":
            continue
        name = title(g).rsplit(": ", 1)[0]
        val = [t for t in g.iter(NS + "text") if t.get("class") == "value"][0].text
        m = re.search(r"\(([0-9.]+)%\)", val)
        got.append((name, float(m.group(1))))
    want = [k.rsplit("=", 1) for k in args_of(argv, "--kernel")]
    if [g[0] for g in got] != [w[0] for w in want]:
        fail("kernels %s, expected %s" % ([g[0] for g in got], [w[0] for w in want]))
    for (n, p), (_, wp) in zip(got, want):
        if not close(p, float(wp), 0, 0.05):
            fail("%s: %s%%, expected %s%%" % (n, p, wp))
    return "%d kernels" % len(got)


def timeline(root, argv):
    g = [e for e in root.iter(NS + "g") if e.get("id") == "timeline-axis"]
    if not g:
        fail("no timeline-axis group")
    x0, w, off, ms = (float(g[0].get(k)) for k in
                      ("data-x0", "data-w", "data-start-ms", "data-ms"))
    tx = lambda px: off + (px - x0) / w * ms
    steps = [(title(l), tx(float(l.get("x1"))))
             for l in root.iter(NS + "line") if l.get("class") == "step"]
    want = [s.rsplit("=", 1) for s in args_of(argv, "--step")]
    if [s[0] for s in steps] != [w[0] for w in want]:
        fail("steps %s, expected %s" % ([s[0] for s in steps], [w[0] for w in want]))
    for (n, at), (_, wat) in zip(steps, want):
        if not close(at, float(wat), 0, 0.0005):
            fail("%s at %g ms, expected %s" % (n, at, wat))
    ticks = [(t.text, tx(float(t.get("x")))) for t in root.iter(NS + "text")
             if t.get("class") == "tick"]
    if "--ticks" in argv:
        want = args_of(argv, "--ticks")[0].split(",")
        if [t[0] for t in ticks] != want:
            fail("ticks %s, expected %s" % ([t[0] for t in ticks], want))
    for text, at in ticks:
        v = float(text)
        if v:
            mant = v / 10 ** math.floor(math.log10(v) + 1e-9)
            step = float(ticks[1][0]) - float(ticks[0][0])
            sm = step / 10 ** math.floor(math.log10(step) + 1e-9)
            if not any(close(sm, c, 0.001) for c in (1, 2, 5)):
                fail("tick step %g is not 1-2-5" % step)
        if not close(at, v, 0, 0.0005 + ms * 1e-4):
            fail("tick %s at %g ms" % (text, at))
    return "%d steps, %d ticks" % (len(steps), len(ticks))


def idle(root, argv):
    causes = [(r.get("data-cause"), float(re.search(r": ([0-9.]+) ms", title(r)).group(1)))
              for r in root.iter(NS + "rect") if r.get("class") == "cause"]
    want = [c.rsplit("=", 1) for c in args_of(argv, "--cause")]
    if [c[0] for c in causes] != [w[0] for w in want]:
        fail("causes %s, expected %s" % ([c[0] for c in causes], [w[0] for w in want]))
    for (n, ms), (_, wms) in zip(causes, want):
        if not close(ms, float(wms), 0, 0.0005):
            fail("%s: %s ms, expected %s" % (n, ms, wms))
    streams = [title(r).rsplit(": ", 1) for r in root.iter(NS + "rect")
               if r.get("class") == "stream-idle"]
    want = [s.rsplit("=", 1) for s in args_of(argv, "--stream")]
    if [s[0] for s in streams] != [w[0] for w in want]:
        fail("streams %s, expected %s" % ([s[0] for s in streams], [w[0] for w in want]))
    for (n, txt), (_, wms) in zip(streams, want):
        if not close(float(txt.split()[0]), float(wms), 0, 0.0005):
            fail("%s: %s, expected %s ms" % (n, txt, wms))
    legend = [r.get("fill").upper() for r in root.iter(NS + "rect")
              if r.get("class") == "legend"]
    if len(set(legend)) != len(legend):
        fail("two legend entries share a colour: %s" % legend)
    return "%d causes, %d streams" % (len(causes), len(streams))


def compare(root, argv):
    got = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "category":
            continue
        sides = {r.get("data-side"): float(re.search(r": ([0-9.]+) ms", title(r)).group(1))
                 for r in g.iter(NS + "rect")}
        diff = [t.text for t in g.iter(NS + "text") if t.get("class") == "diff"][0]
        got.append((g.get("data-category"), sides.get("1"), sides.get("2"), diff))
    want = [c.rsplit("=", 1) for c in args_of(argv, "--cat")]
    if [c[0] for c in got] != [w[0] for w in want]:
        fail("categories %s, expected %s" % ([c[0] for c in got], [w[0] for w in want]))
    for (n, a, b, d), (_, w) in zip(got, want):
        wa, wb = map(float, w.split(","))
        if not close(a, wa, 0, 0.0005) or not close(b, wb, 0, 0.0005):
            fail("%s: %s / %s ms, expected %s / %s" % (n, a, b, wa, wb))
        if not close(float(d.split()[0]), wa - wb, 0, 0.0015):
            fail("%s: difference %s, expected %+.3f" % (n, d, wa - wb))
    legend = [r.get("fill").upper() for r in root.iter(NS + "rect")
              if r.get("class") == "legend"]
    if len(legend) != 2 or legend[0] == legend[1]:
        fail("legend colours %s" % legend)
    return "%d categories" % len(got)


def path_vertices(d):
    """(x, y) after each H/V pair of "M x,y H x V y ..."."""
    toks = re.findall(r"([MHV])([-0-9.]+)(?:,([-0-9.]+))?", d)
    pts, x, y = [], None, None
    for cmd, a, b in toks:
        if cmd == "M":
            x, y = float(a), float(b)
            pts.append((x, y))
        elif cmd == "H":
            x = float(a)
        else:
            y = float(a)
            pts.append((x, y))
    return pts


def memory(root, argv):
    dev = args_of(argv, "--device")[0]
    gs = [g for g in root.iter(NS + "g")
          if g.get("class") == "memory-device" and g.get("data-device") == dev]
    if len(gs) != 1:
        fail("no plot of device %s" % dev)
    g = gs[0]
    x0, y0, w, h = (float(g.get(k)) for k in ("data-x0", "data-y0", "data-w", "data-h"))
    span, mx = float(g.get("data-span-us")), float(g.get("data-max-bytes"))
    ms = lambda px: (px - x0) / w * span / 1000
    by = lambda py: (y0 + h - py) / h * mx
    tol_ms, tol_b = span / 1000 * 0.002, mx * 0.002
    def near(got, want):
        return (abs(got[0] - want[0]) <= tol_ms and abs(got[1] - want[1]) <= tol_b)
    circles = [c for c in g.iter(NS + "circle") if c.get("class") == "peak"]
    if len(circles) != 1:
        fail("%d peak markers" % len(circles))
    peak = (ms(float(circles[0].get("cx"))), by(float(circles[0].get("cy"))))
    for t in args_of(argv, "--mem-truth"):
        import json
        m = json.load(open(t))["memory"]
        argv = argv + ["--peak-ts-us", repr(m["peak_ts_us"]),
                       "--peak-bytes", str(m["peak_allocated_bytes"])]
    if "--peak-ts-us" in argv:
        # ms since the trace's first GPU allocator event, found here.
        import gzip
        import json
        tp = args_of(argv, "--trace")[0]
        evs = [e for e in json.load((gzip.open if tp.endswith(".gz") else open)(tp, "rt"))["traceEvents"]
               if e.get("name") in ("[memory]", "[OutOfMemory]")
               and e.get("args", {}).get("Device Type", 0) != 0]
        t0 = min(float(e["ts"]) for e in evs)
        argv = argv + ["--peak", "%r,%s" % ((float(args_of(argv, "--peak-ts-us")[0]) - t0) / 1000,
                                             args_of(argv, "--peak-bytes")[0])]
    if "--peak" in argv:
        want = tuple(map(float, args_of(argv, "--peak")[0].split(",")))
        if not near(peak, want):
            fail("peak at (%g ms, %g B), expected %s" % (peak + (want,)))
    paths = {p.get("class"): p for p in g.iter(NS + "path")}
    if "allocated" not in paths:
        fail("no allocated curve")
    verts = [(ms(x), by(y)) for x, y in path_vertices(paths["allocated"].get("d"))]
    if max(v[1] for v in verts) < peak[1] - tol_b:
        fail("the curve does not reach the peak")
    if "--curve" in argv:
        want = [tuple(map(float, p.split(":"))) for p in args_of(argv, "--curve")[0].split(",")]
        if len(verts) != len(want) or not all(near(a, b) for a, b in zip(verts, want)):
            fail("curve %s, expected %s" % ([(round(a, 4), round(b)) for a, b in verts], want))
    live = [(t.get("data-owner"), int(t.get("data-bytes"))) for t in g.iter(NS + "text")
            if t.get("class") == "live"]
    want = [l.rsplit("=", 1) for l in args_of(argv, "--live")]
    if want and [(o, int(b)) for o, b in want] != live[:len(want)]:
        fail("live at peak %s, expected %s" % (live, want))
    if live and sum(b for _, b in live) != int(g.get("data-peak-bytes")):
        fail("live at peak adds up to %d, not the peak" % sum(b for _, b in live))
    cached = [int(t.get("data-bytes")) for t in g.iter(NS + "text") if t.get("class") == "cached"]
    if "--cached" in argv and cached != [int(args_of(argv, "--cached")[0])]:
        fail("cached at peak %s" % cached)
    legend = [r.get("fill").upper() for r in g.iter(NS + "rect") if r.get("class") == "legend"]
    if len(set(legend)) != len(legend):
        fail("two legend entries share a colour: %s" % legend)
    return "%s, peak %d bytes, %d vertices, %d owners" % (dev, round(peak[1]), len(verts), len(live))


def stacked(root, argv):
    kind = args_of(argv, "--kind")[0]
    bars = [e for e in root.iter(NS + "g") if e.get("id") == "bars"]
    if not bars:
        fail("no bars group")
    per_us = float(bars[0].get("data-w")) / float(bars[0].get("data-max-us"))
    rows = [g for g in bars[0].iter(NS + "g") if g.get("class") == kind]
    want = [r.split("=", 1) for r in args_of(argv, "--row")]
    for t in args_of(argv, "--cp-truth"):
        import json
        # tl-gen's truth: per step its non-zero categories; the chart's
        # parts come in critical-path.md §6.5 order.
        cats = ["gpu_compute", "gpu_comm", "gpu_memcpy", "gpu_memset", "cpu_op",
                "cpu_runtime", "cpu_sync_call", "host_untraced", "data_loading",
                "launch_latency", "gpu_gap", "gpu_sync_gap", "sync_return"]
        for st in json.load(open(t))["critical_path"]:
            want.append([str(st["step"]), ",".join(
                "%s:%s" % (c, st[c]) for c in cats if float(st.get(c, 0)) > 0)])
    if [g.get("data-row") for g in rows] != [w[0] for w in want]:
        fail("rows %s, expected %s" % ([g.get("data-row") for g in rows], [w[0] for w in want]))
    colours = {}
    for g, (rid, spec) in zip(rows, want):
        parts = [(r.get("data-series"), float(r.get("data-us")), float(r.get("width")), r.get("fill"))
                 for r in g.iter(NS + "rect") if r.get("class") == "part"]
        exp = [(p.split(":")[0], float(p.split(":")[1])) for p in spec.split(",")] if spec else []
        if [p[0] for p in parts] != [e[0] for e in exp]:
            fail("row %s: parts %s, expected %s" % (rid, [p[0] for p in parts], [e[0] for e in exp]))
        for (ser, us, wd, fill), (_, wus) in zip(parts, exp):
            # data-us has six decimals, widths two (0.005 px).
            if abs(us - wus) > 0.001 or abs(wd - wus * per_us) > 0.006 + 0.001 * per_us:
                fail("row %s %s: %g us drawn %g us, expected %g" % (rid, ser, us, wd / per_us, wus))
            if colours.setdefault(ser, fill) != fill:
                fail("series %s in two colours" % ser)
        if abs(float(g.get("data-total-us")) - sum(e[1] for e in exp)) > 0.001 * (1 + len(exp)):
            fail("row %s total %s" % (rid, g.get("data-total-us")))
    if len(set(colours.values())) != len(colours):
        fail("two series share a colour: %s" % colours)
    legend = {r.get("data-series"): r.get("fill") for r in root.iter(NS + "rect") if r.get("class") == "legend"}
    if legend != colours:
        fail("legend %s, parts %s" % (legend, colours))
    return "%d rows, %d series" % (len(rows), len(colours))


def luminance(fill):
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def skew(root, argv):
    cells = [(int(r.get("data-rank")), r.get("data-coll"), float(r.get("data-late-us")), r.get("fill"))
             for r in root.iter(NS + "rect")
             if r.get("class") == "cell" and r.get("data-late-us") is not None]
    by = {(c[0], c[1]): c for c in cells}
    for spec in args_of(argv, "--cell"):
        k, us = spec.split("=")
        rank, coll = k.split(",")
        c = by.get((int(rank), coll))
        if c is None or abs(c[2] - float(us)) > 0.0015:
            fail("cell rank %s %s: %s, expected %s us" % (rank, coll, c and c[2], us))
    missing = {(int(r.get("data-rank")), r.get("data-coll")) for r in root.iter(NS + "rect")
               if r.get("class") == "cell" and r.get("data-missing") == "1"}
    want_missing = {(int(k.split(",")[0]), k.split(",")[1]) for k in args_of(argv, "--missing")}
    if missing != want_missing:
        fail("missing cells %s, expected %s" % (sorted(missing), sorted(want_missing)))
    order = sorted(cells, key=lambda c: c[2])
    for a, b in zip(order, order[1:]):
        if b[2] > a[2] and luminance(b[3]) > luminance(a[3]) + 1e-9:
            fail("%s late %g is lighter than %s late %g" % (b[:2], b[2], a[:2], a[2]))
    n = 0
    for t in args_of(argv, "--truth"):
        import json
        truth = json.load(open(t))
        for c in truth["collectives"]:
            coll = "%s_%d" % (c["pg"], c["seq"])
            col = [x for x in cells if x[1] == coll]
            if sorted(x[0] for x in col) != sorted(c["members"]):
                fail("%s: cells for ranks %s, members %s" % (coll, [x[0] for x in col], c["members"]))
            dark = min(col, key=lambda x: luminance(x[3]))
            if dark[0] != c["last_rank"] or abs(dark[2] - c["arrival_skew_us"]) > 0.0015:
                fail("%s: darkest rank %d (%g us), the truth rank %d (%g us)" % (coll, dark[0], dark[2], c["last_rank"], c["arrival_skew_us"]))
            if by[(c["first_rank"], coll)][2] != 0:
                fail("%s: the first rank %d is late" % (coll, c["first_rank"]))
            n += 1
    return "%d cells, %d collectives checked" % (len(cells), n)


def main():
    if len(sys.argv) < 3:
        fail("usage: chart_check.py <chart> <file.svg> ...")
    kind, path, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        fail("%s: %s" % (path, e))
    check = {"breakdown": breakdown, "roofline": roofline, "topk": topk,
             "timeline": timeline, "idle": idle, "compare": compare,
             "memory": memory, "stacked": stacked, "skew": skew}.get(kind)
    if check is None:
        fail("unknown chart %s" % kind)
    print("%s: %s" % (kind, check(root, argv)))


if __name__ == "__main__":
    main()
