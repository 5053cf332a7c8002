//===- ArchSpecTest.cpp - arch YAML loading -------------------------------===//
#include "tl/Analysis/ArchSpec.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tl;

#ifndef TL_SOURCE_DIR
#error "TL_SOURCE_DIR must be defined"
#endif

TEST(ArchSpec, ShippedFiles) {
  // data/arch holds the shipped files; values from spec arch-facts.md.
  auto A = resolveArchSpec("mi300x", TL_SOURCE_DIR "/data");
  ASSERT_TRUE(!!A) << llvm::toString(A.takeError());
  EXPECT_EQ(A->Name, "MI300X");
  EXPECT_EQ(A->Source, "measured");
  EXPECT_EQ(A->MemBwGBps, 5300);
  EXPECT_EQ(A->MemoryGB, 192);
  EXPECT_EQ(*A->peakTflops("matrix_bf16"), 708);
  EXPECT_EQ(*A->peakTflops("vector_fp64"), 40);
  EXPECT_FALSE(A->peakTflops("matrix_fp4").has_value());
  for (const char *N : {"MI325X", "MI355X", "A100", "H100", "H200", "B200"}) {
    auto B = resolveArchSpec(N, TL_SOURCE_DIR "/data");
    ASSERT_TRUE(!!B) << llvm::toString(B.takeError());
    EXPECT_EQ(B->Name, N);
  }
  auto H = resolveArchSpec("H200", TL_SOURCE_DIR "/data");
  ASSERT_TRUE(!!H);
  EXPECT_EQ(H->Source, "datasheet");
  EXPECT_EQ(H->MemBwGBps, 4800);
  auto Bad = resolveArchSpec("MI999", TL_SOURCE_DIR "/data");
  ASSERT_FALSE(!!Bad);
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "unknown arch 'MI999' (known: A100, B200, H100, H200, MI300X, "
            "MI325X, MI355X)");
}

static std::string writeTemp(llvm::StringRef Text, llvm::StringRef Ext) {
  llvm::SmallString<128> Path;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("arch", Ext, FD, Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return std::string(Path);
}

TEST(ArchSpec, ReferenceJsonAndErrors) {
  // The reference JSON schema (no "source") parses as YAML.
  std::string J = writeTemp(
      "{\"name\": \"X\", \"mem_bw_gbps\": 100, \"memory_gb\": 8, "
      "\"max_achievable_tflops\": {\"matrix_fp16\": 1.5}}",
      "json");
  auto A = loadArchSpec(J);
  ASSERT_TRUE(!!A) << llvm::toString(A.takeError());
  EXPECT_EQ(*A->peakTflops("matrix_fp16"), 1.5);
  llvm::sys::fs::remove(J);

  std::string U = writeTemp("name: X\nmem_bw_gbps: 1\nbogus: 2\n", "yaml");
  auto B = loadArchSpec(U);
  ASSERT_FALSE(!!B);
  EXPECT_EQ(llvm::toString(B.takeError()), U + ": unknown key 'bogus'");
  llvm::sys::fs::remove(U);

  std::string M = writeTemp("name: [unclosed\n", "yaml");
  auto C = loadArchSpec(M);
  EXPECT_FALSE(!!C);
  llvm::consumeError(C.takeError());
  llvm::sys::fs::remove(M);

  std::string N = writeTemp("name: X\nmem_bw_gbps: fast\n", "yaml");
  auto D = loadArchSpec(N);
  EXPECT_FALSE(!!D);
  llvm::consumeError(D.takeError());
  llvm::sys::fs::remove(N);
}

// A peak divides every roofline (issue 25: NaN, zero and negative peaks
// were accepted and printed "nan TB/s"): each must be finite and positive.
TEST(ArchSpec, PeaksMustBePositive) {
  struct Case {
    const char *Yaml, *Message;
  } Cases[] = {
      {"name: X\nmem_bw_gbps: .nan\n",
       "mem_bw_gbps must be a positive number, got '.nan'"},
      {"name: X\nmem_bw_gbps: 0\n",
       "mem_bw_gbps must be a positive number, got '0'"},
      {"name: X\nmem_bw_gbps: 100\nmemory_gb: -8\n",
       "memory_gb must be a positive number, got '-8'"},
      {"name: X\nmem_bw_gbps: .inf\n",
       "mem_bw_gbps must be a positive number, got '.inf'"},
      {"name: X\nmem_bw_gbps: 100\nmax_achievable_tflops:\n  "
       "matrix_bf16: -1\n",
       "max_achievable_tflops.matrix_bf16 must be a positive number, got "
       "'-1'"},
  };
  for (const Case &C : Cases) {
    std::string F = writeTemp(C.Yaml, "yaml");
    auto A = loadArchSpec(F);
    ASSERT_FALSE(!!A) << C.Yaml;
    EXPECT_EQ(llvm::toString(A.takeError()), F + ": " + C.Message);
    llvm::sys::fs::remove(F);
  }
}

TEST(ArchSpec, DeviceNames) {
  EXPECT_EQ(*archNameForDevice("NVIDIA H100 80GB HBM3"), "H100");
  EXPECT_EQ(*archNameForDevice("AMD Instinct MI300X VF"), "MI300X");
  EXPECT_EQ(*archNameForDevice("AMD Instinct MI300X"), "MI300X");
  EXPECT_EQ(*archNameForDevice("NVIDIA B200"), "B200");
  EXPECT_FALSE(archNameForDevice("AMD Instinct MI210").has_value());
}
