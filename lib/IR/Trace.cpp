//===- Trace.cpp - Accessors of the columnar event IR ---------------------===//
#include "tl/IR/Trace.h"
#include "tl/IR/TraceStorage.h"

#include <algorithm>

using namespace tl;

Trace::Trace() : S(std::make_unique<Storage>()) {}
Trace::~Trace() = default;
Trace::Trace(Trace &&) noexcept = default;
Trace &Trace::operator=(Trace &&) noexcept = default;

Trace::Storage &Trace::storage() { return *S; }
const Trace::Storage &Trace::storage() const { return *S; }

void Trace::Storage::internKeys() {
  KeyCorrelation = Strings.lookup("correlation");
  KeyExternalId = Strings.lookup("External id");
  KeyStream = Strings.lookup("stream");
  KeyDevice = Strings.lookup("device");
  KeySequence = Strings.lookup("Sequence number");
  KeyBytes = Strings.lookup("bytes");
  KeyKind = Strings.lookup("kind");
}

size_t Trace::size() const { return S->size(); }
EventKind Trace::kind(EventId E) const { return S->Kind[E]; }
uint64_t Trace::uid(EventId E) const { return S->Uid[E]; }
EventId Trace::byUid(uint64_t Uid) const {
  // Uids are strictly increasing in EventId order.
  auto It = std::lower_bound(S->Uid.begin(), S->Uid.end(), Uid);
  if (It == S->Uid.end() || *It != Uid)
    return NoEvent;
  return EventId(It - S->Uid.begin());
}
llvm::StringRef Trace::name(EventId E) const {
  return S->Strings.get(S->Name[E]);
}
StrId Trace::nameId(EventId E) const { return S->Name[E]; }
llvm::StringRef Trace::cat(EventId E) const {
  return S->Strings.get(S->Cat[E]);
}
double Trace::ts(EventId E) const { return S->Ts[E]; }
double Trace::dur(EventId E) const { return S->Dur[E]; }
double Trace::end(EventId E) const { return S->Ts[E] + S->Dur[E]; }
TrackId Trace::track(EventId E) const { return S->TrackOf[E]; }

ArgValue Trace::args(EventId E) const { return S->Args.value(S->ArgsNode[E]); }

std::optional<ArgValue> Trace::Storage::arg(EventId E, StrId Key) const {
  bool Found = false;
  ArgValue V = Args.memberByKey(ArgsNode[E], Key, &Found);
  if (!Found)
    return std::nullopt;
  return V;
}

std::optional<int64_t> Trace::correlation(EventId E) const {
  return S->intArg(E, S->KeyCorrelation);
}
std::optional<int64_t> Trace::externalId(EventId E) const {
  return S->intArg(E, S->KeyExternalId);
}
std::optional<int64_t> Trace::stream(EventId E) const {
  return S->intArg(E, S->KeyStream);
}
std::optional<int64_t> Trace::device(EventId E) const {
  return S->intArg(E, S->KeyDevice);
}
std::optional<int64_t> Trace::sequenceNumber(EventId E) const {
  return S->intArg(E, S->KeySequence);
}
std::optional<int64_t> Trace::bytes(EventId E) const {
  return S->intArg(E, S->KeyBytes);
}

static MemcpyKind parseMemcpyKind(llvm::StringRef T) {
  if (T.contains("HtoD"))
    return MemcpyKind::HtoD;
  if (T.contains("DtoH"))
    return MemcpyKind::DtoH;
  if (T.contains("DtoD"))
    return MemcpyKind::DtoD;
  if (T.contains("HtoH"))
    return MemcpyKind::HtoH;
  if (T.contains("PtoP"))
    return MemcpyKind::PtoP;
  return MemcpyKind::None;
}

MemcpyKind Trace::memcpyKind(EventId E) const {
  if (S->Kind[E] != EventKind::Memcpy)
    return MemcpyKind::None;
  MemcpyKind K = parseMemcpyKind(name(E));
  if (K != MemcpyKind::None)
    return K;
  K = parseMemcpyKind(args(E).get("kind").getString());
  return K == MemcpyKind::None ? MemcpyKind::Other : K;
}

size_t Trace::numTracks() const { return S->Tracks.size(); }
const Track &Trace::trackInfo(TrackId T) const { return S->Tracks[T]; }
std::string Trace::trackPartText(const TrackPart &P) const {
  if (P.IsString)
    return S->Strings.get(P.Str).str();
  return std::to_string(P.Int);
}
ArgValue Trace::topLevel() const { return S->Args.value(S->TopLevel); }
const ImportStats &Trace::stats() const { return S->Stats; }
llvm::ArrayRef<MemoryEvent> tl::memoryEvents(const Trace &T) {
  return T.storage().Memory;
}
llvm::StringRef Trace::linkKey() const { return S->Strings.get(S->LinkKey); }
llvm::StringRef Trace::sourcePath() const { return S->Path; }
const TraceWindow *tl::traceWindow(const Trace &T) {
  const Trace::Storage &S = T.storage();
  return S.Window ? &*S.Window : nullptr;
}

EventId Trace::parent(EventId E) const {
  return E < S->Parent.size() ? S->Parent[E] : NoEvent;
}
llvm::ArrayRef<EventId> Trace::children(EventId E) const {
  if (E + 1 >= S->ChildBegin.size())
    return {};
  return llvm::ArrayRef<EventId>(S->Children.data() + S->ChildBegin[E],
                                 S->ChildBegin[E + 1] - S->ChildBegin[E]);
}
llvm::ArrayRef<EventId> Trace::cpuRoots() const { return S->CpuRoots; }
bool Trace::isLinked(EventId E) const {
  return isGpuKind(S->Kind[E]) && parent(E) != NoEvent;
}
llvm::ArrayRef<EventId> Trace::subtreeGpuEvents(EventId E) const {
  if (E >= S->GpuBegin.size())
    return {};
  return llvm::ArrayRef<EventId>(S->GpuOrder.data() + S->GpuBegin[E],
                                 S->GpuEnd[E] - S->GpuBegin[E]);
}
llvm::ArrayRef<EventId> Trace::gpuTreeOrder() const { return S->GpuOrder; }
EventId Trace::fwdEvent(EventId E) const {
  return E < S->Fwd.size() ? S->Fwd[E] : NoEvent;
}
llvm::ArrayRef<EventId> Trace::bwdEvents(EventId E) const {
  if (E + 1 >= S->BwdBegin.size())
    return {};
  return llvm::ArrayRef<EventId>(S->Bwd.data() + S->BwdBegin[E],
                                 S->BwdBegin[E + 1] - S->BwdBegin[E]);
}
llvm::ArrayRef<EventId> Trace::eventsOfKind(EventKind K) const {
  return S->ByKind[unsigned(K)];
}
llvm::ArrayRef<EventId> Trace::gpuEvents() const { return S->Gpu; }

std::vector<llvm::StringRef> Trace::moduleStack(EventId E) const {
  std::vector<llvm::StringRef> Out;
  for (EventId P = parent(E); P != NoEvent; P = parent(P)) {
    if (S->Kind[P] != EventKind::PythonFunction)
      continue;
    llvm::StringRef N = name(P);
    if (!N.starts_with("nn.Module: "))
      continue;
    // Drop a trailing "_<digits>" (module instance counter).
    size_t U = N.rfind('_');
    if (U != llvm::StringRef::npos && U + 1 < N.size() &&
        llvm::all_of(N.drop_front(U + 1),
                     [](char C) { return C >= '0' && C <= '9'; }))
      N = N.take_front(U);
    Out.push_back(N);
  }
  std::reverse(Out.begin(), Out.end());
  return Out;
}

const StringPool &Trace::strings() const { return S->Strings; }

bool Trace::isDroppedFromTree(EventId E) const {
  return std::binary_search(S->Dropped.begin(), S->Dropped.end(), E);
}

bool Trace::isBleedPlaced(EventId E) const {
  return std::binary_search(S->BleedPlaced.begin(), S->BleedPlaced.end(), E);
}

bool Trace::isPseudoOp(EventId E) const {
  return std::binary_search(S->PseudoOps.begin(), S->PseudoOps.end(), E);
}
