#!/usr/bin/env python3
"""Write a tiny eager vLLM-style trace with two vllm::moe_forward ops.

usage: moe_pseudo_case.py OUT.json

The first moe_forward has a TopK child (k = 2) and three triton launches,
each `triton/runtime/jit.py(574): run` -> `<built-in function launch>` ->
hipModuleLaunchKernel: a matmul_ogs GEMM launched first that runs second
(stream 7), a `_swiglu` matmul_ogs GEMM launched second that runs first
(stream 0), and one _finalize_matmul_scatter kernel. The second has no
TopK, one matmul_ogs GEMM and two matmul_scatter kernels. Every event of
spec/tracelens-inference.md §B.3 #2's rule is there once.
"""
import json
import sys

SHAPES = {
    "Input Dims": [[4, 64], [4, 8], [], []],
    "Input type": ["c10::BFloat16", "c10::BFloat16", "", ""],
    "Input Strides": [[64, 1], [8, 1], [], []],
    "Concrete Inputs": ["", "", "", ""],
}


def host(cat, name, ts, dur, args=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
         "ts": ts, "dur": dur}
    if args is not None:
        e["args"] = args
    return e


def kernel(name, corr, ts, dur, stream):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream,
            "ts": ts, "dur": dur,
            "args": {"correlation": corr, "device": 0, "stream": stream}}


OGS = "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1"
SCATTER = "_finalize_matmul_scatter_bf16"
ev = [
    host("python_function", "vllm/runner.py(1): execute_model", 0, 10000),  # 0
    host("cpu_op", "vllm::moe_forward", 100, 1000, dict(SHAPES)),  # 1
    host("cpu_op", "TopK", 110, 50, {                               # 2
        "Input Dims": [[4, 8], [], [], [], [], [], []],
        "Input type": ["c10::BFloat16", "Scalar", "Scalar", "Scalar",
                       "Scalar", "", ""],
        "Concrete Inputs": ["", "2", "True", "1", "True", "", ""]}),
    host("cuda_runtime", "hipLaunchKernel", 120, 10, {"correlation": 1}),  # 3
]
for i, corr in enumerate((2, 3, 4)):  # UIDs 4-6, 7-9, 10-12
    ts = 200 + 100 * i
    ev.append(host("python_function", "triton/runtime/jit.py(574): run", ts, 100))
    ev.append(host("python_function", "<built-in function launch>", ts + 10, 50))
    ev.append(host("cuda_runtime", "hipModuleLaunchKernel", ts + 20, 10,
                   {"correlation": corr}))
ev += [
    kernel("topk_kernel", 1, 1200, 5, 0),          # 13
    kernel(OGS, 2, 2000, 40, 7),                   # 14: down
    kernel(OGS + "_swiglu", 3, 1500, 30, 0),       # 15: up
    kernel(SCATTER, 4, 2500, 6, 0),                # 16: finalize
    host("cpu_op", "vllm::moe_forward", 3000, 1000, dict(SHAPES)),  # 17
    host("python_function", "triton/runtime/jit.py(574): run", 3100, 100),  # 18
    host("python_function", "<built-in function launch>", 3110, 50),  # 19
    host("cuda_runtime", "hipModuleLaunchKernel", 3120, 10, {"correlation": 5}),  # 20
    host("cuda_runtime", "hipLaunchKernel", 3300, 10, {"correlation": 6}),  # 21
    host("cuda_runtime", "hipLaunchKernel", 3400, 10, {"correlation": 7}),  # 22
    kernel(OGS + "_swiglu", 5, 5000, 32, 0),       # 23: up (topk 4)
    kernel(SCATTER, 6, 5100, 6, 0),                # 24
    kernel(SCATTER, 7, 5200, 6, 0),                # 25
]
with open(sys.argv[1], "w") as f:
    json.dump({"traceEvents": ev}, f)
