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
  std::vector<KernelStat> Out;
  const std::vector<KernelDetail> *Template = nullptr;
  for (const auto *L : Lists)
    if (L && !L->empty()) {
      Template = L;
      break;
    }
  if (!Template)
    return Out;
  size_t N = Template->size();
  std::vector<double> D;
  for (size_t I = 0; I < N; ++I) {
    D.clear();
    for (const auto *L : Lists)
      if (L && L->size() == N)
        D.push_back((*L)[I].Dur);
    KernelStat S;
    S.Name = (*Template)[I].Name.str();
    S.Stream = (*Template)[I].Stream;
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

static std::string npFloat(double D) { return "np.float64(" + pyRepr(D) + ")"; }

static std::string streamText(int64_t S) {
  return S < 0 ? std::string("None") : std::to_string(S);
}

std::string tl::formatKernelDetailsSummary(llvm::ArrayRef<KernelStat> S) {
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I) {
    const KernelStat &K = S[I];
    if (I)
      Out += ", ";
    Out += "{'name': " + pyReprString(K.Name) +
           ", 'stream': " + streamText(K.Stream) +
           ", 'count': " + std::to_string(K.Count) +
           ", 'total_duration_us': " + npFloat(K.TotalUs) +
           ", 'mean_duration_us': " + npFloat(K.MeanUs) +
           ", 'median_duration_us': " + npFloat(K.MedianUs) +
           ", 'std_dev_duration_us': " + npFloat(K.StdUs) +
           ", 'min_duration_us': " + npFloat(K.MinUs) +
           ", 'max_duration_us': " + npFloat(K.MaxUs) + "}";
  }
  return Out + "]";
}

std::string tl::formatTruncKernelDetails(llvm::ArrayRef<KernelStat> S) {
  if (S.empty())
    return "";
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I) {
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
           ", 'mean_duration_us': " + npFloat(Mean) + "}";
  }
  return Out + "]";
}
