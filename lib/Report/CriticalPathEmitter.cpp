//===- CriticalPathEmitter.cpp - critical_path.json -----------------------===//
//
// The critical path of every window (spec critical-path.md §6.6 as JSON):
// per window its summary by category (pct of the window) with the CPU-bound
// / GPU-bound / overhead roll-ups, the critical time per top op, and the
// segments in time order with the path nodes they join (for the Perfetto
// export's flows). Every summary row, op and segment is one line, so the
// file reads and greps like the spec's CSVs. critical_path.svg
// (Charts/CriticalPathChart.cpp) draws every window's summary as a bar.
//
//===----------------------------------------------------------------------===//
#include "Charts.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CriticalPath.h"
#include "tl/IR/Trace.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

namespace {

/// `uid` and `name` of an event, or null / Null for NoEvent.
void eventAttrs(json::OStream &J, const Trace &T, StringRef Prefix,
                EventId E, StringRef NoneName) {
  std::string U = (Prefix + "uid").str(), N = (Prefix + "name").str();
  if (E == NoEvent) {
    J.attribute(U, nullptr);
    J.attribute(N, NoneName);
    return;
  }
  J.attribute(U, int64_t(T.uid(E)));
  J.attribute(N, T.name(E));
}

void summaryRows(raw_ostream &OS, const std::array<double, NumCpCategories> &A,
                 double Len, StringRef Indent) {
  auto Row = [&](StringRef Name, double Us, bool Last) {
    OS << Indent;
    json::OStream J(OS);
    J.object([&] {
      J.attribute("category", Name);
      jsonNumAttr(J, "us", Us);
      jsonNumAttr(J, "pct", Len > 0 ? Us / Len * 100 : 0);
    });
    OS << (Last ? "\n" : ",\n");
  };
  double Cpu = 0, Gpu = 0, Over = 0;
  for (unsigned I = 0; I < NumCpCategories; ++I) {
    CpCategory C = CpCategory(I);
    Row(cpCategoryName(C), A[I], false);
    Cpu += isCpuBound(C) ? A[I] : 0;
    Gpu += isGpuBound(C) ? A[I] : 0;
    Over += isCpOverhead(C) ? A[I] : 0;
  }
  Row("cpu_bound", Cpu, false);
  Row("gpu_bound", Gpu, false);
  Row("overhead", Over, true);
}

/// Distinct names of the segments' events, in first-use order: segments
/// refer to them by index (kernel names are long and repeat on every
/// launch; writing them per segment made owlv2's file 8.7 MB).
struct NameTable {
  StringMap<unsigned> Index;
  std::vector<std::string> Names;
  unsigned get(StringRef N) {
    auto [It, New] = Index.try_emplace(N, unsigned(Names.size()));
    if (New)
      Names.push_back(N.str());
    return It->second;
  }
};

void writeWindow(raw_ostream &OS, const Trace &T, const CriticalPath &CP,
                 const CpWindow &W, NameTable &Names) {
  OS << "    {\"window\": ";
  {
    json::OStream J(OS);
    J.object([&] {
      J.attribute("step", W.Step);
      eventAttrs(J, T, "step_", W.StepEvent, "(whole trace)");
      jsonNumAttr(J, "start_us", W.Start);
      jsonNumAttr(J, "end_us", W.End);
      jsonNumAttr(J, "length_us", W.length());
      if (W.StepEvent != NoEvent)
        jsonNumAttr(J, "step_dur_us", T.dur(W.StepEvent));
      J.attribute("reached_start", W.ReachedStart);
    });
  }
  OS << ",\n     \"summary\": [\n";
  summaryRows(OS, W.ByCategory, W.length(), "       ");
  OS << "     ],\n     \"ops\": [\n";
  for (size_t I = 0; I < W.Ops.size(); ++I) {
    const CpOpShare &O = W.Ops[I];
    OS << "       ";
    json::OStream J(OS);
    J.object([&] {
      eventAttrs(J, T, "top_op_", O.TopOp, "(untraced)");
      jsonNumAttr(J, "critical_us", O.CriticalUs);
      jsonNumAttr(J, "op_span_us", O.SpanUs);
      jsonNumAttr(J, "critical_fraction", O.fraction());
    });
    OS << (I + 1 < W.Ops.size() ? ",\n" : "\n");
  }
  OS << "     ],\n     \"segments\": [\n";
  for (size_t I = 0; I < W.Segments.size(); ++I) {
    const CpSegment &S = W.Segments[I];
    OS << "       ";
    json::OStream J(OS);
    J.object([&] {
      J.attribute("seq", int64_t(I));
      jsonNumAttr(J, "start_us", S.Start);
      jsonNumAttr(J, "end_us", S.End);
      jsonNumAttr(J, "dur_us", S.dur());
      J.attribute("edge_kind", cpEdgeKindName(S.Kind));
      J.attribute("category", cpCategoryName(S.Category));
      if (S.Event == NoEvent) {
        J.attribute("uid", nullptr);
        J.attribute("name_idx", int64_t(Names.get(
                                    S.Kind == CpEdgeKind::Start ? "(untraced)"
                                                                : "(thread)")));
      } else {
        J.attribute("uid", int64_t(T.uid(S.Event)));
        J.attribute("name_idx", int64_t(Names.get(T.name(S.Event))));
      }
      // Names of launchers and top ops are in "ops" or by uid in the
      // trace: repeating them per segment doubled the file.
      if (S.Event != NoEvent) {
        EventId L = isGpuKind(T.kind(S.Event)) ? CP.launcher(S.Event) : NoEvent;
        if (L != NoEvent)
          J.attribute("launcher_uid", int64_t(T.uid(L)));
        EventId Top = CP.topOp(S.Event);
        if (Top != NoEvent)
          J.attribute("top_op_uid", int64_t(T.uid(Top)));
      }
      if (S.From != NoEvent) {
        J.attribute("from_uid", int64_t(T.uid(S.From)));
        J.attribute("from_node", S.FromEnd ? "end" : "start");
      }
      J.attribute("to_uid", int64_t(T.uid(S.To)));
      J.attribute("to_node", S.ToEnd ? "end" : "start");
      J.attribute("inferred", S.Inferred);
    });
    OS << (I + 1 < W.Segments.size() ? ",\n" : "\n");
  }
  OS << "     ]}";
}

class CriticalPathEmitter : public Emitter {
public:
  StringRef name() const override { return "critical-path-json"; }
  bool needsPassResults() const override { return false; }
  Error emit(const ReportContext &Ctx) override {
    const CriticalPath &CP = Ctx.AM.get<CriticalPath>();
    if (hasCriticalPathChart(Ctx))
      if (Error E = writeFileAtomically(
              Ctx.OutputDir, "critical_path.svg", [&](raw_ostream &OS) {
                renderCriticalPathSvg(OS, Ctx,
                                      chartSubject(Ctx) + " — Critical Path");
              }))
        return E;
    return writeFileAtomically(
        Ctx.OutputDir, "critical_path.json", [&](raw_ostream &OS) {
          OS << "{\"schema_version\": 1,\n \"cuda_sync_events\": "
             << (CP.hasSyncEvents() ? "true" : "false") << ",\n";
          if (!CP.hasSyncEvents())
            OS << " \"note\": \"no cuda_sync events: cross-stream waits are "
                  "not visible\",\n";
          double Total = 0;
          for (const CpWindow &W : CP.windows())
            Total += W.length();
          OS << " \"total\": [\n";
          summaryRows(OS, CP.totalByCategory(), Total, "   ");
          OS << " ],\n \"windows\": [\n";
          ArrayRef<CpWindow> Ws = CP.windows();
          NameTable Names;
          for (size_t I = 0; I < Ws.size(); ++I) {
            writeWindow(OS, Ctx.T, CP, Ws[I], Names);
            OS << (I + 1 < Ws.size() ? ",\n" : "\n");
          }
          OS << " ],\n \"names\": [\n";
          for (size_t I = 0; I < Names.Names.size(); ++I) {
            OS << "   ";
            json::OStream J(OS);
            J.value(Names.Names[I]);
            OS << (I + 1 < Names.Names.size() ? ",\n" : "\n");
          }
          OS << " ]}\n";
        });
  }
};

} // namespace

std::unique_ptr<Emitter> createCriticalPathEmitter() {
  return std::make_unique<CriticalPathEmitter>();
}

} // namespace tl
