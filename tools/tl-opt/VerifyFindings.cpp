//===- VerifyFindings.cpp - --verify-findings -----------------------------===//
//
// The analogue of mlir-opt -verify-diagnostics: lit tests state which
// findings a trace must produce, and nothing else may appear.
//
//===----------------------------------------------------------------------===//
#include "VerifyFindings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

namespace {
struct Expectation {
  unsigned Line;
  Tier T;
  std::string Pass;
  std::string Pattern;
  bool Matched = false;
};
} // namespace

Error verifyFindings(StringRef File, ArrayRef<Finding> Findings) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf)
    return createStringError(inconvertibleErrorCode(),
                             File + ": cannot read expectations: " +
                                 Buf.getError().message());
  std::vector<Expectation> Exps;
  bool ExpectNone = false;
  unsigned Errors = 0;
  auto Report = [&](unsigned Line, const Twine &Msg) {
    errs() << File << ":" << Line << ": error: " << Msg << "\n";
    ++Errors;
  };

  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I];
    unsigned LineNo = I + 1;
    if (L.contains("expected-no-findings")) {
      ExpectNone = true;
      continue;
    }
    size_t Pos = L.find("expected-finding");
    if (Pos == StringRef::npos)
      continue;
    StringRef Rest = L.drop_front(Pos + strlen("expected-finding")).ltrim();
    auto [TierText, Rest2] = Rest.split(' ');
    auto [PassText, Rest3] = Rest2.ltrim().split(' ');
    Rest3 = Rest3.trim();
    std::optional<Tier> T = parseTier(TierText);
    if (!T) {
      Report(LineNo, "expected-finding: unknown tier '" + TierText +
                         "' (compute, fusion or system)");
      continue;
    }
    if (PassText.empty() || !Rest3.starts_with("{{") ||
        !Rest3.ends_with("}}")) {
      Report(LineNo, "expected-finding: expected "
                     "'<tier> <pass> {{regex on title}}'");
      continue;
    }
    std::string Pattern = Rest3.drop_front(2).drop_back(2).str();
    std::string RegexErr;
    if (!Regex(Pattern).isValid(RegexErr)) {
      Report(LineNo, "expected-finding: invalid regex '" + Pattern +
                         "': " + RegexErr);
      continue;
    }
    Exps.push_back({LineNo, *T, PassText.str(), Pattern});
  }
  if (ExpectNone && !Exps.empty())
    Report(1, "expected-no-findings together with expected-finding lines");
  if (!ExpectNone && Exps.empty() && Errors == 0)
    Report(1, "no expected-finding or expected-no-findings lines");

  std::vector<bool> Used(Findings.size(), false);
  for (Expectation &E : Exps) {
    Regex R(E.Pattern);
    for (size_t I = 0; I < Findings.size(); ++I) {
      const Finding &F = Findings[I];
      if (Used[I] || F.T != E.T || F.Pass != E.Pass || !R.match(F.Title))
        continue;
      Used[I] = E.Matched = true;
      break;
    }
    if (!E.Matched)
      Report(E.Line, "expected " + tierName(E.T) + " finding from '" +
                         E.Pass + "' matching {{" + E.Pattern +
                         "}} was not produced");
  }
  for (size_t I = 0; I < Findings.size(); ++I)
    if (!Used[I])
      errs() << File << ": error: unexpected " << tierName(Findings[I].T)
             << " finding from '" << Findings[I].Pass << "': "
             << Findings[I].Title << "\n",
          ++Errors;

  if (Errors)
    return createStringError(inconvertibleErrorCode(),
                             Twine(Errors) + " finding expectation(s) failed");
  return Error::success();
}

} // namespace tl
