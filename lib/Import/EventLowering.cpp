//===- EventLowering.cpp - One parsed event into the Trace's columns ------===//
#include "EventLowering.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace tl;

// 2^53 µs (285 years): beyond it a double no longer holds whole µs, and the
// analyses' sums of such times overflow to inf (two 1e308 durations do).
// No real trace comes near it, so an event beyond it is ignored.
static constexpr double MaxTimeUs = 9007199254740992.0;

bool EventLowering::timesInRange(const EventFields &Ev) {
  // Written so that NaN fails too.
  if ((!Ev.HasTs || std::fabs(Ev.Ts) <= MaxTimeUs) &&
      (!Ev.HasDur || std::fabs(Ev.Dur) <= MaxTimeUs))
    return true;
  State.warn(S, where() + "\"" +
                    (Ev.HasTs && !(std::fabs(Ev.Ts) <= MaxTimeUs) ? "ts"
                                                                   : "dur") +
                    "\" beyond 2^53 us; ignored");
  return false;
}

std::string EventLowering::where() const {
  return "event " + std::to_string(S.Stats.TotalEntries - 1) + ": ";
}

bool EventLowering::endEvent(EventFields &Ev, std::string &Err) {
  uint64_t Uid = S.Stats.TotalEntries++;
  if (Uid >= UINT32_MAX || S.Args.nearlyFull()) {
    Err = "expected fewer than 2^32 trace events and args values";
    return false;
  }
  if (!Ev.HasPh) {
    ++S.Stats.OtherPhases;
    State.warn(S, where() + "no \"ph\"; ignored");
    dropArgs(Ev);
    return true;
  }
  switch (Ev.Ph) {
  case 'X':
    return addComplete(Ev, Uid, Err);
  case 's':
  case 'f':
  case 't': {
    ++S.Stats.FlowEvents;
    dropArgs(Ev);
    if (Ev.Ph != 't' && Ev.HasCat &&
        (Ev.Cat == "ac2g" || Ev.Cat == "async_cpu_to_gpu")) {
      if (!Ev.HasId) {
        State.warn(S, where() + "flow without an integer \"id\"; ignored");
        return true;
      }
      State.Flows.push_back({Ev.FlowId,
                             Ev.Ph == 's' ? 0u
                                          : State.flowTrack(Ev.Pid, Ev.Tid),
                             Ev.Ph == 's'});
    }
    return true;
  }
  case 'M':
    ++S.Stats.MetadataEvents;
    addMetadata(Ev);
    dropArgs(Ev);
    return true;
  case 'i':
  case 'I':
    ++S.Stats.InstantEvents;
    if (Ev.HasName && Ev.HasTs &&
        (Ev.Name == "[memory]" || Ev.Name == "[OutOfMemory]") &&
        timesInRange(Ev))
      addMemory(Ev, Uid);
    dropArgs(Ev);
    return true;
  default:
    ++S.Stats.OtherPhases;
    dropArgs(Ev);
    return true;
  }
}

/// Keep an allocator instant (docs/IR.md; spec memory-timeline.md §2).
void EventLowering::addMemory(const EventFields &Ev, uint64_t Uid) {
  MemoryEvent M;
  M.Uid = Uid;
  M.Ts = Ev.Ts;
  M.Pid = Ev.Pid;
  M.Tid = Ev.Tid;
  M.OutOfMemory = Ev.Name == "[OutOfMemory]";
  ArgValue A = S.Args.value(Ev.Args);
  M.Bytes = A.get("Bytes").asInt();
  M.TotalAllocated = A.get("Total Allocated").asInt();
  M.TotalReserved = A.get("Total Reserved").asInt();
  M.Addr = A.get("Addr").asInt();
  M.DeviceId = A.get("Device Id").asInt();
  M.DeviceType = A.get("Device Type").asInt();
  S.Memory.push_back(M);
}

void EventLowering::addMetadata(const EventFields &Ev) {
  MetaRecord::KeyKind K;
  const char *ArgKey;
  if (Ev.Name == "process_name") {
    K = MetaRecord::ProcessName;
    ArgKey = "name";
  } else if (Ev.Name == "process_labels") {
    K = MetaRecord::ProcessLabels;
    ArgKey = "labels";
  } else if (Ev.Name == "thread_name") {
    K = MetaRecord::ThreadName;
    ArgKey = "name";
  } else {
    return; // sort indices and unknown names carry nothing we use
  }
  ArgValue V = S.Args.value(Ev.Args).get(ArgKey);
  StrId Val = V.isString() ? S.Strings.intern(V.getString())
                           : S.Strings.intern(V.toJson());
  State.Meta.push_back({Ev.Pid, Ev.Tid, K, Val});
}

static EventKind kindOf(llvm::StringRef Cat) {
  return llvm::StringSwitch<EventKind>(Cat)
      .Case("cpu_op", EventKind::CpuOp)
      .Case("python_function", EventKind::PythonFunction)
      .Case("user_annotation", EventKind::UserAnnotation)
      .Case("gpu_user_annotation", EventKind::GpuUserAnnotation)
      .Case("cuda_runtime", EventKind::Runtime)
      .Case("cuda_driver", EventKind::Driver)
      .Case("kernel", EventKind::Kernel)
      .Case("gpu_memcpy", EventKind::Memcpy)
      .Case("gpu_memset", EventKind::Memset)
      .Default(EventKind::Other);
}

EventKind EventLowering::kindOfCat(StrId Id, llvm::StringRef Cat) {
  if (Id >= KindByCat.size())
    KindByCat.resize(std::max<size_t>(Id + 1, KindByCat.size() * 2), NoKind);
  uint8_t &K = KindByCat[Id];
  if (K == NoKind)
    K = uint8_t(kindOf(Cat));
  return EventKind(K);
}

bool EventLowering::addComplete(EventFields &Ev, uint64_t Uid,
                                std::string &Err) {
  ++S.Stats.CompleteEvents;
  if (!Ev.HasTs || !Ev.HasDur) {
    State.warn(S, where() + "complete event without \"" +
                      (Ev.HasTs ? "dur" : "ts") + "\"; ignored");
    dropArgs(Ev);
    return true;
  }
  if (!timesInRange(Ev)) {
    dropArgs(Ev);
    return true;
  }
  if (!Ev.HasName)
    State.warn(S, where() + "complete event without \"name\"");
  if (Ev.Dur < 0) {
    State.warn(S, where() + "negative \"dur\" " + std::to_string(Ev.Dur) +
                      " clamped to 0");
    Ev.Dur = 0;
  }
  if (Opts.MaxEvents && S.size() >= Opts.MaxEvents) {
    Err = "expected at most " + std::to_string(Opts.MaxEvents) +
          " events (event limit)";
    return false;
  }
  EventId E = EventId(S.size());
  StrId NameId = Intern.intern(Ev.Name);
  StrId CatId = Ev.HasCat ? Intern.intern(Ev.Cat) : 0;
  EventKind K = Ev.HasCat ? kindOfCat(CatId, Ev.Cat) : EventKind::Other;
  S.Kind.push_back(K);
  S.Uid.push_back(uint32_t(Uid));
  S.Name.push_back(NameId);
  S.Cat.push_back(CatId);
  S.Ts.push_back(Ev.Ts);
  S.Dur.push_back(Ev.Dur);
  if (!(Ev.Pid == LastPid && Ev.Tid == LastTid) || LastTrack == ~0u) {
    LastTrack = State.getOrAddTrack(S, Ev.Pid, Ev.Tid);
    LastPid = Ev.Pid;
    LastTid = Ev.Tid;
  }
  S.TrackOf.push_back(LastTrack);
  S.ArgsNode.push_back(Ev.Args);
  S.ByKind[unsigned(K)].push_back(E);
  if (isGpuKind(K))
    S.Gpu.push_back(E);
  return true;
}
