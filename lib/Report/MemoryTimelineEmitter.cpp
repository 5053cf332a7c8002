//===- MemoryTimelineEmitter.cpp - memory_timeline.json and memory.svg ----===//
//
// Spec memory-timeline.md §5 as one JSON file: per device the summary
// (memory_devices columns), what is live at the peak, the per-step values,
// the allocations paired by address and the curve (one point per event);
// each row on one line. memory.svg (Charts/MemoryChart.cpp) draws the
// curves of every GPU device and marks the peak with what is live at it.
//
//===----------------------------------------------------------------------===//
#include "Charts.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/MemoryTimeline.h"
#include "tl/IR/Trace.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace tl {

namespace {

void optInt(json::OStream &J, StringRef K, std::optional<int64_t> V) {
  if (V)
    J.attribute(K, *V);
  else
    J.attribute(K, nullptr);
}
void optNum(json::OStream &J, StringRef K, std::optional<double> V) {
  if (V)
    jsonNumAttr(J, K, *V);
  else
    J.attribute(K, nullptr);
}

std::string opName(const Trace &T, EventId E) {
  return E == NoEvent ? "(no op)" : T.name(E).str();
}

/// One-line JSON rows of an array attribute, `"Key": [\n rows \n]`.
template <typename Range, typename Fn>
void rows(raw_ostream &OS, StringRef Key, const Range &R, Fn &&Row,
          bool Last = false) {
  OS << "     \"" << Key << "\": [\n";
  size_t N = std::size(R), I = 0;
  for (const auto &X : R) {
    OS << "       ";
    json::OStream J(OS);
    J.object([&] { Row(J, X); });
    OS << (++I < N ? ",\n" : "\n");
  }
  OS << "     ]" << (Last ? "" : ",") << "\n";
}

void writeDevice(raw_ostream &OS, const Trace &T, const MemDevice &D) {
  const MemPoint &Pk = D.peak();
  OS << "    {\"device\": ";
  {
    json::OStream J(OS);
    J.object([&] {
      J.attribute("device", D.Name);
      J.attribute("events", int64_t(D.Points.size()));
      J.attribute("relative", D.Relative);
      optInt(J, "baseline_bytes", D.Baseline);
      J.attribute("peak_allocated_bytes", D.PeakAllocated);
      jsonNumAttr(J, "peak_ts_us", Pk.Ts);
      J.attribute("peak_event_bytes", Pk.Bytes);
      J.attribute("peak_op", Pk.Owner.Display);
      J.attribute("peak_top_op", opName(T, Pk.Owner.TopOp));
      J.attribute("peak_step", Pk.Owner.Step);
      if (!Pk.Owner.Module.empty())
        J.attribute("peak_module", Pk.Owner.Module);
      optInt(J, "peak_reserved_bytes", D.PeakReserved);
      optNum(J, "peak_reserved_ts_us",
             D.PeakReserved ? std::optional<double>(D.PeakReservedTs)
                            : std::nullopt);
      J.attribute("final_allocated_bytes", D.FinalAllocated);
      optInt(J, "net_change_bytes",
             D.Baseline ? std::optional<int64_t>(D.FinalAllocated - *D.Baseline)
                        : std::nullopt);
      optInt(J, "cached_at_peak_bytes", D.CachedAtPeak);
      optInt(J, "device_memory_bytes", D.DeviceMemory);
      optNum(J, "peak_allocated_pct", D.peakAllocatedPct());
      optNum(J, "peak_reserved_pct", D.peakReservedPct());
      J.attribute("reserve_growth_events", int64_t(D.ReserveGrowthEvents));
      J.attribute("unmatched_frees", int64_t(D.UnmatchedFrees));
      J.attribute("open_at_end", int64_t(D.OpenAtEnd));
      J.attribute("release_unknown", int64_t(D.ReleaseUnknown));
      J.attribute("consistency_violations",
                  int64_t(D.ConsistencyViolations));
      J.attribute("oom_events", int64_t(D.OomEvents));
      J.attribute("file_order_was_ts_order", D.FileOrderWasTsOrder);
    });
  }
  OS << ",\n";
  rows(OS, "live_at_peak", D.LiveAtPeak,
       [&](json::OStream &J, const MemLiveOwner &O) {
         J.attribute("owner_kind", O.Kind);
         J.attribute("owner", O.Owner);
         J.attribute("live_bytes", O.Bytes);
         jsonNumAttr(J, "pct_of_peak",
                     D.PeakAllocated ? double(O.Bytes) / D.PeakAllocated * 100
                                     : 0);
       });
  rows(OS, "steps", D.Steps, [&](json::OStream &J, const MemStepStats &S) {
    J.attribute("step", S.Step);
    J.attribute("alloc_at_start", S.AllocAtStart);
    J.attribute("alloc_at_end", S.AllocAtEnd);
    J.attribute("growth", S.growth());
    J.attribute("peak_in_step", S.PeakInStep);
    optInt(J, "reserved_at_start", S.ReservedAtStart);
    optInt(J, "reserved_at_end", S.ReservedAtEnd);
    optInt(J, "reserved_growth",
           S.ReservedAtStart && S.ReservedAtEnd
               ? std::optional<int64_t>(*S.ReservedAtEnd - *S.ReservedAtStart)
               : std::nullopt);
    J.attribute("allocs", int64_t(S.Allocs));
    J.attribute("frees", int64_t(S.Frees));
    J.attribute("alloc_bytes", S.AllocBytes);
    J.attribute("free_bytes", S.FreeBytes);
    J.attribute("reserve_growth_events", int64_t(S.ReserveGrowthEvents));
  });
  rows(OS, "allocations", D.Allocations,
       [&](json::OStream &J, const MemAllocation &A) {
         const MemOwnerInfo &O = D.Points[A.AllocPoint].Owner;
         J.attribute("addr", A.Addr);
         J.attribute("bytes", A.Bytes);
         jsonNumAttr(J, "alloc_ts_us", A.AllocTs);
         optNum(J, "free_ts_us", A.FreeTs);
         optNum(J, "lifetime_us",
                A.FreeTs ? std::optional<double>(*A.FreeTs - A.AllocTs)
                         : std::nullopt);
         J.attribute("release_unknown", A.ReleaseUnknown);
         J.attribute("op", O.Display);
         J.attribute("top_op", opName(T, O.TopOp));
         J.attribute("step", O.Step);
       });
  rows(
      OS, "curve", D.Points,
      [&](json::OStream &J, const MemPoint &P) {
        jsonNumAttr(J, "ts_us", P.Ts);
        J.attribute("uid", int64_t(P.Uid));
        J.attribute("bytes", P.Bytes);
        J.attribute("allocated_bytes", P.Allocated);
        optInt(J, "reserved_bytes", P.Reserved);
        J.attribute("op", P.Owner.Display);
        J.attribute("top_op", opName(T, P.Owner.TopOp));
        J.attribute("step", P.Owner.Step);
        if (P.OutOfMemory)
          J.attribute("out_of_memory", true);
      },
      /*Last=*/true);
  OS << "    }";
}

class MemoryTimelineEmitter : public Emitter {
public:
  StringRef name() const override { return "memory-timeline"; }
  bool needsPassResults() const override { return false; }
  Error emit(const ReportContext &Ctx) override {
    const MemoryTimeline &M = Ctx.AM.get<MemoryTimeline>();
    if (Error E = writeFileAtomically(
            Ctx.OutputDir, "memory_timeline.json", [&](raw_ostream &OS) {
              OS << "{\"schema_version\": 1,\n \"skipped_events\": "
                 << M.skipped() << ",\n \"devices\": [\n";
              ArrayRef<MemDevice> Ds = M.devices();
              for (size_t I = 0; I < Ds.size(); ++I) {
                writeDevice(OS, Ctx.T, Ds[I]);
                OS << (I + 1 < Ds.size() ? ",\n" : "\n");
              }
              OS << " ]}\n";
            }))
      return E;
    if (!hasMemoryChart(Ctx))
      return Error::success();
    return writeFileAtomically(
        Ctx.OutputDir, "memory.svg", [&](raw_ostream &OS) {
          renderMemorySvg(OS, Ctx, chartSubject(Ctx) + " — GPU Memory");
        });
  }
};

} // namespace

std::unique_ptr<Emitter> createMemoryTimelineEmitter() {
  return std::make_unique<MemoryTimelineEmitter>();
}

} // namespace tl
