//===- MpiWorld.h - tl-opt --mpi: the processes of an MPI run ---*- C++ -*-===//
//
// The few MPI calls `mpirun -n P tl-opt --mpi job/ -o out/` needs: process
// 0 broadcasts where the report is staged and the exit code, and gathers
// the others' rank outcomes (RankOutcomeCodec.h). MPI is optional: built
// without it, init() is an error saying so. Only the main thread calls MPI.
// docs/Distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TL_TOOLS_TLOPT_MPIWORLD_H
#define TL_TOOLS_TLOPT_MPIWORLD_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tl {

class MpiWorld {
public:
  /// MPI_Init_thread (funneled); MPI_Finalize in the destructor.
  static llvm::Expected<std::unique_ptr<MpiWorld>> init();
  ~MpiWorld();
  MpiWorld(const MpiWorld &) = delete;
  MpiWorld &operator=(const MpiWorld &) = delete;

  int rank() const { return Rank; }
  int size() const { return Size; }

  /// Process 0's S on every process.
  std::string broadcast(const std::string &S);
  int broadcast(int V);
  /// Every process's Bytes, in process order, on process 0 (empty on the
  /// others).
  llvm::Expected<std::vector<std::string>> gather(llvm::StringRef Bytes);

private:
  MpiWorld() = default;
  int Rank = 0, Size = 1;
};

} // namespace tl

#endif // TL_TOOLS_TLOPT_MPIWORLD_H
