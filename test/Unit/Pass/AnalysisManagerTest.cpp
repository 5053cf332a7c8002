//===- AnalysisManagerTest.cpp - Lazy, once, thread-safe, cycles ----------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/IR/Trace.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace tl;

namespace {

std::atomic<int> SlowBuilds{0};
struct Slow {
  static constexpr llvm::StringLiteral Name = "test-slow";
  int V = 0;
  Slow(const Trace &, AnalysisManager &) {
    ++SlowBuilds;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    V = 7;
  }
};
struct DependsOnSlow {
  static constexpr llvm::StringLiteral Name = "test-depends";
  int V;
  DependsOnSlow(const Trace &, AnalysisManager &AM) : V(AM.get<Slow>().V + 1) {}
};

/// What the analysis hooks report, in after-hook order.
struct TimingLog : AnalysisInstrumentation {
  std::mutex M;
  std::vector<AnalysisTiming> Timings;
  void runAfterAnalysis(const AnalysisTiming &Timing, const Trace &) override {
    std::lock_guard<std::mutex> L(M);
    Timings.push_back(Timing);
  }
};

TEST(AnalysisManager, ComputedOnceAcrossThreads) {
  Trace T;
  AnalysisManager AM(T);
  TimingLog Log;
  AM.setInstrumentation(&Log);
  SlowBuilds = 0;
  EXPECT_FALSE(AM.isCached<Slow>());
  std::vector<std::thread> Ts;
  std::atomic<int> Sum{0};
  for (int I = 0; I < 8; ++I)
    Ts.emplace_back([&] { Sum += AM.get<DependsOnSlow>().V; });
  for (auto &Th : Ts)
    Th.join();
  EXPECT_EQ(SlowBuilds.load(), 1);
  EXPECT_EQ(Sum.load(), 8 * 8);
  EXPECT_TRUE(AM.isCached<Slow>());
  // One hook call per analysis, not per get().
  const std::vector<AnalysisTiming> &Timings = Log.Timings;
  ASSERT_EQ(Timings.size(), 2u);
  // Completion order: the dependency finishes first.
  EXPECT_EQ(Timings[0].Name, "test-slow");
  EXPECT_EQ(Timings[1].Name, "test-depends");
  EXPECT_GE(Timings[0].WallSeconds, 0.04);
}

// Two types, one Name: each keeps its own data, and the second one asked for
// stops the run naming both types.
struct RealTimeline {
  static constexpr llvm::StringLiteral Name = "test-timeline";
  int Label = 41;
  RealTimeline(const Trace &, AnalysisManager &) {}
};
struct FakeTimeline {
  static constexpr llvm::StringLiteral Name = "test-timeline";
  std::string Label = "fake";
  FakeTimeline(const Trace &, AnalysisManager &) {}
};

TEST(AnalysisManager, KeyedByType) {
  // "(anonymous namespace)::" with clang, "{anonymous}::" with gcc.
  EXPECT_TRUE(AnalysisManager::keyOf<RealTimeline>().ends_with(
      "anonymous}::RealTimeline") ||
              AnalysisManager::keyOf<RealTimeline>().ends_with(
                  "anonymous namespace)::RealTimeline"))
      << AnalysisManager::keyOf<RealTimeline>().str();
  EXPECT_EQ(AnalysisManager::keyOf<Trace>(), "tl::Trace");
  EXPECT_NE(AnalysisManager::keyOf<RealTimeline>(),
            AnalysisManager::keyOf<FakeTimeline>());
}

TEST(AnalysisManagerDeathTest, OneNameTwoTypesIsDiagnosed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Trace T;
        AnalysisManager AM(T);
        if (AM.get<RealTimeline>().Label == 41)
          AM.get<FakeTimeline>();
      },
      ::testing::ExitedWithCode(2),
      "analysis name 'test-timeline' is used by two types: "
      ".*::FakeTimeline and .*::RealTimeline");
}

struct CycleB;
struct CycleA {
  static constexpr llvm::StringLiteral Name = "test-cycle-a";
  CycleA(const Trace &, AnalysisManager &AM);
};
struct CycleB {
  static constexpr llvm::StringLiteral Name = "test-cycle-b";
  CycleB(const Trace &, AnalysisManager &AM) { AM.get<CycleA>(); }
};
CycleA::CycleA(const Trace &, AnalysisManager &AM) { AM.get<CycleB>(); }

TEST(AnalysisManagerDeathTest, SameThreadCycleIsDiagnosed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Trace T;
        AnalysisManager AM(T);
        AM.get<CycleA>();
      },
      ::testing::ExitedWithCode(2),
      "analysis dependency cycle: test-cycle-a -> test-cycle-b -> "
      "test-cycle-a");
}

// Cross-thread: X (thread 1) needs Y while Y (thread 2) needs X. Each
// constructor waits until the other thread owns its analysis, so the cycle
// closes across threads; it must be diagnosed, not deadlock.
std::atomic<int> Started{0};
struct CrossY;
struct CrossX {
  static constexpr llvm::StringLiteral Name = "test-cross-x";
  CrossX(const Trace &, AnalysisManager &AM);
};
struct CrossY {
  static constexpr llvm::StringLiteral Name = "test-cross-y";
  CrossY(const Trace &, AnalysisManager &AM) {
    ++Started;
    while (Started < 2)
      std::this_thread::yield();
    AM.get<CrossX>();
  }
};
CrossX::CrossX(const Trace &, AnalysisManager &AM) {
  ++Started;
  while (Started < 2)
    std::this_thread::yield();
  AM.get<CrossY>();
}

TEST(AnalysisManagerDeathTest, CrossThreadCycleIsDiagnosed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Trace T;
        AnalysisManager AM(T);
        std::thread A([&] { AM.get<CrossX>(); });
        std::thread B([&] { AM.get<CrossY>(); });
        A.join();
        B.join();
      },
      ::testing::ExitedWithCode(2), "analysis dependency cycle: test-cross-");
}

} // namespace
