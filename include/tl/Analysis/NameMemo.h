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
#include <cstdlib>
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
    // instead of a hash map: analyses ask once per event. calloc leaves
    // the pages of ids never asked for untouched.
    if (!Slots) {
      NumSlots = std::max<size_t>(T.strings().size(), 1);
      Slots.reset(static_cast<uint32_t *>(
          std::calloc(NumSlots, sizeof(uint32_t))));
    }
    if (LLVM_UNLIKELY(Id >= NumSlots))
      return F2(Id);
    uint32_t &S = Slots.get()[Id];
    if (LLVM_UNLIKELY(S == 0)) {
      Values.push_back({F(T.strings().get(Id))});
      S = static_cast<uint32_t>(Values.size());
    }
    return Values[S - 1].V;
  }

private:
  /// Ids outside the pool (none in a finished trace): a map.
  const Value &F2(StrId Id) {
    auto [It, New] = Extra.try_emplace(Id);
    if (New)
      It->second = F(T.strings().get(Id));
    return It->second;
  }
  /// (Not std::vector<bool>: byId returns references.)
  struct Box {
    Value V;
  };
  struct FreeDeleter {
    void operator()(uint32_t *P) const { std::free(P); }
  };

  const Trace &T;
  Fn F;
  std::unique_ptr<uint32_t, FreeDeleter> Slots;
  size_t NumSlots = 0;
  std::vector<Box> Values;
  llvm::DenseMap<StrId, Value> Extra;
};

/// NameMemo over a plain predicate such as isCommKernel.
using NamePredicate = NameMemo<bool (*)(llvm::StringRef)>;

} // namespace tl

#endif
