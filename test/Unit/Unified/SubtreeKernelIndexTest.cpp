//===- SubtreeKernelIndexTest.cpp - per-subtree kernel facts --------------===//
//
// SubtreeKernelIndex answers large subtrees from precomputed facts (small-
// to-large interval merging over nested ranges); these must equal the
// direct scan of Trace::subtreeGpuEvents on a random op tree whose kernels
// overlap across two streams. Times are integers, so busy times are exact
// whatever the summation order.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Import/Importer.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tl;

namespace {

struct Lcg {
  uint64_t S = 12345;
  uint32_t next(uint32_t N) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t((S >> 33) % N);
  }
};

/// N nested aten::add ops (node i's parent is one of the 40 before it),
/// laid out depth-first; 80 % of them launch one kernel at a random time
/// on stream 7 or 8. Some kernels have a GEMM name the transpose parser
/// accepts.
std::string randomTree(unsigned N) {
  Lcg R;
  std::vector<std::vector<unsigned>> Kids(N);
  for (unsigned I = 1; I < N; ++I)
    Kids[I - 1 - R.next(std::min(I, 40u))].push_back(I);
  std::vector<unsigned> Size(N, 1);
  for (unsigned I = N; I-- > 1;)
    for (unsigned C : Kids[I])
      Size[I] += Size[C];
  for (unsigned C : Kids[0])
    Size[0] += Size[C];
  std::string J = "{\"traceEvents\": [\n";
  unsigned Corr = 0;
  std::vector<std::pair<unsigned, long>> Stack{{0, 0}};
  while (!Stack.empty()) {
    auto [I, Start] = Stack.back();
    Stack.pop_back();
    long Dur = 10L * Size[I] + 5;
    J += "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
         "\"pid\": 1, \"tid\": 1, \"ts\": " +
         std::to_string(Start) + ", \"dur\": " + std::to_string(Dur) +
         ", \"args\": {}},\n";
    if (R.next(5) != 0) {
      ++Corr;
      long Kts = R.next(20000);
      long Kdur = 1 + R.next(60);
      const char *Name = R.next(4) == 0
                             ? "nvjet_tst_128x64_64x8_1x1_v_bz_TNT"
                             : (R.next(2) ? "ka" : "kb");
      std::string C = std::to_string(Corr);
      J += "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
           "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": " +
           std::to_string(Start + 1) + ", \"dur\": 2, \"args\": "
           "{\"correlation\": " + C + "}},\n";
      J += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" +
           std::string(Name) + "\", \"pid\": 0, \"tid\": " +
           std::to_string(7 + R.next(2)) + ", \"ts\": " +
           std::to_string(1000000 + Kts) + ", \"dur\": " +
           std::to_string(Kdur) + ", \"args\": {\"correlation\": " + C +
           "}},\n";
    }
    // Children one after the other, after the launch slot.
    long At = Start + 5;
    std::vector<std::pair<unsigned, long>> Next;
    for (unsigned C : Kids[I]) {
      Next.push_back({C, At});
      At += 10L * Size[C] + 5;
    }
    for (size_t K = Next.size(); K-- > 0;)
      Stack.push_back(Next[K]);
  }
  J += "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0, "
       "\"args\": {\"name\": \"python3\"}}\n]}";
  return J;
}

TEST(SubtreeKernelIndex, LargeSubtreesEqualTheDirectScan) {
  auto T = importTraceFromBuffer(randomTree(3000), "random-tree.json");
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  SubtreeKernelIndex Idx(*T);
  unsigned Large = 0;
  for (EventId E : T->eventsOfKind(EventKind::CpuOp)) {
    llvm::ArrayRef<EventId> G = T->subtreeGpuEvents(E);
    if (G.size() > SubtreeKernelIndex::DirectLimit)
      ++Large;
    EXPECT_EQ(Idx.count(E), G.size());
    EXPECT_EQ(Idx.busyTime(E), kernelBusyTime(*T, G)) << T->uid(E);
    std::vector<EventId> Sorted(G.begin(), G.end());
    sortByTs(*T, Sorted);
    EXPECT_EQ(Idx.sortedByTs(E), Sorted);
    EXPECT_EQ(Idx.firstByTs(E), Sorted.empty() ? NoEvent : Sorted.front());
    EventId Gemm = NoEvent;
    for (EventId K : Sorted)
      if (parseGemmTranspose(T->name(K))) {
        Gemm = K;
        break;
      }
    EXPECT_EQ(Idx.firstGemmNamed(E), Gemm) << T->uid(E);
  }
  // Enough nesting that the precomputed path is exercised.
  EXPECT_GT(Large, 100u);
}

} // namespace
