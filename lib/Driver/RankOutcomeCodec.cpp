//===- RankOutcomeCodec.cpp - A job's rank outcomes as bytes --------------===//
#include "tl/Driver/RankOutcomeCodec.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

namespace tl {

namespace {
constexpr uint8_t CodecVersion = 4;

class Writer {
public:
  std::string Bytes;
  void u8(uint8_t V) { Bytes.push_back(char(V)); }
  void u64(uint64_t V) {
    char B[8];
    support::endian::write64le(B, V);
    Bytes.append(B, 8);
  }
  void i64(int64_t V) { u64(uint64_t(V)); }
  void f64(double V) { u64(bit_cast<uint64_t>(V)); }
  void flag(bool V) { u8(V ? 1 : 0); }
  void str(StringRef S) {
    u64(S.size());
    Bytes.append(S.data(), S.size());
  }
  /// A collective instance's name: 0 for "", else its number in the
  /// order of first use, the text after the number on its first use. A
  /// rank's tens of thousands of instances share a few names.
  void name(SharedName N) {
    if (N.empty())
      return u64(0);
    auto [It, New] = Names.try_emplace(N.ref().data(), Names.size() + 1);
    u64(It->second);
    if (New)
      str(N);
  }
  void opt(const std::optional<int64_t> &V) {
    flag(V.has_value());
    if (V)
      i64(*V);
  }
  void ints(ArrayRef<int64_t> V) {
    u64(V.size());
    for (int64_t X : V)
      i64(X);
  }
  void groups(const std::map<std::string, std::vector<int64_t>> &M) {
    u64(M.size());
    for (const auto &[K, V] : M) {
      str(K);
      ints(V);
    }
  }

private:
  /// Interned text -> its number (name()).
  DenseMap<const char *, uint64_t> Names;
};

class Reader {
public:
  explicit Reader(StringRef B) : B(B) {}
  bool Bad = false;
  bool done() const { return Pos == B.size(); }

  uint8_t u8() {
    if (!need(1))
      return 0;
    return uint8_t(B[Pos++]);
  }
  uint64_t u64() {
    if (!need(8))
      return 0;
    uint64_t V = support::endian::read64le(B.data() + Pos);
    Pos += 8;
    return V;
  }
  int64_t i64() { return int64_t(u64()); }
  double f64() { return bit_cast<double>(u64()); }
  bool flag() { return u8() != 0; }
  std::string str() {
    uint64_t N = u64();
    if (!need(N))
      return {};
    std::string S = B.substr(Pos, N).str();
    Pos += N;
    return S;
  }
  SharedName name() {
    uint64_t N = u64();
    if (N == 0 || Bad)
      return SharedName();
    if (N <= Names.size())
      return Names[N - 1];
    if (N != Names.size() + 1) {
      Bad = true;
      return SharedName();
    }
    uint64_t Len = u64();
    if (!need(Len))
      return SharedName();
    Names.push_back(SharedName(B.substr(Pos, Len)));
    Pos += Len;
    return Names.back();
  }
  std::optional<int64_t> opt() {
    if (!flag())
      return std::nullopt;
    return i64();
  }
  /// A count of items of at least MinBytes each: never more than the bytes
  /// left could hold.
  uint64_t count(uint64_t MinBytes) {
    uint64_t N = u64();
    if (N > (B.size() - Pos) / MinBytes)
      Bad = true;
    return Bad ? 0 : N;
  }
  std::vector<int64_t> ints() {
    std::vector<int64_t> V(count(8));
    for (int64_t &X : V)
      X = i64();
    return V;
  }
  std::map<std::string, std::vector<int64_t>> groups() {
    std::map<std::string, std::vector<int64_t>> M;
    for (uint64_t I = 0, N = count(16); I < N; ++I) {
      std::string K = str();
      M[K] = ints();
    }
    return M;
  }

private:
  bool need(uint64_t N) {
    if (Bad || N > B.size() - Pos)
      Bad = true;
    return !Bad;
  }
  StringRef B;
  size_t Pos = 0;
  std::vector<SharedName> Names;
};

void writeInstance(Writer &W, const CollectiveInstance &I) {
  W.name(I.Pg);
  W.name(I.PgDesc);
  W.opt(I.Seq);
  W.name(I.CollName);
  W.name(I.CollType);
  W.name(I.Dtype);
  W.opt(I.InNelems);
  W.opt(I.OutNelems);
  W.opt(I.GroupSize);
  W.ints(I.PgRanks);
  W.flag(I.PgRanksTruncated);
  W.i64(I.Stream);
  W.f64(I.Start);
  W.f64(I.End);
  W.u64(I.NumKernels);
  W.name(I.Kernel);
  W.opt(I.Step);
  W.flag(I.CommsId.has_value());
  if (I.CommsId)
    W.u64(*I.CommsId);
  W.opt(I.GroupRank);
  W.opt(I.PeerRank);
  W.ints(I.InSplit);
  W.ints(I.OutSplit);
}

CollectiveInstance readInstance(Reader &R) {
  CollectiveInstance I;
  I.Pg = R.name();
  I.PgDesc = R.name();
  I.Seq = R.opt();
  I.CollName = R.name();
  I.CollType = R.name();
  I.Dtype = R.name();
  I.InNelems = R.opt();
  I.OutNelems = R.opt();
  I.GroupSize = R.opt();
  I.PgRanks = R.ints();
  I.PgRanksTruncated = R.flag();
  I.Stream = R.i64();
  I.Start = R.f64();
  I.End = R.f64();
  I.NumKernels = unsigned(R.u64());
  I.Kernel = R.name();
  I.Step = R.opt();
  if (R.flag())
    I.CommsId = R.u64();
  I.GroupRank = R.opt();
  I.PeerRank = R.opt();
  I.InSplit = R.ints();
  I.OutSplit = R.ints();
  return I;
}

void writeChain(Writer &W, const CpChain &C) {
  W.f64(C.From);
  W.f64(C.To);
  for (double D : C.ByCategory)
    W.f64(D);
  W.i64(C.Stop);
}

CpChain readChain(Reader &R) {
  CpChain C;
  C.From = R.f64();
  C.To = R.f64();
  for (double &D : C.ByCategory)
    D = R.f64();
  C.Stop = R.i64();
  return C;
}

void writeCriticalPath(Writer &W, const RankCriticalPath &P) {
  W.u64(P.Windows.size());
  for (const RankCpWindow &Win : P.Windows) {
    W.i64(Win.Step);
    W.f64(Win.Start);
    W.f64(Win.End);
    for (double D : Win.ByCategory)
      W.f64(D);
    writeChain(W, Win.Sink);
  }
  W.u64(P.Collectives.size());
  for (const RankCpCollective &C : P.Collectives) {
    writeChain(W, C.Chain);
    W.f64(C.End);
  }
}

RankCriticalPath readCriticalPath(Reader &R) {
  RankCriticalPath P;
  // A window or an instance takes over 100 bytes.
  for (uint64_t I = 0, N = R.count(100); I < N && !R.Bad; ++I) {
    RankCpWindow Win;
    Win.Step = R.i64();
    Win.Start = R.f64();
    Win.End = R.f64();
    for (double &D : Win.ByCategory)
      D = R.f64();
    Win.Sink = readChain(R);
    P.Windows.push_back(Win);
  }
  for (uint64_t I = 0, N = R.count(100); I < N && !R.Bad; ++I) {
    RankCpCollective C;
    C.Chain = readChain(R);
    C.End = R.f64();
    P.Collectives.push_back(C);
  }
  return P;
}

// rank_timeline.csv's row (RankTimeline.h), every field.
void writeTimeline(Writer &W, const RankTimeline &T) {
  W.flag(T.HasGpu);
  for (double D :
       {T.RangeStart, T.RangeEnd, T.ComputationUs, T.ExposedCommUs,
        T.ExposedMemcpyUs, T.BusyUs, T.TotalCommUs, T.TotalMemcpyUs,
        T.HostWaitIdleUs, T.SyncWaitIdleUs, T.OtherIdleUs, T.TailIdleUs,
        T.HtaIdleUs, T.HtaComputeUs, T.HtaNonComputeUs, T.HtaKernelUs})
    W.f64(D);
  W.flag(T.HtaOverlapPct.has_value());
  if (T.HtaOverlapPct)
    W.f64(*T.HtaOverlapPct);
}

RankTimeline readTimeline(Reader &R) {
  RankTimeline T;
  T.HasGpu = R.flag();
  for (double *D :
       {&T.RangeStart, &T.RangeEnd, &T.ComputationUs, &T.ExposedCommUs,
        &T.ExposedMemcpyUs, &T.BusyUs, &T.TotalCommUs, &T.TotalMemcpyUs,
        &T.HostWaitIdleUs, &T.SyncWaitIdleUs, &T.OtherIdleUs, &T.TailIdleUs,
        &T.HtaIdleUs, &T.HtaComputeUs, &T.HtaNonComputeUs, &T.HtaKernelUs})
    *D = R.f64();
  if (R.flag())
    T.HtaOverlapPct = R.f64();
  return T;
}

// steps.csv's rows (JobSteps.h).
void writeSteps(Writer &W, ArrayRef<RankStep> Steps) {
  W.u64(Steps.size());
  for (const RankStep &S : Steps) {
    W.i64(S.Number);
    W.f64(S.CpuStart);
    W.f64(S.CpuEnd);
    W.flag(S.Gpu.has_value());
    if (S.Gpu) {
      W.f64(S.Gpu->Start);
      W.f64(S.Gpu->End);
    }
    W.f64(S.WindowStart);
    W.f64(S.WindowEnd);
    W.u64(S.GpuEvents);
    W.u8(S.Flags);
  }
}

std::vector<RankStep> readSteps(Reader &R) {
  std::vector<RankStep> Steps;
  // A step takes at least 50 bytes.
  for (uint64_t I = 0, N = R.count(50); I < N && !R.Bad; ++I) {
    RankStep S;
    S.Number = R.i64();
    S.CpuStart = R.f64();
    S.CpuEnd = R.f64();
    if (R.flag()) {
      double Start = R.f64();
      S.Gpu = Interval{Start, R.f64()};
    }
    S.WindowStart = R.f64();
    S.WindowEnd = R.f64();
    S.GpuEvents = R.u64();
    S.Flags = R.u8();
    Steps.push_back(S);
  }
  return Steps;
}

// kernel_by_rank.csv's per-name statistics (KernelByRank.h).
void writeKernels(Writer &W, ArrayRef<RankKernelStats> Kernels) {
  W.u64(Kernels.size());
  for (const RankKernelStats &K : Kernels) {
    W.name(K.Name);
    W.u8(uint8_t(K.Type));
    W.u64(K.Count);
    W.f64(K.TotalUs);
    W.f64(K.MinUs);
    W.f64(K.MaxUs);
  }
}

std::vector<RankKernelStats> readKernels(Reader &R) {
  std::vector<RankKernelStats> Kernels;
  // A name takes at least 41 bytes.
  for (uint64_t I = 0, N = R.count(41); I < N && !R.Bad; ++I) {
    RankKernelStats K;
    K.Name = R.name();
    uint8_t Type = R.u8();
    if (Type > uint8_t(KernelByRankType::Compute))
      R.Bad = true;
    K.Type = KernelByRankType(Type);
    K.Count = R.u64();
    K.TotalUs = R.f64();
    K.MinUs = R.f64();
    K.MaxUs = R.f64();
    Kernels.push_back(K);
  }
  return Kernels;
}

// The HTA-style straggler input (HtaStragglers.h) and idle per stream
// (StreamIdle.h), every field.
void writeHta(Writer &W, const HtaStragglerInput &H) {
  W.ints(H.Steps);
  W.f64(H.FirstTs);
  W.f64(H.LastEnd);
  W.u64(H.Kernels.size());
  for (const HtaCommKernel &K : H.Kernels) {
    W.i64(K.Stream);
    W.i64(K.Step);
    W.name(K.Name);
    W.f64(K.Ts);
    W.f64(K.Dur);
  }
}

HtaStragglerInput readHta(Reader &R) {
  HtaStragglerInput H;
  H.Steps = R.ints();
  H.FirstTs = R.f64();
  H.LastEnd = R.f64();
  // A kernel takes at least 40 bytes.
  for (uint64_t I = 0, N = R.count(40); I < N && !R.Bad; ++I) {
    HtaCommKernel K;
    K.Stream = R.i64();
    K.Step = R.i64();
    K.Name = R.name();
    K.Ts = R.f64();
    K.Dur = R.f64();
    H.Kernels.push_back(K);
  }
  return H;
}

void writeStreamIdle(Writer &W, const std::vector<StreamIdle> &V) {
  W.u64(V.size());
  for (const StreamIdle &S : V) {
    W.i64(S.Stream);
    W.f64(S.HostWaitUs);
    W.f64(S.KernelWaitUs);
    W.f64(S.OtherUs);
  }
}

std::vector<StreamIdle> readStreamIdle(Reader &R) {
  std::vector<StreamIdle> V;
  for (uint64_t I = 0, N = R.count(32); I < N && !R.Bad; ++I) {
    StreamIdle S;
    S.Stream = R.i64();
    S.HostWaitUs = R.f64();
    S.KernelWaitUs = R.f64();
    S.OtherUs = R.f64();
    V.push_back(S);
  }
  return V;
}

void writeSummary(Writer &W, const RankSummary &S) {
  W.str(S.Claim.Path);
  W.u64(S.Claim.Position);
  W.i64(S.Claim.Rank);
  W.u8(uint8_t(S.Claim.Source));
  W.f64(S.WallUs);
  W.flag(S.HasGpu);
  for (double D : {S.ComputationUs, S.ExposedCommUs, S.ExposedMemcpyUs,
                   S.BusyUs, S.IdleUs, S.TotalUs, S.TotalCommUs,
                   S.TotalMemcpyUs})
    W.f64(D);
  W.i64(S.Collectives.Rank);
  W.u64(S.Collectives.Instances.size());
  for (const CollectiveInstance &I : S.Collectives.Instances)
    writeInstance(W, I);
  W.groups(S.Collectives.PgConfig);
  W.groups(S.Collectives.PgRanks);
  W.u64(S.DeviceCount);
  W.u64(S.StepTimes.size());
  for (const auto &[N, T] : S.StepTimes) {
    W.i64(N);
    W.f64(T);
  }
  writeCriticalPath(W, S.CriticalPath);
  W.opt(S.BaseTimeNs);
  writeTimeline(W, S.Timeline);
  writeSteps(W, S.Steps);
  writeKernels(W, S.Kernels);
  writeHta(W, S.HtaStraggler);
  writeStreamIdle(W, S.IdleByStream);
}

RankSummary readSummary(Reader &R) {
  RankSummary S;
  S.Claim.Path = R.str();
  S.Claim.Position = R.u64();
  S.Claim.Rank = R.i64();
  uint8_t Src = R.u8();
  if (Src > uint8_t(RankSource::Position))
    R.Bad = true;
  S.Claim.Source = RankSource(Src);
  S.WallUs = R.f64();
  S.HasGpu = R.flag();
  for (double *D : {&S.ComputationUs, &S.ExposedCommUs, &S.ExposedMemcpyUs,
                    &S.BusyUs, &S.IdleUs, &S.TotalUs, &S.TotalCommUs,
                    &S.TotalMemcpyUs})
    *D = R.f64();
  S.Collectives.Rank = R.i64();
  // An instance takes well over 32 bytes.
  for (uint64_t I = 0, N = R.count(32); I < N && !R.Bad; ++I)
    S.Collectives.Instances.push_back(readInstance(R));
  S.Collectives.PgConfig = R.groups();
  S.Collectives.PgRanks = R.groups();
  S.DeviceCount = R.u64();
  for (uint64_t I = 0, N = R.count(16); I < N; ++I) {
    int64_t Num = R.i64();
    S.StepTimes.push_back({Num, R.f64()});
  }
  S.CriticalPath = readCriticalPath(R);
  S.BaseTimeNs = R.opt();
  S.Timeline = readTimeline(R);
  S.Steps = readSteps(R);
  S.Kernels = readKernels(R);
  S.HtaStraggler = readHta(R);
  S.IdleByStream = readStreamIdle(R);
  return S;
}
} // namespace

std::string encodeRankOutcomes(ArrayRef<RankOutcome> Outcomes) {
  Writer W;
  W.u8(CodecVersion);
  W.u64(Outcomes.size());
  for (const RankOutcome &O : Outcomes) {
    W.u64(O.Position);
    W.flag(O.Started);
    W.flag(O.Imported);
    W.opt(O.Ids.Rank);
    W.opt(O.Ids.WorldSize);
    W.str(O.Error);
    W.flag(O.FailedPasses);
    W.flag(O.FailOnTripped);
    W.flag(O.Summary.has_value());
    if (O.Summary)
      writeSummary(W, *O.Summary);
  }
  return std::move(W.Bytes);
}

Error decodeRankOutcomes(StringRef Bytes, std::vector<RankOutcome> &Out) {
  Reader R(Bytes);
  if (R.u8() != CodecVersion)
    return createStringError(inconvertibleErrorCode(),
                             "rank summaries: unknown format version");
  for (uint64_t I = 0, N = R.count(8); I < N && !R.Bad; ++I) {
    RankOutcome O;
    O.Position = R.u64();
    O.Started = R.flag();
    O.Imported = R.flag();
    O.Ids.Rank = R.opt();
    O.Ids.WorldSize = R.opt();
    O.Error = R.str();
    O.FailedPasses = R.flag();
    O.FailOnTripped = R.flag();
    if (R.flag())
      O.Summary = readSummary(R);
    Out.push_back(std::move(O));
  }
  if (R.Bad || !R.done())
    return createStringError(inconvertibleErrorCode(),
                             "rank summaries: truncated or malformed data");
  return Error::success();
}

} // namespace tl
