//===- TerminalText.cpp - text from traces, safe for a terminal -----------===//
#include "tl/Support/TerminalText.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace tl {

namespace {
/// Bytes of Text[I..] that form one control to escape (0 when none).
size_t controlLength(StringRef Text, size_t I) {
  unsigned char C = Text[I];
  if ((C < 0x20 && C != '\n' && C != '\t') || C == 0x7f)
    return 1;
  // U+0080..U+009F: C2 80..C2 9F (CSI is U+009B).
  if (C == 0xc2 && I + 1 < Text.size() &&
      (unsigned char)Text[I + 1] >= 0x80 && (unsigned char)Text[I + 1] <= 0x9f)
    return 2;
  return 0;
}

void writeSafe(raw_ostream &OS, StringRef Text) {
  size_t Plain = 0;
  for (size_t I = 0; I < Text.size();) {
    size_t N = controlLength(Text, I);
    if (!N) {
      ++I;
      continue;
    }
    OS << Text.slice(Plain, I);
    for (size_t K = 0; K < N; ++K)
      OS << "\\x" << format_hex_no_prefix((unsigned char)Text[I + K], 2);
    I += N;
    Plain = I;
  }
  OS << Text.substr(Plain);
}
} // namespace

std::string terminalSafe(StringRef Text) {
  std::string Out;
  raw_string_ostream OS(Out);
  writeSafe(OS, Text);
  return Out;
}

std::string singleLine(StringRef Text) {
  std::string Out;
  for (char C : terminalSafe(Text)) {
    if (C == '\n')
      Out += "\\n";
    else if (C == '\t')
      Out += "\\t";
    else
      Out += C;
  }
  return Out;
}

TerminalSafeOStream::TerminalSafeOStream(raw_ostream &OS) : OS(OS) {
  SetUnbuffered();
}

TerminalSafeOStream::~TerminalSafeOStream() { flush(); }

raw_ostream &TerminalSafeOStream::changeColor(enum Colors Color, bool Bold,
                                              bool BG) {
  flush();
  OS.changeColor(Color, Bold, BG);
  return *this;
}

raw_ostream &TerminalSafeOStream::resetColor() {
  flush();
  OS.resetColor();
  return *this;
}

raw_ostream &TerminalSafeOStream::reverseColor() {
  flush();
  OS.reverseColor();
  return *this;
}

void TerminalSafeOStream::write_impl(const char *Ptr, size_t Size) {
  // Unbuffered, so a multi-byte control is never split across calls except
  // by a caller writing it in two pieces; those halves pass as text.
  writeSafe(OS, StringRef(Ptr, Size));
  Pos += Size;
}

} // namespace tl
