//===- Memory.cpp - GPU memory findings from the allocator timeline ------===//
//
// System tier (spec memory-timeline.md §5), per GPU device of the
// memory-timeline analysis:
//   MEM-OOM             any [OutOfMemory] event (high)
//   MEM-NEAR-CAPACITY   peak reserved >= 90 % of device memory: memory limits
//                       the batch size (high >= 95 %, else medium)
//   MEM-FRAGMENTATION   reserved-minus-allocated at the peak >= 30 % of the
//                       peak reserved, with peak reserved >= 70 % (low)
//   MEM-GROWTH          allocated memory grows in each of >= 3 steady steps
//                       (the first step is warm-up) by >= 1 % of the peak in
//                       total (medium; a possible leak)
// Thresholds are pass options. Nothing is reported for the CPU allocator.
//
//===----------------------------------------------------------------------===//
#include "MemoryPass.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/MemoryTimeline.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/IR/Trace.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"
#include "tl/Support/NumberFormat.h"

using namespace tl;

namespace {

std::string mib(int64_t B) {
  return printfDouble("%.1f", double(B) / double(1 << 20)) + " MiB";
}

class MemoryPass : public PassBase<MemoryPass> {
public:
  static constexpr llvm::StringLiteral Argument = "memory";
  static constexpr llvm::StringLiteral Description =
      "GPU memory near capacity, fragmentation, growth and OOM from the "
      "allocator's [memory] events (system tier)";
  static constexpr Tier PassTier = Tier::System;
  static constexpr PipelineMembership Pipelines[] = {{"system", 400}};
  static void prefetch(AnalysisPrefetch &P) { P.add<MemoryTimeline>(); }

  Option<double> capacityPct{*this, "capacity-pct",
                             desc("Peak reserved % of device memory that "
                                  "limits the batch size"),
                             init(90.0)};
  Option<double> fragPct{*this, "fragmentation-pct",
                         desc("Reserved-minus-allocated at the peak, % of "
                              "the peak reserved"),
                         init(30.0)};
  Option<double> fragMinReservedPct{
      *this, "fragmentation-min-reserved-pct",
      desc("Only report fragmentation above this peak reserved %"),
      init(70.0)};
  Option<double> growthPct{*this, "growth-pct",
                           desc("Total growth over the steady steps, % of "
                                "the peak"),
                           init(1.0)};

  llvm::Error run(const Trace &T, AnalysisManager &AM,
                  FindingSink &Sink) override {
    const MemoryTimeline &M = AM.get<MemoryTimeline>();
    // Serving traces hold weights and the KV cache, not activations kept
    // for a backward pass: their memory levers differ.
    bool Inference = AM.options().Inference ||
                     AM.get<WorkloadInfo>().value("mode") == "inference";
    for (const MemDevice &D : M.devices()) {
      if (!D.isGpu())
        continue;
      const MemPoint &Pk = D.peak();
      if (D.OomEvents) {
        const MemPoint *First = nullptr;
        for (const MemPoint &P : D.Points)
          if (P.OutOfMemory) {
            First = &P;
            break;
          }
        Sink.system("memory", "Out of memory on " + D.Name + " (" +
                                  std::to_string(D.OomEvents) +
                                  " failed allocations)")
            .key("MEM-OOM " + D.Name)
            .metric("id", "MEM-OOM")
            .metric("device", D.Name)
            .metric("oom_events", D.OomEvents)
            .metric("first_request_bytes", First->Bytes, "B")
            .metric("first_op", First->Owner.Display)
            .event(First->Uid)
            .nonQuantified()
            .severity(Severity::High)
            .action(Inference
                        ? "Lower the batch size or sequence length, or "
                          "free memory before the failing op (a smaller "
                          "KV-cache share, fewer batched tokens, quantized "
                          "weights or KV cache)"
                        : "Lower the batch size or sequence length, or "
                          "free memory before the failing op (activation "
                          "checkpointing, smaller optimizer state)")
            .mechanism("The caching allocator could not reserve the "
                       "requested block")
            .expect("no [OutOfMemory] events");
      }
      auto ResPct = D.peakReservedPct();
      if (ResPct && *ResPct >= capacityPct) {
        Sink.system("memory", "GPU memory limits the batch size on " +
                                  D.Name + ": reserved peak " +
                                  printfDouble("%.1f", *ResPct) +
                                  "% of device memory")
            .key("MEM-NEAR-CAPACITY " + D.Name)
            .metric("id", "MEM-NEAR-CAPACITY")
            .metric("device", D.Name)
            .metric("peak_reserved_pct", *ResPct, "%")
            .metric("peak_reserved_bytes", *D.PeakReserved, "B")
            .metric("peak_allocated_bytes", D.PeakAllocated, "B")
            .metric("device_memory_bytes", *D.DeviceMemory, "B")
            .metric("peak_op", Pk.Owner.Display)
            .event(Pk.Uid)
            .nonQuantified()
            .severity(*ResPct >= 95 ? Severity::High : Severity::Medium)
            .action("Reduce what is live at the peak (" + Pk.Owner.Display +
                    (Inference
                         ? "): quantized weights or KV cache, fewer batched "
                           "tokens per step, or a smaller KV-cache share"
                         : "): activation checkpointing, a smaller "
                           "micro-batch with gradient accumulation, or "
                           "lower-precision activations"))
            .mechanism("The step's peak leaves no headroom for a larger "
                       "batch")
            .expect("a lower reserved peak");
      }
      if (D.CachedAtPeak && D.PeakReserved && *D.PeakReserved > 0 && ResPct) {
        double Frag = double(*D.CachedAtPeak) / double(*D.PeakReserved) * 100;
        if (Frag >= fragPct && *ResPct >= fragMinReservedPct)
          Sink.system("memory", "Allocator fragmentation on " + D.Name +
                                    ": " + mib(*D.CachedAtPeak) +
                                    " reserved but unused at the peak (" +
                                    printfDouble("%.1f", Frag) + "%)")
              .key("MEM-FRAGMENTATION " + D.Name)
              .metric("id", "MEM-FRAGMENTATION")
              .metric("device", D.Name)
              .metric("cached_at_peak_bytes", *D.CachedAtPeak, "B")
              .metric("cached_at_peak_pct_of_reserved", Frag, "%")
              .metric("peak_reserved_pct", *ResPct, "%")
              .nonQuantified()
              .severity(Severity::Low)
              .action("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                      "(or reuse buffers of equal size)")
              .mechanism("Cached free blocks that do not fit new requests "
                         "hold device memory")
              .expect("reserved closer to allocated at the peak");
      }
      // Growth in every steady step (the first is warm-up).
      if (D.Steps.size() >= 4) {
        bool Every = true;
        int64_t Total = 0;
        for (size_t I = 1; I < D.Steps.size(); ++I) {
          Every &= D.Steps[I].growth() > 0;
          Total += D.Steps[I].growth();
        }
        if (Every && D.PeakAllocated > 0 &&
            double(Total) / double(D.PeakAllocated) * 100 >= growthPct)
          Sink.system("memory", "Allocated memory grows every step on " +
                                    D.Name + " (" + mib(Total) + " over " +
                                    std::to_string(D.Steps.size() - 1) +
                                    " steps)")
              .key("MEM-GROWTH " + D.Name)
              .metric("id", "MEM-GROWTH")
              .metric("device", D.Name)
              .metric("growth_bytes", Total, "B")
              .metric("steps", int64_t(D.Steps.size() - 1))
              .nonQuantified()
              .severity(Severity::Medium)
              .action(Inference
                          ? "Look for tensors kept across iterations "
                            "(outputs or logits kept per request, caches "
                            "growing past their preallocated size)"
                          : "Look for tensors kept across iterations "
                            "(losses accumulated with their graph, growing "
                            "caches)")
              .mechanism("Memory not released at the end of a step")
              .expect("zero growth per steady step");
      }
    }
    return llvm::Error::success();
  }
};

} // namespace

void tl::registerMemoryPass(PassRegistry &R) { R.registerPass<MemoryPass>(); }
