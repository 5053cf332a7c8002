//===- RankResolution.cpp - Which rank each trace of a job is -------------===//
#include "tl/Driver/RankResolution.h"

#include "tl/IR/Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace tl {

DistributedIds distributedIds(const Trace &T) {
  DistributedIds Ids;
  ArgValue D = T.topLevel().get("distributedInfo");
  if (!D.isObject())
    return Ids;
  if (std::optional<int64_t> R = D.get("rank").asInt(); R && *R >= 0)
    Ids.Rank = R;
  if (std::optional<int64_t> W = D.get("world_size").asInt(); W && *W >= 1)
    Ids.WorldSize = W;
  return Ids;
}

StringRef rankSourceName(RankSource S) {
  return S == RankSource::DistributedInfo ? "distributedInfo.rank"
                                          : "position";
}

Expected<RankClaim> RankResolver::claim(StringRef Path, size_t Position,
                                        const DistributedIds &Ids) {
  RankClaim C{Path.str(), Position, int64_t(Position), RankSource::Position};
  if (Ids.Rank) {
    C.Rank = *Ids.Rank;
    C.Source = RankSource::DistributedInfo;
  }
  if (auto It = ByRank.find(C.Rank); It != ByRank.end())
    return createStringError(
        inconvertibleErrorCode(),
        Path + " and " + It->second.Path + " both are rank " +
            Twine(C.Rank) + " (" + rankSourceName(C.Source) + ", " +
            rankSourceName(It->second.Source) +
            "); a job takes one trace per rank");
  if (Ids.WorldSize)
    WorldSizes.try_emplace(*Ids.WorldSize, Path.str());
  ByRank.emplace(C.Rank, C);
  return C;
}

int64_t RankResolver::expectedRanks() const {
  int64_t N = int64_t(NumTraces);
  if (!ByRank.empty())
    N = std::max(N, ByRank.rbegin()->first + 1);
  if (!WorldSizes.empty())
    N = std::max(N, WorldSizes.rbegin()->first);
  return N;
}

std::vector<int64_t> RankResolver::missingRanks() const {
  std::vector<int64_t> Missing;
  for (int64_t R = 0, N = expectedRanks(); R < N; ++R)
    if (!ByRank.count(R))
      Missing.push_back(R);
  return Missing;
}

std::string rankRanges(ArrayRef<int64_t> Sorted) {
  std::string Out;
  for (size_t I = 0; I < Sorted.size();) {
    size_t J = I;
    while (J + 1 < Sorted.size() && Sorted[J + 1] == Sorted[J] + 1)
      ++J;
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(Sorted[I]);
    if (J > I)
      Out += "-" + std::to_string(Sorted[J]);
    I = J + 1;
  }
  return Out;
}

std::vector<std::string>
RankResolver::warnings(function_ref<std::string(StringRef)> Show) const {
  std::vector<const RankClaim *> Rankless;
  for (const auto &[Rank, C] : ByRank)
    if (C.Source == RankSource::Position)
      Rankless.push_back(&C);
  llvm::sort(Rankless, [](const RankClaim *A, const RankClaim *B) {
    return A->Position < B->Position;
  });
  std::vector<std::string> W;
  for (const RankClaim *C : Rankless)
    W.push_back(Show(C->Path) + ": no distributedInfo.rank; rank " +
                std::to_string(C->Rank) + " from its position in the job");
  if (WorldSizes.size() > 1) {
    std::string Sizes;
    for (const auto &[Size, Path] : WorldSizes)
      Sizes += (Sizes.empty() ? "" : ", ") + Show(Path) + " says " +
               std::to_string(Size);
    W.push_back("the traces disagree on distributedInfo.world_size: " + Sizes);
  }
  std::vector<int64_t> Missing = missingRanks();
  if (!Missing.empty())
    W.push_back("partial job: " + std::to_string(ByRank.size()) + " of " +
                std::to_string(expectedRanks()) + " ranks; no trace for rank" +
                (Missing.size() > 1 ? "s " : " ") + rankRanges(Missing));
  return W;
}

} // namespace tl
