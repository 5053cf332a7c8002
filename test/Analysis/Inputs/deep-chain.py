# A chain of D aten::add cpu_ops nested on one thread (op i inside op i-1),
# each launching one kernel k<i> of 4 µs starting at 200000 + STEP * i on
# stream 7: STEP 10 (default) leaves gaps, STEP 2 overlaps every kernel with
# the next. Usage: deep-chain.py D [STEP] > trace.json
import json
import sys

D = int(sys.argv[1])
STEP = int(sys.argv[2]) if len(sys.argv) > 2 else 10
ARGS = {"Input Dims": [[1024], [1024], []],
        "Input type": ["float", "float", "Scalar"],
        "Input Strides": [[1], [1], []],
        "Concrete Inputs": ["", "", "1"]}
ev = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0,
       "args": {"name": "python3"}},
      {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1,
       "args": {"name": "main"}}]
for i in range(D):
    # Op i spans [10 i, 100000 - 10 i], its launch [10 i + 1, 10 i + 3].
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1,
               "tid": 1, "ts": 10 * i, "dur": 100000 - 20 * i,
               "args": dict(ARGS, **{"External id": i + 1})})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": 10 * i + 1, "dur": 2,
               "args": {"correlation": i + 1, "External id": i + 1}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%03d" % i, "pid": 0,
               "tid": 7, "ts": 200000 + STEP * i, "dur": 4,
               "args": {"correlation": i + 1, "stream": 7, "device": 0}})
    ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": i + 1,
               "pid": 1, "tid": 1, "ts": 10 * i + 1})
    ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": i + 1,
               "pid": 0, "tid": 7, "ts": 200000 + STEP * i, "bp": "e"})
json.dump({"traceEvents": ev}, sys.stdout)
