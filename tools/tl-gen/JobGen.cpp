//===- JobGen.cpp - tl-gen: a multi-rank job with known stragglers --------===//
#include "JobGen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace tlgen {

namespace {

/// splitmix64, as the single-trace generator's jitter.
uint64_t mix(uint64_t Z) {
  Z += 0x9E3779B97F4A7C15ULL;
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
  return Z ^ (Z >> 31);
}
/// Uniform in [0, 1) from (seed, a, b, c).
double unit(uint64_t Seed, uint64_t A, uint64_t B, uint64_t C) {
  uint64_t Z = mix(mix(mix(mix(Seed) ^ A) ^ (B << 20)) ^ (C << 40));
  return double(Z >> 11) * 0x1.0p-53;
}

/// ns as µs with three decimals (the times are integers in ns).
std::string us(int64_t Ns) {
  return fmt::format("{}.{:03}", Ns / 1000, Ns % 1000);
}

struct Group {
  std::string Name, Desc;
  std::vector<unsigned> Members;
  int64_t Seq = 0;
  /// send/recv have their own counter (c10d's seqP2P).
  int64_t P2PSeq = 0;
};

/// A Comms Id as c10d derives it: a hash of the group, Seq and is-p2p,
/// identical on every member; a uint64 (about half are above INT64_MAX).
uint64_t commsId(const std::string &Pg, int64_t Seq, bool P2P) {
  uint64_t H = 1469598103934665603ULL; // FNV-1a of the group name
  for (char C : Pg)
    H = (H ^ uint8_t(C)) * 1099511628211ULL;
  return mix(H ^ (uint64_t(Seq) << 1) ^ (P2P ? 1 : 0));
}

/// Process Group Ranks as PyTorch writes it: past 30 ranks the first 29,
/// "...", and the last.
std::string ranksText(const std::vector<unsigned> &M) {
  std::string S = "[";
  if (M.size() > 30) {
    for (size_t I = 0; I < 29; ++I)
      S += fmt::format("{}, ", M[I]);
    return S + fmt::format("..., {}]", M.back());
  }
  for (size_t I = 0; I < M.size(); ++I)
    S += fmt::format("{}{}", I ? ", " : "", M[I]);
  return S + "]";
}

struct RankState {
  unsigned Rank = 0, Device = 0;
  int64_t Cpu = 0, Compute = 0, Comm = 0; // ns: CPU clock, stream ends
  int64_t Corr = 0, Ext = 0;
  /// Events not yet written (write() appends them after every step, so a
  /// job of many large ranks needs no more than a step's text).
  std::vector<std::string> Events;
  std::FILE *F = nullptr;
  uint64_t Written = 0, NumWritten = 0;
  int64_t Pid() const { return 1000 + Rank; }
};

constexpr int64_t ComputeStream = 7, CommStream = 20;
constexpr int64_t LaunchLatencyNs = 10000;

class Job {
public:
  explicit Job(const JobOptions &O) : O(O) {
    unsigned N = O.Ranks;
    GpusPerNode = O.GpusPerNode ? O.GpusPerNode : std::min(8u, N);
    for (unsigned R = 0; R < N; ++R) {
      RankState S;
      S.Rank = R;
      S.Device = R % GpusPerNode;
      S.Cpu = S.Compute = S.Comm = 1000000; // 1 ms
      Ranks.push_back(std::move(S));
    }
    for (auto &[Node, Us] : O.ClockOffsets)
      ClockNs[Node] = int64_t(Us * 1000);
    Group World{"0", "default_pg", {}, 0};
    for (unsigned R = 0; R < N; ++R)
      World.Members.push_back(R);
    Groups.push_back(World);
    if (N % 2 == 0)
      for (unsigned K = 0; K < N / 2; ++K)
        Groups.push_back(
            {std::to_string(K + 1), "pair", {2 * K, 2 * K + 1}, 0});
    for (auto &[R, D] : O.Stragglers)
      Delay[R] += int64_t(D * 1000);
  }

  ~Job() {
    for (RankState &R : Ranks)
      if (R.F)
        std::fclose(R.F);
  }

  /// Simulate and write the steps: --steps of them, or with --target-mb
  /// until rank 0's file has that size.
  bool run(std::string &Err) {
    for (RankState &R : Ranks) {
      std::string Path = path(R);
      R.F = std::fopen(Path.c_str(), "wb");
      if (!R.F) {
        Err = Path + ": cannot open for writing";
        return false;
      }
      if (!put(R, header(R), Err))
        return false;
    }
    for (unsigned S = 0;
         O.TargetMb > 0 ? double(Ranks[0].Written) < O.TargetMb * 1e6
                        : S < O.Steps;
         ++S) {
      int64_t Step = FirstStep + S;
      std::vector<int64_t> StepStart;
      for (RankState &R : Ranks)
        StepStart.push_back(R.Cpu);
      for (unsigned L = 0; L < O.Layers; ++L) {
        for (RankState &R : Ranks)
          compute(R, 300000);
        int64_t E = int64_t(O.Hidden) * O.Hidden;
        collective(Groups[0], "allreduce", E, E, Step);
      }
      if (Groups.size() > 1) {
        for (RankState &R : Ranks)
          compute(R, 50000);
        int64_t E = int64_t(O.Hidden) * O.Hidden / 4;
        for (size_t G = 1; G < Groups.size(); ++G)
          collective(Groups[G], "_allgather_base", E, 2 * E, Step);
      }
      // Pipeline-style hand-offs in each pair group: 2k -> 2k+1, then back.
      if (O.P2P && Groups.size() > 1) {
        int64_t E = int64_t(O.Hidden) * O.Hidden / 8;
        for (int Dir = 0; Dir < 2; ++Dir) {
          for (RankState &R : Ranks)
            compute(R, 40000);
          for (size_t G = 1; G < Groups.size(); ++G)
            sendRecv(Groups[G], Groups[G].Members[Dir],
                     Groups[G].Members[1 - Dir], E, Step);
        }
      }
      if (O.AllToAllv) {
        for (RankState &R : Ranks)
          compute(R, 50000);
        allToAllv(Groups[0], int64_t(O.Hidden) * 16, Step);
      }
      // The step ends with a device synchronisation (loss.item()).
      for (RankState &R : Ranks) {
        int64_t Gpu = std::max(R.Compute, R.Comm);
        int64_t Start = R.Cpu;
        R.Cpu = std::max(R.Cpu + 5000, Gpu + 5000);
        event(R, "cuda_runtime", "cudaDeviceSynchronize", R.Pid(), R.Pid(),
              Start, R.Cpu - Start, fmt::format("\"cbid\": 165, \"correlation\": {}", ++R.Corr));
        event(R, "user_annotation", fmt::format("ProfilerStep#{}", Step),
              R.Pid(), R.Pid(), StepStart[R.Rank],
              R.Cpu + 1000 - StepStart[R.Rank],
              fmt::format("\"External id\": {}", ++R.Ext));
        R.Cpu += 2000;
      }
      for (RankState &R : Ranks)
        if (!flush(R, Err))
          return false;
    }
    for (RankState &R : Ranks) {
      bool Ok = put(R, "\n]}\n", Err);
      Ok = Ok && std::fclose(R.F) == 0;
      R.F = nullptr;
      if (!Ok) {
        if (Err.empty())
          Err = path(R) + ": write failed";
        return false;
      }
    }
    return true;
  }

  std::string path(const RankState &R) const {
    return fmt::format("{}/rank{}.json", O.Dir, R.Rank);
  }
  bool put(RankState &R, const std::string &Text, std::string &Err) {
    if (std::fwrite(Text.data(), 1, Text.size(), R.F) != Text.size()) {
      Err = path(R) + ": write failed";
      return false;
    }
    R.Written += Text.size();
    return true;
  }
  /// The pending events, joined as one traceEvents array.
  bool flush(RankState &R, std::string &Err) {
    std::string Text;
    for (const std::string &E : R.Events)
      Text += (R.NumWritten++ ? ",\n  " : "  ") + E;
    R.Events.clear();
    return put(R, Text, Err);
  }

  bool writeTruth(std::string &Err) {
    if (O.TruthFile.empty())
      return true;
    std::FILE *F = std::fopen(O.TruthFile.c_str(), "wb");
    if (!F) {
      Err = O.TruthFile + ": cannot open for writing";
      return false;
    }
    std::string T = truth();
    bool Ok = std::fwrite(T.data(), 1, T.size(), F) == T.size();
    Ok &= std::fclose(F) == 0;
    if (!Ok)
      Err = O.TruthFile + ": write failed";
    return Ok;
  }

private:
  const JobOptions &O;
  unsigned GpusPerNode = 1;
  static constexpr int64_t FirstStep = 5;
  std::vector<RankState> Ranks;
  std::vector<Group> Groups;
  std::map<unsigned, int64_t> Delay; // ns per collective
  std::map<unsigned, int64_t> ClockNs; // node -> clock offset, ns
  /// What R's clock reads at true time Ns.
  int64_t clock(const RankState &R, int64_t Ns) const {
    unsigned Node = R.Rank / GpusPerNode;
    Ns -= int64_t(Node) * O.BaseStepNs;
    auto It = ClockNs.find(Node);
    return It == ClockNs.end() ? Ns : Ns + It->second;
  }
  /// Collectives so far (the skew jitter's index).
  uint64_t NumColl = 0;
  struct Truth {
    std::string Pg, Name;
    int64_t Seq, Step;
    unsigned Last, First;
    int64_t SkewNs;
    std::vector<unsigned> Members;
    /// A send/recv pair's ends; collectives.csv's bytes (-1: not checked).
    int64_t Src = -1, Dst = -1, Bytes = -1;
  };
  /// all_to_allv elements sent per (src, dst) over the job (the heat-map).
  std::map<std::pair<unsigned, unsigned>, int64_t> Sent;
  uint64_t NumAllToAllv = 0;
  std::vector<Truth> Truths;
  /// Arrival of each rank at the next collective: its compute end.
  std::map<unsigned, int64_t> Ready;

  void event(RankState &R, const char *Cat, const std::string &Name,
             int64_t Pid, int64_t Tid, int64_t Ts, int64_t Dur,
             const std::string &Args) {
    R.Events.push_back(fmt::format(
        "{{\"ph\": \"X\", \"cat\": \"{}\", \"name\": \"{}\", \"pid\": {}, "
        "\"tid\": {}, \"ts\": {}, \"dur\": {}, \"args\": {{{}}}}}",
        Cat, Name, Pid, Tid, us(clock(R, Ts)), us(Dur), Args));
  }
  void flow(RankState &R, int64_t Corr, int64_t LaunchTs, int64_t KernelTs,
            int64_t Stream) {
    R.Events.push_back(fmt::format(
        "{{\"ph\": \"s\", \"id\": {}, \"pid\": {}, \"tid\": {}, \"ts\": {}, "
        "\"cat\": \"ac2g\", \"name\": \"ac2g\"}}",
        Corr, R.Pid(), R.Pid(), us(clock(R, LaunchTs))));
    R.Events.push_back(fmt::format(
        "{{\"ph\": \"f\", \"id\": {}, \"pid\": {}, \"tid\": {}, \"ts\": {}, "
        "\"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}}",
        Corr, R.Device, Stream, us(clock(R, KernelTs))));
  }

  /// An elementwise kernel of fixed length (--job-fill-kernels).
  void fill(RankState &R) {
    int64_t Ext = ++R.Ext, Corr = ++R.Corr;
    int64_t C = R.Cpu;
    event(R, "cpu_op", "aten::add", R.Pid(), R.Pid(), C, 9000,
          fmt::format("\"External id\": {}", Ext));
    int64_t Launch = C + 2000;
    event(R, "cuda_runtime", "cudaLaunchKernel", R.Pid(), R.Pid(), Launch,
          5000,
          fmt::format("\"cbid\": 211, \"correlation\": {}, \"External id\": {}",
                      Corr, Ext));
    int64_t Start = std::max(R.Compute, Launch + LaunchLatencyNs);
    event(R, "kernel",
          "void at::native::vectorized_elementwise_kernel<4, "
          "at::native::CUDAFunctor_add<c10::BFloat16> >",
          R.Device, ComputeStream, Start, 8000,
          fmt::format("\"External id\": {}, \"device\": {}, \"stream\": {}, "
                      "\"correlation\": {}, \"grid\": [1024, 1, 1], "
                      "\"block\": [128, 1, 1]",
                      Ext, R.Device, ComputeStream, Corr));
    flow(R, Corr, Launch, Start, ComputeStream);
    R.Compute = Start + 8000;
    R.Cpu = C + 10000;
  }

  /// A GEMM before a collective; the straggler's and the skew's extra time
  /// is in it (the rank has more work before the collective).
  void compute(RankState &R, int64_t BaseNs) {
    for (unsigned K = 0; K < O.FillKernels; ++K)
      fill(R);
    int64_t Ext = ++R.Ext, Corr = ++R.Corr;
    int64_t C = R.Cpu;
    event(R, "cpu_op", "aten::mm", R.Pid(), R.Pid(), C, 20000,
          fmt::format("\"External id\": {1}, \"Input Dims\": [[{0}, {0}], "
                      "[{0}, {0}]], \"Input type\": [\"c10::BFloat16\", "
                      "\"c10::BFloat16\"]",
                      O.Hidden, Ext));
    int64_t Launch = C + 5000;
    event(R, "cuda_runtime", "cudaLaunchKernel", R.Pid(), R.Pid(), Launch,
          7000,
          fmt::format("\"cbid\": 211, \"correlation\": {}, \"External id\": {}",
                      Corr, Ext));
    int64_t Dur = BaseNs + int64_t(unit(O.Seed, R.Rank, NumColl, 1) * 1000);
    if (auto It = Delay.find(R.Rank); It != Delay.end())
      Dur += It->second;
    Dur += int64_t(unit(O.Seed, R.Rank, NumColl, 2) * O.SkewUs * 1000);
    int64_t Start = std::max(R.Compute, Launch + LaunchLatencyNs);
    event(R, "kernel", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_kernel",
          R.Device, ComputeStream, Start, Dur,
          fmt::format("\"External id\": {}, \"device\": {}, \"stream\": {}, "
                      "\"correlation\": {}, \"grid\": [132, 1, 1], "
                      "\"block\": [384, 1, 1]",
                      Ext, R.Device, ComputeStream, Corr));
    flow(R, Corr, Launch, Start, ComputeStream);
    R.Compute = Start + Dur;
    Ready[R.Rank] = R.Compute;
    R.Cpu = C + 25000;
  }

  void collective(Group &G, const char *Coll, int64_t InElems,
                  int64_t OutElems, int64_t Step) {
    ++G.Seq;
    ++NumColl;
    size_t N = G.Members.size();
    // Each member launches, then its NCCL kernel starts when its inputs
    // are ready; all end when the last has arrived and the data moved.
    std::vector<int64_t> Arrive(N), LaunchAt(N);
    for (size_t I = 0; I < N; ++I) {
      RankState &R = Ranks[G.Members[I]];
      LaunchAt[I] = R.Cpu + 10000;
      Arrive[I] = std::max({R.Comm, Ready[R.Rank], LaunchAt[I] + LaunchLatencyNs});
    }
    bool AllReduce = std::string(Coll) == "allreduce";
    double Bytes = double(AllReduce ? InElems : OutElems) * 2;
    double BusBytes = AllReduce ? Bytes * 2 * double(N - 1) / double(N)
                                : Bytes * double(N - 1) / double(N);
    int64_t Transfer = (AllReduce ? 15000 : 8000) + int64_t(BusBytes / 150);
    size_t Last = 0, First = 0;
    for (size_t I = 1; I < N; ++I) {
      if (Arrive[I] > Arrive[Last])
        Last = I;
      if (Arrive[I] < Arrive[First])
        First = I;
    }
    int64_t End = Arrive[Last] + Transfer;
    Truths.push_back({G.Name, Coll, G.Seq, Step, G.Members[Last],
                      G.Members[First], Arrive[Last] - Arrive[First],
                      G.Members});
    std::string Kernel =
        AllReduce ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL("
                    "ncclDevKernelArgsStorage<4096ul>)"
                  : "ncclDevKernel_AllGather_RING_LL("
                    "ncclDevKernelArgsStorage<4096ul>)";
    for (size_t I = 0; I < N; ++I) {
      std::string Meta = metadata(Coll, InElems, OutElems, G, int64_t(I),
                                  "[]", "[]", G.Seq, false);
      emitComm(Ranks[G.Members[I]],
               AllReduce ? "allreduce" : "_allgather_base", Meta, Kernel,
               LaunchAt[I], Arrive[I], End);
    }
  }

  /// What PyTorch records (saveNcclMeta) for one member of an operation.
  std::string metadata(const std::string &Coll, int64_t InElems,
                       int64_t OutElems, const Group &G, int64_t GroupRank,
                       const std::string &InSplit,
                       const std::string &OutSplit, int64_t Seq, bool P2P) {
    std::string Meta = fmt::format(
        "\"Collective name\": \"{}\", \"In msg nelems\": {}, \"Out msg "
        "nelems\": {}, \"Group size\": {}, \"dtype\": \"BFloat16\", \"In "
        "split size\": \"{}\", \"Out split size\": \"{}\", \"Process Group "
        "Name\": \"{}\", \"Process Group Description\": \"{}\", \"Process "
        "Group Ranks\": \"{}\", \"Rank\": {}",
        Coll, InElems, OutElems, G.Members.size(), InSplit, OutSplit, G.Name,
        G.Desc, ranksText(G.Members), GroupRank);
    if (!O.NoSeq)
      Meta += fmt::format(", \"Seq\": {}", Seq);
    if (O.CommsId)
      Meta += fmt::format(", \"Comms Id\": {}", commsId(G.Name, Seq, P2P));
    return Meta;
  }

  /// One member's c10d op > record_param_comms > launch > NCCL kernel
  /// [Arrive, End] with Meta on the op and the kernel.
  void emitComm(RankState &R, const std::string &Op, const std::string &Meta,
                const std::string &Kernel, int64_t LaunchAt, int64_t Arrive,
                int64_t End) {
    int64_t C = R.Cpu;
    int64_t OpExt = ++R.Ext;
    event(R, "cpu_op", fmt::format("c10d::{}_", Op), R.Pid(), R.Pid(), C,
          40000, fmt::format("\"External id\": {}", OpExt));
    int64_t Ext = ++R.Ext, Corr = ++R.Corr;
    event(R, "cpu_op", "record_param_comms", R.Pid(), R.Pid(), C + 2000,
          36000,
          fmt::format("\"External id\": {}, \"Record function id\": 0, {}",
                      Ext, Meta));
    event(R, "cuda_runtime", "cudaLaunchKernel", R.Pid(), R.Pid(), LaunchAt,
          7000,
          fmt::format("\"cbid\": 211, \"correlation\": {}, \"External id\": {}",
                      Corr, Ext));
    event(R, "kernel", Kernel, R.Device, CommStream, Arrive, End - Arrive,
          fmt::format("\"External id\": {}, \"device\": {}, \"stream\": {}, "
                      "\"correlation\": {}, \"grid\": [16, 1, 1], \"block\": "
                      "[512, 1, 1], {}",
                      Ext, R.Device, CommStream, Corr, Meta));
    flow(R, Corr, LaunchAt, Arrive, CommStream);
    R.Comm = End;
    // The next GEMM consumes the result.
    R.Compute = std::max(R.Compute, End);
    R.Cpu = C + 45000;
  }

  /// Arrival of each member: launched 10 us after its CPU, started when its
  /// inputs are ready; the index of the last and the first arrival.
  void arrivals(const std::vector<unsigned> &Members,
                std::vector<int64_t> &LaunchAt, std::vector<int64_t> &Arrive,
                size_t &Last, size_t &First) {
    size_t N = Members.size();
    LaunchAt.assign(N, 0);
    Arrive.assign(N, 0);
    for (size_t I = 0; I < N; ++I) {
      RankState &R = Ranks[Members[I]];
      LaunchAt[I] = R.Cpu + 10000;
      Arrive[I] =
          std::max({R.Comm, Ready[R.Rank], LaunchAt[I] + LaunchLatencyNs});
    }
    Last = First = 0;
    for (size_t I = 1; I < N; ++I) {
      if (Arrive[I] > Arrive[Last])
        Last = I;
      if (Arrive[I] < Arrive[First])
        First = I;
    }
  }

  /// A send on Src and its recv on Dst, members of the pair group G
  /// (--p2p): Dst/Src Rank global, Rank the peer's group rank, the group's
  /// point-to-point Seq. Both kernels end together, the later arrival plus
  /// the transfer.
  void sendRecv(Group &G, unsigned Src, unsigned Dst, int64_t Elems,
                int64_t Step) {
    ++G.P2PSeq;
    ++NumColl;
    std::vector<unsigned> Pair = {Src, Dst};
    std::vector<int64_t> LaunchAt, Arrive;
    size_t Last, First;
    arrivals(Pair, LaunchAt, Arrive, Last, First);
    int64_t Bytes = Elems * 2;
    int64_t End = Arrive[Last] + 6000 + Bytes / 150;
    auto GroupRank = [&](unsigned R) {
      return int64_t(std::find(G.Members.begin(), G.Members.end(), R) -
                     G.Members.begin());
    };
    Truth T{G.Name, "send/recv", G.P2PSeq, Step, Pair[Last], Pair[First],
            Arrive[Last] - Arrive[First], {std::min(Src, Dst),
                                           std::max(Src, Dst)}};
    T.Src = Src;
    T.Dst = Dst;
    T.Bytes = Bytes;
    Truths.push_back(T);
    for (size_t I = 0; I < 2; ++I) {
      bool Send = I == 0;
      unsigned Peer = Send ? Dst : Src;
      std::string Meta =
          metadata(Send ? "send" : "recv", Elems, Elems, G, GroupRank(Peer),
                   "[]", "[]", G.P2PSeq, true) +
          fmt::format(", \"{} Rank\": {}", Send ? "Dst" : "Src", Peer);
      emitComm(Ranks[Pair[I]], Send ? "send" : "recv", Meta,
               "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
               LaunchAt[I], Arrive[I], End);
    }
  }

  /// An all_to_allv on the world group with uneven splits (--alltoallv):
  /// rank r sends Base x (1 + (r + j + k) mod 3) elements to rank j in
  /// the k-th one. Its transfer grows with the largest send buffer.
  void allToAllv(Group &G, int64_t Base, int64_t Step) {
    ++G.Seq;
    ++NumColl;
    size_t N = G.Members.size();
    uint64_t K = NumAllToAllv++;
    auto Split = [&](size_t From, size_t To) {
      return Base * int64_t(1 + (From + To + K) % 3);
    };
    std::vector<int64_t> LaunchAt, Arrive;
    size_t Last, First;
    arrivals(G.Members, LaunchAt, Arrive, Last, First);
    int64_t MaxSent = 0;
    std::vector<std::vector<int64_t>> In(N), Out(N);
    for (size_t I = 0; I < N; ++I)
      for (size_t J = 0; J < N; ++J) {
        In[I].push_back(Split(I, J));
        Out[J].push_back(Split(I, J));
      }
    for (size_t I = 0; I < N; ++I) {
      int64_t S = 0;
      for (int64_t X : In[I])
        S += X;
      MaxSent = std::max(MaxSent, S);
    }
    int64_t End = Arrive[Last] + 10000 + MaxSent * 2 / 150;
    Truth T{G.Name, "all_to_allv", G.Seq, Step, G.Members[Last],
            G.Members[First], Arrive[Last] - Arrive[First], G.Members};
    T.Bytes = MaxSent * 2;
    Truths.push_back(T);
    auto Text = [](const std::vector<int64_t> &V) {
      std::string S = "[";
      for (size_t I = 0; I < V.size(); ++I)
        S += fmt::format("{}{}", I ? ", " : "", V[I]);
      return S + "]";
    };
    for (size_t I = 0; I < N; ++I) {
      int64_t InSum = 0, OutSum = 0;
      for (size_t J = 0; J < N; ++J) {
        InSum += In[I][J];
        OutSum += Out[I][J];
        Sent[{G.Members[I], G.Members[J]}] += In[I][J];
      }
      std::string Meta = metadata("all_to_allv", InSum, OutSum, G, int64_t(I),
                                  Text(In[I]), Text(Out[I]), G.Seq, false);
      emitComm(Ranks[G.Members[I]], "alltoall_base", Meta,
               "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
               LaunchAt[I], Arrive[I], End);
    }
  }

  std::string header(const RankState &R) {
    std::string Props;
    for (unsigned D = 0; D < GpusPerNode; ++D)
      Props += fmt::format("{}{{\"id\": {}, \"name\": \"NVIDIA H100 80GB "
                           "HBM3\", \"totalGlobalMem\": 85018279936, "
                           "\"computeMajor\": 9, \"computeMinor\": 0, "
                           "\"numSms\": 132}}",
                           D ? ", " : "", D);
    std::string Cfg;
    for (size_t G = 0; G < Groups.size(); ++G) {
      std::string Members;
      for (size_t I = 0; I < Groups[G].Members.size(); ++I)
        Members += fmt::format("{}{}", I ? ", " : "", Groups[G].Members[I]);
      Cfg += fmt::format("{}{{\"pg_name\": \"{}\", \"pg_desc\": \"{}\", "
                         "\"backend_config\": \"cuda:nccl\", \"pg_size\": {}, "
                         "\"ranks\": [{}]}}",
                         G ? ", " : "", Groups[G].Name, Groups[G].Desc,
                         Groups[G].Members.size(), Members);
    }
    return fmt::format(
        "{{\"schemaVersion\": 1, \"deviceProperties\": [{}],\n"
        " \"distributedInfo\": {{\"backend\": \"nccl\", \"rank\": {}, "
        "\"world_size\": {}, \"pg_count\": {}, \"pg_config\": [{}], "
        "\"nccl_version\": \"2.21.5\"}},\n"
        " \"traceName\": \"rank{}.json\", \"displayTimeUnit\": \"ms\",\n"
        "{} \"traceEvents\": [\n",
        Props, R.Rank, O.Ranks, Groups.size(), Cfg, R.Rank,
        O.BaseStepNs > 0
            ? fmt::format(" \"baseTimeNanoseconds\": {},\n",
                          1700000000000000000 +
                              int64_t(R.Rank / GpusPerNode) * O.BaseStepNs)
            : std::string());
  }

  std::string truth() {
    // The injected straggler: the rank with the largest delay.
    int64_t Worst = -1, WorstDelay = 0;
    for (auto &[R, D] : Delay)
      if (D > WorstDelay) {
        WorstDelay = D;
        Worst = R;
      }
    std::string S = fmt::format(
        "{{\n  \"world_size\": {},\n  \"skew_us\": {},\n  \"stragglers\": [",
        O.Ranks, O.SkewUs);
    bool FirstS = true;
    for (auto &[R, D] : Delay) {
      S += fmt::format("{}{{\"rank\": {}, \"delay_us\": {}}}",
                       FirstS ? "" : ", ", R, us(D));
      FirstS = false;
    }
    S += fmt::format("],\n  \"gpus_per_node\": {},\n  \"clock_offsets\": [",
                     GpusPerNode);
    bool FirstC = true;
    for (auto &[Node, Ns] : ClockNs) {
      S += fmt::format("{}{{\"node\": {}, \"offset_us\": {}}}",
                       FirstC ? "" : ", ", Node, us(Ns));
      FirstC = false;
    }
    S += "],\n  \"expected_straggler\": ";
    S += Worst < 0 ? std::string("null") : std::to_string(Worst);
    S += ",\n  \"collectives\": [\n";
    for (size_t I = 0; I < Truths.size(); ++I) {
      const Truth &T = Truths[I];
      std::string Members;
      for (size_t J = 0; J < T.Members.size(); ++J)
        Members += fmt::format("{}{}", J ? ", " : "", T.Members[J]);
      std::string Extra;
      if (T.Src >= 0)
        Extra += fmt::format(", \"src\": {}, \"dst\": {}", T.Src, T.Dst);
      if (T.Bytes >= 0)
        Extra += fmt::format(", \"bytes\": {}", T.Bytes);
      S += fmt::format(
          "    {{\"pg\": \"{}\", \"seq\": {}, \"coll_name\": \"{}\", "
          "\"step\": {}, \"members\": [{}], \"last_rank\": {}, "
          "\"first_rank\": {}, \"arrival_skew_us\": {}{}}}{}\n",
          T.Pg, T.Seq, T.Name, T.Step, Members, T.Last, T.First, us(T.SkewNs),
          Extra, I + 1 < Truths.size() ? "," : "");
    }
    // all_to_allv: bf16 elements sent per (src, dst), in MiB.
    S += "  ],\n  \"alltoallv_sent_mb\": [";
    bool FirstCell = true;
    for (auto &[Key, Elems] : Sent) {
      S += fmt::format("{}[{}, {}, {}]", FirstCell ? "" : ", ", Key.first,
                       Key.second, double(Elems) * 2 / (1024.0 * 1024.0));
      FirstCell = false;
    }
    return S + "]\n}\n";
  }
};

} // namespace

bool parseStraggler(const std::string &S, unsigned &Rank, double &DelayUs) {
  size_t Colon = S.find(':');
  if (Colon == std::string::npos || Colon == 0 || Colon + 1 == S.size())
    return false;
  char *End = nullptr;
  std::string R = S.substr(0, Colon), D = S.substr(Colon + 1);
  unsigned long V = std::strtoul(R.c_str(), &End, 10);
  if (*End || R.find_first_not_of("0123456789") != std::string::npos)
    return false;
  double X = std::strtod(D.c_str(), &End);
  if (*End || !(X >= 0))
    return false;
  Rank = unsigned(V);
  DelayUs = X;
  return true;
}

bool generateJob(const JobOptions &O, std::string &Err) {
  Job J(O);
  return J.run(Err) && J.writeTruth(Err);
}

} // namespace tlgen
