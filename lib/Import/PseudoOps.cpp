//===- PseudoOps.cpp - The reference's pseudo ops over MoE kernels --------===//
//
// §B.1 driver (trigger #2 and the #8 abort), §B.3 #2 selection and the
// §B.2 P1 edit. The edit is the reference's "half splice": the pseudo op
// replaces the launch call in its parent's children (appended last) and
// has the launch call as its one child, but the launch call's parent is
// not changed, so the launcher tables and per-kernel call stacks, which
// walk up from the kernel, never meet it, while the unified table and the
// perf sheets, which walk down, do.
//
//===----------------------------------------------------------------------===//
#include "tl/Import/PseudoOps.h"
#include "BuildStructure.h"

#include "tl/IR/TraceStorage.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace tl;

namespace {

/// One pseudo op to inject.
struct Plan {
  EventId Moe = NoEvent;    // the vllm::moe_forward (shapes, seq)
  EventId Kernel = NoEvent; // its one kernel
  std::string Name;
  std::string Type; // MoE GEMM type
  int64_t Index = -1; // MoE GEMM index (up/down only)
  bool Gated = false;
  int64_t TopK = 4;
};

/// Names of the reference's name index: host events and GPU events.
bool isIndexed(EventKind K) { return isHostTreeKind(K) || isGpuKind(K); }

/// Python int() of a Concrete Inputs string ('4', ' 4 ', '-2').
std::optional<int64_t> pyInt(StringRef S) {
  S = S.trim();
  int64_t V;
  if (S.empty() || S.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// `MoE topk`: the first event below E (its children first, then each
/// child's subtree, 10 levels at most) whose name contains TopK and whose
/// Concrete Inputs[1] is an int. Depth-bounded recursion.
std::optional<int64_t> findTopK(const Trace &T, EventId E, int Depth) {
  if (Depth > 10)
    return std::nullopt;
  ArrayRef<EventId> C = T.children(E);
  for (EventId X : C) {
    if (!T.name(X).contains("TopK"))
      continue;
    ArgValue CI = T.args(X).get("Concrete Inputs");
    if (CI.isArray() && CI.size() > 1 && CI[1].isString())
      if (auto V = pyInt(CI[1].getString()))
        return V;
  }
  for (EventId X : C)
    if (!isGpuKind(T.kind(X)))
      if (auto V = findTopK(T, X, Depth + 1))
        return V;
  return std::nullopt;
}

/// §B.3 #2 for one moe_forward: its matmul_ogs kernels by ts (first up,
/// the rest down), then the one matmul_scatter GPU event, if exactly one.
void planMoe(const Trace &T, EventId Moe, std::vector<Plan> &Out,
             std::vector<std::string> &Warnings) {
  ArrayRef<EventId> Gpu = T.subtreeGpuEvents(Moe);
  std::vector<EventId> Gemms, Scatter;
  for (EventId G : Gpu) {
    if (T.kind(G) == EventKind::Kernel &&
        T.name(G).contains_insensitive("matmul_ogs"))
      Gemms.push_back(G);
    if (T.name(G).contains_insensitive("matmul_scatter"))
      Scatter.push_back(G);
  }
  std::stable_sort(Gemms.begin(), Gemms.end(),
                   [&](EventId A, EventId B) { return T.ts(A) < T.ts(B); });
  std::optional<int64_t> TopK = findTopK(T, Moe, 0);
  if (!TopK)
    Warnings.push_back("vllm::moe_forward %" + std::to_string(T.uid(Moe)) +
                       ": no TopK op with an integer k below it; MoE topk "
                       "taken as 4");
  for (size_t I = 0; I < Gemms.size(); ++I) {
    Plan P;
    P.Moe = Moe;
    P.Kernel = Gemms[I];
    P.Type = I == 0 ? "up" : "down";
    P.Name = "pseudo_op::moe_triton_unfused_" + P.Type;
    P.Index = int64_t(I);
    StringRef K = T.name(Gemms[I]);
    P.Gated = K.contains_insensitive("_swiglu") || K.contains_insensitive("_glu");
    P.TopK = TopK.value_or(4);
    Out.push_back(std::move(P));
  }
  if (Scatter.size() == 1) {
    Plan P;
    P.Moe = Moe;
    P.Kernel = Scatter[0];
    P.Type = "finalize_matmul_scatter";
    P.Name = "pseudo_op::moe_triton_unfused_finalize_matmul_scatter";
    Out.push_back(std::move(P));
  } else if (Scatter.size() > 1) {
    Warnings.push_back("vllm::moe_forward %" + std::to_string(T.uid(Moe)) +
                       ": " + std::to_string(Scatter.size()) +
                       " matmul_scatter kernels; no finalize pseudo op");
  }
}

/// The pseudo op's args: moe_forward's four shape keys, then Sequence
/// number, External id, Pseudo op and the extension's keys.
uint32_t buildArgs(Trace::Storage &S, const Trace &T, const Plan &P,
                   EventId Launcher) {
  ArgBuilder B(S.Args);
  auto Key = [&](StringRef K) { B.key(S.Strings.intern(K)); };
  B.startContainer(/*IsObject=*/true);
  ArgValue A = T.args(P.Moe);
  for (StringRef K :
       {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"})
    if (A.isObject() && A.hasKey(K)) {
      Key(K);
      appendArgValue(B, A.get(K), S.Args);
    }
  Key("Sequence number");
  B.integer(T.sequenceNumber(P.Moe).value_or(int64_t(T.uid(P.Moe))));
  Key("External id");
  if (auto C = T.correlation(Launcher))
    B.integer(*C);
  else
    B.null();
  Key("Pseudo op");
  B.boolean(true);
  Key("MoE GEMM type");
  B.string(S.Strings.intern(P.Type));
  if (P.Index >= 0) {
    Key("MoE GEMM index");
    B.integer(P.Index);
    Key("MoE GEMM gated");
    B.boolean(P.Gated);
    Key("MoE topk");
    B.integer(P.TopK);
  }
  B.endContainer();
  uint32_t Node = B.finish();
  S.Args.mark(); // commit
  return Node;
}

PseudoOpResult finish(Trace &T, PseudoOpResult R) {
  Trace::Storage &S = T.storage();
  for (const std::string &W : R.Warnings)
    if (S.Stats.Warnings.size() < 50)
      S.Stats.Warnings.push_back("pseudo ops: " + W);
  return R;
}

} // namespace

PseudoOpResult tl::injectPseudoOps(Trace &T) {
  PseudoOpResult Res;
  bool HasMoeForward = false, HasAiterFused = false, HasOgs = false,
       HasPagedAttn = false;
  std::vector<EventId> MoeOps;
  for (EventId E = 0, N = T.size(); E < N; ++E) {
    EventKind K = T.kind(E);
    if (!isIndexed(K))
      continue;
    StringRef Name = T.name(E);
    if (Name == "vllm::moe_forward") {
      HasMoeForward = true;
      MoeOps.push_back(E);
    }
    HasAiterFused |= Name == "vllm::rocm_aiter_fused_moe";
    HasOgs |= K == EventKind::Kernel && Name.contains_insensitive("matmul_ogs");
    HasPagedAttn |=
        Name == "_rocm_C::paged_attention" || Name == "aiter::paged_attention_v1";
  }
  if (!HasMoeForward || HasAiterFused || !HasOgs)
    return Res;
  // Trigger #8 makes the reference's driver raise before applying any
  // extension (§E.6): no pseudo op at all.
  if (HasPagedAttn) {
    Res.Warnings.push_back("the trace has paged-attention ops, for which the "
                           "reference applies no pseudo op (§E.6); none "
                           "injected");
    return finish(T, std::move(Res));
  }
  std::sort(MoeOps.begin(), MoeOps.end(),
            [&](EventId A, EventId B) { return T.uid(A) < T.uid(B); });
  std::vector<Plan> Plans;
  for (EventId M : MoeOps) {
    if (T.subtreeGpuEvents(M).empty())
      continue;
    size_t Before = Plans.size();
    planMoe(T, M, Plans, Res.Warnings);
    Res.MoeOps += Plans.size() != Before;
  }
  if (Plans.empty())
    return finish(T, std::move(Res));

  // Append the pseudo ops; each replaces its launch call in the parent's
  // children (appended last) and gets the launch call as its child.
  Trace::Storage &S = T.storage();
  const size_t N0 = S.size();
  uint32_t NextUid = N0 ? S.Uid.back() + 1 : 0;
  StrId Cat = S.Strings.intern("cpu_op");
  DenseMap<EventId, EventId> PseudoOf;           // launch call -> pseudo op
  DenseMap<EventId, std::vector<EventId>> Added; // parent -> pseudo ops
  std::vector<EventId> LauncherOf;
  for (const Plan &P : Plans) {
    EventId L = T.parent(P.Kernel);
    EventId Orig = L == NoEvent ? NoEvent : T.parent(L);
    if (Orig == NoEvent || !isRuntimeKind(T.kind(L))) {
      Res.Warnings.push_back(P.Name + " over kernel %" +
                             std::to_string(T.uid(P.Kernel)) +
                             ": its launch call has no parent; skipped");
      continue;
    }
    if (PseudoOf.count(L)) {
      Res.Warnings.push_back(P.Name + " over kernel %" +
                             std::to_string(T.uid(P.Kernel)) +
                             ": its launch call already has a pseudo op; "
                             "skipped");
      continue;
    }
    EventId E = EventId(S.size());
    uint32_t ArgsNode = buildArgs(S, T, P, L);
    S.Kind.push_back(EventKind::CpuOp);
    S.Uid.push_back(NextUid++);
    S.Name.push_back(S.Strings.intern(P.Name));
    S.Cat.push_back(Cat);
    // No ts or dur in the reference: the launch call's start, no length.
    S.Ts.push_back(S.Ts[L]);
    S.Dur.push_back(0);
    S.TrackOf.push_back(S.TrackOf[Orig]);
    S.ArgsNode.push_back(ArgsNode);
    S.Parent.push_back(Orig);
    S.ByKind[unsigned(EventKind::CpuOp)].push_back(E);
    S.PseudoOps.push_back(E);
    PseudoOf[L] = E;
    Added[Orig].push_back(E);
    LauncherOf.push_back(L);
    ++Res.Injected;
  }
  const size_t N = S.size();
  if (N == N0)
    return finish(T, std::move(Res));

  std::vector<uint32_t> Begin;
  std::vector<EventId> Children;
  Begin.reserve(N + 1);
  Children.reserve(S.Children.size() + 2 * (N - N0));
  for (EventId E = 0; E < N0; ++E) {
    Begin.push_back(uint32_t(Children.size()));
    for (uint32_t K = S.ChildBegin[E]; K < S.ChildBegin[E + 1]; ++K)
      if (!PseudoOf.count(S.Children[K]))
        Children.push_back(S.Children[K]);
    auto It = Added.find(E);
    if (It != Added.end())
      Children.insert(Children.end(), It->second.begin(), It->second.end());
  }
  for (EventId E = EventId(N0); E < N; ++E) {
    Begin.push_back(uint32_t(Children.size()));
    Children.push_back(LauncherOf[E - N0]);
  }
  Begin.push_back(uint32_t(Children.size()));
  S.ChildBegin = std::move(Begin);
  S.Children = std::move(Children);
  S.Fwd.resize(N, NoEvent);
  S.BwdBegin.resize(N + 1, S.BwdBegin.empty() ? 0 : S.BwdBegin.back());
  buildGpuRanges(S);
  return finish(T, std::move(Res));
}
