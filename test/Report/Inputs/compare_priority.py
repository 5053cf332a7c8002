"""Compare the ranked P-items of two priority_data.json files.

usage: compare_priority.py <ours/priority_data.json> <reference/priority_data.json>

The P-items are findings[] in order; each is compared on category,
estimate_method and impact_score_low / impact_score / impact_score_high
(within 0.005, the validator's tolerance). Prints one line per mismatch and
a summary "priority: ref=<N> ours=<M> matched=<K>: OK|MISMATCH". Exit 1 on
any mismatch. Deliberate deviations (docs/ReportFormat.md) concern
priorities/recommendations, not findings[], so none is allowed here.
"""
import json
import sys


def items(path):
    with open(path) as f:
        data = json.load(f)
    out = []
    for f_ in data.get("findings", []):
        if f_.get("impact_score") is None:
            continue  # tl lists unscored findings last; the reference has none
        out.append((f_.get("category"), f_.get("estimate_method"),
                    f_.get("impact_score_low"), f_.get("impact_score"),
                    f_.get("impact_score_high")))
    return out


def main():
    ours, ref = items(sys.argv[1]), items(sys.argv[2])
    matched = 0
    for i in range(max(len(ours), len(ref))):
        a = ours[i] if i < len(ours) else None
        b = ref[i] if i < len(ref) else None
        ok = (a is not None and b is not None and a[:2] == b[:2]
              and all(abs(x - y) <= 0.005 for x, y in zip(a[2:], b[2:])))
        if ok:
            matched += 1
        else:
            print("P%d: ours=%s ref=%s" % (i + 1, a, b))
    good = matched == len(ref) == len(ours)
    print("priority: ref=%d ours=%d matched=%d: %s"
          % (len(ref), len(ours), matched, "OK" if good else "MISMATCH"))
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
