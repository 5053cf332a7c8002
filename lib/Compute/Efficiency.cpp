//===- Efficiency.cpp - The operations[i].efficiency block -----------------===//
//
// tracelens-analysis §5.3: achieved rates, the roofline
// percentage with the > 110 % anomaly guard (comparative scope: 100·T2/T1
// capped by the roofline), and the peaks it was measured
// against.
//
//===----------------------------------------------------------------------===//
#include "tl/Compute/ComputeCore.h"

#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace tl::compute {

std::optional<double> pandasFloat(StringRef S) {
  S = S.trim();
  if (S.empty())
    return std::nullopt;
  size_t I = 0;
  bool Neg = false;
  if (S[I] == '-' || S[I] == '+')
    Neg = S[I++] == '-';
  // Words Python's float() takes and pandas maps to NaN / inf.
  StringRef Rest = S.substr(I);
  if (Rest.equals_insensitive("inf") || Rest.equals_insensitive("infinity"))
    return Neg ? -HUGE_VAL : HUGE_VAL;
  constexpr int MaxDigits = 17;
  double Number = 0;
  int Exponent = 0, NumDigits = 0, NumDecimals = 0;
  while (I < S.size() && isDigit(S[I])) {
    if (NumDigits < MaxDigits) {
      Number = Number * 10. + (S[I] - '0');
      ++NumDigits;
    } else {
      ++Exponent;
    }
    ++I;
  }
  if (I < S.size() && S[I] == '.') {
    ++I;
    while (NumDigits < MaxDigits && I < S.size() && isDigit(S[I])) {
      Number = Number * 10. + (S[I] - '0');
      ++I;
      ++NumDigits;
      ++NumDecimals;
    }
    while (I < S.size() && isDigit(S[I]))
      ++I;
    Exponent -= NumDecimals;
  }
  if (NumDigits == 0)
    return std::nullopt;
  if (Neg)
    Number = -Number;
  if (I < S.size() && (S[I] == 'e' || S[I] == 'E')) {
    size_t J = I + 1;
    bool ENeg = false;
    if (J < S.size() && (S[J] == '-' || S[J] == '+'))
      ENeg = S[J++] == '-';
    int N = 0, EDigits = 0;
    while (J < S.size() && isDigit(S[J]) && EDigits < 5) {
      N = N * 10 + (S[J++] - '0');
      ++EDigits;
    }
    if (EDigits) {
      Exponent += ENeg ? -N : N;
      I = J;
    }
  }
  if (I != S.size())
    return std::nullopt; // not a number: pandas keeps the column as text
  // Exact powers of ten up to 1e22; beyond, the table's values are the
  // correctly rounded literals, as pandas' e[] table is.
  auto Pow10 = [](int E) { return std::stod("1e" + std::to_string(E)); };
  if (Exponent > 308)
    return Neg ? -HUGE_VAL : HUGE_VAL;
  if (Exponent > 0)
    Number *= Pow10(Exponent);
  else if (Exponent < -308)
    Number = Exponent < -616 ? 0. : Number / Pow10(-308 - Exponent) / Pow10(308);
  else
    Number /= Pow10(-Exponent);
  return Number;
}

StringRef RowView::text(StringRef Column) const {
  int C = T->column(Column);
  if (C < 0 || Row >= T->Rows.size() ||
      static_cast<size_t>(C) >= T->Rows[Row].size())
    return "";
  return T->Rows[Row][C];
}

std::optional<double> RowView::num(StringRef Column) const {
  StringRef S = text(Column).trim();
  if (S.empty())
    return std::nullopt;
  if (S == "True")
    return 1.0;
  if (S == "False")
    return 0.0;
  std::optional<double> D = pandasFloat(S);
  if (!D || std::isnan(*D))
    return std::nullopt;
  return D;
}

std::optional<double> Peaks::lookup(StringRef Spec) const {
  for (const auto &[K, V] : MaxTflops)
    if (K == Spec)
      return V;
  return std::nullopt;
}

std::optional<double> Peaks::matrixBf16() const {
  return lookup("matrix_bf16");
}

PyValue peakValue(double V) {
  if (std::isfinite(V) && V == std::floor(V) && std::fabs(V) < 9e15)
    return PyValue::integer(static_cast<int64_t>(V));
  return PyValue::real(pyRound(V, 2));
}

Efficiency computeEfficiency(const RowView &R, const Peaks &P,
                             bool Comparative) {
  Efficiency E;
  if (auto V = R.num("TFLOPS/s_mean"))
    E.TflopsAchieved = pyRound(*V, 2);
  if (auto V = R.num("TB/s_mean"))
    E.TbsAchieved = pyRound(*V, 2);
  if (auto V = R.num("FLOPS/Byte"); V && *V != 0)
    E.FlopsPerByte = pyRound(*V, 2);
  E.ComputeSpec = R.text("Compute Spec").str();
  if (E.ComputeSpec == "nan")
    E.ComputeSpec.clear();
  std::optional<double> Maf;
  if (!E.ComputeSpec.empty())
    Maf = P.lookup(E.ComputeSpec);
  if (!Maf)
    Maf = P.matrixBf16();
  E.ResolvedPeakMaf = peakValue(Maf.value_or(1));
  if (P.HbmTbs)
    E.ResolvedPeakHbm = pyRound(*P.HbmTbs, 2);
  StringRef Bound = R.text("Roofline Bound");
  E.BoundType = Bound == "COMPUTE_BOUND"  ? "compute"
                : Bound == "MEMORY_BOUND" ? "memory"
                                          : "";
  if (Comparative) {
    // 100·T2/T1 through delta (T2 = T1 + delta) or speedup; the trace-1
    // roofline caps how good trace 2 can make trace 1 look.
    std::optional<double> T1 = R.num("Kernel Time (µs)_sum");
    if (!T1 || !(*T1 > 0))
      return E;
    std::optional<double> Pct;
    if (auto D = R.num("delta_us (trace2 - trace1)"))
      Pct = 100 * (*T1 + *D) / *T1;
    else if (auto S = R.num("speedup (trace2/trace1)"); S && *S >= 0)
      Pct = 100 * *S;
    if (!Pct)
      return E;
    if (auto Roof = R.num("Pct Roofline_mean"); Roof && *Pct < *Roof) {
      Pct = *Roof;
      std::string W;
      raw_string_ostream(W) << "[ROOFLINE CAP] Projected efficiency clamped "
                               "to roofline ("
                            << format("%.1f", *Roof)
                            << "%); trace2 gap exceeds trace1 hardware "
                               "ceiling.";
      E.Warning = W;
    }
    E.EfficiencyPercent = pyRound(*Pct, 2);
    return E;
  }
  if (auto Pct = R.num("Pct Roofline_mean")) {
    E.EfficiencyPercent = pyRound(*Pct, 2);
    if (*Pct > 110) {
      E.IsAnomaly = true;
      std::string W;
      raw_string_ostream(W) << "[ANOMALY] Pct Roofline exceeds 110% ("
                            << format("%.1f", *Pct)
                            << "%) - verify measurement";
      E.Warning = W;
    }
  }
  return E;
}

} // namespace tl::compute
