//===- InternCache.h - Cache in front of the string pool --------*- C++ -*-===//
#ifndef TL_LIB_IMPORT_INTERNCACHE_H
#define TL_LIB_IMPORT_INTERNCACHE_H

#include "tl/IR/StringPool.h"
#include "tl/Input/TailParser.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tl {

/// Pool.intern(K) through a small direct-mapped cache: most strings of a
/// trace (args keys, names, categories, dtype lists) repeat, and a hit
/// costs a cheap hash and one compare instead of the pool's lookup. Ids
/// are the pool's, given in the same order. Slots are the tail parser's
/// (tapeSlot), so both hash a string once the same way.
class InternCache {
public:
  explicit InternCache(StringPool &Pool) : Pool(Pool) {}

  StrId intern(llvm::StringRef K) {
    if (K.empty() || K.size() > TapeSlotMaxLen)
      return Pool.intern(K);
    // The slot keeps the pool's copy of its text (the pool never moves
    // it), so a hit costs one compare and no pool access.
    CachedStr &Slot = Slots[tapeSlot(K.data(), uint32_t(K.size()))];
    if (Slot.Id && Slot.Len == K.size() &&
        tapeSameBytes(Slot.Text, K.data(), K.size()))
      return Slot.Id;
    Slot.Id = Pool.intern(K);
    llvm::StringRef Text = Pool.get(Slot.Id);
    Slot.Text = Text.data();
    Slot.Len = uint32_t(Text.size());
    return Slot.Id;
  }

private:
  struct CachedStr {
    const char *Text = nullptr;
    uint32_t Len = 0;
    StrId Id = 0;
  };
  StringPool &Pool;
  std::vector<CachedStr> Slots = std::vector<CachedStr>(TapeSlots);
};

} // namespace tl

#endif // TL_LIB_IMPORT_INTERNCACHE_H
