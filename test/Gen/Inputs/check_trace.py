#!/usr/bin/env python3
# Independent checker for tl-gen output: loads the trace (json or json.gz) and
# applies the tree/linking rules of tracelens-perf-report.md §2.2-§2.5 and
# §2.7 in plain Python. Prints one summary line; exit 1 on any violation.
import gzip
import json
import sys
from collections import defaultdict

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    trace = json.load(f)
events = trace["traceEvents"]
GPU = {"kernel", "gpu_memcpy", "gpu_memset"}
RT = {"cuda_runtime", "cuda_driver"}
HOST = {"cpu_op", "cuda_runtime", "cuda_driver", "python_function"}

# §2.2 linking key
key = "External id"
for e in events:
    if e.get("cat") in RT and "launch" in e["name"].lower():
        key = "correlation" if "correlation" in e.get("args", {}) else "External id"
        break

# §2.3 indexes
ac_s, ac_f, ptl = {}, {}, {}
for uid, e in enumerate(events):
    if e.get("cat") == "ac2g":
        (ac_s if e["ph"] == "s" else ac_f)[e["id"]] = e
        continue
    a = e.get("args")
    if a is not None and e.get("pid") is not None and e.get("tid") is not None \
            and a.get(key) is not None:
        ptl[(e["pid"], e["tid"], a[key])] = uid

# §2.4 host stacks (python frames included), counting bleed drops
parent = {}
drops = 0
cands = sorted((uid for uid, e in enumerate(events)
                if e.get("cat") in HOST and e.get("ph") == "X"),
               key=lambda u: events[u]["ts"])
stacks = defaultdict(list)
for uid in cands:
    e = events[uid]
    end = e["ts"] + e["dur"]
    st = stacks[(e["pid"], e["tid"])]
    while st and e["ts"] >= events[st[-1]]["ts"] + events[st[-1]]["dur"]:
        st.pop()
    if st and end > events[st[-1]]["ts"] + events[st[-1]]["dur"]:
        drops += 1
        continue
    if st:
        parent[uid] = st[-1]
    st.append(uid)

# §2.5 runtime -> GPU
linked = set()
for uid, e in enumerate(events):
    if e.get("cat") not in RT:
        continue
    L = e["args"].get(key)
    if L in ac_s and L in ac_f:
        f = ac_f[L]
        g = ptl.get((f["pid"], f["tid"], f["id"]))
        if g is not None and g != uid and events[g].get("cat") in GPU:
            linked.add(g)
            parent[g] = uid

gpu = [u for u, e in enumerate(events) if e.get("cat") in GPU]
kernels = [u for u in gpu if events[u]["cat"] == "kernel"]

# every linked GPU event has a cpu_op launcher (§2.8)
no_launcher = 0
for g in gpu:
    r = parent.get(g)
    p = parent.get(r) if r is not None else None
    while p is not None and events[p].get("cat") == "python_function":
        p = parent.get(p)
    if p is None or events[p].get("cat") != "cpu_op":
        no_launcher += 1

# §2.7 forward/backward pairs
seq = defaultdict(list)
for uid, e in enumerate(events):
    s = e.get("args", {}).get("Sequence number") if isinstance(e.get("args"), dict) else None
    if s is not None:
        seq[s].append(uid)
fwdbwd = 0
for s, us in seq.items():
    b = next((u for u in us if events[u]["name"].startswith(
        "autograd::engine::evaluate_function:")), None)
    if b is None:
        continue
    if any((events[u]["pid"], events[u]["tid"]) != (events[b]["pid"], events[b]["tid"]) for u in us):
        fwdbwd += 1

print(f"events={len(events)} gpu={len(gpu)} kernels={len(kernels)} "
      f"linked={len(linked)} unlinked={len(gpu) - len(linked)} drops={drops} "
      f"no_launcher={no_launcher} fwdbwd_pairs={fwdbwd}")
sys.exit(0 if drops == 0 and len(linked) == len(gpu) and no_launcher == 0 else 1)
