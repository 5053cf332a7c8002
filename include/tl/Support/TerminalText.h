//===- TerminalText.h - text from traces, safe for a terminal --*- C++ -*-===//
//
// Names in a trace (kernels, devices, modules) reach stderr in notes and
// warnings. An escape sequence among them could recolour, retitle or clear
// the user's terminal, so control characters are shown escaped ("\x1b")
// instead of being sent. Line feeds and tabs pass; so does valid UTF-8.
//
//===----------------------------------------------------------------------===//
#ifndef TL_SUPPORT_TERMINALTEXT_H
#define TL_SUPPORT_TERMINALTEXT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tl {

/// Text with every C0 control except '\n' and '\t', DEL and the C1
/// controls (U+0080..U+009F) written as "\xNN" escapes.
std::string terminalSafe(llvm::StringRef Text);

/// terminalSafe() text that also keeps to one line: '\n' and '\t' become
/// "\n" and "\t". For names quoted inside a one-line error.
std::string singleLine(llvm::StringRef Text);

/// An unbuffered stream that writes terminalSafe() text to another one.
/// Colours asked for through it (WithColor) still reach the terminal: they
/// are forwarded, not written as text.
class TerminalSafeOStream : public llvm::raw_ostream {
public:
  explicit TerminalSafeOStream(llvm::raw_ostream &OS);
  ~TerminalSafeOStream() override;

  llvm::raw_ostream &changeColor(enum Colors Color, bool Bold = false,
                                 bool BG = false) override;
  llvm::raw_ostream &resetColor() override;
  llvm::raw_ostream &reverseColor() override;
  bool is_displayed() const override { return OS.is_displayed(); }
  bool has_colors() const override { return OS.has_colors(); }
  void enable_colors(bool Enable) override { OS.enable_colors(Enable); }

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }

  llvm::raw_ostream &OS;
  uint64_t Pos = 0;
};

} // namespace tl

#endif // TL_SUPPORT_TERMINALTEXT_H
