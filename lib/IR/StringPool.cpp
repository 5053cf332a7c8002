//===- StringPool.cpp - Interned strings ----------------------------------===//
#include "tl/IR/StringPool.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"

#include <vector>

using namespace tl;

struct StringPool::Impl {
  // The map owns each string once (in its bump allocator); ById points into it.
  llvm::StringMap<StrId, llvm::BumpPtrAllocator> Map;
  std::vector<llvm::StringRef> ById;
};

StringPool::StringPool() : P(std::make_unique<Impl>()) {
  P->ById.push_back(llvm::StringRef());
}
StringPool::~StringPool() = default;
StringPool::StringPool(StringPool &&) noexcept = default;
StringPool &StringPool::operator=(StringPool &&) noexcept = default;

StrId StringPool::intern(llvm::StringRef S) {
  if (S.empty())
    return 0;
  auto [It, Inserted] = P->Map.try_emplace(S, StrId(P->ById.size()));
  if (Inserted)
    P->ById.push_back(It->getKey());
  return It->second;
}

StrId StringPool::lookup(llvm::StringRef S) const {
  if (S.empty())
    return 0;
  auto It = P->Map.find(S);
  return It == P->Map.end() ? 0 : It->second;
}

llvm::StringRef StringPool::get(StrId Id) const {
  return Id < P->ById.size() ? P->ById[Id] : llvm::StringRef();
}

size_t StringPool::size() const { return P->ById.size(); }

size_t StringPool::memoryBytes() const {
  return P->Map.getAllocator().getTotalMemory() +
         P->Map.getNumBuckets() * (sizeof(void *) + sizeof(unsigned)) +
         P->ById.capacity() * sizeof(llvm::StringRef);
}
