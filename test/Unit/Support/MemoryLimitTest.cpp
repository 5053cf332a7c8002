//===- MemoryLimitTest.cpp - cgroup and rlimit parsing --------------------===//
#include "tl/Support/MemoryLimit.h"

#include "gtest/gtest.h"

#include <sys/resource.h>

using namespace tl;

TEST(MemoryLimit, CgroupFiles) {
  EXPECT_EQ(parseCgroupMemoryLimit("max\n"), std::nullopt);
  EXPECT_EQ(parseCgroupMemoryLimit("2147483648\n"), uint64_t(2147483648));
  // v1's "unlimited": LONG_MAX rounded down to a page.
  EXPECT_EQ(parseCgroupMemoryLimit("9223372036854771712\n"), std::nullopt);
  EXPECT_EQ(parseCgroupMemoryLimit("garbage"), std::nullopt);
}

TEST(MemoryLimit, ProcSelfCgroup) {
  auto V2 = parseProcCgroup("0::/user.slice/job-7.scope\n");
  ASSERT_TRUE(V2);
  EXPECT_TRUE(V2->first);
  EXPECT_EQ(V2->second, "/user.slice/job-7.scope");
  // v1 lists controllers; the memory one wins over a v2 line.
  auto V1 = parseProcCgroup("12:cpu,cpuacct:/a\n4:memory:/slurm/uid_1/job_9\n"
                            "0::/b\n");
  ASSERT_TRUE(V1);
  EXPECT_FALSE(V1->first);
  EXPECT_EQ(V1->second, "/slurm/uid_1/job_9");
  EXPECT_EQ(parseProcCgroup("bogus"), std::nullopt);
}

// An address-space limit lowers the budget below it (the run would abort
// past it); the previous limit is restored after.
TEST(MemoryLimit, RlimitCounts) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer shadow memory counts against RLIMIT_DATA";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "sanitizer shadow memory counts against RLIMIT_DATA";
#endif
#endif
  struct rlimit Old;
  ASSERT_EQ(getrlimit(RLIMIT_DATA, &Old), 0);
  uint64_t Before = availableMemoryBytes();
  struct rlimit L = Old;
  L.rlim_cur = 64ull << 30; // far above what the test uses
  if (Old.rlim_max != RLIM_INFINITY && Old.rlim_max < L.rlim_cur)
    GTEST_SKIP() << "hard RLIMIT_DATA too low";
  L.rlim_cur = std::min<rlim_t>(L.rlim_cur, Before ? Before / 2 : L.rlim_cur);
  ASSERT_EQ(setrlimit(RLIMIT_DATA, &L), 0);
  uint64_t With = availableMemoryBytes();
  setrlimit(RLIMIT_DATA, &Old);
  EXPECT_LE(With, uint64_t(L.rlim_cur) / 2); // address space: half
  EXPECT_GT(With, 0u);
}
