//===- Importer.cpp - Streaming Kineto JSON importer ----------------------===//
//
// One SAX pass (JsonReader: RapidJSON's iterative, full-precision, UTF-8
// checked parse, made faster) fills the Trace's columns directly; flows and
// metadata are kept aside and consumed by buildStructure(). No DOM is built and no event allocates on
// the heap: names are interned, args go to the shared ArgStore arena.
//
//===----------------------------------------------------------------------===//
#include "tl/Import/Importer.h"
#include "ImportInternal.h"
#include "InputSource.h"
#include "InputStream.h"
#include "JsonReader.h"
#include "TailParser.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/rapidjson.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace tl;

void ImportState::warn(Trace::Storage &S, std::string Msg) {
  ++WarningCount;
  if (S.Stats.Warnings.size() < 50)
    S.Stats.Warnings.push_back(std::move(Msg));
}

static std::tuple<int64_t, int64_t, unsigned> trackKey(const TrackPart &P,
                                                       const TrackPart &T) {
  return {P.IsString ? int64_t(P.Str) : P.Int,
          T.IsString ? int64_t(T.Str) : T.Int,
          unsigned(P.IsString) | unsigned(T.IsString) << 1 | 4u};
}

TrackId ImportState::getOrAddTrack(Trace::Storage &S, const TrackPart &Pid,
                                   const TrackPart &Tid) {
  auto [It, Inserted] =
      TrackIndex.try_emplace(trackKey(Pid, Tid), TrackId(S.Tracks.size()));
  if (Inserted) {
    Track T;
    T.Pid = Pid;
    T.Tid = Tid;
    S.Tracks.push_back(T);
  }
  return It->second;
}

uint32_t ImportState::flowTrack(const TrackPart &Pid, const TrackPart &Tid) {
  auto [It, Inserted] =
      FlowTrackIndex.try_emplace(trackKey(Pid, Tid), FlowTracks.size());
  if (Inserted)
    FlowTracks.push_back({Pid, Tid});
  return It->second;
}

TrackId ImportState::findTrack(const TrackPart &Pid,
                               const TrackPart &Tid) const {
  auto It = TrackIndex.find(trackKey(Pid, Tid));
  return It == TrackIndex.end() ? ~0u : It->second;
}

namespace {

/// A JSON scalar as delivered by the SAX reader.
struct Scalar {
  enum Kind { Null, Bool, Int, Double, String } K;
  int64_t I;
  double D;
  llvm::StringRef S;
  Scalar(Kind K, int64_t I = 0, double D = 0) : K(K), I(I), D(D) {}
};

enum class Field : uint8_t {
  Ph,
  Name,
  Cat,
  Ts,
  Dur,
  Pid,
  Tid,
  Id,
  Args,
  Other
};

class KinetoHandler {
public:
  KinetoHandler(Trace::Storage &S, ImportState &State, InputStream &In,
                const ImportOptions &Opts, const JsonStackModel &Stack)
      : S(S), State(State), In(In), Opts(Opts), Stack(Stack), ArgB(S.Args),
        TopB(S.Args) {}

  // SAX handler interface (RapidJSON's, as JsonReader calls it).
  bool Null() { return scalar({Scalar::Null}); }
  bool Bool(bool B) { return scalar({Scalar::Bool, B}); }
  bool Int(int V) { return scalar({Scalar::Int, V}); }
  bool Uint(unsigned V) { return scalar({Scalar::Int, int64_t(V)}); }
  bool Int64(int64_t V) { return scalar({Scalar::Int, V}); }
  bool Uint64(uint64_t V) {
    if (V <= uint64_t(INT64_MAX))
      return scalar({Scalar::Int, int64_t(V)});
    return scalar({Scalar::Double, 0, double(V)});
  }
  bool Double(double V) { return scalar({Scalar::Double, 0, V}); }
  bool RawNumber(const char *, rapidjson::SizeType, bool) { return true; }
  bool String(const char *Str, rapidjson::SizeType Len, bool) {
    // A long string may grow the pool a lot at once: check memory now.
    if (Len > (1u << 16))
      NextMemCheck = 0;
    Scalar V{Scalar::String};
    V.S = llvm::StringRef(Str, Len);
    return scalar(V);
  }
  bool StartObject() { return start(true); }
  bool StartArray() { return start(false); }
  bool EndObject(rapidjson::SizeType) { return end(); }
  bool EndArray(rapidjson::SizeType) { return end(); }
  bool Key(const char *Str, rapidjson::SizeType Len, bool) {
    return key(llvm::StringRef(Str, Len));
  }

  bool sawTraceEvents() const { return SeenEvents; }
  /// Parse the events after the tail parser's split on its thread.
  void setTail(TailParser *T) { Tail = T; }
  /// A handler call failed while replaying the tail's tape: its error
  /// offset is not the input's (the caller imports again on one thread).
  bool failedInReplay() const { return ReplayFailed; }
  const std::string &error() const { return Err; }
  uint64_t errorOffset() const { return ErrOffset; }

private:
  enum class Mode : uint8_t {
    Root,       // expecting the top-level object
    TopKey,     // inside the top-level object, expecting a key
    TopValue,   // building a non-traceEvents top-level value
    EventsOpen, // after "traceEvents", expecting '['
    InEvents,   // inside traceEvents, expecting an event object
    EvKey,      // inside an event, expecting a key
    EvField,    // expecting the value of a known event field
    ArgsValue,  // building an event's args
    Skip,       // skipping an unknown event field
    Done,
  };

  // The error paths are out of line: the per-token paths stay small.
  LLVM_ATTRIBUTE_NOINLINE bool fail(const llvm::Twine &What) {
    Err = What.str();
    ErrOffset = In.Tell();
    return false;
  }

  static llvm::StringRef fieldName(Field F) {
    switch (F) {
    case Field::Ph:
      return "ph";
    case Field::Name:
      return "name";
    case Field::Cat:
      return "cat";
    case Field::Ts:
      return "ts";
    case Field::Dur:
      return "dur";
    case Field::Pid:
      return "pid";
    case Field::Tid:
      return "tid";
    case Field::Id:
      return "id";
    case Field::Args:
      return "args";
    case Field::Other:
      return "?";
    }
    return "?";
  }

  /// S.Strings.intern(K) through a small direct-mapped cache: most strings
  /// of a trace (args keys, names, categories, dtype lists) repeat, and a
  /// hit costs a cheap hash and one compare instead of the pool's lookup.
  /// Ids are the pool's, given in the same order.
  StrId intern(llvm::StringRef K) {
    if (K.empty() || K.size() > TapeSlotMaxLen)
      return S.Strings.intern(K);
    // The slot keeps the pool's copy of its text (the pool never moves
    // it), so a hit costs one compare and no pool access.
    CachedStr &Slot = InternCache[tapeSlot(K.data(), uint32_t(K.size()))];
    if (Slot.Id && Slot.Len == K.size() &&
        tapeSameBytes(Slot.Text, K.data(), K.size()))
      return Slot.Id;
    Slot.Id = S.Strings.intern(K);
    llvm::StringRef Text = S.Strings.get(Slot.Id);
    Slot.Text = Text.data();
    Slot.Len = uint32_t(Text.size());
    return Slot.Id;
  }

  void addTo(ArgBuilder &B, const Scalar &V) {
    switch (V.K) {
    case Scalar::Null:
      B.null();
      break;
    case Scalar::Bool:
      B.boolean(V.I != 0);
      break;
    case Scalar::Int:
      B.integer(V.I);
      break;
    case Scalar::Double:
      B.real(V.D);
      break;
    case Scalar::String:
      B.string(intern(V.S));
      break;
    }
  }

  /// Approximate bytes held by the trace being built, including the
  /// columns buildStructure() adds later (parent, children CSR, GPU order:
  /// about 16 bytes per event).
  uint64_t memoryBytes() const {
    // Columns count by size, not capacity: reserved but untouched capacity
    // costs no RSS.
    uint64_t B = S.size() * (sizeof(EventKind) + 3 * sizeof(uint32_t) +
                             2 * sizeof(StrId) + 2 * sizeof(double) +
                             sizeof(EventId) + 16) +
                 S.Gpu.size() * sizeof(EventId);
    B += S.Strings.memoryBytes() + S.Args.memoryBytes() +
         ArgB.memoryBytes() + TopB.memoryBytes() + Stack.Cap;
    B += S.Tracks.capacity() * sizeof(Track) + State.TrackIndex.getMemorySize();
    B += State.Flows.capacity() * sizeof(FlowRecord) +
         State.Meta.capacity() * sizeof(MetaRecord);
    return B;
  }

  /// Called for every JSON token; checks the memory guard now and then.
  bool tick() {
    if (!Opts.MaxMemory || ++Tokens < NextMemCheck)
      return true;
    return checkMemory();
  }
  LLVM_ATTRIBUTE_NOINLINE bool checkMemory() {
    NextMemCheck = Tokens + (1u << 14);
    if (memoryBytes() > Opts.MaxMemory)
      return fail("expected the trace to fit in " +
                  std::to_string(Opts.MaxMemory >> 20) +
                  " MB of memory (memory limit; see --max-memory)");
    return true;
  }

  /// The error for a value of the wrong kind where mode M expects one.
  LLVM_ATTRIBUTE_NOINLINE bool wrongKind() {
    switch (M) {
    case Mode::Root:
      return fail("expected a JSON object at the top level");
    case Mode::EventsOpen:
      return fail("expected an array for \"traceEvents\"");
    case Mode::InEvents:
      return fail("expected an object for each entry of \"traceEvents\"");
    default:
      return fail("unexpected value");
    }
  }

  bool scalar(const Scalar &V) {
    if (!tick())
      return false;
    switch (M) {
    case Mode::Root:
    case Mode::EventsOpen:
    case Mode::InEvents:
      return wrongKind();
    case Mode::TopValue:
      addTo(TopB, V);
      if (TopB.depth() == 1)
        M = Mode::TopKey;
      return true;
    case Mode::EvField:
      M = Mode::EvKey;
      return setField(V);
    case Mode::ArgsValue:
      addTo(ArgB, V);
      if (ArgB.depth() == 0) {
        CurArgs = ArgB.finish();
        M = Mode::EvKey;
      }
      return true;
    case Mode::Skip:
      if (SkipDepth == 0)
        M = Mode::EvKey;
      return true;
    default:
      return fail("unexpected value");
    }
  }

  bool start(bool IsObject) {
    if (!tick())
      return false;
    switch (M) {
    case Mode::Root:
      if (!IsObject)
        return wrongKind();
      TopB.startContainer(true);
      M = Mode::TopKey;
      return true;
    case Mode::TopValue:
      TopB.startContainer(IsObject);
      return true;
    case Mode::EventsOpen:
      if (IsObject)
        return wrongKind();
      M = Mode::InEvents;
      return true;
    case Mode::InEvents:
      if (!IsObject)
        return wrongKind();
      beginEvent();
      M = Mode::EvKey;
      return true;
    case Mode::EvField:
      if (CurField != Field::Args)
        return failContainer();
      ArgB.startContainer(IsObject);
      M = Mode::ArgsValue;
      return true;
    case Mode::ArgsValue:
      ArgB.startContainer(IsObject);
      return true;
    case Mode::Skip:
      ++SkipDepth;
      return true;
    default:
      return fail("unexpected value");
    }
  }

  bool end() {
    switch (M) {
    case Mode::TopKey:
      TopB.endContainer();
      S.TopLevel = TopB.finish();
      M = Mode::Done;
      return true;
    case Mode::TopValue:
      TopB.endContainer();
      if (TopB.depth() == 1)
        M = Mode::TopKey;
      return true;
    case Mode::InEvents:
      M = Mode::TopKey;
      return true;
    case Mode::EvKey:
      M = Mode::InEvents;
      if (!endEvent())
        return false;
      if (Tail && In.Tell() >= Tail->hint()) {
        uint64_t At = Tail->waitForSplit();
        if (In.Tell() == At)
          return spliceTail();
        if (In.Tell() > At)
          Tail = nullptr; // passed it elsewhere: the tail goes unused
      }
      return true;
    case Mode::ArgsValue:
      ArgB.endContainer();
      if (ArgB.depth() == 0) {
        CurArgs = ArgB.finish();
        M = Mode::EvKey;
      }
      return true;
    case Mode::Skip:
      if (--SkipDepth == 0)
        M = Mode::EvKey;
      return true;
    default:
      return fail("unexpected end of container");
    }
  }

  bool key(llvm::StringRef K) {
    switch (M) {
    case Mode::TopKey:
      if (K == "traceEvents") {
        if (SeenEvents)
          return fail("expected a single \"traceEvents\" key (duplicate)");
        SeenEvents = true;
        M = Mode::EventsOpen;
        return true;
      }
      TopB.key(intern(K));
      M = Mode::TopValue;
      return true;
    case Mode::TopValue:
      TopB.key(intern(K));
      return true;
    case Mode::EvKey:
      CurField = eventField(K);
      if (CurField == Field::Other) {
        SkipDepth = 0;
        M = Mode::Skip;
      } else {
        M = Mode::EvField;
      }
      return true;
    case Mode::ArgsValue:
      ArgB.key(intern(K));
      return true;
    case Mode::Skip:
      return true;
    default:
      return fail("unexpected key");
    }
  }

  /// The event field named K (by length, then bytes: every event has
  /// several keys, and StringSwitch tries each name in turn).
  static Field eventField(llvm::StringRef K) {
    // (K.size() bytes of W, its terminating NUL excluded.)
    auto Is = [&](const char *W) {
      return std::memcmp(K.data(), W, K.size()) == 0;
    };
    switch (K.size()) {
    case 2:
      return Is("ph")   ? Field::Ph
             : Is("ts") ? Field::Ts
             : Is("id") ? Field::Id
                        : Field::Other;
    case 3:
      return Is("cat")   ? Field::Cat
             : Is("dur") ? Field::Dur
             : Is("pid") ? Field::Pid
             : Is("tid") ? Field::Tid
                         : Field::Other;
    case 4:
      return Is("name")   ? Field::Name
             : Is("args") ? Field::Args
                          : Field::Other;
    default:
      return Field::Other;
    }
  }

  /// A container where CurField (not args) wants a scalar.
  LLVM_ATTRIBUTE_NOINLINE bool failContainer() {
    return fail("expected a " + expectedType(CurField) + " for \"" +
                fieldName(CurField) + "\"");
  }
  /// A scalar of the wrong type for CurField ("expected <What> for ...").
  LLVM_ATTRIBUTE_NOINLINE bool failField(const char *What) {
    return fail(llvm::Twine("expected ") + What + " for \"" +
                fieldName(CurField) + "\"");
  }

  static std::string expectedType(Field F) {
    switch (F) {
    case Field::Ts:
    case Field::Dur:
      return "number";
    case Field::Pid:
    case Field::Tid:
    case Field::Id:
      return "integer or a string";
    default:
      return "string";
    }
  }

  void beginEvent() {
    HasPh = HasName = HasCat = HasTs = HasDur = HasId = false;
    Pid = Tid = TrackPart();
    CurArgs = 0;
    ArgMark = S.Args.mark();
    Name.clear();
    Cat.clear();
  }

  bool setField(const Scalar &V) {
    if (V.K == Scalar::Null)
      return true; // null = absent
    switch (CurField) {
    case Field::Ph:
    case Field::Name:
    case Field::Cat:
      if (V.K != Scalar::String)
        return failField("a string");
      if (CurField == Field::Ph) {
        Ph = V.S.size() == 1 ? V.S[0] : '?';
        HasPh = true;
      } else if (CurField == Field::Name) {
        Name.assign(V.S.data(), V.S.size());
        HasName = true;
      } else {
        Cat.assign(V.S.data(), V.S.size());
        HasCat = true;
      }
      return true;
    case Field::Ts:
    case Field::Dur: {
      if (V.K != Scalar::Int && V.K != Scalar::Double)
        return failField("a number");
      double D = V.K == Scalar::Int ? double(V.I) : V.D;
      if (CurField == Field::Ts) {
        Ts = D;
        HasTs = true;
      } else {
        Dur = D;
        HasDur = true;
      }
      return true;
    }
    case Field::Pid:
    case Field::Tid:
    case Field::Id: {
      TrackPart P;
      if (V.K == Scalar::Int) {
        P.Int = V.I;
      } else if (V.K == Scalar::Double && std::trunc(V.D) == V.D &&
                 std::fabs(V.D) < 9.2e18) {
        P.Int = int64_t(V.D);
      } else if (V.K == Scalar::String) {
        if (CurField == Field::Id) {
          // Flow ids are integers; accept their decimal or hex text.
          if (V.S.getAsInteger(0, P.Int))
            return true; // not a number: the flow is ignored
        } else {
          P.IsString = true;
          P.Str = intern(V.S);
        }
      } else {
        return failField("an integer or a string");
      }
      if (CurField == Field::Pid)
        Pid = P;
      else if (CurField == Field::Tid)
        Tid = P;
      else {
        FlowId = P.Int;
        HasId = true;
      }
      return true;
    }
    case Field::Args: // a scalar args value: keep it as is
      addTo(ArgB, V);
      CurArgs = ArgB.finish();
      return true;
    case Field::Other:
      return true;
    }
    return true;
  }

  /// Our parse just ended the event the tail parser's split follows: both
  /// parsers are in the same state here, so replay the tail's events and
  /// continue after the last one.
  bool spliceTail() {
    TailParser *T = Tail;
    Tail = nullptr;
    if (Opts.OnSplice)
      Opts.OnSplice(T->splitEventEnd());
    uint64_t ResumeAt;
    if (!T->replay(*this, ResumeAt)) {
      ReplayFailed = true;
      return false;
    }
    // The parser takes the '}' it called us for next: make that the '}' of
    // the last replayed event.
    In.seekTo(ResumeAt);
    return true;
  }

  /// "event <uid>: " for the event being finished (already counted).
  std::string where() const {
    return "event " + std::to_string(S.Stats.TotalEntries - 1) + ": ";
  }

  void dropArgs() { S.Args.truncate(ArgMark); }

  bool endEvent() {
    uint64_t Uid = S.Stats.TotalEntries++;
    if (Uid >= UINT32_MAX || S.Args.nearlyFull())
      return fail("expected fewer than 2^32 trace events and args values");
    if (!HasPh) {
      ++S.Stats.OtherPhases;
      State.warn(S, where() + "no \"ph\"; ignored");
      dropArgs();
      return true;
    }
    switch (Ph) {
    case 'X':
      return addComplete(Uid);
    case 's':
    case 'f':
    case 't': {
      ++S.Stats.FlowEvents;
      dropArgs();
      if (Ph != 't' && HasCat && (Cat == "ac2g" || Cat == "async_cpu_to_gpu")) {
        if (!HasId) {
          State.warn(S, where() + "flow without an integer \"id\"; ignored");
          return true;
        }
        State.Flows.push_back(
            {FlowId, Ph == 's' ? 0u : State.flowTrack(Pid, Tid), Ph == 's'});
      }
      return true;
    }
    case 'M':
      ++S.Stats.MetadataEvents;
      addMetadata();
      dropArgs();
      return true;
    case 'i':
    case 'I':
      ++S.Stats.InstantEvents;
      if (HasName && HasTs && (Name == "[memory]" || Name == "[OutOfMemory]"))
        addMemory(Uid);
      dropArgs();
      return true;
    default:
      ++S.Stats.OtherPhases;
      dropArgs();
      return true;
    }
  }

  /// Keep an allocator instant (docs/IR.md; spec memory-timeline.md §2).
  void addMemory(uint64_t Uid) {
    MemoryEvent M;
    M.Uid = Uid;
    M.Ts = Ts;
    M.Pid = Pid;
    M.Tid = Tid;
    M.OutOfMemory = Name == "[OutOfMemory]";
    ArgValue A = S.Args.value(CurArgs);
    M.Bytes = A.get("Bytes").asInt();
    M.TotalAllocated = A.get("Total Allocated").asInt();
    M.TotalReserved = A.get("Total Reserved").asInt();
    M.Addr = A.get("Addr").asInt();
    M.DeviceId = A.get("Device Id").asInt();
    M.DeviceType = A.get("Device Type").asInt();
    S.Memory.push_back(M);
  }

  void addMetadata() {
    MetaRecord::KeyKind K;
    const char *ArgKey;
    if (Name == "process_name") {
      K = MetaRecord::ProcessName;
      ArgKey = "name";
    } else if (Name == "process_labels") {
      K = MetaRecord::ProcessLabels;
      ArgKey = "labels";
    } else if (Name == "thread_name") {
      K = MetaRecord::ThreadName;
      ArgKey = "name";
    } else {
      return; // sort indices and unknown names carry nothing we use
    }
    ArgValue V = S.Args.value(CurArgs).get(ArgKey);
    StrId Val = V.isString() ? S.Strings.intern(V.getString())
                             : S.Strings.intern(V.toJson());
    State.Meta.push_back({Pid, Tid, K, Val});
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

  /// kindOf(Cat) by the category's string id: a trace has few categories,
  /// and they repeat on every event.
  EventKind kindOfCat(StrId Id) {
    if (Id >= KindByCat.size())
      KindByCat.resize(std::max<size_t>(Id + 1, KindByCat.size() * 2),
                       NoKind);
    uint8_t &K = KindByCat[Id];
    if (K == NoKind)
      K = uint8_t(kindOf(Cat));
    return EventKind(K);
  }

  bool addComplete(uint64_t Uid) {
    ++S.Stats.CompleteEvents;
    if (!HasTs || !HasDur) {
      State.warn(S, where() + "complete event without \"" +
                        (HasTs ? "dur" : "ts") + "\"; ignored");
      dropArgs();
      return true;
    }
    if (!HasName)
      State.warn(S, where() + "complete event without \"name\"");
    if (Dur < 0) {
      State.warn(S, where() + "negative \"dur\" " + std::to_string(Dur) +
                        " clamped to 0");
      Dur = 0;
    }
    if (Opts.MaxEvents && S.size() >= Opts.MaxEvents)
      return fail("expected at most " + std::to_string(Opts.MaxEvents) +
                  " events (event limit)");
    EventId E = EventId(S.size());
    StrId NameId = intern(Name);
    StrId CatId = HasCat ? intern(Cat) : 0;
    EventKind K = HasCat ? kindOfCat(CatId) : EventKind::Other;
    S.Kind.push_back(K);
    S.Uid.push_back(uint32_t(Uid));
    S.Name.push_back(NameId);
    S.Cat.push_back(CatId);
    S.Ts.push_back(Ts);
    S.Dur.push_back(Dur);
    if (!(Pid == LastPid && Tid == LastTid) || LastTrack == ~0u) {
      LastTrack = State.getOrAddTrack(S, Pid, Tid);
      LastPid = Pid;
      LastTid = Tid;
    }
    S.TrackOf.push_back(LastTrack);
    S.ArgsNode.push_back(CurArgs);
    S.ByKind[unsigned(K)].push_back(E);
    if (isGpuKind(K))
      S.Gpu.push_back(E);
    return true;
  }

  Trace::Storage &S;
  ImportState &State;
  InputStream &In;
  const ImportOptions &Opts;
  const JsonStackModel &Stack;
  uint64_t Tokens = 0, NextMemCheck = 0;
  ArgBuilder ArgB, TopB;
  Mode M = Mode::Root;
  Field CurField = Field::Other;
  uint32_t SkipDepth = 0;
  bool SeenEvents = false;

  // The event being parsed.
  bool HasPh, HasName, HasCat, HasTs, HasDur, HasId;
  char Ph = 0;
  std::string Name, Cat;
  double Ts = 0, Dur = 0;
  TrackPart Pid, Tid;
  int64_t FlowId = 0;
  uint32_t CurArgs = 0;
  ArgStore::Mark ArgMark{0, 0};
  TrackPart LastPid, LastTid;
  TrackId LastTrack = ~0u;

  /// Event kind by category string id (NoKind: not seen yet).
  static constexpr uint8_t NoKind = 0xff;
  std::vector<uint8_t> KindByCat;

  TailParser *Tail = nullptr;
  bool ReplayFailed = false;
  struct CachedStr {
    const char *Text = nullptr;
    uint32_t Len = 0;
    StrId Id = 0;
  };
  std::vector<CachedStr> InternCache = std::vector<CachedStr>(TapeSlots);

  std::string Err;
  uint64_t ErrOffset = 0;
};

} // namespace

static const char *parseErrorText(rapidjson::ParseErrorCode C) {
  using namespace rapidjson;
  switch (C) {
  case kParseErrorDocumentEmpty:
    return "expected a JSON value (the input is empty)";
  case kParseErrorDocumentRootNotSingular:
    return "expected the end of the input after the top-level value";
  case kParseErrorValueInvalid:
    return "expected a JSON value";
  case kParseErrorObjectMissName:
    return "expected a string key in the object";
  case kParseErrorObjectMissColon:
    return "expected ':' after the object key";
  case kParseErrorObjectMissCommaOrCurlyBracket:
    return "expected ',' or '}' in the object";
  case kParseErrorArrayMissCommaOrSquareBracket:
    return "expected ',' or ']' in the array";
  case kParseErrorStringUnicodeEscapeInvalidHex:
    return "expected 4 hex digits after '\\u'";
  case kParseErrorStringUnicodeSurrogateInvalid:
    return "expected a valid UTF-16 surrogate pair";
  case kParseErrorStringEscapeInvalid:
    return "expected a valid escape sequence in the string";
  case kParseErrorStringMissQuotationMark:
    return "expected a closing '\"' (unterminated string)";
  case kParseErrorStringInvalidEncoding:
    return "expected valid UTF-8 text in the string";
  case kParseErrorNumberTooBig:
    return "expected a number within double range";
  case kParseErrorNumberMissFraction:
    return "expected digits after the decimal point";
  case kParseErrorNumberMissExponent:
    return "expected digits in the exponent";
  default:
    return "expected well-formed JSON";
  }
}

static llvm::Error makeError(llvm::StringRef Name, uint64_t Offset,
                             const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Name + ": offset " + llvm::Twine(Offset) +
                                     ": " + What);
}

/// Largest gzip input (by its trailer) inflated into one buffer for two
/// parser threads; larger ones stream through fixed chunks on one parser.
static constexpr uint64_t MaxGrowBytes = 256u << 20;

/// Where a tail parser can read the input again.
struct TailSource {
  std::string Path;    // the file, or
  llvm::StringRef Mem; // the buffer when Path is empty
};

static llvm::Expected<Trace> importStream(InputStream &In, llvm::StringRef Name,
                                          const ImportOptions &Opts,
                                          const TailSource &Src, bool &Retry) {
  Retry = false;
  Trace T;
  Trace::Storage &S = T.storage();
  S.Path = Name.str();
  ImportState State;
  // Gzip input of moderate size is inflated into one buffer, so that the
  // tail parser can read it too (bounded: that buffer is the whole JSON).
  bool TwoThreads =
      Opts.Threads != 1 && std::thread::hardware_concurrency() > 1;
  if (TwoThreads)
    In.setGrowRange(Opts.SplitMinBytes,
                    Opts.MaxBytes ? std::min(Opts.MaxBytes, MaxGrowBytes)
                                  : MaxGrowBytes);
  if (!In.start())
    return makeError(Name, In.errorOffset(), In.error());

  // Reserve the columns for the expected number of complete events (about
  // one per 500 JSON bytes in real traces); untouched capacity costs no RSS.
  uint64_t EstEvents = std::min<uint64_t>(In.sizeHint() / 400, 1u << 26);
  if (Opts.MaxEvents)
    EstEvents = std::min(EstEvents, Opts.MaxEvents);
  if (size_t Est = size_t(EstEvents)) {
    S.Kind.reserve(Est);
    S.Uid.reserve(Est);
    S.Name.reserve(Est);
    S.Cat.reserve(Est);
    S.Ts.reserve(Est);
    S.Dur.reserve(Est);
    S.TrackOf.reserve(Est);
    S.ArgsNode.reserve(Est);
  }
  // RapidJSON's parser stack, as the cap (MaxStringBytes) sees it.
  JsonStackModel Stack;
  Stack.Limit = Opts.MaxStringBytes;
  KinetoHandler H(S, State, In, Opts, Stack);
  // Plain input is read again from the split by a second thread. The split
  // lands about where both threads finish together: the tail thread only
  // parses, this one also builds every event (1 GB tl-gen, CPU s of the
  // calling / tail thread: split at 30 %: 2.27 / 1.97; at 22 %: 2.20 / 2.20;
  // with cheaper event building and structure work, import wall medians on
  // an idle machine: 2.36 s at 22 %, 2.31 s at 24 %, 2.30 s at 26 %, whose
  // peak RSS is up to 5 MB higher).
  // Gzip input on fewer than three cores: the tail thread shares its core
  // with the inflater, so the split lies further in and the tail thread
  // starts once the inflater is done (two runnable threads, not three).
  // --stop-after=import medians on 2 cores: h100 owlv2, 55.6 MB: 139-148 ms
  // at 24 %, 131 ms on one parser thread, 120 / 117 / 116 ms at 55 / 60 /
  // 65 %, then 113 / 109 -> 107 / 106 ms and fewer slow outliers with the
  // late start; tl-gen 60 MB .json.gz: 196 ms one parser, 172 ms at 60 %;
  // tl-gen 200 MB: 601 ms one parser, 551 / 562 / 620 ms at 50 / 60 / 70 %.
  std::unique_ptr<TailParser> Tail;
  uint64_t Size = In.sizeHint();
  if (TwoThreads && (!In.isGzip() || In.growing()) &&
      Size >= Opts.SplitMinBytes && (!Opts.MaxBytes || Size <= Opts.MaxBytes)) {
    bool SharesInflaterCores =
        In.growing() && std::thread::hardware_concurrency() < 3;
    double Share = SharesInflaterCores ? 0.6 : 0.24;
    uint64_t Hint = Opts.SplitOffset ? Opts.SplitOffset
                                     : uint64_t(double(Size) * Share);
    if (In.growing())
      Tail = std::make_unique<TailParser>("", llvm::StringRef(), In.growing(),
                                          Size, Hint, Opts.MaxStringBytes,
                                          SharesInflaterCores);
    else
      Tail = std::make_unique<TailParser>(Src.Path, Src.Mem, nullptr, Size,
                                          Hint, Opts.MaxStringBytes);
    H.setTail(Tail.get());
  }
  InputSource Source(In, Opts.MaxStringBytes);
  JsonReader<InputSource, KinetoHandler> R(Source, H, Stack);
  JsonParseResult Res = R.parse();
  Tail.reset(); // stop the tail thread and drop any unused tape
  if (H.failedInReplay() || In.overflowed()) {
    Retry = true;
    return makeError(Name, 0, "retry on one thread");
  }
  if (In.hasError())
    return makeError(Name, In.errorOffset(), In.error());
  if (Res.isError()) {
    if (Res.Code == rapidjson::kParseErrorTermination && !H.error().empty())
      return makeError(Name, H.errorOffset(), H.error());
    return makeError(Name, Res.Offset, parseErrorText(Res.Code));
  }
  S.Stats.InputBytes = In.Tell();
  if (!H.sawTraceEvents())
    return makeError(Name, In.Tell(),
                     "expected a \"traceEvents\" array in the top-level "
                     "object");
  buildStructure(S, State, TwoThreads);
  if (State.WarningCount > S.Stats.Warnings.size())
    S.Stats.Warnings.push_back(
        std::to_string(State.WarningCount - S.Stats.Warnings.size()) +
        " more warnings");
  return T;
}

static bool backgroundInflate(const ImportOptions &Opts) {
  return Opts.Threads != 1 && std::thread::hardware_concurrency() > 1;
}

llvm::Expected<Trace> tl::importTraceFromBuffer(llvm::StringRef Data,
                                                llvm::StringRef Name,
                                                const ImportOptions &Opts) {
  bool Retry;
  {
    InputStream In(nullptr, Data, Opts.MaxBytes, Opts.Progress,
                   backgroundInflate(Opts));
    auto T = importStream(In, Name, Opts, TailSource{"", Data}, Retry);
    if (!Retry)
      return T;
    llvm::consumeError(T.takeError());
  }
  ImportOptions One = Opts;
  One.Threads = 1;
  InputStream In(nullptr, Data, One.MaxBytes, One.Progress, false);
  return importStream(In, Name, One, TailSource{"", Data}, Retry);
}

llvm::Expected<Trace> tl::importTrace(llvm::StringRef Path,
                                      const ImportOptions &Opts) {
  std::string P = Path.str();
  std::FILE *F = std::fopen(P.c_str(), "rb");
  if (!F)
    return makeError(Path, 0,
                     "expected a readable file (" +
                         llvm::Twine(std::strerror(errno)) + ")");
  bool Retry;
  {
    InputStream In(F, llvm::StringRef(), Opts.MaxBytes, Opts.Progress,
                   backgroundInflate(Opts));
    auto T = importStream(In, Path, Opts, TailSource{P, {}}, Retry);
    if (!Retry)
      return T;
    llvm::consumeError(T.takeError());
  }
  // A handler error inside the tail's events: import again on one thread
  // for its exact offset.
  ImportOptions One = Opts;
  One.Threads = 1;
  F = std::fopen(P.c_str(), "rb");
  if (!F)
    return makeError(Path, 0,
                     "expected a readable file (" +
                         llvm::Twine(std::strerror(errno)) + ")");
  InputStream In(F, llvm::StringRef(), One.MaxBytes, One.Progress, false);
  return importStream(In, Path, One, TailSource{P, {}}, Retry);
}
