//===- PandasStats.cpp - pandas groupby reductions -----------------------===//
#include "tl/Support/PandasStats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace tl;

static double kahan(llvm::ArrayRef<double> A, size_t &N) {
  double Sum = 0, Comp = 0;
  N = 0;
  for (double V : A) {
    if (std::isnan(V))
      continue;
    ++N;
    double Y = V - Comp;
    double T = Sum + Y;
    Comp = (T - Sum) - Y;
    Sum = T;
  }
  return Sum;
}

double tl::pandasGroupSum(llvm::ArrayRef<double> A) {
  size_t N;
  return kahan(A, N);
}

double tl::pandasGroupMean(llvm::ArrayRef<double> A) {
  size_t N;
  double S = kahan(A, N);
  if (!N)
    return std::numeric_limits<double>::quiet_NaN();
  return S / double(N);
}

double tl::pandasGroupMedian(llvm::ArrayRef<double> A) {
  std::vector<double> S;
  for (double V : A)
    if (!std::isnan(V))
      S.push_back(V);
  if (S.empty())
    return std::numeric_limits<double>::quiet_NaN();
  // The middle order statistics by selection (the values a sort would put
  // there; NaNs are gone).
  size_t N = S.size();
  std::nth_element(S.begin(), S.begin() + N / 2, S.end());
  if (N % 2)
    return S[N / 2];
  double Lo = *std::max_element(S.begin(), S.begin() + N / 2);
  return (Lo + S[N / 2]) / 2.0;
}

//===----------------------------------------------------------------------===//
// numpy quicksort argsort (numpy/core/src/npysort/quicksort.cpp, heapsort.cpp)
//===----------------------------------------------------------------------===//

/// numpy's float less-than: NaNs sort last.
static bool npLess(double A, double B) {
  return A < B || (B != B && A == A);
}

static void aheapsort(const double *V, size_t *Tosort, ptrdiff_t N) {
  // numpy uses 1-based indexing on a shifted pointer.
  size_t *A = Tosort - 1;
  // Sift Tmp down from slot I of the heap A[1..End].
  auto siftDown = [&](size_t Tmp, ptrdiff_t I, ptrdiff_t End) {
    for (ptrdiff_t J = I << 1; J <= End;) {
      if (J < End && npLess(V[A[J]], V[A[J + 1]]))
        J += 1;
      if (npLess(V[Tmp], V[A[J]])) {
        A[I] = A[J];
        I = J;
        J += J;
      } else {
        break;
      }
    }
    A[I] = Tmp;
  };
  for (ptrdiff_t L = N >> 1; L > 0; --L)
    siftDown(A[L], L, N);
  for (; N > 1;) {
    size_t Tmp = A[N];
    A[N] = A[1];
    N -= 1;
    siftDown(Tmp, 1, N);
  }
}

std::vector<size_t> tl::numpyQuickArgsort(llvm::ArrayRef<double> Values) {
  size_t Num = Values.size();
  std::vector<size_t> Idx(Num);
  for (size_t I = 0; I < Num; ++I)
    Idx[I] = I;
  if (Num < 2)
    return Idx;
  const double *V = Values.data();
  constexpr ptrdiff_t SmallQuicksort = 16;
  size_t *Pl = Idx.data();
  size_t *Pr = Idx.data() + Num - 1;
  std::vector<size_t *> Stack;
  std::vector<int> Depth;
  int MSB = 0;
  for (size_t N = Num; N > 1; N >>= 1)
    ++MSB;
  int CDepth = MSB * 2;
  for (;;) {
    if (CDepth < 0) {
      aheapsort(V, Pl, Pr - Pl + 1);
    } else {
      while ((Pr - Pl) > SmallQuicksort) {
        size_t *Pm = Pl + ((Pr - Pl) >> 1);
        if (npLess(V[*Pm], V[*Pl]))
          std::swap(*Pm, *Pl);
        if (npLess(V[*Pr], V[*Pm]))
          std::swap(*Pr, *Pm);
        if (npLess(V[*Pm], V[*Pl]))
          std::swap(*Pm, *Pl);
        double Vp = V[*Pm];
        size_t *Pi = Pl;
        size_t *Pj = Pr - 1;
        std::swap(*Pm, *Pj);
        for (;;) {
          do
            ++Pi;
          while (npLess(V[*Pi], Vp));
          do
            --Pj;
          while (npLess(Vp, V[*Pj]));
          if (Pi >= Pj)
            break;
          std::swap(*Pi, *Pj);
        }
        size_t *Pk = Pr - 1;
        std::swap(*Pi, *Pk);
        // Push the larger partition, loop on the smaller one.
        if (Pi - Pl < Pr - Pi) {
          Stack.push_back(Pi + 1);
          Stack.push_back(Pr);
          Pr = Pi - 1;
        } else {
          Stack.push_back(Pl);
          Stack.push_back(Pi - 1);
          Pl = Pi + 1;
        }
        Depth.push_back(--CDepth);
      }
      // Insertion sort.
      for (size_t *Pi = Pl + 1; Pi <= Pr; ++Pi) {
        size_t Vi = *Pi;
        double Vp = V[Vi];
        size_t *Pj = Pi, *Pk = Pi - 1;
        while (Pj > Pl && npLess(Vp, V[*Pk]))
          *Pj-- = *Pk--;
        *Pj = Vi;
      }
    }
    if (Stack.empty())
      break;
    Pr = Stack.back();
    Stack.pop_back();
    Pl = Stack.back();
    Stack.pop_back();
    CDepth = Depth.back();
    Depth.pop_back();
  }
  return Idx;
}

std::vector<size_t> tl::pandasSortValuesOrder(llvm::ArrayRef<double> Keys,
                                              bool Ascending) {
  std::vector<size_t> NonNanIdx, NanIdx;
  std::vector<double> NonNans;
  for (size_t I = 0; I < Keys.size(); ++I) {
    if (std::isnan(Keys[I]))
      NanIdx.push_back(I);
    else {
      NonNanIdx.push_back(I);
      NonNans.push_back(Keys[I]);
    }
  }
  if (!Ascending) {
    std::reverse(NonNans.begin(), NonNans.end());
    std::reverse(NonNanIdx.begin(), NonNanIdx.end());
  }
  std::vector<size_t> Order = numpyQuickArgsort(NonNans);
  std::vector<size_t> Out;
  Out.reserve(Keys.size());
  for (size_t I : Order)
    Out.push_back(NonNanIdx[I]);
  if (!Ascending)
    std::reverse(Out.begin(), Out.end());
  Out.insert(Out.end(), NanIdx.begin(), NanIdx.end());
  return Out;
}
