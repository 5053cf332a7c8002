//===- CriticalPath.cpp - Last-arrival critical path per step ------------===//
//
// Spec critical-path.md §6. Build (O(n log n), all sorting):
//   * host nesting per thread over cpu_op, user_annotation, runtime and
//     driver events (python_function frames are transparent): parent,
//     previous sibling (or previous root of the thread) and the child that
//     ends last;
//   * per (device, stream): the previous GPU event by start, and the GPU
//     events in launch order (launcher ts) for "last launched before t";
//   * cuda_sync rows resolved to XSTREAM sources (Stream Wait Event) and
//     SYNC sources of blocking calls (Context / Stream / Event Sync); calls
//     without a row get an inferred SYNC edge (§6.3).
// Walk: from each window's sink backwards, predecessor with the latest time
// (ties by kind priority, then smaller UID), never revisiting a node.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/CriticalPath.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/GpuTimeline.h"
#include "tl/Analysis/ProfilerSteps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

using namespace tl;

llvm::StringRef tl::cpEdgeKindName(CpEdgeKind K) {
  switch (K) {
  case CpEdgeKind::Span:
    return "SPAN";
  case CpEdgeKind::XStream:
    return "XSTREAM";
  case CpEdgeKind::Sync:
    return "SYNC";
  case CpEdgeKind::Stream:
    return "STREAM";
  case CpEdgeKind::Launch:
    return "LAUNCH";
  case CpEdgeKind::NestOut:
    return "NEST_OUT";
  case CpEdgeKind::NestIn:
    return "NEST_IN";
  case CpEdgeKind::Seq:
    return "SEQ";
  case CpEdgeKind::Start:
    return "START";
  }
  return "?";
}

llvm::StringRef tl::cpCategoryName(CpCategory C) {
  static constexpr llvm::StringLiteral Names[NumCpCategories] = {
      "gpu_compute",   "gpu_comm",       "gpu_memcpy",   "gpu_memset",
      "cpu_op",        "cpu_runtime",    "cpu_sync_call", "host_untraced",
      "data_loading",  "launch_latency", "gpu_gap",      "gpu_sync_gap",
      "sync_return"};
  return Names[unsigned(C)];
}

bool tl::isCpuBound(CpCategory C) {
  return C == CpCategory::CpuOp || C == CpCategory::CpuRuntime ||
         C == CpCategory::CpuSyncCall || C == CpCategory::HostUntraced ||
         C == CpCategory::DataLoading;
}
bool tl::isGpuBound(CpCategory C) {
  return C == CpCategory::GpuCompute || C == CpCategory::GpuComm ||
         C == CpCategory::GpuMemcpy || C == CpCategory::GpuMemset;
}
bool tl::isCpOverhead(CpCategory C) {
  return C == CpCategory::LaunchLatency || C == CpCategory::GpuGap ||
         C == CpCategory::GpuSyncGap || C == CpCategory::SyncReturn;
}

static double sumIf(const std::array<double, NumCpCategories> &A,
                    bool (*Pred)(CpCategory)) {
  double S = 0;
  for (unsigned I = 0; I < NumCpCategories; ++I)
    if (Pred(CpCategory(I)))
      S += A[I];
  return S;
}
double CpWindow::cpuBoundUs() const { return sumIf(ByCategory, isCpuBound); }
double CpWindow::gpuBoundUs() const { return sumIf(ByCategory, isGpuBound); }
double CpWindow::overheadUs() const {
  return sumIf(ByCategory, isCpOverhead);
}

namespace {

bool isCpHostKind(EventKind K) {
  return K == EventKind::CpuOp || K == EventKind::UserAnnotation ||
         isRuntimeKind(K);
}

/// Calls that block the host until GPU work is done (§6.3).
bool isBlockingCall(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("cudaDeviceSynchronize", "cudaStreamSynchronize",
             "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpy2D",
             "cudaMemcpyFromSymbol", true)
      .Cases("hipDeviceSynchronize", "hipStreamSynchronize",
             "hipEventSynchronize", "hipMemcpy", "hipMemcpyDtoH",
             "hipMemcpyHtoD", true)
      .Default(false);
}
bool isAsyncCopyCall(llvm::StringRef N) {
  return N == "cudaMemcpyAsync" || N == "hipMemcpyAsync";
}

/// The TensorBoard plugin's data-loader op, `enumerate\(DataLoader\)#.*__next__`.
bool isDataLoad(llvm::StringRef N) {
  if (!N.consume_front("enumerate(DataLoader)#"))
    return false;
  return N.contains("__next__");
}

/// Tie-break rank of an edge kind (smaller wins).
unsigned priority(CpEdgeKind K) { return unsigned(K); }

struct Pred {
  double Ts;
  CpEdgeKind Kind;
  EventId From;
  bool FromEnd;
  bool Inferred;
};

/// Everything the walk needs, per event.
class Graph {
public:
  Graph(const Trace &T, AnalysisManager &AM);

  void preds(EventId E, bool End, llvm::SmallVectorImpl<Pred> &Out) const;
  double at(EventId E, bool End) const { return End ? Ends[E] : Ts[E]; }
  CpCategory category(const CpSegment &S);

  const Trace &T;
  size_t N;
  /// ts / end / dur / track per event, read once (the accessors are
  /// out-of-line calls, and the sorts compare millions of times).
  std::vector<double> Ts, Ends, Durs;
  std::vector<TrackId> Trk;
  std::vector<EventId> Parent, PrevSib, LastChild, XSrc, SyncSrc, PrevOnStream;
  std::vector<char> SyncInferred, IsHost;
  /// Launching runtime call of each GPU event: the IR's link, else the
  /// runtime call with the same correlation (multi-rank.md §2.4: memsets
  /// without an ac2g flow).
  std::vector<EventId> Launcher;
  EventId launcherOf(EventId G) const { return Launcher[G]; }
  bool HasSync = false;
  GpuBucketer Bucket;

private:
  void buildHostTree();
  void buildStreams();
  void resolveSyncRows();
  void inferSyncs();

  /// Per (device, stream): GPU events in launch order.
  struct StreamInfo {
    std::vector<EventId> ByLaunch;
  };
  std::vector<StreamInfo> Streams;
  llvm::DenseMap<std::pair<int64_t, int64_t>, unsigned> StreamIdx;
  llvm::DenseMap<int64_t, EventId> CallByCorr;
  /// Device (pid) -> its streams.
  std::map<int64_t, std::vector<unsigned>> StreamsOfDevice;

  int64_t devOf(EventId E) const {
    const Track &Tr = T.trackInfo(Trk[E]);
    return Tr.Pid.IsString ? -1 : Tr.Pid.Int;
  }
  int64_t streamOf(EventId E) const {
    if (auto S = T.stream(E))
      return *S;
    const Track &Tr = T.trackInfo(Trk[E]);
    return Tr.Tid.IsString ? -1 : Tr.Tid.Int;
  }
  /// Last GPU event on stream Si launched strictly before time Ts.
  EventId lastLaunchedBefore(unsigned Si, double Ts) const;
  void addSyncSource(EventId Call, EventId Src, bool Inferred);
};

Graph::Graph(const Trace &T, AnalysisManager &AM)
    : T(T), N(T.size()), Parent(N, NoEvent), PrevSib(N, NoEvent),
      LastChild(N, NoEvent), XSrc(N, NoEvent), SyncSrc(N, NoEvent),
      PrevOnStream(N, NoEvent), SyncInferred(N, 0), IsHost(N, 0),
      Launcher(N, NoEvent), Bucket(T) {
  (void)AM;
  Ts.resize(N);
  Ends.resize(N);
  Durs.resize(N);
  Trk.resize(N);
  for (EventId E = 0; E < N; ++E) {
    Ts[E] = T.ts(E);
    Durs[E] = T.dur(E);
    Ends[E] = T.end(E);
    Trk[E] = T.track(E);
  }
  buildHostTree();
  for (EventId E = 0; E < N; ++E)
    if (isRuntimeKind(T.kind(E)))
      if (auto C = T.correlation(E))
        CallByCorr.try_emplace(*C, E);
  for (EventId G : T.gpuEvents()) {
    EventId P = T.parent(G);
    if (P == NoEvent)
      if (auto C = T.correlation(G)) {
        auto It = CallByCorr.find(*C);
        if (It != CallByCorr.end())
          P = It->second;
      }
    Launcher[G] = P;
  }
  buildStreams();
  resolveSyncRows();
  inferSyncs();
}

void Graph::buildHostTree() {
  std::vector<EventId> Host;
  for (EventId E = 0; E < N; ++E)
    if (isCpHostKind(T.kind(E))) {
      Host.push_back(E);
      IsHost[E] = 1;
    }
  // Per thread by start; at equal start the longer event is the parent.
  std::sort(Host.begin(), Host.end(), [&](EventId A, EventId B) {
    return std::make_tuple(Trk[A], Ts[A], -Durs[A], A) <
           std::make_tuple(Trk[B], Ts[B], -Durs[B], B);
  });
  std::vector<EventId> Stack;
  std::vector<EventId> LastKid(N, NoEvent); // last child seen, per parent
  EventId PrevRoot = NoEvent;
  TrackId Cur = ~0u;
  for (EventId E : Host) {
    if (Trk[E] != Cur) {
      Cur = Trk[E];
      Stack.clear();
      PrevRoot = NoEvent;
    }
    double StartTs = Ts[E];
    // An event that ends at or before E starts does not contain it (a
    // zero-length event at E's start neither).
    while (!Stack.empty() && Ends[Stack.back()] <= StartTs)
      Stack.pop_back();
    if (Stack.empty()) {
      PrevSib[E] = PrevRoot;
      PrevRoot = E;
    } else {
      EventId P = Stack.back();
      Parent[E] = P;
      PrevSib[E] = LastKid[P];
      LastKid[P] = E;
      EventId &L = LastChild[P];
      if (L == NoEvent || Ends[E] > Ends[L])
        L = E;
    }
    Stack.push_back(E);
  }
}

void Graph::buildStreams() {
  std::vector<std::vector<EventId>> ByStart;
  for (EventId G : T.gpuEvents()) {
    auto Key = std::make_pair(devOf(G), streamOf(G));
    auto [It, New] = StreamIdx.try_emplace(Key, unsigned(Streams.size()));
    if (New) {
      Streams.emplace_back();
      ByStart.emplace_back();
      StreamsOfDevice[Key.first].push_back(It->second);
    }
    ByStart[It->second].push_back(G);
    if (launcherOf(G) != NoEvent)
      Streams[It->second].ByLaunch.push_back(G);
  }
  for (unsigned S = 0; S < Streams.size(); ++S) {
    std::vector<EventId> &V = ByStart[S];
    std::sort(V.begin(), V.end(), [&](EventId A, EventId B) {
      return std::make_pair(Ts[A], A) < std::make_pair(Ts[B], B);
    });
    for (size_t I = 1; I < V.size(); ++I)
      PrevOnStream[V[I]] = V[I - 1];
    std::vector<EventId> &L = Streams[S].ByLaunch;
    std::sort(L.begin(), L.end(), [&](EventId A, EventId B) {
      EventId RA = launcherOf(A), RB = launcherOf(B);
      return std::make_tuple(Ts[RA], RA, Ts[A], A) <
             std::make_tuple(Ts[RB], RB, Ts[B], B);
    });
  }
}

EventId Graph::lastLaunchedBefore(unsigned Si, double At) const {
  const std::vector<EventId> &L = Streams[Si].ByLaunch;
  auto It = std::lower_bound(L.begin(), L.end(), At, [&](EventId G, double V) {
    return Ts[launcherOf(G)] < V;
  });
  if (It == L.begin())
    return NoEvent;
  return *std::prev(It);
}

void Graph::addSyncSource(EventId Call, EventId Src, bool Inferred) {
  if (Src == NoEvent)
    return;
  EventId &Cur = SyncSrc[Call];
  if (Cur == NoEvent || Ends[Src] > Ends[Cur] ||
      (Ends[Src] == Ends[Cur] && Src < Cur)) {
    Cur = Src;
    SyncInferred[Call] = Inferred;
  }
}

void Graph::resolveSyncRows() {
  auto IntArg = [&](EventId E, llvm::StringRef K) -> std::optional<int64_t> {
    return T.args(E).get(K).asInt();
  };
  for (EventId E : T.eventsOfKind(EventKind::Other)) {
    if (T.cat(E) != "cuda_sync")
      continue;
    HasSync = true;
    auto Corr = T.correlation(E);
    auto CallIt = Corr ? CallByCorr.find(*Corr) : CallByCorr.end();
    EventId Call = CallIt == CallByCorr.end() ? NoEvent : CallIt->second;
    int64_t Dev = devOf(E);
    llvm::StringRef Kind = T.name(E);
    // The GPU event an event record stands for: the last one launched on
    // (device, recorded stream) before the cudaEventRecord call (§2.6).
    auto RecordSource = [&]() -> EventId {
      auto RecCorr = IntArg(E, "wait_on_cuda_event_record_corr_id");
      auto RecStream = IntArg(E, "wait_on_stream");
      if (!RecCorr || !RecStream || *RecCorr < 0 || *RecStream < 0)
        return NoEvent;
      auto R = CallByCorr.find(*RecCorr);
      auto S = StreamIdx.find({Dev, *RecStream});
      if (R == CallByCorr.end() || S == StreamIdx.end())
        return NoEvent;
      return lastLaunchedBefore(S->second, Ts[R->second]);
    };
    if (Kind == "Stream Wait Event") {
      EventId Src = RecordSource();
      auto Waiting = IntArg(E, "stream");
      if (!Waiting)
        Waiting = streamOf(E);
      auto S = StreamIdx.find({Dev, *Waiting});
      if (Src == NoEvent || Call == NoEvent || S == StreamIdx.end())
        continue;
      // Destination: the first launch after the wait call, from the same
      // thread, onto the waiting stream.
      const std::vector<EventId> &L = Streams[S->second].ByLaunch;
      auto It = std::lower_bound(
          L.begin(), L.end(), Ts[Call],
          [&](EventId G, double V) { return Ts[launcherOf(G)] < V; });
      for (; It != L.end(); ++It) {
        if (Trk[launcherOf(*It)] != Trk[Call])
          continue;
        EventId &X = XSrc[*It];
        if (X == NoEvent || Ends[Src] > Ends[X])
          X = Src;
        break;
      }
      continue;
    }
    if (Call == NoEvent)
      continue;
    if (Kind == "Context Sync") {
      auto D = StreamsOfDevice.find(Dev);
      if (D != StreamsOfDevice.end())
        for (unsigned Si : D->second)
          addSyncSource(Call, lastLaunchedBefore(Si, Ts[Call]), false);
    } else if (Kind == "Stream Sync") {
      auto St = IntArg(E, "stream");
      if (!St)
        St = streamOf(E);
      auto S = StreamIdx.find({Dev, *St});
      if (S != StreamIdx.end())
        addSyncSource(Call, lastLaunchedBefore(S->second, Ts[Call]), false);
    } else if (Kind == "Event Sync") {
      addSyncSource(Call, RecordSource(), false);
    }
  }
}

void Graph::inferSyncs() {
  // Blocking calls without a cuda_sync row: the latest-ending GPU event
  // launched before the call that ends inside it, when the call returns
  // within 50 µs of that end (§6.3).
  std::vector<EventId> Calls;
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K)) {
      if (SyncSrc[E] != NoEvent)
        continue;
      llvm::StringRef Nm = T.name(E);
      bool Pageable = false;
      if (isAsyncCopyCall(Nm))
        for (EventId G : T.subtreeGpuEvents(E))
          Pageable |= T.name(G).contains("Pageable");
      if (isBlockingCall(Nm) || Pageable)
        Calls.push_back(E);
    }
  if (Calls.empty())
    return;
  auto Consider = [&](EventId Call, EventId G) {
    double B0 = Ts[Call], B1 = Ends[Call], GE = Ends[G];
    if (GE >= B0 && GE <= B1 && B1 - GE <= 50)
      addSyncSource(Call, G, true);
  };
  std::vector<EventId> Copies, Others;
  for (EventId C : Calls)
    (T.name(C).contains("Memcpy") ? Copies : Others).push_back(C);
  // A copy call waits for its own copy.
  for (EventId C : Copies)
    for (EventId G : T.subtreeGpuEvents(C))
      Consider(C, G);
  if (Others.empty())
    return;
  // Sweep in launch order: a multimap of GPU ends launched so far.
  std::vector<EventId> Linked;
  for (EventId G : T.gpuEvents())
    if (launcherOf(G) != NoEvent)
      Linked.push_back(G);
  std::sort(Linked.begin(), Linked.end(), [&](EventId A, EventId B) {
    return std::make_pair(Ts[launcherOf(A)], A) <
           std::make_pair(Ts[launcherOf(B)], B);
  });
  std::sort(Others.begin(), Others.end(), [&](EventId A, EventId B) {
    return std::make_pair(Ts[A], A) < std::make_pair(Ts[B], B);
  });
  std::multimap<double, EventId> Done; // end -> GPU event launched so far
  size_t Next = 0;
  for (EventId C : Others) {
    while (Next < Linked.size() && Ts[launcherOf(Linked[Next])] < Ts[C]) {
      Done.emplace(Ends[Linked[Next]], Linked[Next]);
      ++Next;
    }
    auto It = Done.upper_bound(Ends[C]);
    if (It == Done.begin())
      continue;
    --It;
    // Among equal ends, the smaller event id (file order = UID order).
    double E = It->first;
    EventId Best = It->second;
    while (It != Done.begin() && std::prev(It)->first == E) {
      --It;
      Best = std::min(Best, It->second);
    }
    Consider(C, Best);
  }
}

void Graph::preds(EventId E, bool End, llvm::SmallVectorImpl<Pred> &Out) const {
  Out.clear();
  auto Add = [&](CpEdgeKind K, EventId F, bool FEnd, bool Inf = false) {
    if (F != NoEvent)
      Out.push_back({at(F, FEnd), K, F, FEnd, Inf});
  };
  if (End) {
    Add(CpEdgeKind::Span, E, false);
    if (IsHost[E]) {
      Add(CpEdgeKind::NestOut, LastChild[E], true);
      Add(CpEdgeKind::Sync, SyncSrc[E], true, SyncInferred[E]);
    }
    return;
  }
  if (IsHost[E]) {
    Add(CpEdgeKind::NestIn, Parent[E], false);
    Add(CpEdgeKind::Seq, PrevSib[E], true);
    return;
  }
  if (isGpuKind(T.kind(E))) {
    Add(CpEdgeKind::Launch, launcherOf(E), false);
    Add(CpEdgeKind::Stream, PrevOnStream[E], true);
    Add(CpEdgeKind::XStream, XSrc[E], true);
  }
}

CpCategory Graph::category(const CpSegment &S) {
  auto Container = [&](EventId C) {
    if (C == NoEvent)
      return CpCategory::HostUntraced;
    if (isDataLoad(T.name(C)))
      return CpCategory::DataLoading;
    EventKind K = T.kind(C);
    if (K == EventKind::CpuOp)
      return CpCategory::CpuOp;
    if (isRuntimeKind(K))
      return CpCategory::CpuRuntime;
    return CpCategory::HostUntraced;
  };
  EventId E = S.Event;
  switch (S.Kind) {
  case CpEdgeKind::Span:
    switch (T.kind(E)) {
    case EventKind::Kernel:
      return Bucket(E) == GpuBucket::Communication ? CpCategory::GpuComm
                                                   : CpCategory::GpuCompute;
    case EventKind::Memcpy:
      return CpCategory::GpuMemcpy;
    case EventKind::Memset:
      return CpCategory::GpuMemset;
    case EventKind::CpuOp:
      return isDataLoad(T.name(E)) ? CpCategory::DataLoading
                                   : CpCategory::CpuOp;
    case EventKind::Runtime:
    case EventKind::Driver:
      return isBlockingCall(T.name(E)) ? CpCategory::CpuSyncCall
                                       : CpCategory::CpuRuntime;
    default:
      return Container(E);
    }
  case CpEdgeKind::NestIn:
  case CpEdgeKind::NestOut:
  case CpEdgeKind::Seq:
    return Container(E);
  case CpEdgeKind::Launch:
    return CpCategory::LaunchLatency;
  case CpEdgeKind::Stream:
    return CpCategory::GpuGap;
  case CpEdgeKind::XStream:
    return CpCategory::GpuSyncGap;
  case CpEdgeKind::Sync:
    return CpCategory::SyncReturn;
  case CpEdgeKind::Start:
    return CpCategory::HostUntraced;
  }
  return CpCategory::HostUntraced;
}

/// The event a segment over edge (From -> To) is charged to (§6.5).
EventId chargedEvent(const Graph &G, CpEdgeKind K, EventId From, EventId To) {
  switch (K) {
  case CpEdgeKind::NestIn:
    return From; // the parent's self time before its child
  case CpEdgeKind::Seq:
    return G.Parent[To]; // NoEvent between roots: "(thread)"
  case CpEdgeKind::Start:
    return NoEvent;
  default:
    return To;
  }
}

/// How a walk ended.
enum class WalkEnd { Floor, NoPredecessor, Stopped };

/// Walk backwards from node (V, VEnd) at VTs down to Floor, handing each
/// segment (latest first) to Emit; Stamp marks visited nodes. Stops early
/// after reaching a node Stop(node, isEnd) accepts (later than Floor).
template <typename EmitFn, typename StopFn>
WalkEnd walkBack(Graph &G, EventId V, bool VEnd, double VTs, double Floor,
                 std::vector<uint32_t> &Seen, uint32_t Stamp, EmitFn Emit,
                 StopFn Stop) {
  llvm::SmallVector<Pred, 8> Ps;
  auto Segment = [&](double S, CpEdgeKind K, EventId From, bool FromEnd,
                     bool Inferred) {
    CpSegment Seg;
    Seg.Start = S;
    Seg.End = VTs;
    Seg.Kind = K;
    Seg.From = From;
    Seg.FromEnd = FromEnd;
    Seg.To = V;
    Seg.ToEnd = VEnd;
    Seg.Inferred = Inferred;
    Seg.Event = chargedEvent(G, K, From, V);
    Seg.Category = G.category(Seg);
    Emit(Seg);
  };
  Seen[2 * size_t(V) + VEnd] = Stamp;
  while (VTs > Floor) {
    if (Stop(V, VEnd))
      return WalkEnd::Stopped;
    G.preds(V, VEnd, Ps);
    const Pred *Best = nullptr;
    double BestTs = 0;
    for (const Pred &P : Ps) {
      if (Seen[2 * size_t(P.From) + P.FromEnd] == Stamp)
        continue;
      double Ts = std::min(P.Ts, VTs); // clock noise: a 0-length segment
      if (!Best || Ts > BestTs ||
          (Ts == BestTs &&
           (priority(P.Kind) < priority(Best->Kind) ||
            (P.Kind == Best->Kind &&
             G.T.uid(P.From) < G.T.uid(Best->From))))) {
        Best = &P;
        BestTs = Ts;
      }
    }
    if (!Best) {
      Segment(Floor, CpEdgeKind::Start, NoEvent, false, false);
      return WalkEnd::NoPredecessor;
    }
    Segment(std::max(BestTs, Floor), Best->Kind, Best->From, Best->FromEnd,
            Best->Inferred);
    V = Best->From;
    VEnd = Best->FromEnd;
    VTs = BestTs;
    Seen[2 * size_t(V) + VEnd] = Stamp;
  }
  return WalkEnd::Floor;
}

/// Walk backwards from (Sink, SinkEnd) to Start; Stamp marks visited nodes.
void walk(Graph &G, CpWindow &W, EventId Sink, bool SinkEnd,
          std::vector<uint32_t> &Seen, uint32_t Stamp) {
  WalkEnd E = walkBack(
      G, Sink, SinkEnd, W.End, W.Start, Seen, Stamp,
      [&](const CpSegment &S) { W.Segments.push_back(S); },
      [](EventId, bool) { return false; });
  W.ReachedStart = E != WalkEnd::NoPredecessor;
  std::reverse(W.Segments.begin(), W.Segments.end());
}

} // namespace

CriticalPath::CriticalPath(const Trace &T, AnalysisManager &AM) {
  Graph G(T, AM);
  const std::vector<double> &Ts = G.Ts, &Ends = G.Ends, &Durs = G.Durs;
  HasSync = G.HasSync;
  Launcher = G.Launcher;
  size_t N = T.size();

  // Top op per event: hosts in start order see their parent first.
  TopOf.assign(N, NoEvent);
  std::vector<EventId> Hosts;
  for (EventId E = 0; E < N; ++E)
    if (G.IsHost[E])
      Hosts.push_back(E);
  std::sort(Hosts.begin(), Hosts.end(), [&](EventId A, EventId B) {
    return std::make_tuple(Ts[A], -Durs[A], A) <
           std::make_tuple(Ts[B], -Durs[B], B);
  });
  for (EventId E : Hosts) {
    EventId P = G.Parent[E];
    EventId Up = P == NoEvent ? NoEvent : TopOf[P];
    if (Up != NoEvent)
      TopOf[E] = Up;
    else if (T.kind(E) == EventKind::CpuOp || isRuntimeKind(T.kind(E)))
      TopOf[E] = E;
  }
  llvm::DenseMap<EventId, double> OpEnd; // top op -> latest end incl. GPU
  for (EventId Gp : T.gpuEvents()) {
    EventId R = G.launcherOf(Gp);
    if (R == NoEvent)
      continue;
    TopOf[Gp] = TopOf[R];
    if (TopOf[Gp] != NoEvent) {
      double &E = OpEnd.try_emplace(TopOf[Gp], Ends[TopOf[Gp]]).first->second;
      E = std::max(E, Ends[Gp]);
    }
  }

  // Windows.
  std::vector<ProfilerStep> Steps = collectProfilerSteps(T);
  std::vector<EventId> ByLaunch;
  for (EventId Gp : T.gpuEvents())
    if (G.launcherOf(Gp) != NoEvent)
      ByLaunch.push_back(Gp);
  std::sort(ByLaunch.begin(), ByLaunch.end(), [&](EventId A, EventId B) {
    return std::make_pair(Ts[G.launcherOf(A)], A) <
           std::make_pair(Ts[G.launcherOf(B)], B);
  });
  // Sink preference at equal times: a GPU event end, then the smaller UID.
  auto Better = [&](EventId A, EventId B) {
    if (B == NoEvent)
      return true;
    if (Ends[A] != Ends[B])
      return Ends[A] > Ends[B];
    if (isGpuKind(T.kind(A)) != isGpuKind(T.kind(B)))
      return isGpuKind(T.kind(A));
    return T.uid(A) < T.uid(B);
  };
  // Step windows W(N) (multi-rank.md §2.4, the TensorBoard rule): from
  // max(previous window's end, the step's start) — for the first step, the
  // end of pre-trace GPU work — to the later of the step's end and its GPU
  // work's end; so the windows tile the timeline.
  std::vector<std::pair<CpWindow, EventId>> Todo;
  double FirstGpuStart = std::numeric_limits<double>::infinity();
  double PrevEnd = -std::numeric_limits<double>::infinity();
  std::vector<EventId> Sinks;
  for (const ProfilerStep &S : Steps) {
    EventId Sink = S.Event;
    auto It = std::lower_bound(
        ByLaunch.begin(), ByLaunch.end(), S.Start,
        [&](EventId Gp, double V) { return Ts[G.launcherOf(Gp)] < V; });
    for (; It != ByLaunch.end() && Ts[G.launcherOf(*It)] < S.End; ++It) {
      if (Sinks.empty())
        FirstGpuStart = std::min(FirstGpuStart, Ts[*It]);
      if (Better(*It, Sink))
        Sink = *It;
    }
    Sinks.push_back(Sink);
  }
  if (!Steps.empty())
    for (EventId Gp : T.gpuEvents())
      if (G.launcherOf(Gp) == NoEvent && Ends[Gp] < FirstGpuStart)
        PrevEnd = std::max(PrevEnd, Ends[Gp]); // pre-trace GPU work
  for (size_t I = 0; I < Steps.size(); ++I) {
    const ProfilerStep &S = Steps[I];
    CpWindow W;
    W.Step = S.Number;
    W.StepEvent = S.Event;
    W.Start = std::max(S.Start, PrevEnd);
    W.End = Ends[Sinks[I]];
    EventId Sink = Sinks[I];
    if (W.End < W.Start) {
      W.End = W.Start; // nothing of this step is left after the previous
      Sink = NoEvent;
    }
    PrevEnd = W.End;
    Todo.push_back({std::move(W), Sink});
  }
  if (Steps.empty() && N > 0) {
    CpWindow W;
    EventId Sink = NoEvent;
    W.Start = std::numeric_limits<double>::infinity();
    for (EventId E = 0; E < N; ++E) {
      if (!G.IsHost[E] && !isGpuKind(T.kind(E)))
        continue;
      W.Start = std::min(W.Start, Ts[E]);
      if (Better(E, Sink))
        Sink = E;
    }
    if (Sink != NoEvent) {
      W.End = Ends[Sink];
      Todo.push_back({std::move(W), Sink});
    }
  }

  std::vector<uint32_t> Seen(2 * N, 0);
  CriticalOf.assign(N, 0);
  OwnOf.assign(N, 0);
  uint32_t Stamp = 0;
  for (auto &[W, Sink] : Todo) {
    if (Sink != NoEvent)
      walk(G, W, Sink, true, Seen, ++Stamp);
    // Keyed by uint64_t: NoEvent ("(untraced)") is DenseMap's empty key
    // for 32-bit keys.
    llvm::DenseMap<uint64_t, size_t> OpIdx;
    for (const CpSegment &S : W.Segments) {
      W.ByCategory[unsigned(S.Category)] += S.dur();
      if (S.Event != NoEvent) {
        CriticalOf[S.Event] += S.dur();
        double Lo = std::max(S.Start, Ts[S.Event]);
        double Hi = std::min(S.End, Ends[S.Event]);
        if (Hi > Lo)
          OwnOf[S.Event] += Hi - Lo;
      }
      EventId Top = S.Event == NoEvent ? NoEvent : TopOf[S.Event];
      auto [It, New] = OpIdx.try_emplace(uint64_t(Top), W.Ops.size());
      if (New) {
        CpOpShare O;
        O.TopOp = Top;
        if (Top != NoEvent) {
          auto E = OpEnd.find(Top);
          O.SpanUs = (E == OpEnd.end() ? Ends[Top] : E->second) - Ts[Top];
        }
        W.Ops.push_back(O);
      }
      W.Ops[It->second].CriticalUs += S.dur();
    }
    std::stable_sort(W.Ops.begin(), W.Ops.end(),
                     [&](const CpOpShare &A, const CpOpShare &B) {
                       if (A.CriticalUs != B.CriticalUs)
                         return A.CriticalUs > B.CriticalUs;
                       double SA = A.TopOp == NoEvent ? 0 : Ts[A.TopOp];
                       double SB = B.TopOp == NoEvent ? 0 : Ts[B.TopOp];
                       return SA < SB;
                     });
    Windows.push_back(std::move(W));
  }
}

EventId CriticalPath::topOp(EventId E) const {
  return E < TopOf.size() ? TopOf[E] : NoEvent;
}

double CriticalPath::criticalUsOf(EventId E) const {
  return E < CriticalOf.size() ? CriticalOf[E] : 0;
}

double CriticalPath::onPathUsOf(EventId E) const {
  return E < OwnOf.size() ? OwnOf[E] : 0;
}

std::array<double, NumCpCategories> CriticalPath::totalByCategory() const {
  std::array<double, NumCpCategories> A{};
  for (const CpWindow &W : Windows)
    for (unsigned I = 0; I < NumCpCategories; ++I)
      A[I] += W.ByCategory[I];
  return A;
}

std::vector<CpChain>
tl::criticalChains(const Trace &T, AnalysisManager &AM,
                   llvm::ArrayRef<CpChainOrigin> Origins,
                   llvm::function_ref<int64_t(EventId)> StopOf) {
  std::vector<CpChain> Out;
  if (Origins.empty())
    return Out;
  Graph G(T, AM);
  std::vector<uint32_t> Seen(2 * T.size(), 0);
  uint32_t Stamp = 0;
  for (const CpChainOrigin &O : Origins) {
    CpChain C;
    C.To = G.at(O.Event, O.End);
    C.From = C.To;
    // Every walk is linear in its length: a loop over the nodes it visits.
    walkBack(
        G, O.Event, O.End, C.To, O.Floor, Seen, ++Stamp,
        [&](const CpSegment &S) {
          C.ByCategory[unsigned(S.Category)] += S.dur();
          C.From = S.Start;
        },
        [&](EventId E, bool End) {
          if (!End)
            return false;
          C.Stop = StopOf(E);
          return C.Stop >= 0;
        });
    Out.push_back(C);
  }
  return Out;
}
