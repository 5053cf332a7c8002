"""Check a job report against tl-gen's truth (--truth of tl-gen -o DIR/):
every injected collective must be in multirank/collectives.csv, complete
(status ok), with the truth's step, first and last rank and arrival skew
(1e-6 us), and nothing else; the straggler tl names (stragglers.csv's
first row, MR-STRAGGLER in multirank/findings.json) must be the injected
one. send/recv pairs (instance <pg>_p2p<seq>_<src>-<dst>) and all_to_allv
carry the expected bytes too, and multirank/all2allv_heatmap.csv must hold
exactly the MiB each rank sent each peer (1e-9). Prints a one-line summary.

usage: check_truth.py OUT TRUTH.json KEY   (KEY: comms_id, seq or order)
"""
import csv
import json
import os
import sys


def main():
    out, truth_path, key = sys.argv[1:4]
    truth = json.load(open(truth_path))
    rows = list(csv.DictReader(open(os.path.join(out, "multirank", "collectives.csv"))))
    errors = []
    # The order keys number a group's instances from 0, Seq from 1.
    by_id = {}
    for r in rows:
        seq = int(r["seq"]) + (1 if key == "order" else 0)
        src = dst = None
        if "_p2p" in r["instance_id"]:
            src, dst = (int(x) for x in r["instance_id"].rsplit("_", 1)[1].split("-"))
        by_id[(r["pg"], seq, src, dst)] = r
    if len(rows) != len(truth["collectives"]):
        errors.append("%d instances, the truth has %d" % (len(rows), len(truth["collectives"])))
    # By order a pair's index counts its (group, sender, receiver) only;
    # the truth's Seq counts the group's point-to-point ops.
    lane_seqs = {}
    for t in truth["collectives"]:
        if "src" in t:
            lane_seqs.setdefault((t["pg"], t["src"], t["dst"]), []).append(t["seq"])
    for t in truth["collectives"]:
        seq = t["seq"]
        if "src" in t and key == "order":
            seq = sorted(lane_seqs[(t["pg"], t["src"], t["dst"])]).index(seq) + 1
        k = (t["pg"], seq, t.get("src"), t.get("dst"))
        r = by_id.get(k)
        if r is None:
            errors.append("%s: not found" % (k,))
            continue
        want = {"status": "ok", "match_key": key, "coll_name": t["coll_name"],
                "step": str(t["step"]), "last_rank": str(t["last_rank"]),
                "first_rank": str(t["first_rank"]),
                "members": ";".join(str(m) for m in t["members"])}
        if "bytes" in t:
            want["bytes"] = str(t["bytes"])
        for col, v in want.items():
            if r[col] != v:
                errors.append("%s: %s is %s, the truth %s" % (k, col, r[col], v))
        if abs(float(r["arrival_skew_us"]) - t["arrival_skew_us"]) > 1e-6:
            errors.append("%s: arrival skew %s, the truth %s" % (k, r["arrival_skew_us"], t["arrival_skew_us"]))
    sent = truth.get("alltoallv_sent_mb", [])
    if sent:
        heat = {(int(h["src"]), int(h["dst"])): float(h["total_sent_MB"]) for h in
                csv.DictReader(open(os.path.join(out, "multirank", "all2allv_heatmap.csv")))}
        if len(heat) != len(sent):
            errors.append("heat-map: %d cells, the truth %d" % (len(heat), len(sent)))
        for s, d, mb in sent:
            if abs(heat.get((s, d), -1) - mb) > 1e-9:
                errors.append("heat-map %d -> %d: %s MiB, the truth %s" % (s, d, heat.get((s, d)), mb))
    strag = list(csv.DictReader(open(os.path.join(out, "multirank", "stragglers.csv"))))
    findings = json.load(open(os.path.join(out, "multirank", "findings.json")))
    named = [f["rank"] for f in findings["findings"] if f["id"] == "MR-STRAGGLER"]
    exp = truth["expected_straggler"]
    if exp is not None:
        if int(strag[0]["rank"]) != exp:
            errors.append("stragglers.csv names rank %s, the truth %d" % (strag[0]["rank"], exp))
        if named != [exp]:
            errors.append("MR-STRAGGLER names %s, the truth rank %d" % (named, exp))
    elif named:
        errors.append("MR-STRAGGLER names %s, none was injected" % named)
    for e in errors:
        print("error: " + e)
    if errors:
        sys.exit(1)
    print("truth: %d collectives, straggler %s: all found" % (len(rows), exp))


main()
