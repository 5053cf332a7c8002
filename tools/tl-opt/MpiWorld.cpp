//===- MpiWorld.cpp - tl-opt --mpi: the processes of an MPI run -----------===//
#include "MpiWorld.h"

#if TL_HAVE_MPI
// The C API only: the C++ bindings mpi.h pulls in from C++ define global
// objects (static constructors) and need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

#include <climits>

using namespace llvm;

namespace tl {

static Error error(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

#if TL_HAVE_MPI

Expected<std::unique_ptr<MpiWorld>> MpiWorld::init() {
  int Provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &Provided) !=
      MPI_SUCCESS)
    return error("--mpi: MPI_Init failed");
  std::unique_ptr<MpiWorld> W(new MpiWorld());
  MPI_Comm_rank(MPI_COMM_WORLD, &W->Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &W->Size);
  return W;
}

MpiWorld::~MpiWorld() { MPI_Finalize(); }

std::string MpiWorld::broadcast(const std::string &S) {
  long long N = (long long)S.size();
  MPI_Bcast(&N, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::string Out = Rank == 0 ? S : std::string(size_t(N), '\0');
  if (N)
    MPI_Bcast(Out.data(), int(N), MPI_CHAR, 0, MPI_COMM_WORLD);
  return Out;
}

int MpiWorld::broadcast(int V) {
  MPI_Bcast(&V, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return V;
}

Expected<std::vector<std::string>> MpiWorld::gather(StringRef Bytes) {
  // A process's summaries are a few hundred bytes per collective; an int
  // count still bounds them.
  int N = Bytes.size() > size_t(INT_MAX) ? -1 : int(Bytes.size());
  std::vector<int> Sizes(Rank == 0 ? Size : 0);
  MPI_Gather(&N, 1, MPI_INT, Sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  bool TooBig = N < 0;
  std::vector<int> Offsets(Sizes.size());
  long long Total = 0;
  for (size_t I = 0; I < Sizes.size(); ++I) {
    TooBig |= Sizes[I] < 0;
    Offsets[I] = int(Total);
    Total += Sizes[I] < 0 ? 0 : Sizes[I];
  }
  TooBig |= Total > INT_MAX;
  // Every process takes part in the same calls, whatever the sizes.
  int Bad = broadcast(TooBig ? 1 : 0);
  if (Bad)
    return error("--mpi: the rank summaries exceed 2 GiB");
  std::string All(Rank == 0 ? size_t(Total) : 0, '\0');
  MPI_Gatherv(Bytes.data(), N, MPI_CHAR, All.data(), Sizes.data(),
              Offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Sizes.size(); ++I)
    Out.push_back(All.substr(size_t(Offsets[I]), size_t(Sizes[I])));
  return Out;
}

#else

Expected<std::unique_ptr<MpiWorld>> MpiWorld::init() {
  return error("--mpi: this tl-opt was built without MPI (install "
               "libopenmpi-dev, e.g. scripts/install-deps.sh, and "
               "reconfigure; docs/Distributed.md)");
}
MpiWorld::~MpiWorld() = default;
std::string MpiWorld::broadcast(const std::string &S) { return S; }
int MpiWorld::broadcast(int V) { return V; }
Expected<std::vector<std::string>> MpiWorld::gather(StringRef Bytes) {
  return std::vector<std::string>{Bytes.str()};
}

#endif

} // namespace tl
