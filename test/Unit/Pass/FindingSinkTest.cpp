//===- FindingSinkTest.cpp - Findings, ids, merge order -------------------===//
#include "TestPasses.h"
#include "tl/Report/Emitter.h"
#include "tl/Report/FindingSink.h"

#include "llvm/ADT/STLExtras.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <thread>

using namespace tl;
using tl::test::errText;

namespace {

TEST(FindingSink, BuilderFillsEveryField) {
  FindingSink S("p");
  S.compute("GEMM", "Slow GEMM")
      .key("mm-4x8")
      .metric("ms", 1.5, "ms")
      .metric("count", 3)
      .metric("ok", true)
      .metric("lib", "hipBLASLt")
      .evidence({"Top", {"a", "b"}, {{Value(1.0), Value(std::string("x"))}}})
      .impact(1, 2, 3, "roofline")
      .severity(Severity::High)
      .event(42)
      .op("aten::mm")
      .kernel("k")
      .timeRange(1, 2)
      .action("tune")
      .mechanism("tiles")
      .expect("faster")
      .note("n");
  std::vector<Finding> F = S.take();
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Pass, "p");
  EXPECT_EQ(F[0].T, Tier::Compute);
  EXPECT_EQ(F[0].Metrics.size(), 4u);
  auto Count = llvm::find_if(F[0].Metrics,
                             [](const Metric &M) { return M.Name == "count"; });
  ASSERT_NE(Count, F[0].Metrics.end());
  EXPECT_EQ(std::get<int64_t>(Count->V), 3);
  EXPECT_TRUE(F[0].Imp.Quantified);
  EXPECT_EQ(F[0].Imp.HighPct, 3);
  EXPECT_EQ(F[0].Locations.size(), 4u);
  EXPECT_EQ(F[0].Rec.Expected, "faster");
  // Id: pass, category and the key (not the title).
  EXPECT_TRUE(llvm::StringRef(F[0].Id).starts_with("p.GEMM."));
  Finding G = F[0];
  G.Title = "other title";
  EXPECT_EQ(G.computeId(), F[0].Id);
  G.Key = "other";
  EXPECT_NE(G.computeId(), F[0].Id);
}

TEST(FindingSink, ConcurrentEmissionKeepsAll) {
  FindingSink S("p");
  std::vector<std::thread> Ts;
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&S, T] {
      for (int I = 0; I < 100; ++I)
        S.system("c", std::to_string(T) + "-" + std::to_string(I));
    });
  for (auto &T : Ts)
    T.join();
  EXPECT_EQ(S.size(), 400u);
}

TEST(FindingSink, MergeKeepsOrderAndUniquifiesIds) {
  FindingSink A("a"), B("b");
  A.system("c", "x");
  A.system("c", "x"); // same pass, category, key -> same base id
  B.system("c", "y");
  std::vector<std::vector<Finding>> Per;
  Per.push_back(A.take());
  Per.push_back(B.take());
  std::vector<Finding> M = mergeFindings(std::move(Per));
  ASSERT_EQ(M.size(), 3u);
  EXPECT_EQ(M[0].Pass, "a");
  EXPECT_EQ(M[2].Pass, "b");
  EXPECT_EQ(M[1].Id, M[0].Id + "-2");
}

// The reference-schema files are the report's: a pass asking to write one
// gets an error naming the path and what to use instead; its own files
// (even ones whose names merely look alike) are kept.
TEST(FindingSink, ArtifactRefusesReferenceSchemaPaths) {
  FindingSink S("my-pass");
  for (const char *P :
       {"category_data/gemm_metrics.json", "category_data/fusion_candidates.json",
        "./category_data/multi_kernel_data.json", "metadata/gemm_metadata.json",
        "metadata/model_info.json", "priority_data.json",
        "./priority_data.json"}) {
    llvm::Error E = S.artifact(P, "x");
    ASSERT_TRUE(bool(E)) << P;
    EXPECT_EQ(llvm::toString(std::move(E)),
              std::string("pass 'my-pass' may not write '") + P +
                  "': category_data/, metadata/ and priority_data.json are "
                  "written by the report from typed data "
                  "(FindingSink::categoryMetrics, docs/WritingAPass.md)");
  }
  for (const char *P : {"mine/priority_data.json", "category_data.txt",
                        "my_metadata/a.json", "priority_data.json.bak"})
    EXPECT_EQ(errText(S.artifact(P, "ok")), "") << P;
  std::vector<Artifact> A = S.takeArtifacts();
  ASSERT_EQ(A.size(), 4u);
  EXPECT_EQ(A[0].Path, "mine/priority_data.json");
  EXPECT_EQ(A[3].Path, "priority_data.json.bak");
  EXPECT_EQ(A[3].Content, "ok");
}

TEST(WriteFileAtomically, WritesAndLeavesNoTemp) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tl-atomic", Dir));
  ASSERT_EQ(errText(writeFileAtomically(Dir, "sub/out.txt",
                                        [](llvm::raw_ostream &OS) {
                                          OS << "hello";
                                        })), "");
  auto B = llvm::MemoryBuffer::getFile(Dir + "/sub/out.txt");
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)->getBuffer(), "hello");
  std::error_code EC;
  int N = 0;
  for (llvm::sys::fs::directory_iterator It(Dir + "/sub", EC), E; It != E;
       It.increment(EC))
    ++N;
  EXPECT_EQ(N, 1);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
