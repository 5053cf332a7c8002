//===- Stats.cpp - numpy/pandas-compatible statistics -----------------------===//
#include "tl/Support/Stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tl;

static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

double tl::numpyPairwiseSum(llvm::ArrayRef<double> A) {
  // Iterative form of numpy's recursive pairwise_sum: split at
  // n2 = n/2 - (n/2) % 8 until a block has <= 128 elements. The recursion
  // returns left + right, so a post-order evaluation keeps the same order.
  struct Frame {
    size_t Off, N;
    int State; // 0: new, 1: left done
    double Left;
  };
  std::vector<Frame> Stack;
  std::vector<double> Results;
  Stack.push_back({0, A.size(), 0, 0});
  double Ret = 0;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    size_t N = F.N;
    const double *P = A.data() + F.Off;
    if (F.State == 0 && N <= 128) {
      double Res;
      if (N < 8) {
        Res = 0.;
        for (size_t I = 0; I < N; ++I)
          Res += P[I];
      } else {
        double R[8];
        for (int J = 0; J < 8; ++J)
          R[J] = P[J];
        size_t I = 8;
        for (; I < N - (N % 8); I += 8)
          for (int J = 0; J < 8; ++J)
            R[J] += P[I + J];
        Res = ((R[0] + R[1]) + (R[2] + R[3])) + ((R[4] + R[5]) + (R[6] + R[7]));
        for (; I < N; ++I)
          Res += P[I];
      }
      Stack.pop_back();
      Ret = Res;
      // Deliver to the parent.
      while (!Stack.empty()) {
        Frame &Parent = Stack.back();
        if (Parent.State == 1) {
          // Right child finished.
          Ret = Parent.Left + Ret;
          Stack.pop_back();
          continue;
        }
        // Parent.State == 0 after its left child: start the right child.
        Parent.State = 1;
        Parent.Left = Ret;
        size_t N2 = Parent.N / 2;
        N2 -= N2 % 8;
        Stack.push_back({Parent.Off + N2, Parent.N - N2, 0, 0});
        break;
      }
      continue;
    }
    // Split: push the left half; the right half is pushed when it returns.
    size_t N2 = N / 2;
    N2 -= N2 % 8;
    Stack.push_back({F.Off, N2, 0, 0});
  }
  return Ret;
}

double tl::numpySum(llvm::ArrayRef<double> A) {
  // The reduction starts from the identity 0.0; numpy's buffered iterator
  // hands the inner loop at most 8192 (NPY_BUFSIZE) elements at a time.
  constexpr size_t BufSize = 8192;
  double Sum = 0.0;
  for (size_t Off = 0; Off < A.size(); Off += BufSize)
    Sum += numpyPairwiseSum(A.slice(Off, std::min(BufSize, A.size() - Off)));
  return Sum;
}

double tl::numpyMean(llvm::ArrayRef<double> A) {
  if (A.empty())
    return NaN;
  return numpySum(A) / static_cast<double>(A.size());
}

double tl::numpyStd(llvm::ArrayRef<double> A, int Ddof) {
  if (static_cast<int64_t>(A.size()) <= Ddof)
    return NaN;
  double Mean = numpyMean(A);
  std::vector<double> Sq(A.size());
  for (size_t I = 0; I < A.size(); ++I) {
    double D = A[I] - Mean;
    Sq[I] = D * D;
  }
  return std::sqrt(numpySum(Sq) / static_cast<double>(A.size() - Ddof));
}

double tl::pandasGroupStd(llvm::ArrayRef<double> A, int Ddof) {
  double Mean = 0, Ssqdm = 0;
  int64_t Nobs = 0;
  for (double V : A) {
    if (std::isnan(V))
      continue;
    ++Nobs;
    double Old = Mean;
    Mean += (V - Old) / static_cast<double>(Nobs);
    Ssqdm += (V - Mean) * (V - Old);
  }
  if (Nobs <= Ddof)
    return NaN;
  return std::sqrt(Ssqdm / static_cast<double>(Nobs - Ddof));
}

double tl::numpyMedian(llvm::ArrayRef<double> A) {
  if (A.empty())
    return NaN;
  std::vector<double> S(A.begin(), A.end());
  size_t N = S.size();
  double Lo, Hi;
  if (std::any_of(S.begin(), S.end(), [](double V) { return std::isnan(V); })) {
    std::sort(S.begin(), S.end());
    Lo = S[(N - 1) / 2];
    Hi = S[N / 2];
  } else {
    // The middle order statistics by selection, not a full sort.
    std::nth_element(S.begin(), S.begin() + N / 2, S.end());
    Hi = S[N / 2];
    Lo = N % 2 ? Hi : *std::max_element(S.begin(), S.begin() + N / 2);
  }
  if (N % 2)
    return Hi;
  // np.mean of the two middle values: (0.0 + a + b) / 2.
  return (0.0 + Lo + Hi) / 2.0;
}

double tl::minOf(llvm::ArrayRef<double> A) {
  if (A.empty())
    return NaN;
  return *std::min_element(A.begin(), A.end());
}

double tl::maxOf(llvm::ArrayRef<double> A) {
  if (A.empty())
    return NaN;
  return *std::max_element(A.begin(), A.end());
}

Histogram tl::numpyHistogram(llvm::ArrayRef<double> Values, unsigned Bins) {
  Histogram H;
  double First = 0, Last = 1;
  if (!Values.empty()) {
    First = minOf(Values);
    Last = maxOf(Values);
  }
  if (First == Last) {
    First -= 0.5;
    Last += 0.5;
  }
  // np.linspace(First, Last, Bins + 1): i * step + start, last edge = stop.
  double Step = (Last - First) / static_cast<double>(Bins);
  H.Edges.resize(Bins + 1);
  for (unsigned I = 0; I <= Bins; ++I)
    H.Edges[I] = static_cast<double>(I) * Step + First;
  H.Edges[Bins] = Last;
  H.Counts.assign(Bins, 0);
  double Norm = static_cast<double>(Bins) / (Last - First);
  for (double V : Values) {
    if (!(V >= First && V <= Last))
      continue;
    int64_t Idx = static_cast<int64_t>((V - First) * Norm);
    if (Idx == static_cast<int64_t>(Bins))
      --Idx;
    if (V < H.Edges[Idx])
      --Idx;
    if (V >= H.Edges[Idx + 1] && Idx != static_cast<int64_t>(Bins) - 1)
      ++Idx;
    ++H.Counts[Idx];
  }
  return H;
}

double tl::numpyRound(double X, int Decimals) {
  if (Decimals >= 0) {
    double F = std::pow(10.0, Decimals);
    return std::nearbyint(X * F) / F;
  }
  double F = std::pow(10.0, -Decimals);
  return std::nearbyint(X / F) * F;
}
