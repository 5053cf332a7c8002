"""Recompute a trace's per-step table from the raw JSON and compare it with
tl's steps.csv (independent of tl: the rules of spec multi-rank.md §2.4 and
the gpu_timeline buckets of tracelens-perf-report.md §3, written again here).

usage: check_steps.py TRACE.json[.gz] steps.csv
Prints one line per step and "ok" when every value agrees (integers exactly,
times within 1e-9 relative: the sums are taken in another order).
"""
import csv
import gzip
import json
import re
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver"}
COMM = re.compile("nccl|rccl|cross_device_reduce", re.I)
COPY_KERNEL = re.compile(r"^(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|"
                         r"DEVICE_TO_DEVICE)|__amd_rocclr_copyBuffer(Rect)?"
                         r"(Aligned)?)(\.kd)?$")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)["traceEvents"]


def merge(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def subtract(a, b):
    """b minus a (both merged)."""
    out = []
    for s, e in b:
        cur = s
        for x, y in a:
            if y <= cur or x >= e:
                continue
            if x > cur:
                out.append([cur, x])
            cur = max(cur, y)
        if cur < e:
            out.append([cur, e])
    return out


def clip(iv, s, e):
    return sum(max(0.0, min(e, y) - max(s, x)) for x, y in iv)


def main():
    events = load(sys.argv[1])
    xs = [e for e in events if e.get("ph") == "X"]
    steps = sorted((e for e in xs if e.get("cat") == "user_annotation" and
                    re.fullmatch(r"ProfilerStep#\d+", e["name"])),
                   key=lambda e: e["ts"])
    runtime = {}
    for e in xs:
        if e.get("cat") in RUNTIME_CATS and "correlation" in e.get("args", {}):
            c = e["args"]["correlation"]
            runtime[c] = None if c in runtime else e
    starts = {e["id"] for e in events if e.get("ph") == "s"}
    ends = {(e["id"], e["pid"], e["tid"]) for e in events if e.get("ph") == "f"}
    gpu = [e for e in xs if e.get("cat") in GPU_CATS]
    # gpu_timeline's events: linked by a launch flow pair.
    linked, launcher = [], {}
    for i, g in enumerate(gpu):
        c = g.get("args", {}).get("correlation")
        r = runtime.get(c)
        if r is not None:
            launcher[i] = r
            if c in starts and (c, g["pid"], g["tid"]) in ends:
                linked.append(g)

    def step_of(ts):
        for k, s in enumerate(steps):
            if s["ts"] <= ts < s["ts"] + s["dur"]:
                return k
        return None

    K = [0] * len(steps)
    G = [None] * len(steps)
    no_launch = []
    for i, g in enumerate(gpu):
        if i not in launcher:
            no_launch.append(g)
            continue
        k = step_of(launcher[i]["ts"])
        if k is None:
            continue
        K[k] += 1
        s, e = g["ts"], g["ts"] + g["dur"]
        G[k] = [s, e] if G[k] is None else [min(G[k][0], s), max(G[k][1], e)]
    first_gpu = min(x[0] for x in G if x)
    pre_end = max((g["ts"] + g["dur"] for g in no_launch
                   if g["ts"] + g["dur"] < first_gpu), default=float("-inf"))
    W = []
    for k, s in enumerate(steps):
        c0, c1 = s["ts"], s["ts"] + s["dur"]
        start = max(c0, pre_end) if k == 0 else max(W[-1][1], c0)
        end = max(c1, G[k][1]) if G[k] else c1
        W.append([start, max(end, start)])

    def bucket(g):
        if g["cat"] == "gpu_memcpy":
            return "copy"
        if g["cat"] == "kernel" and COPY_KERNEL.match(g["name"]):
            return "copy"
        if COMM.search(g["name"]):
            return "comm"
        return "comp"

    sets = {b: merge([[g["ts"], g["ts"] + g["dur"]] for g in linked
                      if bucket(g) == b]) for b in ("comp", "comm", "copy")}
    all_ = merge([[g["ts"], g["ts"] + g["dur"]] for g in linked])
    exp_comm = subtract(sets["comp"], sets["comm"])
    exp_copy = subtract(sets["comm"], subtract(sets["comp"], sets["copy"]))

    rows = list(csv.DictReader(open(sys.argv[2])))
    ok = len(rows) == len(steps)
    for k, s in enumerate(steps):
        w0, w1 = W[k]
        busy = clip(all_, w0, w1)
        mine = {
            "step": int(s["name"].split("#")[1]),
            "window_start_us": w0, "window_end_us": w1,
            "step_time_ms": (w1 - w0) / 1000,
            "computation_time_ms": clip(sets["comp"], w0, w1) / 1000,
            "exposed_comm_time_ms": clip(exp_comm, w0, w1) / 1000,
            "exposed_memcpy_time_ms": clip(exp_copy, w0, w1) / 1000,
            "busy_time_ms": busy / 1000,
            "idle_time_ms": (w1 - w0 - busy) / 1000,
            "total_comm_time_ms": clip(sets["comm"], w0, w1) / 1000,
            "total_memcpy_time_ms": clip(sets["copy"], w0, w1) / 1000,
            "gpu_events": K[k],
        }
        row = rows[k] if k < len(rows) else {}
        for name, v in mine.items():
            got = float(row.get(name, "nan"))
            same = (got == v) if isinstance(v, int) else \
                abs(got - v) <= 1e-9 * max(1.0, abs(v))
            if not same:
                ok = False
                print(f"step {mine['step']}: {name} = {got}, expected {v}")
        print(f"step {mine['step']}: T {mine['step_time_ms']:.6f} ms, K "
              f"{K[k]}, compute {mine['computation_time_ms']:.6f}, idle "
              f"{mine['idle_time_ms']:.6f}")
    print("ok" if ok else "MISMATCH")


main()
