//===- LinkingTest.cpp - Host tree and GPU/fwd-bwd linking ----------------===//
//
// Small hand-made traces; expected structure worked out from spec 2.4-2.7.
//
//===----------------------------------------------------------------------===//
#include "tl/IR/Printer.h"
#include "tl/IR/Verifier.h"
#include "tl/Import/Importer.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tl;

namespace {
/// Builds a trace JSON from event snippets.
struct J {
  std::vector<std::string> Ev;
  J &x(const char *Cat, const char *Name, double Ts, double Dur, int Tid = 1,
       std::string Args = "", int Pid = 1) {
    std::string S =
        "{\"ph\":\"X\",\"cat\":\"" + std::string(Cat) + "\",\"name\":\"" +
        Name + "\",\"pid\":" + std::to_string(Pid) +
        ",\"tid\":" + std::to_string(Tid) + ",\"ts\":" + std::to_string(Ts) +
        ",\"dur\":" + std::to_string(Dur);
    if (!Args.empty())
      S += ",\"args\":{" + Args + "}";
    Ev.push_back(S + "}");
    return *this;
  }
  J &flow(char Ph, int Id, int Pid, int Tid) {
    Ev.push_back(std::string("{\"ph\":\"") + Ph +
                 "\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" +
                 std::to_string(Id) + ",\"pid\":" + std::to_string(Pid) +
                 ",\"tid\":" + std::to_string(Tid) + ",\"ts\":0}");
    return *this;
  }
  Trace import(unsigned Threads = 0) {
    std::string S = "{\"traceEvents\":[";
    for (size_t I = 0; I < Ev.size(); ++I)
      S += (I ? "," : "") + Ev[I];
    S += "]}";
    ImportOptions O;
    O.Threads = Threads;
    auto T = importTraceFromBuffer(S, "t.json", O);
    if (!T) {
      ADD_FAILURE() << llvm::toString(T.takeError());
      return Trace();
    }
    if (auto E = verifyTrace(*T))
      ADD_FAILURE() << llvm::toString(std::move(E));
    return std::move(*T);
  }
};
} // namespace

TEST(Linking, NestingByTimeContainment) {
  // a [0,100) contains b [10,50) contains c [20,30); d [60,70) under a.
  // A python frame between does not stop a cpu_op being a root? No: roots
  // are cpu_ops without a cpu_op ancestor; e under python p is a root.
  Trace T = J().x("cpu_op", "a", 0, 100)
                .x("cpu_op", "c", 20, 10)
                .x("cpu_op", "b", 10, 40)
                .x("cpu_op", "d", 60, 10)
                .x("python_function", "p", 200, 50)
                .x("cpu_op", "e", 210, 10)
                .import();
  ASSERT_EQ(T.size(), 6u);
  EXPECT_EQ(T.parent(0), NoEvent);
  EXPECT_EQ(T.parent(2), 0u); // b under a
  EXPECT_EQ(T.parent(1), 2u); // c under b (sorted by ts, not file order)
  EXPECT_EQ(T.parent(3), 0u);
  EXPECT_EQ(T.parent(5), 4u);
  ASSERT_EQ(T.children(0).size(), 2u);
  EXPECT_EQ(T.children(0)[0], 2u);
  EXPECT_EQ(T.children(0)[1], 3u);
  ASSERT_EQ(T.cpuRoots().size(), 2u);
  EXPECT_EQ(T.cpuRoots()[0], 0u);
  EXPECT_EQ(T.cpuRoots()[1], 5u);
}

TEST(Linking, BleedRule) {
  // r [0,100); a [10,20); b starts at 19.5 and ends at 25: overlap with a
  // is 20 - 19.5 = 0.5 < 1 and depth 2, so a is popped and b goes under r.
  // c [30,40); d [39,50): overlap 1.0 is not < 1 -> d dropped.
  // e [200,210) f [209.5,215): depth 1 -> f dropped.
  Trace T = J().x("cpu_op", "r", 0, 100)
                .x("cpu_op", "a", 10, 10)
                .x("cpu_op", "b", 19.5, 5.5)
                .x("cpu_op", "c", 30, 10)
                .x("cpu_op", "d", 39, 11)
                .x("cpu_op", "e", 200, 10)
                .x("cpu_op", "f", 209.5, 5.5)
                .import();
  EXPECT_EQ(T.parent(2), 0u);
  EXPECT_TRUE(T.isBleedPlaced(2));
  EXPECT_TRUE(T.isDroppedFromTree(4));
  EXPECT_EQ(T.parent(4), NoEvent);
  EXPECT_TRUE(T.isDroppedFromTree(6));
  EXPECT_EQ(T.stats().BleedDrops, 2u);
  // A dropped cpu_op is not a root either.
  ASSERT_EQ(T.cpuRoots().size(), 2u);
  EXPECT_EQ(T.cpuRoots()[1], 5u);
}

TEST(Linking, Ac2gFlowsAndSubtreeRanges) {
  // op1 -> launch (corr 1) -> k1 ; op2 -> launch (corr 2) -> k2; k3 unlinked.
  Trace T =
      J().x("cpu_op", "op1", 0, 10, 1, "\"External id\":1")
          .x("cuda_runtime", "cudaLaunchKernel", 1, 2, 1,
             "\"correlation\":1,\"External id\":1")
          .x("cpu_op", "op2", 20, 10, 1, "\"External id\":2")
          .x("cuda_runtime", "cudaLaunchKernel", 21, 2, 1, "\"correlation\":2")
          .x("kernel", "k2", 40, 5, 7, "\"correlation\":2,\"stream\":7", 0)
          .x("kernel", "k1", 30, 5, 7, "\"correlation\":1,\"stream\":7", 0)
          .x("kernel", "k3", 50, 5, 7, "\"correlation\":3,\"stream\":7", 0)
          .flow('s', 1, 1, 1)
          .flow('f', 1, 0, 7)
          .flow('s', 2, 1, 1)
          .flow('f', 2, 0, 7)
          .import();
  EXPECT_EQ(T.linkKey(), "correlation");
  EXPECT_EQ(T.parent(5), 1u);
  EXPECT_EQ(T.parent(4), 3u);
  EXPECT_FALSE(T.isLinked(6));
  EXPECT_EQ(T.stats().LinkedGpuEvents, 2u);
  EXPECT_EQ(T.stats().UnlinkedGpuEvents, 1u);
  ASSERT_EQ(T.subtreeGpuEvents(0).size(), 1u);
  EXPECT_EQ(T.subtreeGpuEvents(0)[0], 5u);
  ASSERT_EQ(T.subtreeGpuEvents(2).size(), 1u);
  EXPECT_EQ(T.subtreeGpuEvents(2)[0], 4u);
  ASSERT_EQ(T.subtreeGpuEvents(6).size(), 1u); // a GPU event: itself
  EXPECT_EQ(T.children(1).back(), 5u);
}

TEST(Linking, CorrelationFallbackWithoutFlows) {
  // No flow events: kernels link to the unique runtime event with the same
  // correlation; corr 5 appears on two runtime events -> ambiguous.
  Trace T =
      J().x("cuda_runtime", "hipLaunchKernel", 0, 2, 1, "\"correlation\":4")
          .x("cuda_runtime", "hipLaunchKernel", 3, 2, 1, "\"correlation\":5")
          .x("cuda_runtime", "hipLaunchKernel", 6, 2, 1, "\"correlation\":5")
          .x("kernel", "k4", 10, 1, 0, "\"correlation\":4", 2)
          .x("kernel", "k5", 12, 1, 0, "\"correlation\":5", 2)
          .import();
  EXPECT_EQ(T.parent(3), 0u);
  EXPECT_EQ(T.parent(4), NoEvent);
  EXPECT_EQ(T.stats().DuplicateCorrelations, 1u);
}

TEST(Linking, GraphLaunchTakesEveryKernel) {
  Trace T =
      J().x("cuda_runtime", "cudaGraphLaunch", 0, 2, 1, "\"correlation\":9")
          .x("kernel", "g1", 10, 1, 7, "\"correlation\":9", 0)
          .x("kernel", "g2", 12, 1, 7, "\"correlation\":9", 0)
          .flow('s', 9, 1, 1)
          .flow('f', 9, 0, 7)
          .import();
  EXPECT_EQ(T.stats().GraphLaunches, 1u);
  EXPECT_EQ(T.parent(1), 0u);
  EXPECT_EQ(T.parent(2), 0u);
  EXPECT_EQ(T.subtreeGpuEvents(0).size(), 2u);
}

TEST(Linking, GraphLaunchWithoutLinkValueIsCounted) {
  // No flows: the second graph launch has no correlation, so it links
  // nothing but is still a graph launch (2); g1 goes under the first.
  Trace T =
      J().x("cuda_runtime", "cudaGraphLaunch", 0, 2, 1, "\"correlation\":9")
          .x("cuda_runtime", "cudaGraphLaunch", 3, 2, 1)
          .x("kernel", "g1", 10, 1, 7, "\"correlation\":9", 0)
          .import();
  EXPECT_EQ(T.stats().GraphLaunches, 2u);
  EXPECT_EQ(T.parent(2), 0u);
  EXPECT_EQ(T.stats().LinkedGpuEvents, 1u);
}

TEST(Linking, FlowEndOnANonGpuEventWarns) {
  // Flow 1 ends on track (1, 1), whose last event with correlation 1 is the
  // runtime event itself: not linked, one warning. Flow 2 ends on the
  // kernel's stream: k2 links.
  Trace T =
      J().x("cuda_runtime", "cudaLaunchKernel", 0, 2, 1, "\"correlation\":1")
          .x("cuda_runtime", "cudaLaunchKernel", 3, 2, 1, "\"correlation\":2")
          .x("kernel", "k1", 10, 1, 7, "\"correlation\":1", 0)
          .x("kernel", "k2", 12, 1, 7, "\"correlation\":2", 0)
          .flow('s', 1, 1, 1)
          .flow('f', 1, 1, 1)
          .flow('s', 2, 1, 1)
          .flow('f', 2, 0, 7)
          .import();
  EXPECT_EQ(T.parent(2), NoEvent);
  EXPECT_EQ(T.parent(3), 1u);
  EXPECT_EQ(T.stats().LinkedGpuEvents, 1u);
  ASSERT_EQ(T.stats().Warnings.size(), 1u);
  EXPECT_EQ(T.stats().Warnings[0],
            "event 0: launch flow ends at a non-GPU event; ignored");
}

TEST(Linking, TwoThreadsBuildTheSameStructure) {
  // With two threads the host tree is built beside the GPU links: every
  // link, child order, bleed drop and warning must be the one-thread ones.
  J B;
  for (int I = 0; I < 40; ++I) {
    double T0 = I * 100;
    std::string C = "\"correlation\":" + std::to_string(I);
    B.x("cpu_op", "op", T0, 50, 1 + I % 3,
        "\"Sequence number\":" + std::to_string(I % 7))
        .x("cuda_runtime", I % 9 ? "cudaLaunchKernel" : "cudaGraphLaunch",
           T0 + 1, 2, 1 + I % 3, C)
        .x("cpu_op", "autograd::engine::evaluate_function: XBackward0",
           T0 + 49.5, 10, 1 + I % 3,
           "\"Sequence number\":" + std::to_string(I % 5))
        .x("kernel", "k", T0 + 60, 5, 7, C, 0)
        .x("kernel", "k", T0 + 70, 5, 8, C, 0);
    if (I % 4) {
      B.flow('s', I, 1, 1 + I % 3);
      B.flow('f', I, 0, I % 2 ? 7 : 8);
    }
  }
  auto Dump = [](const Trace &T) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    printTrace(T, OS);
    for (const std::string &W : T.stats().Warnings)
      OS << W << "\n";
    OS << T.stats().LinkedGpuEvents << " " << T.stats().BleedDrops << " "
       << T.stats().GraphLaunches << "\n";
    return S;
  };
  Trace One = B.import(1), Two = B.import(2);
  EXPECT_GT(One.stats().LinkedGpuEvents, 0u);
  EXPECT_GT(One.stats().BleedDrops, 0u);
  EXPECT_EQ(Dump(One), Dump(Two));
}

TEST(Linking, ForwardBackward) {
  // seq 3: fwd op on tid 1 at ts 10 and 20 (the later wins), backward node
  // on tid 2.
  Trace T = J().x("cpu_op", "aten::mm", 10, 1, 1, "\"Sequence number\":3")
                .x("cpu_op", "aten::linear", 20, 5, 1, "\"Sequence number\":3")
                .x("cpu_op", "autograd::engine::evaluate_function: MmBackward0",
                   100, 5, 2, "\"Sequence number\":3")
                .import();
  EXPECT_EQ(T.fwdEvent(2), 1u);
  ASSERT_EQ(T.bwdEvents(1).size(), 1u);
  EXPECT_EQ(T.bwdEvents(1)[0], 2u);
  EXPECT_TRUE(T.bwdEvents(0).empty());
}

TEST(Linking, ModuleStack) {
  Trace T = J().x("python_function", "nn.Module: Encoder_0", 0, 100)
                .x("python_function", "model.py(12): forward", 1, 90)
                .x("python_function", "nn.Module: Linear_12", 2, 50)
                .x("cpu_op", "aten::addmm", 3, 10)
                .import();
  auto M = T.moduleStack(3);
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0], "nn.Module: Encoder");
  EXPECT_EQ(M[1], "nn.Module: Linear");
}

TEST(Linking, DeepSingleThreadIsNotQuadratic) {
  // 200000 strictly nested events on one thread (depth 200000).
  std::string S = "{\"traceEvents\":[";
  const int N = 200000;
  for (int I = 0; I < N; ++I) {
    S += (I ? "," : "");
    S += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"n\",\"pid\":1,\"tid\":1,"
         "\"ts\":" +
         std::to_string(I) + ",\"dur\":" + std::to_string(4 * N - 2 * I) + "}";
  }
  S += "]}";
  auto T = importTraceFromBuffer(S, "deep.json");
  ASSERT_TRUE(bool(T));
  EXPECT_EQ(T->parent(N - 1), EventId(N - 2));
  EXPECT_EQ(T->cpuRoots().size(), 1u);
  EXPECT_FALSE(bool(verifyTrace(*T)));
}
