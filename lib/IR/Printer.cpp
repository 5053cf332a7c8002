//===- Printer.cpp - Stable textual form of the IR ------------------------===//
//
// Format (one event per line, children indented by two spaces):
//   %<uid> = <kind> "<name>" ts=<ts> dur=<dur> track=<pid>:<tid> [args...] {
//     ...children...
//   }
// Attributes, in this order when present: corr= ext= stream= seq= copy=
// fwd= bwd=[...] gpu=<subtree GPU events> unlinked root (cpu root) dropped
// (bleed rule) bleed (hung under its grandparent by the bleed rule).
// Top-level items are every event without a parent, in file order.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Printer.h"
#include "tl/IR/Trace.h"
#include "tl/IR/TraceStorage.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

using namespace tl;

std::string tl::formatDouble(double D) {
  if (std::isnan(D))
    return "nan";
  if (std::isinf(D))
    return D > 0 ? "inf" : "-inf";
  // Shortest text that reads back to exactly D.
  char Buf[64];
  auto R = std::to_chars(Buf, Buf + sizeof(Buf), D);
  return std::string(Buf, R.ptr);
}

static void quoted(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\' << C;
    else if (C < 0x20 || C == 0x7f)
      OS << llvm::format("\\%02X", C);
    else
      OS << C;
  }
  OS << '"';
}

static void printEventLine(const Trace &T, EventId E, bool IsCpuRoot,
                           llvm::raw_ostream &OS) {
  OS << '%' << T.uid(E) << " = " << kindName(T.kind(E)) << ' ';
  quoted(OS, T.name(E));
  OS << " ts=" << formatDouble(T.ts(E)) << " dur=" << formatDouble(T.dur(E));
  const Track &Tr = T.trackInfo(T.track(E));
  OS << " track=" << T.trackPartText(Tr.Pid) << ':' << T.trackPartText(Tr.Tid);
  if (auto C = T.correlation(E))
    OS << " corr=" << *C;
  if (auto X = T.externalId(E))
    OS << " ext=" << *X;
  if (isGpuKind(T.kind(E)))
    if (auto S = T.stream(E))
      OS << " stream=" << *S;
  if (auto Q = T.sequenceNumber(E))
    OS << " seq=" << *Q;
  if (T.kind(E) == EventKind::Memcpy)
    OS << " copy=" << memcpyKindName(T.memcpyKind(E));
  if (EventId F = T.fwdEvent(E); F != NoEvent)
    OS << " fwd=%" << T.uid(F);
  auto Bwd = T.bwdEvents(E);
  if (!Bwd.empty()) {
    OS << " bwd=[";
    for (size_t I = 0; I < Bwd.size(); ++I)
      OS << (I ? ", " : "") << '%' << T.uid(Bwd[I]);
    OS << ']';
  }
  if (!isGpuKind(T.kind(E))) {
    size_t N = T.subtreeGpuEvents(E).size();
    if (N)
      OS << " gpu=" << N;
  } else if (!T.isLinked(E)) {
    OS << " unlinked";
  }
  if (IsCpuRoot)
    OS << " root";
  if (T.isDroppedFromTree(E))
    OS << " dropped";
  if (T.isBleedPlaced(E))
    OS << " bleed";
}

void tl::printTrace(const Trace &T, llvm::raw_ostream &OS) {
  OS << "trace ";
  quoted(OS, T.sourcePath());
  OS << " link_key=";
  quoted(OS, T.linkKey());
  OS << " {\n";
  // Explicit DFS stack of (event, next child index).
  struct Frame {
    EventId E;
    size_t Next;
  };
  std::vector<Frame> Stack;
  std::vector<bool> CpuRoot(T.size(), false);
  for (EventId R : T.cpuRoots())
    CpuRoot[R] = true;
  // Indentation is capped so that output stays linear in very deep trees.
  auto Indent = [&](size_t Depth) {
    OS.indent(unsigned(2 * std::min<size_t>(Depth, 100)));
  };
  auto Open = [&](EventId E) {
    Indent(Stack.size() + 1);
    printEventLine(T, E, CpuRoot[E], OS);
    if (T.children(E).empty()) {
      OS << '\n';
      return;
    }
    OS << " {\n";
    Stack.push_back({E, 0});
  };
  for (EventId E = 0; E < T.size(); ++E) {
    if (T.parent(E) != NoEvent)
      continue;
    Open(E);
    while (!Stack.empty()) {
      Frame &F = Stack.back();
      auto Kids = T.children(F.E);
      if (F.Next == Kids.size()) {
        Stack.pop_back();
        Indent(Stack.size() + 1);
        OS << "}\n";
        continue;
      }
      Open(Kids[F.Next++]);
    }
  }
  OS << "}\n";
}

void tl::printTraceSummary(const Trace &T, llvm::raw_ostream &OS) {
  const ImportStats &St = T.stats();
  auto Count = [&](EventKind K) { return T.eventsOfKind(K).size(); };
  OS << "trace ";
  quoted(OS, T.sourcePath());
  OS << " {\n";
  OS << "  events = " << St.TotalEntries << '\n';
  OS << "  complete = " << St.CompleteEvents << '\n';
  OS << "  metadata = " << St.MetadataEvents << '\n';
  OS << "  flows = " << St.FlowEvents << '\n';
  OS << "  instants = " << St.InstantEvents << '\n';
  OS << "  other_phases = " << St.OtherPhases << '\n';
  for (unsigned K = 0; K < NumEventKinds; ++K)
    OS << "  " << kindName(EventKind(K)) << " = " << Count(EventKind(K))
       << '\n';
  OS << "  kernel/memcpy/memset = " << Count(EventKind::Kernel) << '/'
     << Count(EventKind::Memcpy) << '/' << Count(EventKind::Memset) << '\n';
  OS << "  runtime/driver = " << Count(EventKind::Runtime) << '/'
     << Count(EventKind::Driver) << '\n';
  OS << "  gpu_linked = " << St.LinkedGpuEvents << '/' << T.gpuEvents().size()
     << '\n';
  OS << "  gpu_unlinked = " << St.UnlinkedGpuEvents << '\n';
  OS << "  cpu_roots = " << T.cpuRoots().size() << '\n';
  OS << "  bleed_drops = " << St.BleedDrops << '\n';
  OS << "  duplicate_correlations = " << St.DuplicateCorrelations << '\n';
  OS << "  graph_launches = " << St.GraphLaunches << '\n';
  OS << "  link_key = ";
  quoted(OS, T.linkKey());
  OS << '\n';
  // Threads: tracks with host events; streams: tracks with GPU events;
  // devices: distinct pids of GPU tracks.
  std::vector<uint8_t> TrackRole(T.numTracks(), 0);
  for (EventId E = 0; E < T.size(); ++E)
    TrackRole[T.track(E)] |= isGpuKind(T.kind(E)) ? 2 : 1;
  size_t Threads = 0, Streams = 0;
  std::set<std::pair<bool, int64_t>> Devices;
  for (TrackId I = 0; I < T.numTracks(); ++I) {
    if (TrackRole[I] & 1)
      ++Threads;
    if (TrackRole[I] & 2) {
      ++Streams;
      const TrackPart &P = T.trackInfo(I).Pid;
      Devices.insert({P.IsString, P.IsString ? int64_t(P.Str) : P.Int});
    }
  }
  OS << "  tracks = " << T.numTracks() << '\n';
  OS << "  threads = " << Threads << '\n';
  OS << "  streams = " << Streams << '\n';
  OS << "  devices = " << Devices.size() << '\n';
  OS << "  top_level_keys = " << T.topLevel().size() << '\n';
  OS << "  input_bytes = " << St.InputBytes << '\n';
  OS << "  warnings = " << St.Warnings.size() << '\n';
  for (const std::string &W : St.Warnings) {
    OS << "  warning ";
    quoted(OS, W);
    OS << '\n';
  }
  OS << "}\n";
}
