//===- CaptureAlign.cpp - Capture launches vs replayed kernels ------------===//
//
// The reference's verify_subtree_events and its multi-stream matcher
// (spec/tracelens-inference.md §C.6 steps 3-5), each rule in its own
// function.
//
//===----------------------------------------------------------------------===//
#include "CaptureAlign.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <deque>

using namespace llvm;
using namespace tl;

bool tl::captureNamesMatch(const CaptureLaunch &C, StringRef G) {
  if (C.Name.contains("Memcpy") && G.contains("Memcpy"))
    return true;
  if (C.Name.contains("Memset") &&
      (G.contains("Memset") || G.contains("fillBuffer")))
    return true;
  return C.kernelName() == G;
}

namespace {

bool isCopyOrSet(const CaptureLaunch &C) {
  return C.Name.contains("Memcpy") || C.Name.contains("Memset");
}

/// Lengths differ: one forward cursor over the capture; launches skipped on
/// the way are dropped. Running out fails (only extra capture launches are
/// tolerated).
AlignResult alignGreedy(ArrayRef<CaptureLaunch> Cap,
                        ArrayRef<ReplayedKernel> Graph) {
  AlignResult R;
  size_t Cursor = 0;
  for (uint32_t G = 0; G < Graph.size(); ++G) {
    while (Cursor < Cap.size() && !captureNamesMatch(Cap[Cursor], Graph[G].Name))
      ++Cursor;
    if (Cursor == Cap.size()) {
      R.Pairs.clear();
      R.Why = "replayed kernel " + std::to_string(G) + " ('" +
              Graph[G].Name.str() + "') has no capture launch left (" +
              std::to_string(Cap.size()) + " capture launches, " +
              std::to_string(Graph.size()) + " replayed kernels)";
      return R;
    }
    R.Pairs.push_back({G, uint32_t(Cursor++)});
  }
  R.Code = AlignCode::Greedy;
  return R;
}

/// Equal lengths, names differ somewhere: the same names with the same
/// counts on both sides, the k-th capture launch of a name taking the k-th
/// replayed kernel of that name.
AlignResult alignGrouped(ArrayRef<CaptureLaunch> Cap,
                         ArrayRef<ReplayedKernel> Graph) {
  AlignResult R;
  StringMap<std::vector<uint32_t>> ByName;
  for (uint32_t G = 0; G < Graph.size(); ++G)
    ByName[Graph[G].Name].push_back(G);
  StringMap<uint32_t> CapCount;
  for (const CaptureLaunch &C : Cap)
    ++CapCount[C.kernelName()];
  for (auto &[Name, Count] : CapCount) {
    auto It = ByName.find(Name);
    size_t Have = It == ByName.end() ? 0 : It->second.size();
    if (Have != Count) {
      R.Why = "kernel '" + Name.str() + "': " + std::to_string(Count) +
              " capture launches, " + std::to_string(Have) +
              " replayed kernels";
      return R;
    }
  }
  if (CapCount.size() != ByName.size()) {
    R.Why = "replayed kernel names not in the capture";
    return R;
  }
  StringMap<uint32_t> Taken;
  for (uint32_t C = 0; C < Cap.size(); ++C) {
    StringRef N = Cap[C].kernelName();
    R.Pairs.push_back({ByName[N][Taken[N]++], C});
  }
  R.Code = AlignCode::Grouped;
  return R;
}

/// One stream (verify_subtree_events).
AlignResult alignSingleStream(ArrayRef<CaptureLaunch> Cap,
                              ArrayRef<ReplayedKernel> Graph) {
  if (Cap.size() != Graph.size())
    return alignGreedy(Cap, Graph);
  AlignResult R;
  for (uint32_t I = 0; I < Cap.size(); ++I) {
    if (!Cap[I].Kernel) {
      if (!isCopyOrSet(Cap[I]))
        ++R.Unchecked;
      continue;
    }
    if (!captureNamesMatch(Cap[I], Graph[I].Name)) {
      AlignResult G = alignGrouped(Cap, Graph);
      G.Unchecked = R.Unchecked;
      return G;
    }
  }
  for (uint32_t I = 0; I < Cap.size(); ++I)
    R.Pairs.push_back({I, I});
  R.Code = AlignCode::Equal;
  return R;
}

/// Several streams: a FIFO queue per stream; each capture launch takes the
/// head of the stream it matches, the one whose queue matches the longest
/// run of the following launches when several do.
AlignResult alignMultiStream(ArrayRef<CaptureLaunch> Cap,
                             ArrayRef<ReplayedKernel> Graph) {
  AlignResult R;
  for (const CaptureLaunch &C : Cap)
    if (!C.Kernel && !isCopyOrSet(C)) {
      R.Code = AlignCode::MultiStreamUnnamed;
      R.Why = "multi-stream graph and capture launch '" + C.Name.str() +
              "' has no kernel name";
      return R;
    }
  std::vector<std::optional<int64_t>> Streams;
  std::vector<std::deque<uint32_t>> Queues;
  for (uint32_t G = 0; G < Graph.size(); ++G) {
    size_t S = 0;
    while (S < Streams.size() && Streams[S] != Graph[G].Stream)
      ++S;
    if (S == Streams.size()) {
      Streams.push_back(Graph[G].Stream);
      Queues.emplace_back();
    }
    Queues[S].push_back(G);
  }
  std::vector<int64_t> MapTo(Graph.size(), -1);
  for (uint32_t C = 0; C < Cap.size(); ++C) {
    size_t Best = Queues.size(), BestRun = 0;
    for (size_t S = 0; S < Queues.size(); ++S) {
      const std::deque<uint32_t> &Q = Queues[S];
      if (Q.empty() || !captureNamesMatch(Cap[C], Graph[Q.front()].Name))
        continue;
      size_t Run = 0;
      while (Run < Q.size() && C + Run < Cap.size() &&
             captureNamesMatch(Cap[C + Run], Graph[Q[Run]].Name))
        ++Run;
      if (Best == Queues.size() || Run > BestRun) {
        Best = S;
        BestRun = Run;
      }
    }
    if (Best == Queues.size())
      continue;
    MapTo[Queues[Best].front()] = C;
    Queues[Best].pop_front();
  }
  for (uint32_t G = 0; G < Graph.size(); ++G) {
    if (MapTo[G] < 0) {
      R.Why = "replayed kernel '" + Graph[G].Name.str() +
              "' matches no capture launch";
      return R;
    }
    R.Pairs.push_back({G, uint32_t(MapTo[G])});
  }
  R.Code = AlignCode::MultiStream;
  return R;
}

} // namespace

AlignResult tl::alignCapture(ArrayRef<CaptureLaunch> Cap,
                             ArrayRef<ReplayedKernel> Graph) {
  bool Multi = false;
  for (const ReplayedKernel &G : Graph)
    if (G.Stream != Graph.front().Stream) {
      Multi = true;
      break;
    }
  return Multi ? alignMultiStream(Cap, Graph) : alignSingleStream(Cap, Graph);
}
