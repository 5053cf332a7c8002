//===- CaptureMerge.cpp - Graph-capture traces into a replay trace --------===//
//
// spec/tracelens-inference.md §C.3-§C.7: iteration annotations of the replay
// (execution roots) -> their graph launches -> the capture file for the
// iteration's batch size -> its capture windows -> pairing, alignment and
// splice. Every skip is counted and warned, never silent.
//
//===----------------------------------------------------------------------===//
#include "tl/Import/CaptureMerge.h"
#include "CaptureAlign.h"
#include "CaptureFolder.h"
#include "CaptureRoots.h"
#include "CaptureSplice.h"

#include "tl/IR/TraceStorage.h"
#include "tl/Support/IterationAnnotation.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace llvm;
using namespace tl;

namespace {

/// A capture trace, imported once, and its capture windows.
struct LoadedCapture {
  std::unique_ptr<Trace> T;
  std::vector<CaptureRootInfo> Roots;
  std::string Error;
};

std::vector<EventId> sortedByTs(const Trace &T, std::vector<EventId> V) {
  std::stable_sort(V.begin(), V.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
  return V;
}

/// Batch size of an execution root: the annotation grammar, else the
/// second `_` token when it is an integer.
std::optional<int64_t> rootBatch(const IterationAnnotationParser &P,
                                 StringRef Name) {
  IterationAnnotation A = P.parse(Name);
  if (A.Format != IterationFormat::None)
    return A.BatchSize;
  SmallVector<StringRef, 4> Tok;
  Name.split(Tok, '_');
  int64_t V;
  if (Tok.size() > 1 && !Tok[1].getAsInteger(10, V))
    return V;
  return std::nullopt;
}

std::string shortName(StringRef N) {
  return N.size() > 80 ? (N.take_front(77) + "...").str() : N.str();
}

/// The warnings also go to the trace's import warnings (the report's
/// trace-quality appendix lists those).
CaptureMergeResult finish(Trace &T, CaptureMergeResult Res) {
  Trace::Storage &S = T.storage();
  for (const std::string &W : Res.Warnings)
    if (S.Stats.Warnings.size() < 50)
      S.Stats.Warnings.push_back("capture merge: " + W);
  return Res;
}

} // namespace

Expected<CaptureMergeResult> tl::mergeCaptureFolder(Trace &T, StringRef Dir,
                                                    const ImportOptions &Opts) {
  Expected<CaptureFolder> FolderOr = loadCaptureFolder(Dir);
  if (!FolderOr)
    return FolderOr.takeError();
  CaptureFolder &Folder = *FolderOr;
  CaptureMergeResult Res;
  Res.Warnings = Folder.Warnings;
  auto Warn = [&](std::string W) { Res.Warnings.push_back(std::move(W)); };

  // Graph launches: any event whose name contains "graphlaunch".
  std::vector<EventId> Launches;
  for (EventId E = 0; E < T.size(); ++E)
    if (StringRef(T.name(E)).contains_insensitive("graphlaunch"))
      Launches.push_back(E);
  Launches = sortedByTs(T, std::move(Launches));
  for (EventId L : Launches)
    Res.GraphLaunches += !T.children(L).empty();
  if (!Folder.HasDetails)
    return finish(T, std::move(Res));

  // Execution roots: detailed iteration annotations, else native ones.
  IterationAnnotationParser Parser;
  std::vector<EventId> Detailed, Native;
  for (EventId E : T.eventsOfKind(EventKind::UserAnnotation)) {
    if (Parser.matchesDetailed(T.name(E)))
      Detailed.push_back(E);
    else if (Parser.matchesNative(T.name(E)))
      Native.push_back(E);
  }
  std::vector<EventId> Roots =
      sortedByTs(T, Detailed.empty() ? std::move(Native) : std::move(Detailed));

  std::map<std::string, LoadedCapture> Cache;
  auto Load = [&](const std::string &Path) -> LoadedCapture & {
    auto [It, New] = Cache.try_emplace(Path);
    if (New) {
      Expected<Trace> C = importTrace(Path, Opts);
      if (!C) {
        It->second.Error = toString(C.takeError());
      } else {
        It->second.T = std::make_unique<Trace>(std::move(*C));
        It->second.Roots = findCaptureRoots(*It->second.T);
      }
    }
    return It->second;
  };

  std::vector<SplicePlan> Plans;
  DenseSet<EventId> Covered, Planned;
  bool MergeFailed = false;
  uint64_t SkippedLaunches = 0;
  for (EventId Root : Roots) {
    std::vector<EventId> Graph;
    for (EventId L : Launches)
      if (T.ts(Root) <= T.ts(L) && T.end(L) <= T.end(Root))
        Graph.push_back(L);
    if (Graph.empty())
      continue;
    ++Res.ExecutionRoots;
    std::string RootName = "iteration '" + shortName(T.name(Root)) + "'";
    auto SkipRoot = [&](const std::string &Why) {
      for (EventId L : Graph)
        if (Covered.insert(L).second)
          ++SkippedLaunches;
      Warn(RootName + ": " + Why + "; its " + std::to_string(Graph.size()) +
           " graph launch(es) keep their kernels unmerged");
    };
    std::optional<int64_t> Batch = rootBatch(Parser, T.name(Root));
    if (!Batch) {
      SkipRoot("no batch size in the name");
      continue;
    }
    std::string Why;
    std::optional<std::string> Path =
        Folder.chooseFile(*Batch, Graph.size(), Why);
    if (!Path) {
      SkipRoot(Why);
      continue;
    }
    LoadedCapture &Cap = Load(*Path);
    if (!Cap.T) {
      SkipRoot("capture trace unreadable: " + Cap.Error);
      continue;
    }
    const std::vector<CaptureRootInfo> &CR = Cap.Roots;
    if (CR.size() != 1 && CR.size() != Graph.size()) {
      SkipRoot(std::to_string(CR.size()) + " capture windows in " +
               sys::path::filename(*Path).str() + " for " +
               std::to_string(Graph.size()) +
               " graph launches (merging may be incorrect)");
      continue;
    }
    for (size_t K = 0; K < Graph.size(); ++K) {
      EventId L = Graph[K];
      if (!Covered.insert(L).second)
        continue; // an outer annotation already took it
      const CaptureRootInfo &R = CR.size() == 1 ? CR[0] : CR[K];
      const Trace &C = *Cap.T;
      std::string Where = "graph launch %" + std::to_string(T.uid(L)) +
                          " (" + RootName + ")";
      // The replayed GPU events in ts order.
      std::vector<EventId> Kernels;
      for (EventId G : T.children(L))
        if (isGpuKind(T.kind(G)))
          Kernels.push_back(G);
      Kernels = sortedByTs(T, std::move(Kernels));
      if (Kernels.empty()) {
        ++SkippedLaunches;
        Warn(Where + ": no replayed GPU events; not merged");
        continue;
      }
      std::vector<CaptureLaunch> CapL;
      for (uint32_t Idx : R.Launches) {
        EventId X = R.Subtree[Idx];
        CaptureLaunch CL{C.name(X), std::nullopt};
        ArgValue K = C.args(X).get("kernel");
        if (K.isString())
          CL.Kernel = K.getString();
        CapL.push_back(CL);
      }
      std::vector<ReplayedKernel> Rep;
      for (EventId G : Kernels)
        Rep.push_back({T.name(G), T.stream(G)});
      AlignResult A = alignCapture(CapL, Rep);
      if (A.Code == AlignCode::MultiStreamUnnamed) {
        MergeFailed = true;
        Warn(Where + ": " + A.Why);
        break;
      }
      if (A.Code == AlignCode::Failed) {
        ++SkippedLaunches;
        Warn(Where + ": " + std::to_string(CapL.size()) +
             " capture launches vs " + std::to_string(Rep.size()) +
             " replayed kernels do not align (" + A.Why + "); not merged");
        continue;
      }
      if (A.Unchecked)
        Warn(Where + ": " + std::to_string(A.Unchecked) +
             " capture launches without a kernel name were not checked");
      if (A.Code == AlignCode::Greedy)
        Warn(Where + ": " + std::to_string(CapL.size() - Rep.size()) +
             " of " + std::to_string(CapL.size()) +
             " capture launches have no replayed kernel; skipped");
      if (A.Code == AlignCode::Grouped)
        Warn(Where + ": replay order differs from the capture; " +
             std::to_string(Rep.size()) + " kernels matched by name");
      SplicePlan P;
      P.GraphLaunch = L;
      P.Capture = &C;
      P.Root = &R;
      for (auto [G, CI] : A.Pairs)
        P.Pairs.push_back({Kernels[G], R.Launches[CI]});
      Res.ReplayedKernels += P.Pairs.size();
      Plans.push_back(std::move(P));
      Planned.insert(L);
    }
    if (MergeFailed)
      break;
  }

  for (EventId L : Launches)
    if (!Covered.count(L) && !T.children(L).empty())
      ++Res.UncoveredLaunches;
  if (Res.UncoveredLaunches)
    Warn(std::to_string(Res.UncoveredLaunches) +
         " graph launch(es) lie in no iteration annotation "
         "(execute_..., step[...]); not merged");
  if (MergeFailed) {
    // The reference drops the whole merge then (§E.7).
    Warn("capture merge abandoned: no graph launch merged");
    Res.MergedLaunches = Res.ReplayedKernels = 0;
    Plans.clear();
  } else {
    Res.MergedLaunches = Plans.size();
    if (SkippedLaunches)
      Warn(std::to_string(SkippedLaunches) + " of " +
           std::to_string(Res.GraphLaunches) +
           " graph launches not merged");
  }
  if (!Plans.empty())
    Res.CopiedEvents = spliceCaptures(T, Plans);
  return finish(T, std::move(Res));
}
