//===- SglangProfilerNames.cpp - Drop SGLang's per-call op suffixes -------===//
#include "tl/Import/SglangProfilerNames.h"

#include "tl/IR/Trace.h"
#include "tl/IR/TraceStorage.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace tl;

/// re.fullmatch(r"(sglang_profiler::.+?)_\d+", N).group(1), or "" when it
/// does not match: the remainder must be `_<digits>`, so it is the last one.
static llvm::StringRef strippedName(llvm::StringRef N) {
  static constexpr llvm::StringLiteral Prefix = "sglang_profiler::";
  if (!N.starts_with(Prefix))
    return "";
  size_t U = N.rfind('_');
  if (U == llvm::StringRef::npos || U <= Prefix.size() || U + 1 == N.size() ||
      !llvm::all_of(N.drop_front(U + 1), llvm::isDigit))
    return "";
  return N.take_front(U);
}

/// The kinds of the reference's name index (name2event_uids).
static bool isIndexed(EventKind K) {
  return isHostTreeKind(K) || isGpuKind(K);
}

uint64_t tl::normalizeSglangProfilerNames(Trace &T) {
  // The first event of each candidate name, by UID.
  llvm::DenseMap<StrId, EventId> First;
  for (EventId E = 0, N = T.size(); E < N; ++E) {
    if (!isIndexed(T.kind(E)) || strippedName(T.name(E)).empty())
      continue;
    auto [It, New] = First.try_emplace(T.nameId(E), E);
    if (!New && T.uid(E) < T.uid(It->second))
      It->second = E;
  }
  Trace::Storage &S = T.storage();
  llvm::DenseMap<StrId, StrId> NewName;
  for (const auto &[Id, E] : First)
    if (T.kind(E) == EventKind::CpuOp)
      NewName[Id] = S.Strings.intern(strippedName(T.name(E)));
  uint64_t Renamed = 0;
  if (NewName.empty())
    return 0;
  for (EventId E = 0, N = T.size(); E < N; ++E) {
    if (!isIndexed(T.kind(E)))
      continue;
    auto It = NewName.find(S.Name[E]);
    if (It == NewName.end())
      continue;
    S.Name[E] = It->second;
    ++Renamed;
  }
  return Renamed;
}
