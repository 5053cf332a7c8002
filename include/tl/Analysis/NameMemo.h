//===- NameMemo.h - A function of event names, once per distinct name -*- C++ -*-===//
//
// Traces repeat a few thousand names over millions of events, so analyses
// test a name (communication kernel? GEMM-named? which sheet?) once per
// interned name id rather than once per event.
//
//===----------------------------------------------------------------------===//

#ifndef TL_ANALYSIS_NAMEMEMO_H
#define TL_ANALYSIS_NAMEMEMO_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <type_traits>
#include <utility>

namespace tl {

/// Fn(llvm::StringRef name) memoized by the trace's name ids.
template <typename Fn> class NameMemo {
public:
  using Value = std::decay_t<std::invoke_result_t<Fn &, llvm::StringRef>>;

  NameMemo(const Trace &T, Fn F) : T(T), F(std::move(F)) {}

  /// Fn of E's name. The reference stays valid until the next call.
  const Value &operator()(EventId E) { return byId(T.nameId(E)); }
  /// Fn of the interned name Id.
  const Value &byId(StrId Id) {
    auto [It, New] = Memo.try_emplace(Id);
    if (New)
      It->second = F(T.strings().get(Id));
    return It->second;
  }

private:
  const Trace &T;
  Fn F;
  llvm::DenseMap<StrId, Value> Memo;
};

/// NameMemo over a plain predicate such as isCommKernel.
using NamePredicate = NameMemo<bool (*)(llvm::StringRef)>;

} // namespace tl

#endif
