//===- MultiKernelData.cpp - Memcpy, collective and sync data ------------===//
//
// Spec tracelens-analysis §3.4. Sums run in file order so that rounding
// matches the reference's Python sums.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/MultiKernelData.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tl;
using llvm::StringRef;

StringRef tl::copyDirName(CopyDir D) {
  switch (D) {
  case CopyDir::D2H:
    return "D2H";
  case CopyDir::H2D:
    return "H2D";
  case CopyDir::D2D:
    return "D2D";
  case CopyDir::Other:
    return "other";
  }
  return "other";
}

CopyDir tl::copyDirOf(StringRef Name) {
  std::string L = Name.lower();
  StringRef N(L);
  auto Any = [&](std::initializer_list<StringRef> Ms) {
    return llvm::any_of(Ms, [&](StringRef M) { return N.contains(M); });
  };
  if (Any({"dtoh", "device -> host", "devicetohost"}))
    return CopyDir::D2H;
  if (Any({"htod", "host -> device", "hosttodevice"}))
    return CopyDir::H2D;
  if (Any({"dtod", "device -> device", "devicetodevice"}))
    return CopyDir::D2D;
  return CopyDir::Other;
}

HostContext tl::hostContextOf(const Trace &T, EventId E) {
  HostContext C;
  bool HaveFrame = false, HaveCall = false;
  // Walk up: GPU event -> runtime launch -> host ancestors. Bounded by depth.
  for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P)) {
    EventKind K = T.kind(P);
    StringRef N = T.name(P);
    if (K == EventKind::CpuOp && C.CpuOp == NoEvent)
      C.CpuOp = P;
    if (K != EventKind::PythonFunction)
      continue;
    if (N.starts_with("nn.Module: ")) {
      if (C.Module.empty())
        C.Module = N.drop_front(11).str();
      continue;
    }
    if (!HaveCall && N.starts_with("<built-in method ")) {
      StringRef M = N.drop_front(17);
      C.PyCall = M.take_until([](char Ch) { return Ch == ' '; }).str();
      HaveCall = true;
      continue;
    }
    if (!HaveFrame && N.contains(".py(")) {
      C.PyFrame = N.str();
      HaveFrame = true;
    }
  }
  return C;
}

namespace {

StringRef hostMemoryOf(StringRef Name) {
  std::string L = Name.lower();
  if (StringRef(L).contains("pinned"))
    return "pinned";
  if (StringRef(L).contains("pageable"))
    return "pageable";
  return "";
}

/// Collective name / message size from the nearest record_param_comms-like
/// ancestor of the launch (args "Collective name", "In msg nelems").
void collectiveInfo(const Trace &T, EventId E, CollectiveOp &Op) {
  for (EventId P = T.parent(E); P != NoEvent; P = T.parent(P)) {
    if (T.kind(P) != EventKind::CpuOp)
      continue;
    ArgValue A = T.args(P);
    ArgValue Coll = A.get("Collective name");
    if (!Coll.isString())
      continue;
    Op.Collective = Coll.getString().str();
    Op.Nelems = A.get("In msg nelems").asInt();
    if (A.get("dtype").isString())
      Op.DType = A.get("dtype").getString().str();
    return;
  }
}

} // namespace

MultiKernelData::MultiKernelData(const Trace &T, AnalysisManager &AM) {
  llvm::ArrayRef<EventId> Gpu = T.gpuEvents();
  const GpuTimeline &TL = AM.get<GpuTimeline>();
  // Equal event lists make equal timelines: share the linked one when it
  // already covers every GPU event.
  if (TL.events().size() == Gpu.size()) {
    Overlap = &TL;
  } else {
    OwnOverlap = std::make_shared<const GpuTimeline>(
        T, std::vector<EventId>(Gpu.begin(), Gpu.end()));
    Overlap = OwnOverlap.get();
  }

  std::map<std::tuple<unsigned, std::string, std::string, std::string,
                      std::string, std::string, std::string>,
           size_t>
      SiteIdx;
  std::map<std::optional<int64_t>, size_t> StreamIdx;
  GpuBucketer Bucket(T);
  for (EventId E : Gpu) {
    GpuBucket B = Bucket(E);
    if (B == GpuBucket::Memcpy) {
      MemcpyEvents.push_back(E);
      CopyDir D = copyDirOf(T.name(E));
      MemcpyDirStats &S = Dirs[static_cast<unsigned>(D)];
      ++S.Count;
      S.TotalUs += T.dur(E);
      S.MaxUs = S.Count == 1 ? T.dur(E) : std::max(S.MaxUs, T.dur(E));
      if (std::optional<int64_t> By = T.bytes(E); By && *By) {
        S.TotalBytes += *By;
        S.AnyBytes = true;
      }
      // Attribution (beyond the reference).
      HostContext C = hostContextOf(T, E);
      std::string Op = C.CpuOp == NoEvent ? "" : T.name(C.CpuOp).str();
      std::string Mem = hostMemoryOf(T.name(E)).str();
      auto Key = std::make_tuple(static_cast<unsigned>(D), Op, C.PyCall,
                                 C.PyFrame, C.Module, Mem, std::string());
      auto [It, New] = SiteIdx.try_emplace(Key, Sites.size());
      if (New) {
        TransferSite TS;
        TS.Dir = D;
        TS.CpuOp = Op;
        TS.PyCall = C.PyCall;
        TS.PyFrame = C.PyFrame;
        TS.Module = C.Module;
        TS.HostMemory = Mem;
        TS.First = E;
        Sites.push_back(std::move(TS));
      }
      TransferSite &TS = Sites[It->second];
      ++TS.Count;
      TS.TotalUs += T.dur(E);
      TS.Bytes += T.bytes(E).value_or(0);
    } else if (B == GpuBucket::Communication) {
      CommEvents.push_back(E);
      CommTotalUs += T.dur(E);
      CommMaxUs = CommEvents.size() == 1 ? T.dur(E)
                                         : std::max(CommMaxUs, T.dur(E));
      CollectiveOp Op;
      Op.E = E;
      Op.Stream = T.stream(E);
      collectiveInfo(T, E, Op);
      Collectives.push_back(std::move(Op));
      auto [It, New] = StreamIdx.try_emplace(T.stream(E), CommStreams.size());
      if (New)
        CommStreams.push_back({T.stream(E), 0, 0});
      ++CommStreams[It->second].Count;
      CommStreams[It->second].TotalUs += T.dur(E);
    }
  }
  std::stable_sort(Collectives.begin(), Collectives.end(),
                   [&](const CollectiveOp &A, const CollectiveOp &B) {
                     return T.dur(A.E) > T.dur(B.E);
                   });
  std::stable_sort(Sites.begin(), Sites.end(),
                   [](const TransferSite &A, const TransferSite &B) {
                     return A.TotalUs > B.TotalUs;
                   });

  // Synchronize calls and the idle gaps of the linked timeline they overlap.
  llvm::ArrayRef<Interval> Busy = TL.mergedAll();
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K)) {
      StringRef N = T.name(E);
      std::string Kind;
      if (N.ends_with("DeviceSynchronize") || N == "cuCtxSynchronize")
        Kind = "device";
      else if (N.ends_with("StreamSynchronize") ||
               N == "cuStreamSynchronize")
        Kind = "stream";
      else if (N.ends_with("EventSynchronize") || N == "cuEventSynchronize")
        Kind = "event";
      else
        continue;
      SyncCall S;
      S.E = E;
      S.Kind = Kind;
      S.HostUs = T.dur(E);
      double A = T.ts(E), Z = T.end(E);
      // Gaps (Busy[I-1].End, Busy[I].Start) rise with I: start at the
      // first one ending after A, stop at the first starting at or past Z.
      size_t I = std::upper_bound(Busy.begin(), Busy.end(), A,
                                  [](double V, const Interval &B) {
                                    return V < B.Start;
                                  }) -
                 Busy.begin();
      for (I = std::max<size_t>(I, 1); I < Busy.size() && Busy[I - 1].End < Z;
           ++I)
        S.GpuIdleUs += Busy[I].Start - Busy[I - 1].End;
      HostContext C = hostContextOf(T, E);
      // hostContextOf starts at the parent; a runtime event is its own launch.
      S.CpuOp = C.CpuOp == NoEvent ? "" : T.name(C.CpuOp).str();
      S.PyFrame = C.PyFrame;
      Syncs.push_back(std::move(S));
    }
  std::sort(Syncs.begin(), Syncs.end(), [&](const SyncCall &A,
                                            const SyncCall &B) {
    return T.ts(A.E) < T.ts(B.E);
  });
}

double MultiKernelData::memcpyTotalUs() const {
  double S = 0;
  for (const MemcpyDirStats &D : Dirs)
    if (D.Count)
      S += pyRound(D.TotalUs, 2);
  return pyRound(S, 2);
}

PyValue MultiKernelData::overlapAnalysis() const {
  const GpuTimeline &O = overlap();
  if (!O.hasGpuEvents())
    return PyValue::dict({});
  auto R = [](double V) { return PyValue::real(V); };
  double Tot = O.totalTime(), Comm = O.totalCommTime(),
         Copy = O.totalMemcpyTime();
  return PyValue::dict(
      {{"total_time_us", R(pyRound(Tot, 2))},
       {"computation_time_us", R(pyRound(O.computationTime(), 2))},
       {"total_comm_time_us", R(pyRound(Comm, 2))},
       {"exposed_comm_time_us", R(pyRound(O.exposedCommTime(), 2))},
       {"total_memcpy_time_us", R(pyRound(Copy, 2))},
       {"exposed_memcpy_time_us", R(pyRound(O.exposedMemcpyTime(), 2))},
       {"comm_overlap_ratio",
        Comm > 0 ? R(pyRound(1 - O.exposedCommTime() / Comm, 4))
                 : PyValue::none()},
       {"memcpy_overlap_ratio",
        Copy > 0 ? R(pyRound(1 - O.exposedMemcpyTime() / Copy, 4))
                 : PyValue::none()},
       {"comm_percent_of_total",
        R(Tot > 0 ? pyRound(O.exposedCommTime() / Tot * 100, 2) : 0.0)},
       {"memcpy_percent_of_total",
        R(Tot > 0 ? pyRound(O.exposedMemcpyTime() / Tot * 100, 2) : 0.0)}});
}

PyValue tl::memcpyDirDoc(const MemcpyDirStats &S, PyValue NoBytes) {
  auto R = [](double V) { return PyValue::real(V); };
  return PyValue::dict(
      {{"count", PyValue::integer(static_cast<int64_t>(S.Count))},
       {"total_time_us", R(pyRound(S.TotalUs, 2))},
       {"avg_time_us", R(pyRound(S.TotalUs / S.Count, 2))},
       {"max_time_us", R(pyRound(S.MaxUs, 2))},
       {"total_bytes", PyValue::integer(S.TotalBytes)},
       {"avg_bytes",
        S.AnyBytes ? R(pyRound(double(S.TotalBytes) / S.Count, 2))
                   : std::move(NoBytes)}});
}

PyValue MultiKernelData::toDoc(const Trace &T) const {
  auto R = [](double V) { return PyValue::real(V); };
  auto Int = [](int64_t V) { return PyValue::integer(V); };
  std::vector<std::pair<std::string, PyValue>> ByDir;
  for (unsigned I = 0; I < NumCopyDirs; ++I) {
    const MemcpyDirStats &D = Dirs[I];
    if (!D.Count)
      continue;
    ByDir.push_back({copyDirName(static_cast<CopyDir>(I)).str(),
                     memcpyDirDoc(D, Int(0))});
  }
  std::vector<std::pair<std::string, PyValue>> Nccl = {
      {"total_count", Int(static_cast<int64_t>(CommEvents.size()))}};
  if (CommEvents.empty()) {
    Nccl.push_back({"total_time_us", Int(0)});
  } else {
    Nccl.push_back({"total_time_us", R(pyRound(CommTotalUs, 2))});
    Nccl.push_back(
        {"avg_time_us", R(pyRound(CommTotalUs / CommEvents.size(), 2))});
    Nccl.push_back({"max_time_us", R(pyRound(CommMaxUs, 2))});
    Nccl.push_back({"top_ops", topCollectivesDoc(T)});
  }
  return PyValue::dict(
      {{"memcpy_summary",
        PyValue::dict({{"total_count", Int(static_cast<int64_t>(memcpyCount()))},
                       {"total_time_us", R(memcpyTotalUs())},
                       {"by_direction", PyValue::dict(std::move(ByDir))}})},
       {"nccl_summary", PyValue::dict(std::move(Nccl))},
       {"overlap_analysis", overlapAnalysis()}});
}

PyValue MultiKernelData::topCollectivesDoc(const Trace &T) const {
  std::vector<PyValue> Top;
  for (size_t I = 0; I < Collectives.size() && I < 10; ++I) {
    const CollectiveOp &C = Collectives[I];
    Top.push_back(PyValue::dict(
        {{"name", PyValue::str(T.name(C.E))},
         {"duration_us", PyValue::real(pyRound(T.dur(C.E), 2))},
         {"stream", C.Stream ? PyValue::integer(*C.Stream) : PyValue::none()}}));
  }
  return PyValue::list(std::move(Top));
}
