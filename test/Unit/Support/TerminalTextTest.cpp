//===- TerminalTextTest.cpp - control characters shown, not sent ----------===//
#include "tl/Support/TerminalText.h"

#include "llvm/Support/WithColor.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(TerminalText, ControlsEscaped) {
  // ESC [2J clears the screen; OSC 0 retitles the window; BEL rings.
  EXPECT_EQ(terminalSafe("dev\x1b[2Jname"), "dev\\x1b[2Jname");
  EXPECT_EQ(terminalSafe("\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
  EXPECT_EQ(terminalSafe("a\rb\x7f"), "a\\x0db\\x7f");
  // C1 CSI in UTF-8 (C2 9B) is a control too; other UTF-8 passes.
  EXPECT_EQ(terminalSafe("x\xc2\x9b" "1m"), "x\\xc2\\x9b1m");
  EXPECT_EQ(terminalSafe("Kernel Time (\xc2\xb5s)\tok\n"),
            "Kernel Time (\xc2\xb5s)\tok\n");
}

TEST(TerminalText, StreamForwardsColoursNotText) {
  std::string S;
  llvm::raw_string_ostream Inner(S);
  TerminalSafeOStream OS(Inner);
  llvm::WithColor::warning(OS, "tl-opt") << "name \x1b[31mred\n";
  // A string stream has no colours, so WithColor writes none; the escape
  // sequence from the text is shown, not sent.
  EXPECT_EQ(S, "tl-opt: warning: name \\x1b[31mred\n");
}

TEST(TerminalText, SingleLineEscapesLineBreaks) {
  // A config key "thr\neads" quoted in an error must not split the line.
  EXPECT_EQ(singleLine("thr\neads\tx"), "thr\\neads\\tx");
  EXPECT_EQ(singleLine("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(singleLine("plain"), "plain");
}
