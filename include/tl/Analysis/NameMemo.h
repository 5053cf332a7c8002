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
#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

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
    // A slot per pool id (index + 1 into Values, 0: not computed yet)
    // instead of a hash map: analyses ask once per event. Slots come in
    // pages allocated on first use, so a pool of millions of strings costs
    // only the pages of the names actually asked for. The hit path is a
    // few loads, small enough to inline.
    size_t Page = Id / PageSize;
    if (LLVM_LIKELY(Page < Pages.size()))
      if (const uint32_t *P = Pages[Page].get())
        if (uint32_t S = P[Id % PageSize])
          return Values[S - 1].V;
    return compute(Id);
  }

private:
  static constexpr size_t PageSize = 1024;

  LLVM_ATTRIBUTE_NOINLINE const Value &compute(StrId Id) {
    size_t Page = Id / PageSize;
    if (Page >= Pages.size())
      Pages.resize(std::max(Page + 1, T.strings().size() / PageSize + 1));
    std::unique_ptr<uint32_t[]> &P = Pages[Page];
    if (!P)
      P.reset(new uint32_t[PageSize]());
    Values.push_back({F(T.strings().get(Id))});
    P[Id % PageSize] = static_cast<uint32_t>(Values.size());
    return Values.back().V;
  }
  /// (Not std::vector<bool>: byId returns references.)
  struct Box {
    Value V;
  };

  const Trace &T;
  Fn F;
  std::vector<std::unique_ptr<uint32_t[]>> Pages;
  std::vector<Box> Values;
};

/// NameMemo over a plain predicate such as isCommKernel.
using NamePredicate = NameMemo<bool (*)(llvm::StringRef)>;

} // namespace tl

#endif
