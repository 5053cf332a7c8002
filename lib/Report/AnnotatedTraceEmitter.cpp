//===- AnnotatedTraceEmitter.cpp - trace_annotated.json.gz ----------------===//
//
// The input trace back, for Perfetto or chrome://tracing, with tl's results
// on it: the original traceEvents byte for byte (spliceTraceEvents), then
//  * one thread-scoped instant per (finding, event it points at), on that
//    event's pid/tid at its ts, named after the finding;
//  * a "tl analysis" process (a pid no event uses) with three counter
//    tracks: GPU busy, exposed communication, queue depth (TraceCounters.h);
//  * each step's critical path (CriticalPath.h) as one chain of flow
//    arrows, category "tl.critical_path", from each event the path charges
//    time to to the next one, at the instant the path hands over.
// gzip level 1: the copy of a large trace is what this output costs.
// Opt-in (--annotated-trace): the driver adds it to the emitters.
//
//===----------------------------------------------------------------------===//
#include "TraceCounters.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/CriticalPath.h"
#include "tl/IR/MemoryEvent.h"
#include "tl/IR/Trace.h"
#include "tl/Input/TraceSplice.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"
#include "tl/Support/GzipOStream.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

using namespace llvm;

namespace tl {

namespace {

/// Instant names keep this many bytes of the title (then "...").
constexpr size_t ShortTitleBytes = 60;

/// Shortest text that reads back as D (JSON has no NaN: null).
void writeNumber(raw_ostream &OS, double D) {
  if (!std::isfinite(D)) {
    OS << "null";
    return;
  }
  writeShortest(OS, D);
}

/// The title cut at a UTF-8 character boundary.
std::string shortTitle(StringRef Title) {
  if (Title.size() <= ShortTitleBytes)
    return Title.str();
  size_t N = ShortTitleBytes;
  while (N && (uint8_t(Title[N]) & 0xC0) == 0x80)
    --N;
  return Title.take_front(N).rtrim().str() + "...";
}

/// Where an event a finding points at sits in the trace.
struct Place {
  TrackPart Pid, Tid;
  double Ts = 0;
};

/// The complete event with this uid, else the allocator instant.
std::optional<Place> placeOf(const Trace &T, ArrayRef<MemoryEvent> Mem,
                             uint64_t Uid) {
  EventId E = T.byUid(Uid);
  if (E != NoEvent) {
    const Track &Tr = T.trackInfo(T.track(E));
    return Place{Tr.Pid, Tr.Tid, T.ts(E)};
  }
  // Memory events are in file order, so by increasing uid.
  auto It = std::lower_bound(
      Mem.begin(), Mem.end(), Uid,
      [](const MemoryEvent &M, uint64_t U) { return M.Uid < U; });
  if (It != Mem.end() && It->Uid == Uid)
    return Place{It->Pid, It->Tid, It->Ts};
  return std::nullopt;
}

void writeTrackPart(raw_ostream &OS, const Trace &T, const TrackPart &P) {
  if (P.IsString)
    OS << jsonString(T.strings().get(P.Str));
  else
    OS << P.Int;
}

/// A pid no event of the trace uses: one above the largest integer pid
/// (string pids that read as integers count too).
int64_t freePid(const Trace &T, ArrayRef<MemoryEvent> Mem) {
  int64_t Max = -1;
  auto See = [&](const TrackPart &P) {
    int64_t V;
    if (!P.IsString)
      Max = std::max(Max, P.Int);
    else if (!T.strings().get(P.Str).getAsInteger(10, V))
      Max = std::max(Max, V);
  };
  for (size_t I = 0; I < T.numTracks(); ++I)
    See(T.trackInfo(TrackId(I)).Pid);
  for (const MemoryEvent &M : Mem)
    See(M.Pid);
  return Max < std::numeric_limits<int64_t>::max() ? Max + 1 : 0;
}

class AnnotationWriter {
public:
  AnnotationWriter(raw_ostream &OS, bool NeedComma)
      : OS(OS), NeedComma(NeedComma) {}
  /// Start the next element of the array.
  raw_ostream &next() {
    OS << (NeedComma ? ",\n" : "\n");
    NeedComma = true;
    return OS;
  }

private:
  raw_ostream &OS;
  bool NeedComma;
};

void writeCounter(AnnotationWriter &W, int64_t Pid, StringRef Name,
                  ArrayRef<CounterPoint> Points) {
  for (const CounterPoint &P : Points) {
    raw_ostream &OS = W.next();
    OS << "{\"ph\":\"C\",\"cat\":\"tl\",\"name\":" << jsonString(Name)
       << ",\"pid\":" << Pid << ",\"tid\":0,\"ts\":";
    writeNumber(OS, P.Ts);
    OS << ",\"args\":{\"value\":" << P.Value << "}}";
  }
}

/// One end of a flow arrow: on E's thread at Ts, clamped into E so that
/// the viewer binds it to E's slice ("f" binds to its enclosing slice).
void writeFlowEnd(AnnotationWriter &W, const Trace &T, EventId E, double Ts,
                  char Ph, uint64_t Id, int64_t Step) {
  const Track &Tr = T.trackInfo(T.track(E));
  raw_ostream &O = W.next();
  O << "{\"ph\":\"" << Ph << "\",\"cat\":\"tl.critical_path\","
    << "\"name\":\"critical path\",\"id\":" << Id << ",\"pid\":";
  writeTrackPart(O, T, Tr.Pid);
  O << ",\"tid\":";
  writeTrackPart(O, T, Tr.Tid);
  O << ",\"ts\":";
  writeNumber(O, std::clamp(Ts, T.ts(E), T.ts(E) + T.dur(E)));
  if (Ph == 'f')
    O << ",\"bp\":\"e\"";
  O << ",\"args\":{\"step\":" << Step << "}}";
}

/// Per window, an arrow from each event the path charges time to to the
/// next different one. Each end sits in the middle of a segment charged to
/// its event (clamped into the event): at a hand-over instant the next
/// event has often just begun inside the previous one, and the viewer would
/// bind both ends to the inner slice.
void writeCriticalPathFlows(AnnotationWriter &W, const Trace &T,
                            const CriticalPath &CP) {
  uint64_t Id = 0;
  for (const CpWindow &Win : CP.windows()) {
    EventId Prev = NoEvent;
    double PrevMid = 0;
    for (const CpSegment &S : Win.Segments) {
      if (S.Event == NoEvent)
        continue;
      double Mid = (S.Start + S.End) / 2;
      if (S.Event != Prev && Prev != NoEvent) {
        ++Id;
        writeFlowEnd(W, T, Prev, PrevMid, 's', Id, Win.Step);
        writeFlowEnd(W, T, S.Event, Mid, 'f', Id, Win.Step);
      }
      Prev = S.Event;
      PrevMid = Mid;
    }
  }
}

void writeAnnotations(raw_ostream &OS, bool NeedComma,
                      const ReportContext &Ctx, const ReportModel &M,
                      const TraceCounters &C) {
  const Trace &T = Ctx.T;
  ArrayRef<MemoryEvent> Mem = memoryEvents(T);
  AnnotationWriter W(OS, NeedComma);
  int64_t Pid = freePid(T, Mem);
  W.next() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << Pid
           << ",\"tid\":0,\"args\":{\"name\":\"tl analysis\"}}";

  // Findings in report order (tier, then rank), as findings.json.
  for (Tier Tr : {Tier::Compute, Tier::Fusion, Tier::System})
    for (const PItem &P : M.items(Tr)) {
      const Finding &F = *P.F;
      // (Any uint64_t: a plugin may point at any uid.)
      std::unordered_set<uint64_t> Seen;
      for (const Location &L : F.Locations) {
        if (L.K != Location::Kind::Event || !Seen.insert(L.Uid).second)
          continue;
        std::optional<Place> At = placeOf(T, Mem, L.Uid);
        if (!At)
          continue; // not an event of this trace
        raw_ostream &O = W.next();
        O << "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"tl.finding\",\"name\":"
          << jsonString("P" + std::to_string(P.Rank) + " " +
                        tierName(Tr).str() + ": " + shortTitle(F.Title))
          << ",\"pid\":";
        writeTrackPart(O, T, At->Pid);
        O << ",\"tid\":";
        writeTrackPart(O, T, At->Tid);
        O << ",\"ts\":";
        writeNumber(O, At->Ts);
        O << ",\"args\":{\"finding_id\":" << jsonString(F.Id)
          << ",\"pass\":" << jsonString(F.Pass)
          << ",\"tier\":" << jsonString(tierName(Tr))
          << ",\"p_item\":\"P" << P.Rank << "\""
          << ",\"global_rank\":" << P.GlobalRank
          << ",\"severity\":" << jsonString(severityName(F.Imp.Sev))
          << ",\"impact_pct\":";
        if (P.Mid)
          writeNumber(O, *P.Mid);
        else
          O << "null";
        O << ",\"title\":" << jsonString(F.Title) << ",\"event_uid\":" << L.Uid
          << "}}";
      }
    }

  writeCounter(W, Pid, "GPU busy", C.GpuBusy);
  writeCounter(W, Pid, "exposed communication", C.ExposedComm);
  writeCounter(W, Pid, "queue depth", C.QueueDepth);
  writeCriticalPathFlows(W, T, Ctx.AM.get<CriticalPath>());
  OS << "\n";
}

class AnnotatedTraceEmitter final : public Emitter {
public:
  StringRef name() const override { return "annotated-trace"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    TraceCounters C = computeTraceCounters(Ctx.T, Ctx.AM);
    return writeFileAtomicallyChecked(
        Ctx.OutputDir, "trace_annotated.json.gz", [&](raw_ostream &OS) -> Error {
          GzipOStream Z(OS, /*Level=*/1);
          if (Error E = spliceTraceEvents(
                  Ctx.TracePath, Z, [&](raw_ostream &Out, bool NeedComma) {
                    writeAnnotations(Out, NeedComma, Ctx, M, C);
                  }))
            return E;
          if (Error E = Z.finish())
            return createStringError(inconvertibleErrorCode(),
                                     Ctx.OutputDir +
                                         "/trace_annotated.json.gz: " +
                                         toString(std::move(E)));
          return Error::success();
        });
  }
};

} // namespace

std::unique_ptr<Emitter> createAnnotatedTraceEmitter() {
  return std::make_unique<AnnotatedTraceEmitter>();
}

} // namespace tl
