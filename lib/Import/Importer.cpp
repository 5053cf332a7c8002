//===- Importer.cpp - Streaming Kineto JSON importer ----------------------===//
//
// One SAX pass (JsonReader: RapidJSON's iterative, full-precision, UTF-8
// checked parse, made faster; KinetoHandler) fills the Trace's columns
// directly; flows and metadata are kept aside and consumed by
// buildStructure(). No DOM is built and no event allocates on the heap:
// names are interned, args go to the shared ArgStore arena. This file only
// drives it: input, threads, errors.
//
// The JSON structure of a Kineto trace as a state machine over SAX tokens
// (KinetoHandler): the top-level object (kept whole in the ArgStore, except
// traceEvents), the traceEvents array and each event's keys. The jobs around
// it are separate: EventFields decodes an event's known keys, EventLowering
// puts the finished event into the IR, InternCache interns strings. The
// handler also guards memory and splices in the tail parser's events.
//
//===----------------------------------------------------------------------===//
#include "tl/Import/Importer.h"
#include "BuildStructure.h"
#include "EventFields.h"
#include "EventLowering.h"
#include "ImportState.h"
#include "InternCache.h"
#include "tl/Input/InputSource.h"
#include "tl/Input/InputStream.h"
#include "tl/Input/JsonReader.h"
#include "tl/Input/TailParser.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/rapidjson.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace tl;

namespace {

class KinetoHandler {
public:
  KinetoHandler(Trace::Storage &S, ImportState &State, InputStream &In,
                const ImportOptions &Opts, const JsonStackModel &Stack)
      : S(S), State(State), In(In), Opts(Opts), Stack(Stack), ArgB(S.Args),
        TopB(S.Args), Intern(S.Strings), Lower(S, State, Opts, Intern) {}

  // SAX handler interface (RapidJSON's, as JsonReader calls it).
  bool Null() { return scalar({Scalar::Null}); }
  bool Bool(bool B) { return scalar({Scalar::Bool, B}); }
  bool Int(int V) { return scalar({Scalar::Int, V}); }
  bool Uint(unsigned V) { return scalar({Scalar::Int, int64_t(V)}); }
  bool Int64(int64_t V) { return scalar({Scalar::Int, V}); }
  bool Uint64(uint64_t V) {
    if (V <= uint64_t(INT64_MAX))
      return scalar({Scalar::Int, int64_t(V)});
    // c10d's `Comms Id` hash above INT64_MAX keeps its exact digits as a
    // string: a double would merge nearby ids (spec multi-rank.md §3.1).
    if (M == Mode::ArgsValue && CommsIdKey) {
      std::string Digits = std::to_string(V);
      Scalar S{Scalar::String};
      S.S = Digits;
      return scalar(S);
    }
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
      B.string(Intern.intern(V.S));
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
        Ev.Args = ArgB.finish();
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
      Ev.begin(S.Args);
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
        Ev.Args = ArgB.finish();
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
      TopB.key(Intern.intern(K));
      M = Mode::TopValue;
      return true;
    case Mode::TopValue:
      TopB.key(Intern.intern(K));
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
      ArgB.key(Intern.intern(K));
      CommsIdKey = K == "Comms Id";
      return true;
    case Mode::Skip:
      return true;
    default:
      return fail("unexpected key");
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

  bool setField(const Scalar &V) {
    if (V.K == Scalar::Null)
      return true; // null = absent
    if (CurField == Field::Args) { // a scalar args value: keep it as is
      addTo(ArgB, V);
      Ev.Args = ArgB.finish();
      return true;
    }
    if (const char *What = Ev.set(CurField, V, Intern))
      return failField(What);
    return true;
  }

  bool endEvent() {
    std::string Why;
    if (!Lower.endEvent(Ev, Why))
      return fail(Why);
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

  Trace::Storage &S;
  ImportState &State;
  InputStream &In;
  const ImportOptions &Opts;
  const JsonStackModel &Stack;
  uint64_t Tokens = 0, NextMemCheck = 0;
  ArgBuilder ArgB, TopB;
  InternCache Intern;
  EventLowering Lower;
  Mode M = Mode::Root;
  Field CurField = Field::Other;
  uint32_t SkipDepth = 0;
  bool SeenEvents = false;
  /// The last args key was "Comms Id" (Uint64 keeps its digits).
  bool CommsIdKey = false;
  EventFields Ev;

  TailParser *Tail = nullptr;
  bool ReplayFailed = false;

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
