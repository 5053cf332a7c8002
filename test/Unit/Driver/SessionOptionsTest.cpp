//===- SessionOptionsTest.cpp - Defaults < config < flags -----------------===//
#include "tl/Driver/SessionOptions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

/// A config file with Text in a fresh temporary path (removed by the test).
std::string writeConfig(llvm::StringRef Text) {
  llvm::SmallString<128> Path;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("tl-session", "yaml", FD,
                                                  Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return std::string(Path);
}

std::string errText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

TEST(SessionOptions, Defaults) {
  SessionOptions O = resolveOptions(SessionSettings(), SessionSettings());
  EXPECT_EQ(O.Pipeline, "system,compute");
  EXPECT_EQ(O.Arch, "auto");
  EXPECT_EQ(O.Threads, 0u);
  EXPECT_EQ(O.MaxEvents, 100000000u);
  EXPECT_FALSE(O.MaxMemoryMB.has_value());
  EXPECT_EQ(O.TimingFormat, "text");
  EXPECT_TRUE(O.FailOn.empty());
  EXPECT_TRUE(O.Plugins.empty());
}

TEST(SessionOptions, FlagsWinOverConfigOverDefaults) {
  SessionSettings Config, Flags;
  Config.Threads = 4;
  Config.Arch = "H100";
  Config.Quiet = true;
  Config.Plugins = SettingList{"a.so", "b.so"};
  Config.FailOn = "P1";
  Flags.Threads = 2;
  Flags.Plugins = SettingList{"c.so"};
  Flags.Quiet = false;
  SessionOptions O = resolveOptions(Config, Flags);
  EXPECT_EQ(O.Threads, 2u);            // flag
  EXPECT_EQ(O.Arch, "H100");           // config
  EXPECT_FALSE(O.Quiet);               // an explicit false flag wins too
  EXPECT_EQ(O.Plugins, SettingList{"c.so"}); // lists are replaced, not merged
  EXPECT_EQ(O.FailOn, "P1");           // config (issue 24)
  EXPECT_EQ(O.Pipeline, "system,compute"); // default
}

TEST(SessionOptions, ConfigFileTakesEverySettingType) {
  std::string Path = writeConfig("pipeline: cpu-idle\n"
                                 "threads: 3\n"
                                 "max-memory: 512\n"
                                 "no-quality-gate: yes\n"
                                 "fail-on: 'impact>=5'\n"
                                 "load-pass-plugin: [x.so, y.so]\n"
                                 "passes:\n"
                                 "  cpu-idle: {idle-pct: 20}\n");
  SessionSettings Flags;
  Flags.Pipeline = "gemm";
  auto O = resolveOptions(Path, Flags);
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->Pipeline, "gemm");
  EXPECT_EQ(O->Threads, 3u);
  EXPECT_EQ(O->MaxMemoryMB, std::optional<uint64_t>(512));
  EXPECT_TRUE(O->NoQualityGate);
  EXPECT_EQ(O->FailOn, "impact>=5");
  EXPECT_EQ(O->Plugins, (SettingList{"x.so", "y.so"}));
  ASSERT_EQ(O->PassOptions.count("cpu-idle"), 1u);
  EXPECT_EQ(O->PassOptions["cpu-idle"].front().second, "20");
  EXPECT_EQ(O->ConfigFile, Path);
  llvm::sys::fs::remove(Path);
}

TEST(SessionOptions, ConfigErrorsNameTheFileAndKey) {
  std::string Path = writeConfig("threads: -1\n");
  EXPECT_EQ(errText(loadSessionSettings(Path).takeError()),
            Path + ": 'threads' must be a non-negative integer, got '-1'");
  llvm::sys::fs::remove(Path);
  Path = writeConfig("quiet: maybe\n");
  EXPECT_EQ(errText(loadSessionSettings(Path).takeError()),
            Path + ": 'quiet' must be true or false, got 'maybe'");
  llvm::sys::fs::remove(Path);
  Path = writeConfig("fail_on: P1\n");
  std::string Msg = errText(loadSessionSettings(Path).takeError());
  EXPECT_EQ(Msg.rfind(Path + ": unknown key 'fail_on' (known: pipeline, "
                             "passes, arch,",
                      0),
            0u)
      << Msg;
  llvm::sys::fs::remove(Path);
}

} // namespace
