//===- CollectiveInstances.cpp - One rank's collective operations ---------===//
#include "tl/Analysis/CollectiveInstances.h"

#include "tl/Analysis/OpCategory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace llvm;

namespace tl {

static constexpr StringLiteral ParamCommsOp = "record_param_comms";

unsigned collectiveDtypeBytes(StringRef D) {
  if (D.starts_with("Float8_"))
    return 1;
  return StringSwitch<unsigned>(D)
      .Cases("Float", "Int", "UInt32", 4)
      .Cases("Long", "Double", "ComplexFloat", "UInt64", 8)
      .Cases("BFloat16", "Half", "Short", "UInt16", 2)
      .Cases("Char", "Byte", "Bool", 1)
      .Case("ComplexDouble", 16)
      .Default(0);
}

std::string collectiveType(StringRef Name, StringRef Kernel) {
  if (!Name.empty()) {
    std::string T = StringSwitch<std::string>(Name)
                        .Cases("allreduce", "allreduce_coalesced", "allreduce")
                        .Cases("allgather", "all_gather", "_allgather_base",
                               "all_gather_into_tensor_coalesced",
                               "allgather_into_tensor_coalesced",
                               "allgather_coalesced", "allgather")
                        .Cases("reducescatter", "reduce_scatter",
                               "_reduce_scatter_base",
                               "reduce_scatter_tensor_coalesced",
                               "reducescatter")
                        .Case("all_to_all", "alltoall")
                        .Case("all_to_allv", "alltoallv")
                        .Case("broadcast", "broadcast")
                        .Case("reduce", "reduce")
                        .Cases("send", "recv", "sendrecv")
                        .Case("barrier", "barrier")
                        .Case("gather", "gather")
                        .Case("scatter", "scatter")
                        .Default("");
    if (!T.empty())
      return T;
  }
  // §3.2 rule 6, from the kernel name; ReduceScatter before Reduce.
  static constexpr std::pair<StringLiteral, StringLiteral> ByKernel[] = {
      {"AllReduce", "allreduce"},       {"AllGather", "allgather"},
      {"ReduceScatter", "reducescatter"}, {"Broadcast", "broadcast"},
      {"AllToAll", "alltoall"},         {"SendRecv", "sendrecv"},
      {"Send", "sendrecv"},             {"Recv", "sendrecv"},
      {"Reduce", "reduce"},             {"cross_device_reduce", "allreduce"}};
  for (const auto &[Pat, Type] : ByKernel)
    if (Kernel.contains(Pat))
      return Type.str();
  return "unknown";
}

std::vector<int64_t> parseRankList(StringRef Text, bool &Truncated) {
  std::vector<int64_t> Out;
  Truncated = Text.contains("...");
  while (!Text.empty()) {
    Text = Text.drop_until(isDigit);
    StringRef Num = Text.take_while(isDigit);
    Text = Text.drop_front(Num.size());
    int64_t V;
    if (!Num.empty() && !Num.getAsInteger(10, V))
      Out.push_back(V);
  }
  return Out;
}

std::optional<uint64_t> parseCommsId(ArgValue V) {
  if (V.isInt()) {
    if (V.getInt() < 0)
      return std::nullopt;
    return uint64_t(V.getInt());
  }
  uint64_t U;
  if (V.isString() && !V.getString().getAsInteger(10, U))
    return U;
  return std::nullopt;
}

/// A split size list, "[393216, 393216]" or a JSON array; empty when it
/// was truncated (the peers of the counts are unknown).
static std::vector<int64_t> splitSizes(ArgValue V) {
  std::vector<int64_t> Out;
  if (V.isString()) {
    bool Truncated = false;
    Out = parseRankList(V.getString(), Truncated);
    if (Truncated)
      Out.clear();
  } else if (V.isArray()) {
    for (size_t I = 0, N = V.size(); I < N; ++I)
      if (std::optional<int64_t> X = V[I].asInt())
        Out.push_back(*X);
  }
  return Out;
}

namespace {
/// The c10d keys of one args object; each is kept from the first source
/// that has it (the kernel's own args, then its record_param_comms).
struct Meta {
  std::optional<std::string> Pg, PgDesc, CollName, Dtype;
  std::optional<int64_t> Seq, In, Out, Group, GroupRank, Src, Dst;
  std::optional<uint64_t> CommsId;
  std::optional<std::vector<int64_t>> Ranks, InSplit, OutSplit;
  bool Truncated = false;

  void fill(ArgValue A) {
    if (!A.isObject())
      return;
    auto Str = [&](std::optional<std::string> &F, StringRef Key) {
      if (F)
        return;
      ArgValue V = A.get(Key);
      if (V.isString())
        F = V.getString().str();
      else if (std::optional<int64_t> I = V.asInt())
        F = std::to_string(*I);
    };
    auto Int = [&](std::optional<int64_t> &F, StringRef Key) {
      if (!F)
        F = A.get(Key).asInt();
    };
    Str(Pg, "Process Group Name");
    Str(PgDesc, "Process Group Description");
    Str(CollName, "Collective name");
    Str(Dtype, "dtype");
    Int(In, "In msg nelems");
    Int(Out, "Out msg nelems");
    Int(Group, "Group size");
    Int(GroupRank, "Rank");
    Int(Src, "Src Rank");
    Int(Dst, "Dst Rank");
    if (!Seq)
      if (std::optional<int64_t> S = A.get("Seq").asInt(); S && *S >= 0)
        Seq = S;
    if (!CommsId)
      CommsId = parseCommsId(A.get("Comms Id"));
    for (auto [F, Key] : {std::pair{&InSplit, "In split size"},
                          std::pair{&OutSplit, "Out split size"}})
      if (!*F)
        if (ArgValue V = A.get(Key); V.isString() || V.isArray())
          *F = splitSizes(V);
    if (!Ranks) {
      ArgValue R = A.get("Process Group Ranks");
      if (R.isString()) {
        Ranks = parseRankList(R.getString(), Truncated);
      } else if (R.isArray()) {
        Ranks.emplace();
        for (size_t I = 0, N = R.size(); I < N; ++I)
          if (std::optional<int64_t> V = R[I].asInt())
            Ranks->push_back(*V);
      }
    }
  }
};
} // namespace

/// The record_param_comms above the kernel's launch, else the one with the
/// kernel's External id; NoEvent when none.
static EventId paramCommsOf(const Trace &T, EventId K,
                            const DenseMap<int64_t, EventId> &ByExternal) {
  // The host tree is finite and acyclic; the walk is a loop.
  for (EventId P = T.parent(K); P != NoEvent; P = T.parent(P))
    if (T.kind(P) == EventKind::CpuOp && T.name(P) == ParamCommsOp)
      return P;
  if (std::optional<int64_t> X = T.externalId(K))
    if (auto It = ByExternal.find(*X); It != ByExternal.end())
      return It->second;
  return NoEvent;
}

std::vector<CollectiveInstance>
collectCollectiveInstances(const Trace &T, ArrayRef<StepWindow> Steps,
                           std::vector<std::vector<EventId>> *Kernels) {
  DenseMap<int64_t, EventId> ByExternal;
  for (EventId E : T.eventsOfKind(EventKind::CpuOp))
    if (T.name(E) == ParamCommsOp)
      if (std::optional<int64_t> X = T.externalId(E))
        ByExternal.try_emplace(*X, E);

  auto stepOf = [&](double Ts) -> std::optional<int64_t> {
    for (const StepWindow &S : Steps)
      if (S.CpuStart <= Ts && Ts < S.CpuEnd)
        return S.Number;
    return std::nullopt;
  };
  // A kernel without a launch belongs to the step window it starts in.
  auto windowOf = [&](double Ts) -> std::optional<int64_t> {
    for (const StepWindow &S : Steps)
      if (S.Start <= Ts && Ts < S.End)
        return S.Number;
    return std::nullopt;
  };

  std::vector<CollectiveInstance> Out;
  std::vector<std::vector<EventId>> KernelsOf;
  // Instance of each record_param_comms (coalesced ops launch several
  // kernels); kernels without one are instances of their own.
  DenseMap<EventId, size_t> ByOp;
  for (EventId K : T.eventsOfKind(EventKind::Kernel)) {
    StringRef Name = T.name(K);
    if (!isCommKernel(Name))
      continue;
    EventId Op = paramCommsOf(T, K, ByExternal);
    if (Op != NoEvent) {
      if (auto It = ByOp.find(Op); It != ByOp.end()) {
        CollectiveInstance &I = Out[It->second];
        I.Start = std::min(I.Start, T.ts(K));
        I.End = std::max(I.End, T.end(K));
        ++I.NumKernels;
        KernelsOf[It->second].push_back(K);
        continue;
      }
      ByOp[Op] = Out.size();
    }
    Meta M;
    M.fill(T.args(K));
    if (Op != NoEvent)
      M.fill(T.args(Op));
    CollectiveInstance I;
    I.Pg = SharedName(M.Pg.value_or(""));
    I.PgDesc = SharedName(M.PgDesc.value_or(""));
    I.Seq = M.Seq;
    I.CollName = SharedName(M.CollName.value_or(""));
    I.CollType = SharedName(collectiveType(I.CollName, Name));
    I.Dtype = SharedName(M.Dtype.value_or(""));
    I.InNelems = M.In;
    I.OutNelems = M.Out;
    I.GroupSize = M.Group;
    if (M.Ranks)
      I.PgRanks = std::move(*M.Ranks);
    I.PgRanksTruncated = M.Truncated;
    I.CommsId = M.CommsId;
    I.GroupRank = M.GroupRank;
    if (I.CollName == "send")
      I.PeerRank = M.Dst;
    else if (I.CollName == "recv")
      I.PeerRank = M.Src;
    // The splits matter for all_to_allv only (the heat-map, its bytes).
    if (I.CollType == "alltoallv") {
      I.InSplit = M.InSplit.value_or(std::vector<int64_t>());
      I.OutSplit = M.OutSplit.value_or(std::vector<int64_t>());
    }
    I.Stream = T.stream(K).value_or(-1);
    I.Start = T.ts(K);
    I.End = T.end(K);
    I.NumKernels = 1;
    I.Kernel = SharedName(Name);
    EventId Launch = T.parent(K);
    I.Step = Launch != NoEvent ? stepOf(T.ts(Launch)) : windowOf(T.ts(K));
    Out.push_back(std::move(I));
    KernelsOf.push_back({K});
  }
  std::vector<size_t> Order(Out.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    return Out[A].Start < Out[B].Start;
  });
  std::vector<CollectiveInstance> Sorted;
  Sorted.reserve(Out.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Out[I]));
  if (Kernels) {
    Kernels->clear();
    for (size_t I : Order)
      Kernels->push_back(std::move(KernelsOf[I]));
  }
  return Sorted;
}

} // namespace tl
