//===- PassOption.cpp - Option parsing and printing -----------------------===//
#include "tl/Pass/PassOption.h"
#include "tl/Pass/Pass.h"
#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace llvm;

namespace tl {

static Error expected(StringRef What, StringRef Text) {
  return createStringError(inconvertibleErrorCode(),
                           "expected " + What + ", got '" + Text + "'");
}

Error detail::parseOptionValue(StringRef Text, double &V) {
  Text = Text.trim();
  // to_float accepts "inf"/"nan" spellings strtod knows; refuse them so an
  // option never silently disables a threshold.
  if (!to_float(Text, V) || !std::isfinite(V))
    return expected("a number", Text);
  return Error::success();
}

Error detail::parseOptionValue(StringRef Text, int64_t &V) {
  Text = Text.trim();
  StringRef Digits = Text;
  // Accept one explicit '+' sign ("+4"), as config files sometimes have.
  if (Digits.consume_front("+") &&
      (Digits.starts_with("+") || Digits.starts_with("-")))
    return expected("an integer", Text);
  if (Digits.getAsInteger(10, V))
    return expected("an integer", Text);
  return Error::success();
}

Error detail::parseOptionValue(StringRef Text, int &V) {
  int64_t W;
  if (parseOptionValue(Text, W) || W < INT32_MIN || W > INT32_MAX)
    return expected("an integer", Text.trim());
  V = static_cast<int>(W);
  return Error::success();
}

Error detail::parseOptionValue(StringRef Text, unsigned &V) {
  Text = Text.trim();
  StringRef Digits = Text;
  uint64_t W;
  if (Digits.consume_front("+") && Digits.starts_with("+"))
    return expected("an unsigned integer", Text);
  if (Digits.getAsInteger(10, W) || W > UINT32_MAX)
    return expected("an unsigned integer", Text);
  V = static_cast<unsigned>(W);
  return Error::success();
}

Error detail::parseOptionValue(StringRef Text, bool &V) {
  Text = Text.trim();
  std::string L = Text.lower();
  if (L == "true" || L == "1" || L == "yes" || L == "on")
    V = true;
  else if (L == "false" || L == "0" || L == "no" || L == "off")
    V = false;
  else
    return expected("true or false", Text);
  return Error::success();
}

Error detail::parseOptionValue(StringRef Text, std::string &V) {
  V = Text.trim().str();
  return Error::success();
}

void detail::printOptionValue(raw_ostream &OS, double V) {
  writeShortest(OS, V);
}
void detail::printOptionValue(raw_ostream &OS, int64_t V) { OS << V; }
void detail::printOptionValue(raw_ostream &OS, int V) { OS << V; }
void detail::printOptionValue(raw_ostream &OS, unsigned V) { OS << V; }
void detail::printOptionValue(raw_ostream &OS, bool V) {
  OS << (V ? "true" : "false");
}
void detail::printOptionValue(raw_ostream &OS, const std::string &V) {
  OS << V;
}

PassOptionBase::PassOptionBase(Pass &Owner, StringRef Name)
    : Name(Name.str()) {
  Owner.Options.push_back(this);
}

PassOptionBase::~PassOptionBase() = default;

std::string PassOptionBase::valueString() const {
  std::string S;
  raw_string_ostream OS(S);
  printValue(OS);
  return S;
}

std::string PassOptionBase::defaultString() const {
  std::string S;
  raw_string_ostream OS(S);
  printDefault(OS);
  return S;
}

Error PassOptionBase::checkAllowed(StringRef V) const {
  if (Allowed.empty() || is_contained(Allowed, V))
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "expected one of " + join(Allowed, "|") +
                               ", got '" + V + "'");
}

PassStatistic::PassStatistic(Pass &Owner, StringRef Name, StringRef Desc)
    : Name(Name.str()), Desc(Desc.str()) {
  Owner.Statistics.push_back(this);
}

} // namespace tl
