#!/usr/bin/env python3
"""Write a tiny graph-replay trace and its capture folder for one lit case.

usage: capture_case.py CASE OUTDIR

OUTDIR/graph.json is the replay: an iteration annotation over graph
launches (hipGraphLaunch), each with its replayed kernels linked by
correlation. OUTDIR/capture_traces/ holds execution_details.json and the
capture traces: per capture window a hipStreamBeginCapture /
hipStreamEndCapture pair around `nn.Module: Model_0`, under which each
captured launch sits below its cpu_op (the shapes are what the merge
copies). Every case is one rule of spec/tracelens-inference.md §C.
"""
import json
import os
import sys

ANN = "execute_{b}_context_0(sq0sk0sqsq0sqsk0)_generation_{b}(sq{b}sk10sqsq{b}sqsk10)"


def graph_trace(annotation, launches):
    """launches: list of lists of (kernel name, stream)."""
    ev = []
    ev.append({"ph": "X", "cat": "python_function", "name": "runner.py(1): execute_model",
               "pid": 1, "tid": 1, "ts": 0, "dur": 5000})
    if annotation:
        ev.append({"ph": "X", "cat": "user_annotation", "name": annotation,
                   "pid": 1, "tid": 1, "ts": 10, "dur": 4900})
    for i, kernels in enumerate(launches):
        ts = 100 + 1000 * i
        corr = 100 + i
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch",
                   "pid": 1, "tid": 1, "ts": ts, "dur": 50,
                   "args": {"correlation": corr}})
        for k, (name, stream) in enumerate(kernels):
            cat = "kernel"
            if name.startswith("Memcpy"):
                cat = "gpu_memcpy"
            if name.startswith("Memset") or name.startswith("fillBuffer"):
                cat = "gpu_memset"
            args = {"correlation": corr, "device": 0}
            if stream is not None:
                args["stream"] = stream
            ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0,
                       "tid": stream if stream is not None else 0,
                       "ts": ts + 100 + 20 * k, "dur": 10 + k, "args": args})
    return {"traceEvents": ev}


def capture_trace(windows, parentless_top=False):
    """windows: list of lists of (cpu_op, launch call, args.kernel or None)."""
    ev = [{"ph": "X", "cat": "python_function", "name": "runner.py(9): capture_model",
           "pid": 7, "tid": 7, "ts": 0, "dur": 100000}]
    corr = 1
    for w, launches in enumerate(windows):
        base = 1000 + 10000 * w
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "hipStreamBeginCapture",
                   "pid": 7, "tid": 7, "ts": base, "dur": 5})
        top = {"ph": "X", "cat": "python_function", "name": "nn.Module: Model_0",
               "pid": 7, "tid": 7, "ts": base + 10, "dur": 100 * len(launches) + 10}
        if parentless_top:
            top["tid"] = 8  # alone on its thread: no parent (spec §E.8)
        ev.append(top)
        for i, (op, call, kernel) in enumerate(launches):
            ts = base + 20 + 100 * i
            ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 7,
                       "tid": top["tid"], "ts": ts, "dur": 50,
                       "args": {"Input Dims": [[32, 4 + i], [4 + i, 8]],
                                "Input type": ["float", "float"]}})
            args = {"correlation": corr}
            corr += 1
            if kernel is not None:
                args["kernel"] = kernel
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": call, "pid": 7,
                       "tid": top["tid"], "ts": ts + 10, "dur": 5, "args": args})
        end = base + 100 * len(launches) + 100
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "hipStreamEndCapture",
                   "pid": 7, "tid": 7, "ts": end, "dur": 5})
    return {"traceEvents": ev}


def L(op, kernel, call="hipLaunchKernel", named=True):
    return (op, call, kernel if named else None)


# Two launches, k_a under aten::mm and k_b under aten::relu.
AB = [L("aten::mm", "k_a"), L("aten::relu", "k_b")]
FULL32 = [{"file": "cap32.json", "batch_size": 32, "mode": "FULL"}]

CASES = {
    # §C.6 code 1: same length, equal names position by position.
    "equal": dict(launches=[[("k_a", 0), ("k_b", 0)]], captures={"cap32.json": [AB]}),
    # §C.6 code 2: an extra capture launch (k_x) is skipped greedily.
    "greedy": dict(launches=[[("k_a", 0), ("k_b", 0)]],
                   captures={"cap32.json": [[L("aten::mm", "k_a"), L("aten::fill_", "k_x"),
                                             L("aten::relu", "k_b")]]}),
    # §C.6 code 3: replay order differs; matched by name and rank.
    "grouped": dict(launches=[[("k_b", 0), ("k_a", 0)]], captures={"cap32.json": [AB]}),
    # §C.6.3: Memcpy/Memset calls match copies and fillBuffer by kind; no
    # kernel names needed on them.
    "copyset": dict(launches=[[("Memcpy DtoD (Device -> Device)", 0), ("fillBuffer", 0), ("k_a", 0)]],
                    captures={"cap32.json": [[L("aten::copy_", None, "hipMemcpyAsync", False),
                                              L("aten::zero_", None, "hipMemsetAsync", False),
                                              L("aten::mm", "k_a")]]}),
    # §C.6.4: two streams, per-stream queues; the stream whose queue matches
    # the longer run takes the launch.
    "multistream": dict(launches=[[("k_a", 0), ("k_a", 1), ("k_b", 1), ("k_c", 0)]],
                        captures={"cap32.json": [[L("op1", "k_a"), L("op2", "k_b"),
                                                  L("op3", "k_a"), L("op4", "k_c")]]}),
    # §E.7: two streams and a capture kernel launch without a kernel name:
    # the whole merge is dropped.
    "multistream-unnamed": dict(launches=[[("k_a", 0), ("k_b", 1)]],
                                captures={"cap32.json": [[L("aten::mm", "k_a"),
                                                          L("aten::relu", "k_b", named=False)]]}),
    # §C.5: one capture window serves every graph launch of the iteration.
    "reuse": dict(launches=[[("k_a", 0), ("k_b", 0)], [("k_a", 0), ("k_b", 0)]],
                  captures={"cap32.json": [AB]}),
    # §C.5 PIECEWISE: n windows for n launches, paired by position; §C.3.4
    # two launches pick PIECEWISE over FULL.
    "piecewise": dict(launches=[[("k_a", 0)], [("k_b", 0)]],
                      details=[{"file": "full.json", "batch_size": 32, "mode": "FULL"},
                               {"file": "piece.json", "batch_size": 32, "mode": "PIECEWISE"}],
                      captures={"full.json": [AB],
                                "piece.json": [[L("aten::mm", "k_a")], [L("aten::relu", "k_b")]]}),
    # §C.3.4: one launch picks FULL when both modes exist.
    "full-over-piecewise": dict(launches=[[("k_a", 0), ("k_b", 0)]],
                                details=[{"file": "full.json", "batch_size": 32, "mode": "FULL"},
                                         {"file": "piece.json", "batch_size": 32, "mode": "PIECEWISE"}],
                                captures={"full.json": [AB],
                                          "piece.json": [[L("aten::mm", "k_a")], [L("aten::relu", "k_b")]]}),
    # §C.3.3: batch 3 (0 + 3) takes the smallest captured size >= 3: 4.
    "closest": dict(batch=3, launches=[[("k_a", 0), ("k_b", 0)]],
                    details=[{"file": "cap2.json", "batch_size": 2, "mode": "FULL"},
                             {"file": "cap8.json", "batch_size": 8, "mode": "FULL"},
                             {"file": "cap4.json", "batch_size": 4, "mode": "FULL"}],
                    captures={"cap2.json": [[L("wrong2", "k_a"), L("wrong2", "k_b")]],
                              "cap4.json": [[L("right4", "k_a"), L("right4", "k_b")]],
                              "cap8.json": [[L("wrong8", "k_a"), L("wrong8", "k_b")]]}),
    # Mismatches: replay has a kernel the capture lacks (code 0).
    "count-mismatch": dict(launches=[[("k_a", 0), ("k_b", 0), ("k_c", 0)]],
                           captures={"cap32.json": [AB]}),
    # Equal lengths, a name differs: grouping fails (code 0).
    "name-mismatch": dict(launches=[[("k_a", 0), ("k_z", 0)]], captures={"cap32.json": [AB]}),
    # Batch 64 is larger than any capture.
    "no-size": dict(batch=64, launches=[[("k_a", 0), ("k_b", 0)]], captures={"cap32.json": [AB]}),
    # The details name a file that is not there.
    "missing-file": dict(launches=[[("k_a", 0), ("k_b", 0)]], captures={}),
    # No iteration annotation covers the graph launch.
    "no-annotation": dict(annotation=False, launches=[[("k_a", 0), ("k_b", 0)]],
                          captures={"cap32.json": [AB]}),
    # Two capture windows for three launches.
    "window-count": dict(launches=[[("k_a", 0)], [("k_b", 0)], [("k_a", 0)]],
                         captures={"cap32.json": [[L("aten::mm", "k_a")], [L("aten::relu", "k_b")]]}),
    # §E.8: a parentless top is not a window top; its launches are missing.
    "parentless-top": dict(launches=[[("k_a", 0), ("k_b", 0)]], captures={"cap32.json": [AB]},
                           parentless=True),
    # A capture trace that is not JSON.
    "bad-capture": dict(launches=[[("k_a", 0), ("k_b", 0)]], captures={"cap32.json": "{not json"}),
    # execution_details.json that is not JSON / not a list.
    "bad-details": dict(launches=[[("k_a", 0), ("k_b", 0)]], details="[{", captures={}),
    "details-not-list": dict(launches=[[("k_a", 0), ("k_b", 0)]], details='{"file": 1}', captures={}),
    # No execution_details.json at all.
    "no-details": dict(launches=[[("k_a", 0), ("k_b", 0)]], details=None, captures={"cap32.json": [AB]}),
    # An entry with an unknown mode is skipped (and said).
    "bad-mode": dict(launches=[[("k_a", 0), ("k_b", 0)]],
                     details=[{"file": "cap32.json", "batch_size": 32, "mode": "decode"}],
                     captures={"cap32.json": [AB]}),
}


def main():
    case, out = sys.argv[1], sys.argv[2]
    c = CASES[case]
    os.makedirs(os.path.join(out, "capture_traces"), exist_ok=True)
    batch = c.get("batch", 32)
    ann = ANN.format(b=batch) if c.get("annotation", True) else None
    with open(os.path.join(out, "graph.json"), "w") as f:
        json.dump(graph_trace(ann, c["launches"]), f)
    details = c.get("details", FULL32)
    path = os.path.join(out, "capture_traces", "execution_details.json")
    if isinstance(details, str):
        with open(path, "w") as f:
            f.write(details)
    elif details is not None:
        with open(path, "w") as f:
            json.dump(details, f, indent=2)
    for name, windows in c["captures"].items():
        with open(os.path.join(out, "capture_traces", name), "w") as f:
            if isinstance(windows, str):
                f.write(windows)
            else:
                json.dump(capture_trace(windows, c.get("parentless", False)), f)


if __name__ == "__main__":
    main()
