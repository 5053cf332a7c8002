//===- Finding.cpp - Finding helpers ---------------------------------------===//
#include "tl/Report/Finding.h"

#include "tl/Support/NumberFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"


using namespace llvm;

namespace tl {

StringRef tierName(Tier T) {
  switch (T) {
  case Tier::Compute:
    return "compute";
  case Tier::Fusion:
    return "fusion";
  case Tier::System:
    return "system";
  }
  return "compute";
}

std::optional<Tier> parseTier(StringRef Name) {
  if (Name == "compute")
    return Tier::Compute;
  if (Name == "fusion")
    return Tier::Fusion;
  if (Name == "system")
    return Tier::System;
  return std::nullopt;
}

StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Info:
    return "info";
  case Severity::Low:
    return "low";
  case Severity::Medium:
    return "medium";
  case Severity::High:
    return "high";
  }
  return "info";
}

StringRef locationKindName(Location::Kind K) {
  switch (K) {
  case Location::Kind::Event:
    return "event";
  case Location::Kind::Op:
    return "op";
  case Location::Kind::Kernel:
    return "kernel";
  case Location::Kind::TimeRange:
    return "time_range";
  }
  return "event";
}

void printValue(raw_ostream &OS, const Value &V) {
  if (const double *D = std::get_if<double>(&V)) {
    writeShortest(OS, *D);
  } else if (const int64_t *I = std::get_if<int64_t>(&V)) {
    OS << *I;
  } else if (const bool *B = std::get_if<bool>(&V)) {
    OS << (*B ? "true" : "false");
  } else {
    OS << std::get<std::string>(V);
  }
}

std::string Finding::computeId() const {
  // NUL separators keep ("a","bc") and ("ab","c") apart.
  std::string Blob = Pass + '\0' + Category + '\0' + (Key.empty() ? Title : Key);
  uint64_t H = xxh3_64bits(StringRef(Blob));
  std::string Cat;
  for (char C : Category)
    Cat += isAlnum(C) || C == '-' || C == '_' ? C : '_';
  return Pass + "." + Cat + "." + utohexstr(H, /*LowerCase=*/true, 16);
}

} // namespace tl
