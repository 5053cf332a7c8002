//===- Markdown.cpp - Text that CommonMark/GFM renders exactly ------------===//
#include "tl/Support/Markdown.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cctype>

using namespace llvm;

namespace tl {

std::string mdCode(StringRef S, bool InTable) {
  size_t Longest = 0, Run = 0;
  for (char C : S) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
  }
  std::string Body;
  for (char C : S) {
    if (C == '\n' || C == '\r')
      Body += ' ';
    else if (C == '|' && InTable)
      Body += "\\|";
    else
      Body += C;
  }
  // CommonMark strips one space from each end when both ends have one, and
  // a backtick at an end would merge with the fence: pad both ends then.
  bool Pad = !Body.empty() &&
             (Body.front() == '`' || Body.back() == '`' ||
              (Body.front() == ' ' && Body.back() == ' '));
  std::string Fence(Longest + 1, '`');
  if (Body.empty())
    return Fence + " " + Fence; // renders as an empty-looking " " span
  return Fence + (Pad ? " " : "") + Body + (Pad ? " " : "") + Fence;
}

std::string mdEscape(StringRef S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '\n' || C == '\r') {
      Out += ' ';
      continue;
    }
    bool Esc = StringRef("\\`*<&~|[").contains(C);
    if (C == '_')
      Esc = !(I > 0 && isAlnum(S[I - 1]) && I + 1 < S.size() &&
              isAlnum(S[I + 1]));
    if (Esc)
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string mdPlain(StringRef S) {
  S = S.trim();
  // A whole code span: strip the fence (and one padding space per side).
  if (S.starts_with("`")) {
    size_t N = S.find_first_not_of('`');
    std::string Fence(N == StringRef::npos ? S.size() : N, '`');
    if (N != StringRef::npos && S.size() >= 2 * Fence.size() &&
        S.ends_with(Fence) &&
        S.find(Fence, Fence.size()) == S.size() - Fence.size()) {
      StringRef Body = S.drop_front(Fence.size()).drop_back(Fence.size());
      if (Body.size() >= 2 && Body.front() == ' ' && Body.back() == ' ' &&
          Body.find_first_not_of(' ') != StringRef::npos)
        Body = Body.drop_front().drop_back();
      return Body.str();
    }
  }
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\\' && I + 1 < S.size() && std::ispunct(static_cast<unsigned char>(S[I + 1])))
      ++I;
    Out += S[I];
  }
  return Out;
}

} // namespace tl
