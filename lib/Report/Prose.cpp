//===- Prose.cpp - Deterministic, evidence-citing report prose ------------===//
//
// Templates follow the rules the reference gives its LLM agents (§11.3):
// actions by bound type, vendor-agnostic vocabulary, no claims the trace
// cannot support (occupancy, cache hit rates, ...). A pass's own
// recommendation (Finding::Rec) always wins over the template.
//
//===----------------------------------------------------------------------===//
#include "Prose.h"
#include "ReportUtil.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace tl {

std::string proseHook(StringRef Id, StringRef Field, StringRef Text) {
  return ("<!-- tl-prose finding=" + Id + " field=" + Field + " -->" + Text +
          "<!-- /tl-prose -->")
      .str();
}

namespace {

std::string pct(double V) { return readablePct(V); }

std::string impactRange(const PItem &P) {
  if (!P.scored() || !P.Low || !P.High)
    return "";
  // Prose precision; the markers and tables carry the scores themselves.
  return fixed(*P.Low, 1) + "–" + readablePct(*P.High) +
         " of end-to-end GPU time";
}

/// Numbers the sentence can cite, when the pass attached them.
struct Facts {
  std::optional<double> TimeMs, PctTotal, Eff, Members, FlopsPerByte;
  std::string Bound, Library, Bucket;
  explicit Facts(const Finding &F) {
    const FindingFacts &Fa = F.Facts;
    TimeMs = Fa.TimeMs;
    PctTotal = Fa.PercentOfTotal;
    Eff = Fa.EfficiencyPct;
    Members = asDouble(Fa.MemberCount);
    FlopsPerByte = Fa.FlopsPerByte;
    Bound = Fa.BoundType;
    Library = Fa.Library;
    Bucket = Fa.EffBucket;
  }
};

std::string computeAction(const PItem &P, const Facts &X, StringRef Cat) {
  bool Sdpa = StringRef(P.CategoryKey).starts_with("sdpa") ||
              P.CategoryKey == "inferenceattention";
  if (P.isHeuristic())
    return "Add or enable a performance model for these operations (shapes "
           "recorded with record_shapes=True) so their gap to roofline can be "
           "measured; until then, profile the dominant kernel with hardware "
           "counters before tuning it.";
  if (X.Bound == "compute") {
    if (Sdpa)
      return "Use the attention backend's tuned kernel for these shapes "
             "(flash/memory-efficient path, larger head-dim tiles); check "
             "grouped-query attention is used when the model allows it.";
    return "Tune tile sizes for these shapes in the vendor GEMM library (or "
           "try its autotuned variants), and use a narrower precision if the "
           "model tolerates it.";
  }
  if (X.Bound == "memory") {
    if (Cat == "gemm")
      return "Batch the small GEMMs into fewer, larger calls (grouped or "
             "batched GEMM) so each kernel moves more data per launch.";
    return "Reduce the bytes these kernels move: fuse the producer/consumer "
           "chain (see Kernel Fusion Opportunities) and batch high-count "
           "launches into fewer kernels.";
  }
  return "Profile the dominant kernel with hardware counters and generate a "
         "reproducer for the kernel team.";
}

} // namespace

Prose writeProse(const PItem &P, const ReportModel &M) {
  const Finding &F = *P.F;
  Facts X(F);
  Prose R;
  std::string Cat = M.displayName(P.CategoryKey);
  R.Title = F.Title.empty() ? Cat + " finding" : F.Title;
  // The card appends " (<library>)" itself, and omits it for Unknown (§9
  // item 4): drop the suffix when a pass already wrote it into its title.
  const std::string &Lib = F.Facts.Library;
  if (!Lib.empty()) {
    std::string Suffix = " (" + Lib + ")";
    if (StringRef(R.Title).ends_with(Suffix) && R.Title.size() > Suffix.size())
      R.Title.resize(R.Title.size() - Suffix.size());
  }
  std::string Range = impactRange(P);

  // Insight: one or two sentences with the key numbers, readable (ms in
  // prose precision, shares with one decimal); the exact values are in the
  // metrics table.
  std::string Ins;
  switch (F.T) {
  case Tier::Compute: {
    std::string Who =
        X.Members ? Twine(static_cast<int64_t>(*X.Members)).str() + " " + Cat +
                        (*X.Members == 1 ? " operation" : " operations")
                  : Cat + " operations";
    bool One = X.Members && *X.Members == 1;
    Ins = Who;
    if (X.TimeMs)
      Ins += (One ? " takes " : " take ") + readableMs(*X.TimeMs);
    if (X.PctTotal)
      Ins += " (" + readablePct(*X.PctTotal) + " of end-to-end time)";
    // Comparative scope (bucket "all"): efficiency is 100*T2/T1, the speed
    // relative to the reference trace, not a roofline share (§5.3).
    if (X.Eff)
      Ins += (One ? " and reaches " : " and reach ") + readablePct(*X.Eff) +
             (X.Bucket == "all" ? " of the reference trace's speed"
              : One             ? " of its roofline"
                                : " of their roofline");
    if (!X.Bound.empty() && X.Bound != "unmodeled")
      Ins += ", " + X.Bound + "-bound";
    Ins += ".";
    if (P.isHeuristic())
      Ins += One ? " No performance model covers it, so the estimate is a "
                   "share of its GPU time."
                 : " No performance model covers them, so the estimate is a "
                   "share of their GPU time.";
    break;
  }
  case Tier::Fusion: {
    std::optional<double> K = asDouble(F.Facts.KernelCount);
    std::optional<double> I = asDouble(F.Facts.InstanceCount);
    Ins = "A recurring sequence of " +
          (K ? Twine(static_cast<int64_t>(*K)).str() + " kernels"
             : std::string("kernels")) +
          " could run as one kernel";
    if (I)
      Ins += "; it occurs " + Twine(static_cast<int64_t>(*I)).str() +
             (*I == 1 ? " time" : " times");
    if (X.TimeMs)
      Ins += (I ? " and takes " : "; it takes ") + readableMs(*X.TimeMs) +
             " of kernel time";
    Ins += ".";
    break;
  }
  case Tier::System:
    // Passes write their own sentences; without them, the title (the
    // numbers are in the metrics table).
    Ins = F.Title + ".";
    break;
  }
  if (!Range.empty())
    Ins += (F.T == Tier::Fusion   ? " Fusing it would save "
            : F.T == Tier::System ? " Removing it would save "
            : P.isHeuristic()     ? " The estimated saving is "
                                  : " Closing the gap to roofline would save ") +
           Range + ".";
  R.Insight = Ins;
  // The pass's own words win over the template.
  if (!F.Insight.empty()) {
    R.Insight = F.Insight;
    if (!StringRef(R.Insight).ends_with("."))
      R.Insight += ".";
  }

  // Action: the pass's recommendation, else the template.
  if (!F.Rec.Action.empty())
    R.Action = F.Rec.Action;
  else if (F.T == Tier::Compute)
    R.Action = computeAction(P, X, P.CategoryKey);
  else if (F.T == Tier::Fusion)
    R.Action = "Fuse the sequence into one kernel (a compiler such as "
               "torch.compile, or an existing fused operator) so the "
               "intermediates stay on chip.";
  else
    R.Action = "Profile with hardware counters and the host timeline to find "
               "what the GPU waits on.";
  if (!F.Rec.Mechanism.empty())
    R.Action += " Mechanism: " + F.Rec.Mechanism;
  if (!StringRef(R.Action).ends_with("."))
    R.Action += ".";

  R.Expected = !F.Rec.Expected.empty()
                   ? F.Rec.Expected
                   : (F.T == Tier::System
                          ? "less idle or exposed time on the GPU timeline"
                          : "lower kernel time for the listed operations");

  // The card appends the source (markdown) after escaping this.
  R.Identification = R.Insight;
  if (F.T == Tier::Compute) {
    if (P.isHeuristic())
      R.Reasoning = "The trace has no FLOP/byte model for these operations, so "
                    "their distance from the hardware limit cannot be "
                    "measured; their share of GPU time alone makes them worth "
                    "a look.";
    else if (X.Bound == "memory")
      R.Reasoning = "These kernels are limited by memory bandwidth" +
                    (X.Eff ? " yet reach only " + pct(*X.Eff) +
                                 " of peak HBM bandwidth"
                           : std::string()) +
                    "; small or poorly shaped transfers and many short "
                    "launches keep them from streaming at full rate.";
    else if (X.Bound == "compute")
      R.Reasoning = "These kernels are limited by math throughput" +
                    (X.Eff ? " yet reach only " + pct(*X.Eff) +
                                 " of peak TFLOPS"
                           : std::string()) +
                    "; the shapes may not fill the GPU's tiles.";
    else
      R.Reasoning = "The trace shows the time but not the cause; hardware "
                    "counters are needed to say more.";
  } else if (F.T == Tier::System) {
    R.Reasoning = "The GPU timeline shows time in which the GPU is not doing "
                  "useful computation; the metrics above measure how much.";
  }
  R.Resolution = R.Action + " Expected: " + R.Expected + ".";
  return R;
}

std::string executiveSummaryProse(const ReportModel &M) {
  const Utilization &U = M.utilization();
  if (!U.Available)
    return "The trace has no GPU activity on its timeline, so no time "
           "breakdown can be computed.";
  std::string S = "The profiled window spans " + readableMs(U.TotalMs) +
                  " of GPU time: " + readablePct(U.ComputationPct) +
                  " computation, " + readablePct(U.IdlePct) + " idle and " +
                  readablePct(U.ExposedCommPct) + " exposed communication.";
  if (const CategoryInfo *C = M.topBottleneck())
    S += " The top bottleneck category is " + C->DisplayName + ", with " +
         readableMs(C->GpuKernelTimeMs) + " of kernel time.";
  size_t N = M.items(Tier::Compute).size() + M.items(Tier::Fusion).size() +
             M.items(Tier::System).size();
  S += " The analysis found " + std::to_string(N) +
       " optimization item(s), ranked by estimated impact below.";
  if (U.IdlePct > 15)
    S += " Idle time above 15% points at host-side overhead first.";
  return S;
}

} // namespace tl
