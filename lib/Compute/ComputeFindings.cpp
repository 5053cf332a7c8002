//===- ComputeFindings.cpp - P-item findings of a compute category --------===//
//
// One finding per category_findings[] group (tracelens-analysis §5.8), with
// the metric names the report relies on (docs/ReportFormat.md), a data
// table of its member operations, the identification rationale and a
// resolution chosen from the evidence.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeFindings.h"

#include "tl/Analysis/CopyRating.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/IR/Trace.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/KernelName.h"
#include "tl/Support/PyFormat.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace tl::compute {

namespace {

std::string fixed(double V, int N) {
  std::string S;
  raw_string_ostream(S) << format(("%." + Twine(N) + "f").str().c_str(), V);
  return S;
}

/// Σ member time_ms and the time-weighted efficiency of a group.
struct GroupFacts {
  double TimeMs = 0, PctTotal = 0;
  std::optional<double> WeightedEff, MinEff, MaxEff;
  std::optional<double> MinFpb, MaxFpb;
};

GroupFacts factsOf(const CategoryResult &R, const CategoryFinding &F) {
  GroupFacts G;
  double EffT = 0, T = 0;
  for (const ImpactEstimate &E : F.Members) {
    const OpRecord &Op = R.Ops[E.Op];
    G.TimeMs += E.TimeMs;
    G.PctTotal += Op.PercentOfTotal.value_or(0);
    if (E.EfficiencyPct) {
      EffT += *E.EfficiencyPct * E.TimeMs;
      T += E.TimeMs;
      G.MinEff = G.MinEff ? std::min(*G.MinEff, *E.EfficiencyPct)
                          : *E.EfficiencyPct;
      G.MaxEff = G.MaxEff ? std::max(*G.MaxEff, *E.EfficiencyPct)
                          : *E.EfficiencyPct;
    }
    if (Op.Eff.FlopsPerByte) {
      double V = *Op.Eff.FlopsPerByte;
      G.MinFpb = G.MinFpb ? std::min(*G.MinFpb, V) : V;
      G.MaxFpb = G.MaxFpb ? std::max(*G.MaxFpb, V) : V;
    }
  }
  G.TimeMs = pyRound(G.TimeMs, 3);
  G.PctTotal = pyRound(G.PctTotal, 2);
  if (T > 0)
    G.WeightedEff = pyRound(EffT / T, 2);
  return G;
}

/// An evidence cell: the number, or an empty string for "not known".
/// Out of line: GCC 12 reports a false maybe-uninitialized on the variant
/// when this is inlined into a conditional expression.
[[gnu::noinline]] Value cellOf(const std::optional<double> &V) {
  Value Out = std::string();
  if (V)
    Out = *V;
  return Out;
}

/// A heuristic group whose first op has a perf model and a compute spec but
/// no efficiency: the arch has no peak for that spec (e.g. Inductor's
/// `vector_bfloat16`), not a missing model. Returns the spec.
std::optional<std::string> missingPeakSpec(const CategoryResult &R,
                                           const CategoryFinding &F) {
  if (F.Quantified || F.Members.empty())
    return std::nullopt;
  const OpRecord &Op = R.Ops[F.Members.front().Op];
  if (Op.Eff.ComputeSpec.empty() || Op.Eff.IsAnomaly ||
      Op.Eff.EfficiencyPercent ||
      (!Op.Eff.TbsAchieved && !Op.Eff.TflopsAchieved))
    return std::nullopt;
  return Op.Eff.ComputeSpec;
}

std::string title(const CategoryResult &R, const CategoryFinding &F) {
  if (std::optional<std::string> Spec = missingPeakSpec(R, F))
    return "Unquantified " + R.Display + " op " +
           shortKernelName(F.Members.front().Operation) + ": no " + *Spec +
           " peak in the arch";
  // Titles name the op in short form; the evidence keeps the full name.
  if (!F.Quantified)
    return "Unmodelled " + R.Display + " op " +
           shortKernelName(F.Members.front().Operation) +
           " without a performance model";
  std::string Bound = F.BoundType;
  if (!Bound.empty())
    Bound[0] = toUpper(Bound[0]);
  if (F.EffBucket == "all") // comparative scope: the gap is to trace 2
    return Bound + "-bound " + R.Display +
           " kernels slower than the reference trace (" + F.Library + ")";
  return Bound + "-bound " + R.Display + " kernels at " + F.EffBucket +
         "% of roofline (" + F.Library + ")";
}

/// The GPU events whose time a perf-table row sums: each instance's
/// subtree, or for a synthetic op (one kernel of its launching event) the
/// subtree's kernels of the row's kernel names.
std::vector<uint32_t> gpuEventsOf(const Trace &T, const UnifiedPerfRow &U) {
  std::vector<uint32_t> Out;
  std::set<std::string> Names;
  if (U.IsSynthetic)
    for (const KernelStat &K : U.KernelDetails)
      Names.insert(K.Name);
  for (EventId I : U.Instances)
    for (EventId G : T.subtreeGpuEvents(I))
      if (!U.IsSynthetic || Names.count(T.name(G).str()))
        Out.push_back(G);
  return Out;
}

/// Ops without a performance model that take a visible share of the run
/// but sit in no finding of their category (a fusion candidate holds them,
/// or their heuristic group is below min-impact): named in one finding so
/// they are not silently dropped. Not estimated: their fix is elsewhere.
void emitUnestimated(const CategoryResult &R, const Trace *T,
                     FindingSink &Sink) {
  std::set<size_t> InFinding;
  for (const CategoryFinding &F : R.Findings)
    for (const ImpactEstimate &E : F.Members)
      InFinding.insert(E.Op);
  std::vector<size_t> Named;
  double Ms = 0, Pct = 0;
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const OpRecord &Op = R.Ops[I];
    if (InFinding.count(I) || Op.Eff.EfficiencyPercent ||
        !Op.Eff.ComputeSpec.empty() || isCopyOnlyOp(R, Op) ||
        Op.PercentOfTotal.value_or(0) < UnestimatedPct)
      continue;
    Named.push_back(I);
    Ms += Op.TimeMs;
    Pct += *Op.PercentOfTotal;
  }
  if (Named.empty())
    return;
  const OpRecord &First = R.Ops[Named.front()];
  std::string Title =
      Named.size() == 1
          ? "Unmodelled " + R.Display + " op " + shortKernelName(First.Name) +
                " (" + fixed(*First.PercentOfTotal, 1) +
                "% of end-to-end time) outside every estimate"
          : std::to_string(Named.size()) + " unmodelled " + R.Display +
                " ops (" + fixed(Pct, 1) +
                "% of end-to-end time) outside every estimate";
  FindingBuilder B = Sink.compute(R.Display, Title);
  B.key("unestimated|" + R.Key)
      .onlyIn(ReportFace::Tl)
      .categoryKey(R.Key)
      .members(static_cast<int64_t>(Named.size()))
      .time(pyRound(Ms, 3))
      .share(pyRound(Pct, 2))
      .nonQuantified("not estimated")
      .severity(Pct >= 5 ? Severity::Medium : Severity::Low);
  EvidenceTable Tab;
  Tab.Title = "Data";
  Tab.Columns = {"op", "args", "time_ms", "pct_e2e", "count", "kernel",
                 "held_by"};
  std::string Why;
  raw_string_ostream OS(Why);
  OS << "No performance model gives the efficiency of ";
  for (size_t N = 0; N < Named.size(); ++N) {
    const OpRecord &Op = R.Ops[Named[N]];
    Tab.Rows.push_back(
        {Value(Op.Name), Value(Op.Args.value_or("")), Value(Op.TimeMs),
         cellOf(Op.PercentOfTotal), Value(Op.Count), Value(Op.KernelName),
         Value(Op.FusionCandidate.empty()
                   ? std::string("no finding (below min-impact)")
                   : "fusion candidate " + Op.FusionCandidate)});
    B.op(Op.Name);
    if (T)
      if (const UnifiedPerfRow *U = R.In->typedRow(Op.Row))
        B.events(gpuEventsOf(*T, *U));
    OS << (N ? ", " : "") << Op.Name << " (" << fixed(Op.TimeMs, 3)
       << " ms, " << fixed(*Op.PercentOfTotal, 2) << "%"
       << (Op.FusionCandidate.empty()
               ? std::string()
               : ", inside fusion candidate " + Op.FusionCandidate)
       << ")";
  }
  OS << "; the report does not estimate a saving for "
     << (Named.size() == 1 ? "it" : "them") << ".";
  B.evidence(std::move(Tab)).note(Why);
  B.action("Add a performance model for these ops (record shapes with "
           "record_shapes=True) so their gap to roofline can be measured; "
           "where a fusion candidate holds them, its card is the fix.")
      .mechanism("performance model")
      .expect("a quantified efficiency for these ops");
}

} // namespace

bool isCopyOnlyOp(const CategoryResult &R, const OpRecord &Op) {
  std::vector<std::string> Kernels =
      kernelNamesOf(R.row(Op).text("kernel_details_summary"));
  if (Kernels.empty()) {
    SmallVector<StringRef, 4> Parts;
    StringRef(Op.KernelName).split(Parts, "<br>", -1, false);
    for (StringRef P : Parts)
      Kernels.push_back(P.trim().str());
  }
  return !Kernels.empty() && all_of(Kernels, [](const std::string &K) {
    return isCopyOrSetName(K);
  });
}

Resolution defaultResolution(const CategoryResult &R,
                             const CategoryFinding &F) {
  if (std::optional<std::string> Spec = missingPeakSpec(R, F))
    return {"Give the arch a " + *Spec + " peak (an arch file passed with "
                "--arch=<file>) so the roofline of " +
                F.Members.front().Operation +
                " can be computed; its FLOPs and bytes are already "
                "modelled.",
            "arch peak for the compute spec",
            "a quantified efficiency for this op"};
  if (!F.Quantified)
    return {"Add a performance model for " + F.Members.front().Operation +
                " (record shapes with record_shapes=True) so its gap to "
                "roofline can be measured; until then profile its dominant "
                "kernel with hardware counters and generate a reproducer for "
                "the kernel team.",
            "performance model", "a quantified efficiency for this op"};
  if (F.BoundType == "compute")
    return {"Tune tile sizes and occupancy for these shapes (try the "
            "library's autotuned variants) and narrow the precision if the "
            "model tolerates it.",
            "tile/occupancy tuning", "higher TFLOP/s at the same shapes"};
  if (F.BoundType == "memory")
    return {"Cut the bytes these kernels move: fuse the producer/consumer "
            "chain into one kernel (see Kernel Fusion Opportunities) and batch "
            "high-count launches into fewer, larger kernels.",
            "fused kernel", "higher achieved TB/s and fewer launches"};
  return {"Profile the dominant kernel with hardware counters and generate a "
          "reproducer for the kernel team.",
          "kernel profiling", "an identified bottleneck"};
}

void emitFindings(const CategoryResult &R, const AnalyzerHooks &H,
                  const Trace *T, FindingSink &Sink) {
  emitGroups(R, R.Findings, H, T, Sink, "");
}

/// Same members, same grouping: one finding serves both faces.
static bool sameGroup(const CategoryFinding &A, const CategoryFinding &B) {
  if (A.Quantified != B.Quantified || A.BoundType != B.BoundType ||
      A.Library != B.Library || A.EffBucket != B.EffBucket ||
      A.Rank != B.Rank || A.Members.size() != B.Members.size())
    return false;
  for (size_t I = 0; I < A.Members.size(); ++I)
    if (A.Members[I].Op != B.Members[I].Op)
      return false;
  return true;
}

void emitGroups(const CategoryResult &R, ArrayRef<CategoryFinding> Groups,
                const AnalyzerHooks &H, const Trace *T, FindingSink &Sink,
                StringRef Face) {
  for (const CategoryFinding &F : Groups) {
    GroupFacts G = factsOf(R, F);
    FindingBuilder B = Sink.compute(R.Display, title(R, F));
    B.key((F.Quantified ? F.BoundType + "|" + F.Library + "|" + F.EffBucket
                        : "heuristic|" + F.Members.front().Operation) +
          (Face.empty() ? "" : "|" + Face.str()));
    if (!Face.empty())
      B.onlyIn(Face == "tl" ? ReportFace::Tl : ReportFace::Reference);
    // The reference's metrics files list the score without a unit.
    B.score(F.Low, F.Mid, F.High, /*Unit=*/"")
        .estimateMethod(F.Quantified ? "quantified" : "heuristic")
        .boundType(F.BoundType)
        .library(F.Library)
        .effBucket(F.EffBucket)
        .members(static_cast<int64_t>(F.Members.size()))
        .rank(static_cast<int64_t>(F.Rank))
        .categoryKey(R.Key)
        .time(G.TimeMs)
        .share(F.PercentOfTotal ? *F.PercentOfTotal : G.PctTotal);
    if (G.WeightedEff)
      B.efficiency(*G.WeightedEff);
    if (F.Quantified)
      B.impact(F.Low, F.Mid, F.High, "quantified");
    else
      B.nonQuantified("heuristic");
    B.severity(F.Mid >= 5 ? Severity::High
               : F.Mid >= 1 ? Severity::Medium
                            : Severity::Low);

    EvidenceTable Tab;
    Tab.Title = "Data";
    // The full kernel name(s) of each op: titles and the canonical table
    // show short or truncated forms.
    Tab.Columns = {"op",        "args",  "time_ms",    "pct_e2e",
                   "count",     "flops_per_byte", "efficiency_pct",
                   "bound",     "kernel"};
    std::set<std::string> Ops;
    for (const ImpactEstimate &E : F.Members) {
      const OpRecord &Op = R.Ops[E.Op];
      Tab.Rows.push_back(
          {Value(Op.Name), Value(Op.Args.value_or("")), Value(Op.TimeMs),
           cellOf(Op.PercentOfTotal), Value(Op.Count),
           cellOf(Op.Eff.FlopsPerByte), cellOf(Op.Eff.EfficiencyPercent),
           Value(Op.Eff.BoundType.empty() ? std::string("unmodeled")
                                          : Op.Eff.BoundType),
           Value(Op.KernelName)});
      if (Ops.insert(Op.Name).second)
        B.op(Op.Name);
      if (!Op.KernelName.empty() && !StringRef(Op.KernelName).contains("<br>"))
        B.kernel(Op.KernelName);
      if (T)
        if (const UnifiedPerfRow *U = R.In->typedRow(Op.Row)) {
          if (!U->Instances.empty())
            B.event(T->uid(U->Instances.front()));
          B.events(gpuEventsOf(*T, *U));
        }
    }
    B.evidence(std::move(Tab));

    // Identification rationale: the numbers that put the group here.
    std::string Why;
    raw_string_ostream OS(Why);
    OS << "Identification: " << F.Members.size() << " " << R.Display
       << " operation(s) take " << fixed(G.TimeMs, 3) << " ms ("
       << fixed(F.PercentOfTotal ? *F.PercentOfTotal : G.PctTotal, 2)
       << "% of end-to-end GPU time). ";
    if (F.Quantified) {
      OS << "Their perf models put them " << F.BoundType << "-bound";
      if (G.MinEff && G.MaxEff)
        OS << " at " << fixed(*G.MinEff, 2) << "-" << fixed(*G.MaxEff, 2)
           << "% of roofline (time-weighted " << fixed(*G.WeightedEff, 2)
           << "%)";
      if (G.MinFpb && G.MaxFpb)
        OS << ", arithmetic intensity " << fixed(*G.MinFpb, 2) << "-"
           << fixed(*G.MaxFpb, 2) << " FLOPS/byte";
      OS << "; library " << F.Library << ". Closing the gap to 75-100% of "
         << "roofline saves " << fixed(F.Low, 2) << "-" << fixed(F.High, 2)
         << "% of end-to-end time.";
    } else {
      OS << "No performance model gives their efficiency, so the estimate "
            "is 15-45% of their share: "
         << fixed(F.Low, 2) << "-" << fixed(F.High, 2)
         << "% of end-to-end time.";
    }
    B.note(Why);
    // Members a fusion candidate also holds: the two savings overlap.
    std::set<std::string> Fused;
    double FusedMs = 0;
    for (const ImpactEstimate &E : F.Members)
      if (!R.Ops[E.Op].FusionCandidate.empty()) {
        Fused.insert(R.Ops[E.Op].FusionCandidate);
        FusedMs += E.TimeMs;
      }
    if (!Fused.empty()) {
      B.metric("fusion_overlap_ms", pyRound(FusedMs, 3), "ms");
      B.note(fixed(FusedMs, 3) + " ms of this group is also inside the fusion "
             "candidate(s) " + join(Fused, ", ") + ": fusing them replaces "
             "these kernels, so the two savings overlap and do not add up.");
    }
    Resolution Res = H.Resolve ? H.Resolve(R, F) : defaultResolution(R, F);
    B.action(Res.Action).mechanism(Res.Mechanism).expect(Res.Expected);
  }
}

void runCategories(const ComputeInput &In, ArrayRef<std::string> Keys,
                   const AnalyzerHooks &H, const Trace *T, FindingSink &Sink) {
  for (const auto &[Key, Display] : In.categories()) {
    if (!is_contained(Keys, Key))
      continue;
    CategoryResult R = analyzeCategory(In, Key, Display, H);
    // The report writes category_data/<Key>_metrics.json from it.
    Sink.categoryMetrics(Key, R.metricsValue());
    // tl's own findings: a copy or set is limited by its link (the
    // multi-kernel pass rates it there), not by HBM, so ops whose kernels
    // are all copies / sets leave the roofline groups. The metrics file
    // above keeps the reference's groups.
    std::vector<CategoryFinding> RefGroups = R.Findings;
    double FusedPct = 0;
    for (const OpRecord &Op : R.Ops)
      if (!Op.FusionCandidate.empty())
        FusedPct += Op.PercentOfTotal.value_or(0);
    bool KeepFused = H.KeepFusedPct >= 0 && FusedPct > 0 &&
                     FusedPct >= H.KeepFusedPct;
    if (KeepFused || any_of(R.Ops, [&](const OpRecord &Op) {
          return isCopyOnlyOp(R, Op);
        })) {
      std::vector<ImpactEstimate> Est = R.Estimates;
      if (KeepFused) {
        std::vector<OpRecord> Ops = R.Ops;
        for (OpRecord &Op : Ops)
          Op.FusionCandidate.clear();
        Est = estimateImpact(Ops, R.Key, In.e2eMs(), In.comparative());
      }
      std::vector<ImpactEstimate> Kept;
      for (const ImpactEstimate &E : Est)
        if (!isCopyOnlyOp(R, R.Ops[E.Op]))
          Kept.push_back(E);
      R.Findings = groupFindings(Kept, In.comparative(), H.MinImpact);
    }
    // Groups both faces share are emitted once; the others carry their
    // face (priority_data.json keeps the reference's groups).
    std::vector<CategoryFinding> Both, TlOnly, RefOnly;
    for (const CategoryFinding &F : R.Findings)
      (any_of(RefGroups,
              [&](const CategoryFinding &G) { return sameGroup(F, G); })
           ? Both
           : TlOnly)
          .push_back(F);
    for (const CategoryFinding &G : RefGroups)
      if (none_of(R.Findings,
                  [&](const CategoryFinding &F) { return sameGroup(F, G); }))
        RefOnly.push_back(G);
    emitGroups(R, Both, H, T, Sink, "");
    emitGroups(R, TlOnly, H, T, Sink, "tl");
    emitGroups(R, RefOnly, H, T, Sink, "reference");
    emitUnestimated(R, T, Sink);
  }
  if (!H.NoDataMessage)
    return;
  for (const std::string &Key : Keys)
    if (none_of(In.categories(),
                [&](const auto &C) { return C.first == Key; }))
      Sink.categoryMetrics(
          Key, noDataMetrics(Key, H.NoDataMessage(Key), In.comparative()));
}

} // namespace tl::compute
