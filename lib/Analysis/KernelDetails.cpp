//===- KernelDetails.cpp - kernel_details lists and their summary --------===//
#include "tl/Analysis/KernelDetails.h"

#include "tl/Support/PyFormat.h"
#include "tl/Support/Stats.h"

#include <algorithm>
#include <cmath>

using namespace tl;

std::vector<KernelDetail> tl::kernelDetailsOf(const Trace &T,
                                              llvm::ArrayRef<EventId> Kernels) {
  std::vector<KernelDetail> Out;
  Out.reserve(Kernels.size());
  for (EventId K : Kernels)
    Out.push_back({K, T.name(K), T.dur(K), T.stream(K).value_or(-1)});
  return Out;
}

std::vector<KernelStat> tl::summarizeKernelDetails(
    llvm::ArrayRef<const std::vector<KernelDetail> *> Lists) {
  const std::vector<KernelDetail> *Template = nullptr;
  for (const auto *L : Lists)
    if (L && !L->empty()) {
      Template = L;
      break;
    }
  if (!Template)
    return {};
  size_t N = Template->size();
  std::vector<double> Durs;
  for (const auto *L : Lists)
    if (L && L->size() == N)
      for (const KernelDetail &K : *L)
        Durs.push_back(K.Dur);
  return summarizeKernelDurations(*Template, Durs);
}

std::vector<KernelStat>
tl::summarizeKernelDurations(llvm::ArrayRef<KernelDetail> Template,
                             llvm::ArrayRef<double> Durs) {
  std::vector<KernelStat> Out;
  size_t N = Template.size();
  if (!N)
    return Out;
  size_t Lists = Durs.size() / N;
  std::vector<double> D;
  D.reserve(Lists);
  for (size_t I = 0; I < N; ++I) {
    D.clear();
    for (size_t L = 0; L < Lists; ++L)
      D.push_back(Durs[L * N + I]);
    KernelStat S;
    S.Name = Template[I].Name.str();
    S.Stream = Template[I].Stream;
    S.Position = I;
    S.Count = D.size();
    S.TotalUs = numpySum(D);
    S.MeanUs = S.TotalUs / double(D.size());
    S.MedianUs = numpyMedian(D);
    S.StdUs = numpyStd(D, 0);
    S.MinUs = minOf(D);
    S.MaxUs = maxOf(D);
    Out.push_back(std::move(S));
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const KernelStat &A, const KernelStat &B) {
                     if (A.TotalUs != B.TotalUs)
                       return A.TotalUs < B.TotalUs;
                     return A.Name < B.Name;
                   });
  return Out;
}

// numpy >= 2 prints a float64 scalar inside a container as np.float64(x);
// numpy 1.x (the agent references: numpy 1.24) prints plain x.
static std::string npFloat(double D, bool NumpyRepr) {
  return NumpyRepr ? "np.float64(" + pyRepr(D) + ")" : pyRepr(D);
}

static std::string streamText(int64_t S) {
  return S < 0 ? std::string("None") : std::to_string(S);
}

/// The marker element that ends a list cut at KernelListCap entries.
static std::string moreText(size_t N) {
  return "'... " + std::to_string(N - KernelListCap) + " more kernels'";
}

std::string tl::formatKernelDetailsSummary(llvm::ArrayRef<KernelStat> S,
                                           bool NumpyRepr) {
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I) {
    if (I == KernelListCap) {
      Out += ", " + moreText(S.size());
      break;
    }
    const KernelStat &K = S[I];
    if (I)
      Out += ", ";
    Out += "{'name': " + pyReprString(K.Name) +
           ", 'stream': " + streamText(K.Stream) +
           ", 'count': " + std::to_string(K.Count) +
           ", 'total_duration_us': " + npFloat(K.TotalUs, NumpyRepr) +
           ", 'mean_duration_us': " + npFloat(K.MeanUs, NumpyRepr) +
           ", 'median_duration_us': " + npFloat(K.MedianUs, NumpyRepr) +
           ", 'std_dev_duration_us': " + npFloat(K.StdUs, NumpyRepr) +
           ", 'min_duration_us': " + npFloat(K.MinUs, NumpyRepr) +
           ", 'max_duration_us': " + npFloat(K.MaxUs, NumpyRepr) + "}";
  }
  return Out + "]";
}

std::string tl::formatTruncKernelDetails(llvm::ArrayRef<KernelStat> S,
                                         bool NumpyRepr) {
  if (S.empty())
    return "";
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I) {
    if (I == KernelListCap) {
      Out += ", " + moreText(S.size());
      break;
    }
    const KernelStat &K = S[I];
    if (I)
      Out += ", ";
    // Python slices by code point: cut after 64 code points.
    std::string Name = K.Name;
    size_t Cps = 0, Cut = Name.size();
    for (size_t B = 0; B < Name.size(); ++B) {
      if ((static_cast<unsigned char>(Name[B]) & 0xC0) == 0x80)
        continue;
      if (Cps == 64) {
        Cut = B;
        break;
      }
      ++Cps;
    }
    if (Cut < Name.size())
      Name = Name.substr(0, Cut) + "...";
    // np.round(x, 2) = rint(x * 100) / 100 (half to even).
    double Mean = std::nearbyint(K.MeanUs * 100.0) / 100.0;
    Out += "{'name': " + pyReprString(Name) +
           ", 'stream': " + streamText(K.Stream) +
           ", 'mean_duration_us': " + npFloat(Mean, NumpyRepr) + "}";
  }
  return Out + "]";
}
