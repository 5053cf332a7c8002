//===- MultiKernel.cpp - Memcpy, collective and sync findings -------------===//
//
// System tier (tracelens-analysis §6.8, seed multi-kernel-analyzer.md):
// hands the report the multi_kernel metrics (reference schema, our
// additions under "tl_extensions") and the multi-kernel data, which it
// writes as category_data/multi_kernel_metrics.json and
// multi_kernel_data.json, then emits
// findings only through the seed's gates: memcpy per direction, blocking,
// overlap, synchronization; blocking and overlap merge when both call for
// overlapping collectives with compute.
//
//===----------------------------------------------------------------------===//
#include "MultiKernelPass.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ArchSpec.h"
#include "tl/Analysis/CopyRating.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/MultiKernelData.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace tl;
using llvm::StringRef;

namespace {

std::optional<int64_t> optStream(std::optional<int64_t> S) { return S; }
Value streamCell(std::optional<int64_t> S) {
  return S ? Value(*S) : Value(std::string("-"));
}

/// achieved_gbps / link_gbps / link_pct of a rated copy set, when known.
void addRateMetrics(FindingBuilder &B, const CopyRating &R) {
  if (R.AchievedGBps)
    B.metric("achieved_gbps", pyRound(*R.AchievedGBps, 3), "GB/s");
  if (R.LinkGBps > 0)
    B.metric("link_gbps", R.LinkGBps, "GB/s")
        .metric("link_name", llvm::StringRef(R.LinkName));
  if (R.LinkPct)
    B.metric("link_pct", pyRound(*R.LinkPct, 2), "%");
}

struct MemcpyIssue {
  CopyDir Dir;
  uint64_t Count;
  double TimeMs, Pct, AvgBytes;
  bool ByTime, ByCount;
  std::string Description;
};

class MultiKernelPass : public PassBase<MultiKernelPass> {
public:
  static constexpr llvm::StringLiteral Argument = "multi-kernel";
  static constexpr llvm::StringLiteral Description =
      "Memcpy directions, collective communication blocking/overlap and "
      "synchronization barriers (system tier)";
  static constexpr Tier PassTier = Tier::System;
  static constexpr Capability RequiredCapabilities[] = {
      Capability::GpuTimeline};
  static constexpr PipelineMembership Pipelines[] = {{"system", 300}};
  static constexpr llvm::StringLiteral SkillName = "multi-kernel-analyzer";
  static void prefetch(AnalysisPrefetch &P) { P.add<MultiKernelData>(); }

  Option<double> memcpyPct{*this, "memcpy-pct",
                           desc("Flag a D2H/H2D direction above this % of "
                                "end-to-end time"),
                           init(5.0)};
  Option<unsigned> memcpyCount{*this, "memcpy-count",
                               desc("Flag a D2H/H2D direction with more "
                                    "transfers than this"),
                               init(10u)};
  Option<double> exposedCommPct{*this, "exposed-comm-pct",
                                desc("Blocking gate: exposed communication "
                                     "above this % of E2E"),
                                init(5.0)};
  Option<double> overlapTarget{*this, "overlap-target",
                               desc("Overlap gate: flag a compute/comm "
                                    "overlap ratio below this"),
                               init(0.7)};
  Option<double> overlapMinCommUs{*this, "overlap-min-comm-us",
                                  desc("Overlap needs at least this much "
                                       "communication (µs)"),
                                  init(100.0)};
  Option<double> crossValidationPct{*this, "cross-validation-pct",
                                    desc("Tolerance of the check against "
                                         "the GPU timeline (%)"),
                                    init(2.0)};
  Option<double> syncIdlePct{*this, "sync-idle-pct",
                             desc("Synchronization gate: GPU idle inside "
                                  "synchronize calls above this % of E2E"),
                             init(1.0)};
  Option<std::string> mode{*this, "mode",
                           desc("Wording of the overlap advice (auto: "
                                "from the trace)"),
                           init(std::string("auto")),
                           values({"auto", "training", "inference"})};
  Option<unsigned> topSites{*this, "top-sites",
                            desc("Rows in evidence tables"), init(10u)};

  llvm::Error run(const Trace &T, AnalysisManager &AM,
                  FindingSink &Sink) override;

private:
  bool training(AnalysisManager &AM) const {
    if (mode.getValue() != "auto")
      return mode.getValue() == "training";
    // The inference report layout (--mode, or serving evidence) is a
    // serving trace whatever the workload fact says.
    if (AM.options().Inference)
      return false;
    return AM.get<WorkloadInfo>().value("mode") != "inference";
  }
};

llvm::Error MultiKernelPass::run(const Trace &T, AnalysisManager &AM,
                                 FindingSink &Sink) {
  const MultiKernelData &D = AM.get<MultiKernelData>();
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  const GpuTimeline &O = D.overlap();
  // total_time_ms: the gpu_timeline total (fallback: the all-events span).
  double TotalMs = TL.hasGpuEvents() ? TL.totalTime() / 1000
                                     : O.totalTime() / 1000;
  double CommUs = O.totalCommTime();
  double ExposedPct =
      O.totalTime() > 0 ? pyRound(O.exposedCommTime() / O.totalTime() * 100, 2)
                        : 0;
  std::optional<double> Ratio;
  if (O.hasGpuEvents() && CommUs > 0)
    Ratio = pyRound(1 - O.exposedCommTime() / CommUs, 4);

  // --- memcpy gate (D2H/H2D only, as the reference) ---
  std::vector<MemcpyIssue> Issues;
  for (CopyDir Dir : {CopyDir::D2H, CopyDir::H2D}) {
    const MemcpyDirStats &S = D.dir(Dir);
    if (!S.Count || TotalMs <= 0)
      continue;
    double Ms = pyRound(S.TotalUs, 2) / 1000;
    double Pct = Ms / TotalMs * 100;
    bool ByTime = Pct > memcpyPct, ByCount = S.Count > memcpyCount;
    if (!ByTime && !ByCount)
      continue;
    MemcpyIssue I{Dir, S.Count, Ms, Pct,
                  S.AnyBytes ? pyRound(double(S.TotalBytes) / S.Count, 2) : 0,
                  ByTime, ByCount, ""};
    I.Description =
        (copyDirName(Dir) + " memcpy: " + std::to_string(S.Count) +
         " transfers, " + printfDouble("%.3f", pyRound(Ms, 3)) + "ms (" +
         printfDouble("%.2f", pyRound(Pct, 2)) + "% of total)")
            .str();
    Issues.push_back(std::move(I));
  }
  bool Blocking = CommUs > 0 && ExposedPct > exposedCommPct;
  bool OverlapChecked = Ratio && CommUs >= overlapMinCommUs;
  bool Overlap = OverlapChecked && *Ratio < overlapTarget;
  std::string BlockDesc = "Exposed (non-overlapped) communication: " +
                          printfDouble("%.1f", ExposedPct) +
                          "% of total GPU time";
  std::string OverlapDesc =
      Ratio ? "Compute/communication overlap: " +
                  printfDouble("%.1f", pyRound(*Ratio * 100, 2)) +
                  "% (target > " + printfDouble("%.0f", overlapTarget * 100) +
                  "%)"
            : "";

  // Synchronization: calls during which the GPU went idle (barrier-like).
  double SyncIdle = 0, SyncHost = 0;
  unsigned Barriers = 0;
  for (const SyncCall &S : D.syncCalls()) {
    SyncHost += S.HostUs;
    if (S.GpuIdleUs > 0) {
      ++Barriers;
      SyncIdle += S.GpuIdleUs;
    }
  }
  double SyncIdlePctV = TL.totalTime() > 0 ? SyncIdle / TL.totalTime() * 100
                                           : 0;
  bool SyncGate = Barriers > 0 && SyncIdlePctV > syncIdlePct;

  // --- metrics document (reference schema), written by the report ---
  using Items = std::vector<std::pair<std::string, PyValue>>;
  auto R = [](double V) { return PyValue::real(V); };
  auto Int = [](int64_t V) { return PyValue::integer(V); };
  auto Str = [](llvm::StringRef V) { return PyValue::str(V); };
  auto Flag = [](bool V) { return PyValue::boolean(V); };
  auto Stream = [](std::optional<int64_t> S) {
    return S ? PyValue::integer(*S) : PyValue::none();
  };
  Items ByDir;
  for (unsigned I = 0; I < NumCopyDirs; ++I) {
    const MemcpyDirStats &S = D.dir(static_cast<CopyDir>(I));
    if (!S.Count)
      continue;
    ByDir.push_back({copyDirName(static_cast<CopyDir>(I)).str(),
                     memcpyDirDoc(S, R(0.0))});
  }
  Items MemcpyAssess;
  if (TotalMs <= 0) {
    MemcpyAssess = {{"flagged", Flag(false)},
                    {"details", Str("No timeline data available")}};
  } else {
    std::vector<PyValue> IssueDocs;
    for (const MemcpyIssue &I : Issues)
      IssueDocs.push_back(
          PyValue::dict({{"direction", Str(copyDirName(I.Dir))},
                         {"count", Int(static_cast<int64_t>(I.Count))},
                         {"time_ms", R(pyRound(I.TimeMs, 3))},
                         {"percent_of_total", R(pyRound(I.Pct, 2))},
                         {"avg_bytes", R(I.AvgBytes)},
                         {"description", Str(I.Description)}}));
    MemcpyAssess = {
        {"flagged", Flag(!Issues.empty())},
        {"total_count", Int(static_cast<int64_t>(D.memcpyCount()))},
        {"total_time_ms", R(pyRound(D.memcpyTotalUs() / 1000, 3))},
        {"percent_of_total",
         R(pyRound(D.memcpyTotalUs() / 1000 / TotalMs * 100, 2))},
        {"issues", PyValue::list(std::move(IssueDocs))}};
  }
  Items BlockAssess;
  if (CommUs <= 0)
    BlockAssess = {{"flagged", Flag(false)},
                   {"details", Str("No communication events detected")}};
  else
    BlockAssess = {
        {"flagged", Flag(Blocking)},
        {"exposed_comm_time_ms",
         R(pyRound(pyRound(O.exposedCommTime(), 2) / 1000, 3))},
        {"total_comm_time_ms", R(pyRound(pyRound(CommUs, 2) / 1000, 3))},
        {"exposed_percent_of_total", R(ExposedPct)},
        {"description", Str(BlockDesc)}};
  Items OverlapAssess;
  if (!Ratio || pyRound(CommUs, 2) < overlapMinCommUs)
    OverlapAssess = {
        {"flagged", Flag(false)},
        {"details",
         Str("Insufficient communication data for overlap analysis")}};
  else
    OverlapAssess = {
        {"flagged", Flag(Overlap)},
        {"overlap_ratio", R(*Ratio)},
        {"overlap_percent", R(pyRound(*Ratio * 100, 2))},
        {"target_percent",
         Int(static_cast<int64_t>(pyRoundInt(overlapTarget * 100)))},
        {"description", Str(OverlapDesc)}};
  std::vector<PyValue> Patterns;
  auto Pattern = [&](llvm::StringRef Name, llvm::StringRef Desc) {
    Patterns.push_back(
        PyValue::dict({{"pattern", Str(Name)}, {"description", Str(Desc)}}));
  };
  for (const MemcpyIssue &I : Issues)
    Pattern(I.Dir == CopyDir::D2H ? "high_d2h_memcpy" : "high_h2d_memcpy",
            I.Description);
  if (Blocking)
    Pattern("nccl_blocking_compute", BlockDesc);
  if (Overlap)
    Pattern("poor_comm_compute_overlap", OverlapDesc);

  // Cross-validation against the (linked) GPU timeline.
  struct Check {
    const char *Metric;
    double Mk, Tl;
  };
  std::vector<Check> Checks;
  if (O.hasGpuEvents())
    Checks = {{"Computation time", pyRound(O.computationTime(), 2) / 1000,
               TL.computationTime() / 1000},
              {"Exposed communication time",
               pyRound(O.exposedCommTime(), 2) / 1000,
               TL.exposedCommTime() / 1000},
              {"Exposed memcpy time", pyRound(O.exposedMemcpyTime(), 2) / 1000,
               TL.exposedMemcpyTime() / 1000},
              {"Total GPU time", pyRound(O.totalTime(), 2) / 1000,
               TL.totalTime() / 1000}};
  std::vector<PyValue> CheckDocs, Warnings;
  bool Warn = false;
  for (const Check &C : Checks) {
    if (C.Mk == 0 && C.Tl == 0) {
      CheckDocs.push_back(PyValue::dict({{"metric", Str(C.Metric)},
                                         {"status", Str("PASS")},
                                         {"mk_ms", Int(0)},
                                         {"tl_ms", Int(0)},
                                         {"diff_ms", Int(0)}}));
      continue;
    }
    double Diff = std::abs(C.Mk - C.Tl);
    double Pct = Diff / std::max({C.Mk, C.Tl, 1e-6}) * 100;
    bool W = Pct > crossValidationPct;
    CheckDocs.push_back(PyValue::dict({{"metric", Str(C.Metric)},
                                       {"mk_ms", R(pyRound(C.Mk, 3))},
                                       {"tl_ms", R(pyRound(C.Tl, 3))},
                                       {"diff_ms", R(pyRound(Diff, 3))},
                                       {"diff_pct", R(pyRound(Pct, 2))},
                                       {"status", Str(W ? "WARN" : "PASS")}}));
    if (W) {
      Warn = true;
      Warnings.push_back(Str(std::string(C.Metric) + ": multi_kernel_data=" +
                             printfDouble("%.3f", C.Mk) +
                             "ms vs gpu_timeline=" +
                             printfDouble("%.3f", C.Tl) + "ms (diff " +
                             printfDouble("%.1f", Pct) + "%)"));
    }
  }

  // Ours: attribution, per-stream collectives, synchronization.
  std::vector<PyValue> SiteDocs, StreamDocs, SyncDocs;
  for (const TransferSite &S : D.transferSites())
    SiteDocs.push_back(
        PyValue::dict({{"direction", Str(copyDirName(S.Dir))},
                       {"cpu_op", Str(S.CpuOp)},
                       {"python_call", Str(S.PyCall)},
                       {"python_frame", Str(S.PyFrame)},
                       {"module", Str(S.Module)},
                       {"host_memory", Str(S.HostMemory)},
                       {"count", Int(static_cast<int64_t>(S.Count))},
                       {"total_time_us", R(pyRound(S.TotalUs, 3))},
                       {"bytes", Int(S.Bytes)}}));
  for (const CommStreamStats &S : D.commStreams())
    StreamDocs.push_back(
        PyValue::dict({{"stream", Stream(S.Stream)},
                       {"count", Int(static_cast<int64_t>(S.Count))},
                       {"total_time_us", R(pyRound(S.TotalUs, 3))}}));
  for (const SyncCall &S : D.syncCalls())
    SyncDocs.push_back(
        PyValue::dict({{"name", Str(T.name(S.E))},
                       {"kind", Str(S.Kind)},
                       {"uid", Int(static_cast<int64_t>(T.uid(S.E)))},
                       {"host_time_us", R(pyRound(S.HostUs, 3))},
                       {"gpu_idle_us", R(pyRound(S.GpuIdleUs, 3))},
                       {"cpu_op", Str(S.CpuOp)},
                       {"python_frame", Str(S.PyFrame)}}));

  Items Doc = {
      {"status", Str("SUCCESS")},
      {"total_time_ms", R(pyRound(TotalMs, 3))},
      {"memcpy_summary",
       PyValue::dict({{"total_count", Int(static_cast<int64_t>(D.memcpyCount()))},
                      {"total_time_ms", R(pyRound(D.memcpyTotalUs() / 1000, 3))},
                      {"by_direction", PyValue::dict(std::move(ByDir))}})},
      {"nccl_summary",
       PyValue::dict(
           {{"total_count", Int(static_cast<int64_t>(D.commEvents().size()))},
            {"total_time_ms", R(pyRound(pyRound(D.commTotalUs(), 2) / 1000, 3))},
            {"top_ops", D.topCollectivesDoc(T)}})},
      // Same block as multi_kernel_data.json.
      {"overlap_analysis", D.overlapAnalysis()},
      {"memcpy_assessment", PyValue::dict(std::move(MemcpyAssess))},
      {"nccl_blocking_assessment", PyValue::dict(std::move(BlockAssess))},
      {"overlap_assessment", PyValue::dict(std::move(OverlapAssess))},
      {"patterns_detected", PyValue::list(std::move(Patterns))},
      {"cross_validation",
       PyValue::dict({{"checks", PyValue::list(std::move(CheckDocs))},
                      {"status", Str(Warn ? "WARN" : "PASS")},
                      {"warnings", PyValue::list(std::move(Warnings))}})},
      {"impact_estimates", PyValue::list({})},
      {"tl_extensions",
       PyValue::dict(
           {// Synchronization gate (the reference has none).
            {"sync_assessment",
             PyValue::dict(
                 {{"flagged", Flag(SyncGate)},
                  {"sync_calls", Int(static_cast<int64_t>(D.syncCalls().size()))},
                  {"barrier_calls", Int(static_cast<int64_t>(Barriers))},
                  {"gpu_idle_ms", R(pyRound(SyncIdle / 1000, 3))},
                  {"percent_of_total", R(pyRound(SyncIdlePctV, 2))}})},
            {"transfer_sites", PyValue::list(std::move(SiteDocs))},
            {"comm_streams", PyValue::list(std::move(StreamDocs))},
            {"sync_calls", PyValue::list(std::move(SyncDocs))}})}};
  // tl's spelling of these two files (UTF-8 names, trailing newline).
  Sink.categoryMetrics("multi_kernel", PyValue::dict(std::move(Doc)),
                       /*TrailingNewline=*/true, JsonSpelling::Tl);
  Sink.multiKernelData(D.toDoc(T));

  // --- findings ---
  const ArchSpec *Arch = AM.options().Arch ? &*AM.options().Arch : nullptr;
  unsigned Top = topSites;
  for (const MemcpyIssue &I : Issues) {
    bool D2H = I.Dir == CopyDir::D2H;
    EvidenceTable Sites;
    Sites.Title = (copyDirName(I.Dir) + " transfers by issuing site").str();
    Sites.Columns = {"cpu_op",   "python_call", "python_frame", "module",
                     "host_memory", "count",    "total_us",     "bytes"};
    const TransferSite *TopSite = nullptr;
    for (const TransferSite &S : D.transferSites()) {
      if (S.Dir != I.Dir)
        continue;
      if (!TopSite)
        TopSite = &S;
      if (Sites.Rows.size() >= Top)
        break;
      Sites.Rows.push_back({S.CpuOp, S.PyCall, S.PyFrame, S.Module,
                            S.HostMemory.empty() ? "not recorded"
                                                 : S.HostMemory,
                            static_cast<int64_t>(S.Count),
                            pyRound(S.TotalUs, 3), S.Bytes});
    }
    std::string Where;
    if (TopSite) {
      std::string Call = TopSite->PyCall.empty() ? TopSite->CpuOp
                                                 : "." + TopSite->PyCall + "()";
      Where = " The largest site is " + Call +
              (TopSite->PyFrame.empty() ? "" : " at " + TopSite->PyFrame) +
              (TopSite->Module.empty() ? "" : " in " + TopSite->Module) + " (" +
              std::to_string(TopSite->Count) + " transfers" +
              (TopSite->HostMemory.empty()
                   ? ""
                   : ", " + TopSite->HostMemory + " host memory") +
              ").";
    }
    // The copies' own time: the report weighs the finding by how much of it
    // lies on the critical path. Their rate is judged against the host
    // link they cross, and the advice follows the cause.
    std::vector<uint32_t> Copies;
    CopyRating Rate;
    for (EventId E : D.memcpyEvents())
      if (copyDirOf(T.name(E)) == I.Dir) {
        Copies.push_back(E);
        Rate.add(T.name(E), T.dur(E), T.bytes(E));
      }
    Rate.finish(CopyLink::Host, Arch);
    // A few bytes read back to the host at a time is a device-side value
    // the host waits for: keeping it on the device is the batching.
    std::string Action = Rate.action();
    if (D2H && Rate.Cause == CopyCause::SmallCopies)
      Action = "Keep the value on the device: replace the per-step host read "
               "(.item()/.cpu()) with a device-side reduction and read the "
               "accumulated result once per logging interval; where several "
               "values are needed, copy them back in one batched transfer.";
    FindingBuilder B =
        Sink.system("memcpy", (copyDirName(I.Dir) + " memory copies: " +
                               std::to_string(I.Count) + " transfers")
                                  .str());
    B.key(("memcpy-" + copyDirName(I.Dir)).str())
        .insight(std::to_string(I.Count) + " " + copyDirName(I.Dir).str() +
                 " copies take " + readableMs(I.TimeMs) + ", " +
                 readablePct(I.Pct) + " of the end-to-end time, and move " +
                 printfDouble("%.1f", I.AvgBytes / 1024) +
                 " KiB each on average, at " + Rate.rateText() + ".")
        .metric("direction", copyDirName(I.Dir))
        .metric("count", static_cast<int64_t>(I.Count))
        .time(pyRound(I.TimeMs, 3))
        .share(pyRound(I.Pct, 2))
        .metric("avg_bytes", I.AvgBytes, "B")
        .metric("flagged_by_count", I.ByCount)
        .metric("flagged_by_time", I.ByTime)
        .metric("link", copyLinkName(Rate.Link))
        .metric("cause", StringRef(Rate.mechanism()));
    addRateMetrics(B, Rate);
    B.evidence(std::move(Sites))
        .events(Copies)
        .nonQuantified()
        .severity(I.ByTime ? Severity::Medium : Severity::Low)
        .action(Action)
        .mechanism(Rate.mechanism())
        .expect(std::string("lower ") + (D2H ? "D2H" : "H2D") +
                " transfer count and host stalls")
        .note(I.Description + "." + Where);
  }

  // Copies between devices or inside one (tl's own findings; the
  // reference's gate looks at D2H/H2D only): flagged by their time.
  for (CopyLink L : {CopyLink::Peer, CopyLink::Device}) {
    CopyRating Rate;
    std::vector<uint32_t> Copies;
    for (EventId E : D.memcpyEvents())
      if (copyLinkOf(T.name(E)) == L) {
        Copies.push_back(E);
        Rate.add(T.name(E), T.dur(E), T.bytes(E));
      }
    Rate.finish(L, Arch);
    double Ms = Rate.TotalUs / 1000;
    double Pct = TotalMs > 0 ? Ms / TotalMs * 100 : 0;
    if (!Rate.Count || Pct <= memcpyPct)
      continue;
    bool Peer = L == CopyLink::Peer;
    std::string What = Peer ? "peer-to-peer" : "device-to-device";
    FindingBuilder B = Sink.system(
        "memcpy", What + " memory copies: " + std::to_string(Rate.Count) +
                      " transfers");
    B.key(Peer ? "memcpy-P2P" : "memcpy-D2D")
        .insight(std::to_string(Rate.Count) + " " + What + " copies take " +
                 readableMs(Ms) + ", " + readablePct(Pct) +
                 " of the end-to-end time, at " + Rate.rateText() + ".")
        .metric("direction", Peer ? "P2P" : "D2D")
        .metric("count", static_cast<int64_t>(Rate.Count))
        .time(pyRound(Ms, 3))
        .share(pyRound(Pct, 2))
        .metric("link", copyLinkName(L))
        .metric("cause", StringRef(Rate.mechanism()));
    if (Rate.AvgBytes)
      B.metric("avg_bytes", pyRound(*Rate.AvgBytes, 2), "B");
    addRateMetrics(B, Rate);
    B.events(Copies)
        .nonQuantified()
        .severity(Severity::Medium)
        .action(Rate.action())
        .mechanism(Rate.mechanism())
        .expect("less copy time");
  }

  if (Blocking || Overlap) {
    bool Train = training(AM);
    // The finding's numbers come from the GPU timeline's window, the one
    // gpu_timeline.csv and the executive summary use, so each quantity has
    // one value in the report; multi_kernel_metrics.json above keeps the
    // reference's all-GPU-events window (the gates too).
    const GpuTimeline &W = TL.hasGpuEvents() ? TL : O;
    double WCommUs = W.totalCommTime();
    double WExposedPct =
        W.totalTime() > 0
            ? pyRound(W.exposedCommTime() / W.totalTime() * 100, 2)
            : 0;
    std::optional<double> WRatio = Ratio;
    if (W.hasGpuEvents() && WCommUs > 0)
      WRatio = pyRound(1 - W.exposedCommTime() / WCommUs, 4);
    EvidenceTable Top10;
    Top10.Title = "Top collectives";
    Top10.Columns = {"kernel", "collective", "stream", "duration_us",
                     "nelems", "dtype"};
    auto C = D.collectives();
    for (size_t I = 0; I < C.size() && I < Top; ++I)
      Top10.Rows.push_back(
          {T.name(C[I].E).str(), C[I].Collective, streamCell(C[I].Stream),
           pyRound(T.dur(C[I].E), 2),
           C[I].Nelems ? Value(*C[I].Nelems) : Value(std::string("-")),
           C[I].DType});
    EvidenceTable Streams;
    Streams.Title = "Communication per stream";
    Streams.Columns = {"stream", "count", "total_us"};
    for (const CommStreamStats &S : D.commStreams())
      Streams.Rows.push_back({streamCell(optStream(S.Stream)),
                              static_cast<int64_t>(S.Count),
                              pyRound(S.TotalUs, 2)});
    EvidenceTable Nums;
    Nums.Title = "Communication time (GPU timeline window)";
    Nums.Columns = {"metric", "value"};
    Nums.Rows = {{"total communication (ms)", pyRound(WCommUs / 1000, 3)},
                 {"exposed communication (ms)",
                  pyRound(W.exposedCommTime() / 1000, 3)},
                 {"exposed % of E2E", WExposedPct},
                 {"overlap ratio", WRatio ? Value(*WRatio) : Value("-")}};
    std::string Action, Mech;
    if (Overlap) {
      // Blocking and overlap prescribe the same mechanism: one card.
      Action = Train ? "Overlap gradient all-reduce with the backward pass: "
                       "launch collectives asynchronously per gradient "
                       "bucket and tune the bucket size so communication "
                       "starts while later layers still compute."
                     : "Run the tensor-parallel collective communication "
                       "on a separate stream and overlap it with the next "
                       "layer's decode compute.";
      Mech = Train ? "gradient bucketing" : "stream split";
    } else {
      Action = Train ? "Fuse the small collectives of each iteration into "
                       "fewer, larger ones (collective fusion / coalescing) "
                       "so less communication sits on the critical path."
                     : "Fuse the per-layer collectives into fewer, larger "
                       "ones (collective fusion) so less communication sits "
                       "on the critical path.";
      Mech = "collective fusion";
    }
    std::string Title =
        Blocking && Overlap
            ? "Collective communication blocks compute (" +
                  printfDouble("%.1f", WExposedPct) + "% exposed, " +
                  printfDouble("%.1f", *WRatio * 100) + "% overlap)"
        : Blocking ? "Collective communication blocks compute (" +
                         printfDouble("%.1f", WExposedPct) + "% exposed)"
                   : "Low compute/communication overlap (" +
                         printfDouble("%.1f", *WRatio * 100) + "%)";
    FindingBuilder B =
        Sink.system("communication", Title)
            .key(Blocking && Overlap ? "comm-blocking-overlap"
                 : Blocking          ? "comm-blocking"
                                     : "comm-overlap")
            .metric("exposed_comm_ms", pyRound(W.exposedCommTime() / 1000, 3),
                    "ms")
            .metric("total_comm_ms", pyRound(WCommUs / 1000, 3), "ms")
            .exposedShare(WExposedPct)
            .metric("blocking_flagged", Blocking)
            .metric("overlap_flagged", Overlap)
            .metric("collective_count",
                    static_cast<int64_t>(D.commEvents().size()))
            .metric("mode", Train ? "training" : "inference")
            .insight("Collectives take " + readableMs(WCommUs / 1000) +
                     " of GPU time, of which " +
                     readableMs(W.exposedCommTime() / 1000) + " (" +
                     readablePct(WExposedPct) +
                     " of the end-to-end time) is not hidden behind "
                     "compute" +
                     (WRatio ? "; " + readablePct(*WRatio * 100) +
                                   " of the communication overlaps it."
                             : std::string(".")))
            .evidence(std::move(Nums))
            .evidence(std::move(Top10))
            .evidence(std::move(Streams))
            .nonQuantified()
            .severity(WExposedPct > 20 ? Severity::High : Severity::Medium)
            .action(Action)
            .mechanism(Mech)
            .expect(Overlap ? "higher overlap ratio and lower exposed "
                              "communication time"
                            : "lower exposed communication time");
    if (WRatio)
      B.metric("overlap_ratio", *WRatio);
    if (Blocking)
      B.note(BlockDesc);
    if (Overlap)
      B.note(OverlapDesc);
  }

  if (SyncGate) {
    EvidenceTable Calls;
    Calls.Title = "Synchronize calls with GPU idle";
    Calls.Columns = {"call", "kind", "uid", "host_us", "gpu_idle_us",
                     "cpu_op", "python_frame"};
    std::vector<const SyncCall *> Sorted;
    for (const SyncCall &S : D.syncCalls())
      if (S.GpuIdleUs > 0)
        Sorted.push_back(&S);
    llvm::stable_sort(Sorted, [](const SyncCall *A, const SyncCall *B) {
      return A->GpuIdleUs > B->GpuIdleUs;
    });
    for (size_t I = 0; I < Sorted.size() && I < Top; ++I) {
      const SyncCall &S = *Sorted[I];
      Calls.Rows.push_back({T.name(S.E).str(), S.Kind,
                            static_cast<int64_t>(T.uid(S.E)),
                            pyRound(S.HostUs, 3), pyRound(S.GpuIdleUs, 3),
                            S.CpuOp, S.PyFrame});
    }
    Sink.system("synchronization",
                std::to_string(Barriers) +
                    " synchronize call(s) stall the GPU pipeline")
        .key("sync-barrier")
        .insight(std::to_string(Barriers) +
                 " synchronize call(s) leave the GPU idle for " +
                 readableMs(SyncIdle / 1000) + " (" +
                 readablePct(SyncIdlePctV) +
                 " of the end-to-end time); the host waits " +
                 readableMs(SyncHost / 1000) + " in them.")
        .metric("sync_calls", static_cast<int64_t>(D.syncCalls().size()))
        .metric("barrier_calls", static_cast<int64_t>(Barriers))
        .metric("sync_host_ms", pyRound(SyncHost / 1000, 3), "ms")
        .metric("sync_gpu_idle_ms", pyRound(SyncIdle / 1000, 3), "ms")
        // Not percent_of_total: this idle time is part of the GPU idle the
        // cpu-idle finding covers, and the global ranking places unscored
        // findings by the time they cover (it would count it twice).
        .metric("idle_share_of_total", pyRound(SyncIdlePctV, 2), "%")
        .evidence(std::move(Calls))
        .note("This GPU idle time lies inside the idle time the GPU-idle "
              "finding reports: it names a cause of that idle, not extra "
              "time.")
        .nonQuantified()
        .severity(SyncIdlePctV > 10 ? Severity::High : Severity::Medium)
        .action("Remove the device-wide synchronize from the step loop and "
                "order dependent work with stream events instead.")
        .mechanism("stream events")
        .expect("lower GPU idle time around synchronize calls");
  }
  return llvm::Error::success();
}

} // namespace

void tl::registerMultiKernelPass(PassRegistry &R) { R.registerPass<MultiKernelPass>(); }
