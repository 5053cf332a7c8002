//===- WorkloadInfo.cpp - What workload a trace shows --------------------===//

#include "tl/Analysis/WorkloadInfo.h"

#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/ModelFamily.h"
#include "tl/Analysis/NameMemo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

using namespace tl;
using llvm::StringRef;

StringRef tl::confidenceName(Confidence C) {
  switch (C) {
  case Confidence::Low:
    return "low";
  case Confidence::Medium:
    return "medium";
  case Confidence::High:
    return "high";
  }
  return "low";
}

std::string tl::shortDtype(StringRef T) {
  if (T == "c10::BFloat16")
    return "bf16";
  if (T == "c10::Half")
    return "fp16";
  if (T == "float")
    return "fp32";
  if (T == "double")
    return "fp64";
  if (T.starts_with("c10::Float8_"))
    return "fp8";
  if (T == "signed char" || T == "c10::qint8")
    return "int8";
  return T.str();
}

WorkloadInfo::WorkloadInfo(const Trace &T, AnalysisManager &AM)
    : WorkloadInfo(T) {}

const WorkloadFact *WorkloadInfo::find(StringRef Key) const {
  for (const WorkloadFact &F : Facts)
    if (F.Key == Key)
      return &F;
  return nullptr;
}
StringRef WorkloadInfo::value(StringRef Key) const {
  const WorkloadFact *F = find(Key);
  return F ? StringRef(F->Value) : StringRef();
}
std::optional<int64_t> WorkloadInfo::number(StringRef Key) const {
  const WorkloadFact *F = find(Key);
  return F ? F->Number : std::nullopt;
}
std::string WorkloadInfo::title() const {
  StringRef F = value("model_family");
  return F.empty() ? std::string("Workload") : F.str();
}

namespace {

/// Shape I of an op's `Input Dims` (empty when absent or not a shape) and
/// dtype I of its `Input type`, with the keys looked up once and each
/// stored shape list (they are interned) read once.
class OpArgs {
public:
  explicit OpArgs(const Trace &T)
      : T(T), DimsKey(T.strings().lookup("Input Dims")),
        TypeKey(T.strings().lookup("Input type")) {}

  const std::vector<int64_t> &shapeAt(EventId E, size_t I) {
    static const std::vector<int64_t> None;
    ArgValue D = T.args(E).getByKeyId(DimsKey)[I];
    if (!D.isArray())
      return None;
    auto [It, New] = Shapes.try_emplace(D.identity());
    if (New)
      for (size_t K = 0, N = D.size(); K < N; ++K) {
        auto V = D[K].asInt();
        if (!V) {
          It->second.clear();
          break;
        }
        It->second.push_back(*V);
      }
    return It->second;
  }

  StringRef typeAt(EventId E, size_t I) {
    return T.args(E).getByKeyId(TypeKey)[I].getString();
  }

private:
  const Trace &T;
  StrId DimsKey, TypeKey;
  /// Node-based: a returned shape stays valid while more are read.
  std::unordered_map<uint64_t, std::vector<int64_t>> Shapes;
};

/// Most frequent key (ties: the larger key), with its count.
template <typename K> std::pair<K, uint64_t> modeOf(const std::map<K, uint64_t> &M) {
  std::pair<K, uint64_t> Best{};
  for (const auto &[Key, N] : M)
    if (N >= Best.second)
      Best = {Key, N};
  return Best;
}

bool isSdpaOp(StringRef N) {
  // These ops take q, k, v as (B, H, S, D).
  return N == "aten::scaled_dot_product_attention" ||
         N == "aten::_scaled_dot_product_flash_attention" ||
         N == "aten::_scaled_dot_product_efficient_attention" ||
         N == "aten::_scaled_dot_product_cudnn_attention" ||
         N == "aten::_scaled_dot_product_attention_math" ||
         N == "aten::_scaled_dot_product_flash_attention_for_cpu";
}

bool isVarlenAttentionOp(StringRef N) {
  // vllm::unified_attention*, aiter::mha_batch_prefill, paged attention,
  // flash_attn varlen: q and k are (tokens, heads, head dim). Cache writes
  // and Inductor kernels named after attention are not attention calls.
  if (N.starts_with("triton_") || N.starts_with("aten::") ||
      N.contains("cache"))
    return false;
  std::string Lower = N.lower();
  StringRef L(Lower);
  return L.contains("attention") || L.contains("mha") || L.contains("attn");
}

bool isNormOp(StringRef N) {
  if (N.starts_with("triton_") || N.starts_with("sglang_profiler::"))
    return false;
  std::string Lower = N.lower();
  StringRef L(Lower);
  return L.contains("rmsnorm") || L.contains("rms_norm") ||
         N == "aten::layer_norm";
}

bool isGemmOrConvOp(StringRef N) {
  static constexpr llvm::StringLiteral Ops[] = {
      "aten::mm",          "aten::addmm",           "aten::bmm",
      "aten::baddbmm",     "aten::addbmm",          "aten::matmul",
      "aten::linear",      "aten::_scaled_mm",      "aten::_int_mm",
      "aten::_addmm_activation", "aten::convolution", "aten::_convolution",
      "aten::cudnn_convolution", "aten::miopen_convolution",
      "aten::conv2d",      "aten::conv1d",          "aten::conv3d"};
  return llvm::is_contained(Ops, N);
}

bool isCollectiveKernel(StringRef N) {
  // Folded once: contains_insensitive folds at every position of N.
  std::string Lower = N.lower();
  StringRef L(Lower);
  return L.contains("nccl") || L.contains("rccl") ||
         L.contains("all_reduce") || L.contains("allreduce") ||
         L.contains("all_gather") || L.contains("allgather") ||
         L.contains("reduce_scatter") || L.contains("reducescatter") ||
         L.contains("alltoall");
}

/// Facts of kernel names, tested once per distinct name.
struct KernelNameFacts {
  bool MultiTensor = false, Backward = false, Triton = false,
       Collective = false;
};

Confidence confFromShare(double Share) {
  return Share >= 0.6 ? Confidence::High
                      : Share >= 0.3 ? Confidence::Medium : Confidence::Low;
}

std::string shapeText(llvm::ArrayRef<int64_t> S) {
  std::string R = "[";
  for (size_t I = 0; I < S.size(); ++I)
    R += (I ? ", " : "") + std::to_string(S[I]);
  return R + "]";
}

/// Facts of a kernel name, tested once per distinct name.
KernelNameFacts kernelNameFacts(StringRef N) {
  KernelNameFacts F;
  F.MultiTensor = N.contains("multi_tensor_apply");
  // (contains_insensitive compares case-folded at every position.)
  F.Backward = StringRef(N.lower()).contains("backward") || N.contains("_bwd") ||
               N.contains("wgrad") || N.contains("dgrad") ||
               N.contains("_wrw_");
  F.Triton = N.starts_with("triton_");
  F.Collective = isCollectiveKernel(N);
  return F;
}

/// vLLM/SGLang model layers (tensor-parallel linears, logits processor).
bool isServingLayerFrame(StringRef N) {
  StringRef C = splitModuleInstance(N).first;
  return N.starts_with("nn.Module: ") &&
         (C == "QKVParallelLinear" || C == "RowParallelLinear" ||
          C == "ColumnParallelLinear" || C == "MergedColumnParallelLinear" ||
          C == "VocabParallelEmbedding" || C == "LogitsProcessor");
}

/// Per nn.Module class: its frames, distinct instances and time.
struct ClassStat {
  uint64_t Count = 0;
  std::vector<int64_t> InstanceList;
  size_t Instances = 0; // distinct instance numbers
  double Time = 0;      // Σ durations
  double MaxCall = 0;   // longest single call
};

/// A repeated block that may give the layer count. Rank 0 = of the
/// model's family, 1 = of no known family (TransformerBlock), 2 = of
/// another family (a text encoder's CLIPEncoderLayer).
struct LayerCand {
  std::string Cls;
  size_t Instances;
  uint64_t Count;
  double Time;
  int Rank;
};

/// Shape tallies of the host ops (shape -> calls).
struct ShapeStats {
  std::map<int64_t, uint64_t> LinearK;
  std::map<std::vector<int64_t>, uint64_t> SdpaQ, Matmul4D, Linear3D;
  std::map<std::pair<int64_t, int64_t>, uint64_t> SdpaKvHeads; // (H, Hkv)
  std::map<std::pair<int64_t, int64_t>, uint64_t> Embeddings;  // (V, H)
  std::map<std::pair<int64_t, int64_t>, uint64_t> LinearW;     // (N, K)
  // Varlen / paged attention ops' q (T, H, D) and k (T', Hkv, D).
  std::map<std::tuple<int64_t, int64_t, int64_t>, uint64_t> VarlenQK;
  std::map<int64_t, uint64_t> NormWidth; // RMSNorm / LayerNorm last dim
  llvm::DenseMap<EventId, uint64_t> AttentionPerRoot; // root frame -> calls
  /// Some in-scope aten::linear had shapes (else mm/addmm are read).
  bool HaveLinear = false;
};

/// Infers the facts in steps, each reading the trace for one concern and
/// leaving what later steps need in its members. Facts are appended in
/// the order the steps run; the caller sorts them into the key order.
class FactBuilder {
public:
  FactBuilder(const Trace &T, std::vector<WorkloadFact> &Facts)
      : T(T), Facts(Facts), CpuOps(T.eventsOfKind(EventKind::CpuOp)),
        Top(T.topLevel()), KernelFacts(T, kernelNameFacts), Args(T) {}

  void run() {
    frameworkAndDevice();
    mode();
    execution();
    scanModuleClasses();
    rootAndFamily();
    layerCandidates();
    scopeToRoot();
    chooseLayerClasses();
    scanShapes();
    attentionHeads();
    hiddenSize();
    headFacts();
    layers();
    vocabulary();
    precision();
    batchAndSequence();
    distributed();
  }

private:
  void add(std::string Key, std::string Value, std::string Evidence,
           Confidence C, std::optional<int64_t> Number = std::nullopt) {
    Facts.push_back({std::move(Key), std::move(Value), std::move(Evidence), C,
                     Number});
  }
  bool inScope(EventId E) const { return !Scoped || RootFrameOf.count(E); }

  void frameworkAndDevice();
  void mode();
  void execution();
  void scanModuleClasses();
  void rootAndFamily();
  void familyFact(const std::map<std::string, uint64_t> &Families);
  void layerCandidates();
  void scopeToRoot();
  void chooseLayerClasses();
  void scanShapes();
  void scanLinear(EventId E);
  void scanSdpa(EventId E);
  void scanVarlenAttention(EventId E);
  void scanMatmul(EventId E);
  void scanUnfusedGemms();
  void attentionHeads();
  void hiddenSize();
  void headFacts();
  void layers();
  void addClassLayers(const LayerCand &L);
  void vocabulary();
  void precision();
  bool precisionFromOps();
  void precisionFromKernelNames();
  void batchAndSequence();
  void distributed();
  void processGroups(ArgValue D, ArgValue Pgs);

  const Trace &T;
  std::vector<WorkloadFact> &Facts;
  llvm::ArrayRef<EventId> CpuOps;
  ArgValue Top;
  NameMemo<KernelNameFacts (*)(StringRef)> KernelFacts;
  OpArgs Args;

  // From the nn.Module frames.
  std::map<std::string, ClassStat> Classes;
  uint64_t Specific = 0; // frames of model-specific classes
  std::string Root;      // the root model class
  std::string Fam;       // the model family
  std::vector<LayerCand> LayerCands;
  const LayerCand *PrimaryLayers = nullptr, *OtherLayers = nullptr;
  // Host events under the root model's frames, each with its frame.
  llvm::DenseMap<EventId, EventId> RootFrameOf;
  bool Scoped = false; // shapes are read under the root only

  // From the shapes.
  ShapeStats S;
  std::optional<int64_t> Heads, HeadDim, Hidden;
  std::string HeadSrc;
};

void FactBuilder::frameworkAndDevice() {
  uint64_t Aten = 0;
  for (EventId E : CpuOps)
    if (T.name(E).starts_with("aten::"))
      ++Aten;
  ArgValue Schema = Top.get("schemaVersion");
  std::string Ev = "PyTorch profiler (Kineto) trace";
  if (!Schema.isNull())
    Ev += ", schemaVersion " + Schema.toJson();
  Ev += fmt::format("; {} aten:: ops", Aten);
  uint64_t Serving = 0;
  NamePredicate IsServingLayer(T, isServingLayerFrame);
  for (EventId E : T.eventsOfKind(EventKind::PythonFunction))
    if (IsServingLayer(E))
      ++Serving;
  std::string V = "PyTorch";
  if (Serving) {
    V = "PyTorch (vLLM/SGLang-style serving model)";
    Ev += fmt::format("; {} tensor-parallel serving-layer module frames "
                      "(QKVParallelLinear, VocabParallelEmbedding, ...)",
                      Serving);
  }
  add("framework", V, Ev,
      Aten > 0 || !Schema.isNull() ? Confidence::High : Confidence::Medium);
  ArgValue Props = Top.get("deviceProperties");
  if (Props.isArray() && Props.size() > 0) {
    StringRef Dev = Props[0].get("name").getString();
    if (!Dev.empty())
      add("device", Dev.str(),
          fmt::format("deviceProperties[0].name ({} device entries)",
                      Props.size()),
          Confidence::High);
  }
}

/// Training or inference, and the optimizer.
void FactBuilder::mode() {
  uint64_t Bwd = 0, Optim = 0, MultiTensor = 0, BwdKernels = 0;
  std::string OptName;
  for (EventId E : CpuOps)
    if (T.name(E).starts_with("autograd::engine::evaluate_function"))
      ++Bwd;
  for (EventKind K : {EventKind::CpuOp, EventKind::UserAnnotation})
    for (EventId E : T.eventsOfKind(K)) {
      StringRef N = T.name(E);
      if (N.starts_with("Optimizer.step")) {
        ++Optim;
        // "Optimizer.step#SGD.step" -> "SGD"
        size_t H = N.find('#');
        if (OptName.empty() && H != StringRef::npos)
          OptName = N.drop_front(H + 1).split('.').first.str();
      }
    }
  for (EventId E : T.eventsOfKind(EventKind::Kernel)) {
    const KernelNameFacts &F = KernelFacts(E);
    MultiTensor += F.MultiTensor;
    BwdKernels += F.Backward;
  }
  std::string Ev = fmt::format(
      "{} autograd::engine::evaluate_function ops, {} Optimizer.step "
      "markers, {} multi_tensor_apply kernels, {} backward-named kernels",
      Bwd, Optim, MultiTensor, BwdKernels);
  if (Bwd > 0 && (Optim > 0 || MultiTensor > 0))
    add("mode", "training", Ev, Confidence::High);
  else if (Bwd > 0)
    add("mode", "training", Ev + " (backward without an optimizer step)",
        Confidence::Medium);
  else if (!CpuOps.empty())
    add("mode", "inference", Ev, Confidence::High);
  else if (BwdKernels > 0 || MultiTensor > 0)
    add("mode", "training", Ev + " (GPU-only trace: from kernel names)",
        Confidence::Low);
  else
    add("mode", "inference", Ev + " (GPU-only trace: from kernel names)",
        Confidence::Low);
  if (!OptName.empty())
    add("optimizer", OptName,
        fmt::format("{} Optimizer.step#{}.step markers", Optim, OptName),
        Confidence::High);
}

/// Eager, compiled (Inductor/Triton), or GPU-graph replay.
void FactBuilder::execution() {
  uint64_t Triton = 0, Inductor = 0, Compiled = 0, Graph = 0, Kernels = 0;
  double TritonTime = 0, KernelTime = 0;
  for (EventId E : T.eventsOfKind(EventKind::Kernel)) {
    ++Kernels;
    KernelTime += T.dur(E);
    if (KernelFacts(E).Triton) {
      ++Triton;
      TritonTime += T.dur(E);
    }
  }
  NameMemo IsInductor(
      T, [](StringRef N) { return N.contains("torch/_inductor"); });
  for (EventId E : T.eventsOfKind(EventKind::PythonFunction))
    if (IsInductor(E))
      ++Inductor;
  NameMemo IsCompiled(T, [](StringRef N) {
    return N.contains("CompiledFxGraph") || N.contains("CompiledFunction") ||
           N.starts_with("Torch-Compiled Region");
  });
  for (EventKind K : {EventKind::CpuOp, EventKind::UserAnnotation})
    for (EventId E : T.eventsOfKind(K))
      if (IsCompiled(E))
        ++Compiled;
  NameMemo IsGraphLaunch(T, [](StringRef N) {
    return N.starts_with("cudaGraphLaunch") || N.starts_with("hipGraphLaunch");
  });
  for (EventKind K : {EventKind::Runtime, EventKind::Driver})
    for (EventId E : T.eventsOfKind(K))
      if (IsGraphLaunch(E))
        ++Graph;
  std::string Ev = fmt::format(
      "{} triton_ kernels of {} ({:.2f}% of kernel time), {} "
      "torch/_inductor frames, {} compiled-graph markers "
      "(CompiledFxGraph/CompiledFunction/Torch-Compiled Region), {} graph "
      "launches",
      Triton, Kernels, KernelTime > 0 ? TritonTime / KernelTime * 100 : 0.0,
      Inductor, Compiled, Graph);
  int Signals = (Triton > 0) + (Inductor > 0) + (Compiled > 0);
  std::string V = Signals ? "compiled (Inductor/Triton)" : "eager";
  if (Graph > 0)
    V = Signals ? V + " + GPU-graph replay" : "GPU-graph replay";
  Confidence C = Signals >= 2 || Graph > 0 ? Confidence::High
                 : Signals == 1           ? Confidence::Medium
                 : CpuOps.empty()         ? Confidence::Low
                                          : Confidence::High;
  add("execution", V, Ev, C);
}

void FactBuilder::scanModuleClasses() {
  // Frame names carry a per-call instance number, so nearly every frame
  // name is distinct: the class's stat is found by its text without
  // making a string, and instances are collected and counted at the end.
  llvm::StringMap<std::pair<ClassStat *, bool>> StatOf; // stat, generic
  for (EventId E : T.eventsOfKind(EventKind::PythonFunction)) {
    if (!T.name(E).starts_with("nn.Module: "))
      continue;
    auto [Cls, Inst] = splitModuleInstance(T.name(E));
    auto [It, New] = StatOf.try_emplace(Cls, nullptr, false);
    if (New)
      It->second = {&Classes[Cls.str()], isGenericModuleClass(Cls)};
    ClassStat &CS = *It->second.first;
    ++CS.Count;
    CS.InstanceList.push_back(Inst ? *Inst : -1);
    CS.Time += T.dur(E);
    CS.MaxCall = std::max(CS.MaxCall, T.dur(E));
    if (!It->second.second)
      ++Specific;
  }
  for (auto &[Cls, CS] : Classes) {
    llvm::sort(CS.InstanceList);
    CS.Instances = std::unique(CS.InstanceList.begin(), CS.InstanceList.end()) -
                   CS.InstanceList.begin();
    std::vector<int64_t>().swap(CS.InstanceList);
  }
}

void FactBuilder::rootAndFamily() {
  // Root model class: the model-specific class with the longest single
  // call (it encloses the others).
  double RootTime = -1;
  std::map<std::string, uint64_t> Families;
  for (const auto &[Cls, CS] : Classes) {
    if (isGenericModuleClass(Cls))
      continue;
    if (CS.MaxCall > RootTime) {
      RootTime = CS.MaxCall;
      Root = Cls;
    }
    StringRef F = familyOfModuleClass(Cls);
    if (!F.empty())
      Families[F.str()] += CS.Count;
  }
  if (!Root.empty())
    add("model_class", Root,
        fmt::format("outermost model-specific nn.Module (longest call, {:.3f} µs)",
                    RootTime),
        Confidence::Medium);
  if (!Families.empty())
    familyFact(Families);
  else if (!Root.empty())
    add("model_family", stripModelClassSuffix(Root),
        fmt::format("no known family prefix; named after the root module "
                    "class {}",
                    Root),
        Confidence::Low);
}

void FactBuilder::familyFact(const std::map<std::string, uint64_t> &Families) {
  auto [ModeFam, N] = modeOf(Families);
  Fam = ModeFam;
  // A pipeline (text encoders, a denoiser, a VAE) has the most frames
  // in a component; the root, which encloses the work, is the model.
  StringRef RootFam = familyOfModuleClass(Root);
  std::string Components;
  if (!RootFam.empty() && RootFam != Fam) {
    Fam = RootFam.str();
    N = Families.at(Fam);
    for (const auto &[F, Count] : Families)
      if (F != Fam)
        Components += fmt::format("{}{} x{}", Components.empty() ? "" : ", ",
                                  F, Count);
  }
  double Share = Specific ? double(N) / double(Specific) : 0;
  Confidence C = confFromShare(Share);
  bool RootAgrees = familyOfModuleClass(Root) == Fam;
  if (RootAgrees && C == Confidence::Low)
    C = Confidence::Medium;
  // Up to three example classes of the family, most frequent first.
  std::vector<std::pair<uint64_t, std::string>> Ex;
  for (const auto &[Cls, CS] : Classes)
    if (familyOfModuleClass(Cls) == Fam)
      Ex.push_back({CS.Count, Cls});
  std::stable_sort(Ex.begin(), Ex.end(),
                   [](auto &A, auto &B) { return A.first > B.first; });
  std::string Names;
  for (size_t I = 0; I < Ex.size() && I < 3; ++I)
    Names += fmt::format("{}{} x{}", I ? ", " : "", Ex[I].second,
                         Ex[I].first);
  add("model_family", Fam,
      fmt::format("{} of {} model-specific nn.Module frames ({:.0f}%): "
                  "{}{}{}",
                  N, Specific, Share * 100, Names,
                  RootAgrees ? "; root class " + Root : std::string(),
                  Components.empty()
                      ? std::string()
                      : " (the longest call); other families in the "
                        "trace (pipeline components): " +
                            Components),
      C);
}

void FactBuilder::layerCandidates() {
  for (const auto &[Cls, CS] : Classes) {
    if (isGenericModuleClass(Cls) || !isRepeatedLayerClass(Cls) ||
        CS.Instances < 2)
      continue;
    StringRef F = familyOfModuleClass(Cls);
    int Rank = !Fam.empty() && F == Fam ? 0 : F.empty() ? 1 : 2;
    LayerCands.push_back({Cls, CS.Instances, CS.Count, CS.Time, Rank});
  }
}

void FactBuilder::scopeToRoot() {
  // The architecture is read under the root's frames when the root holds
  // GEMMs, so a pipeline's text encoders or VAE do not set the hidden
  // size. An explicit stack: module nesting can be deep.
  if (Root.empty())
    return;
  std::vector<EventId> Stack;
  for (EventId F : T.eventsOfKind(EventKind::PythonFunction)) {
    if (!T.name(F).starts_with("nn.Module: ") ||
        splitModuleInstance(T.name(F)).first != Root)
      continue;
    Stack.push_back(F);
    while (!Stack.empty()) {
      EventId E = Stack.back();
      Stack.pop_back();
      if (!RootFrameOf.try_emplace(E, F).second)
        continue;
      if (T.kind(E) == EventKind::CpuOp && !Scoped)
        Scoped = isGemmOrConvOp(T.name(E));
      for (EventId C : T.children(E))
        if (!isGpuKind(T.kind(C)))
          Stack.push_back(C);
    }
  }
}

void FactBuilder::chooseLayerClasses() {
  // A block of no known family counts only when its frames lie under the
  // root (a VAE's UpDecoderBlock2D beside SD3's transformer does not).
  llvm::StringMap<bool> UnderRoot;
  for (const LayerCand &L : LayerCands)
    if (L.Rank == 1)
      UnderRoot[L.Cls] = RootFrameOf.empty();
  if (!UnderRoot.empty() && !RootFrameOf.empty())
    for (EventId F : T.eventsOfKind(EventKind::PythonFunction)) {
      if (!T.name(F).starts_with("nn.Module: "))
        continue;
      auto It = UnderRoot.find(splitModuleInstance(T.name(F)).first);
      if (It != UnderRoot.end() && RootFrameOf.count(F))
        It->second = true;
    }
  auto better = [](const LayerCand *A, const LayerCand &B) {
    return !A || B.Rank < A->Rank ||
           (B.Rank == A->Rank &&
            (B.Instances > A->Instances ||
             (B.Instances == A->Instances && B.Time > A->Time)));
  };
  for (LayerCand &L : LayerCands) {
    if (L.Rank == 1 && !UnderRoot.lookup(L.Cls))
      L.Rank = 2;
    if (L.Rank < 2 && better(PrimaryLayers, L))
      PrimaryLayers = &L;
    if (L.Rank == 2 && better(OtherLayers, L))
      OtherLayers = &L;
  }
}

void FactBuilder::scanShapes() {
  NamePredicate IsVarlenAttention(T, isVarlenAttentionOp);
  NamePredicate IsNorm(T, isNormOp);
  for (EventId E : CpuOps) {
    StringRef N = T.name(E);
    if (N == "aten::linear") {
      scanLinear(E);
    } else if (N == "aten::embedding") {
      const std::vector<int64_t> &W = Args.shapeAt(E, 0);
      if (W.size() == 2)
        ++S.Embeddings[{W[0], W[1]}];
    } else if (!inScope(E)) {
      continue;
    } else if (isSdpaOp(N)) {
      scanSdpa(E);
    } else if (IsVarlenAttention(E)) {
      // sglang_profiler:: wrappers hold the aiter op (python frames
      // between): count the outer one. Walks at most a few dozen frames.
      EventId P = T.parent(E);
      for (int Steps = 0; P != NoEvent && T.kind(P) != EventKind::CpuOp &&
                          Steps < 64;
           ++Steps)
        P = T.parent(P);
      if (P != NoEvent && T.kind(P) == EventKind::CpuOp && IsVarlenAttention(P))
        continue;
      scanVarlenAttention(E);
    } else if (IsNorm(E)) {
      const std::vector<int64_t> &X = Args.shapeAt(E, 0);
      if (X.size() >= 2)
        ++S.NormWidth[X.back()];
    } else if (N == "aten::matmul") {
      scanMatmul(E);
    }
  }
  if (!S.HaveLinear)
    scanUnfusedGemms();
}

void FactBuilder::scanLinear(EventId E) {
  const std::vector<int64_t> &X = Args.shapeAt(E, 0), &W = Args.shapeAt(E, 1);
  if (X.size() < 2 || W.size() != 2)
    return;
  // The LM head may sit outside the root frames (vLLM computes the
  // logits after the graph), so the vocabulary reads every linear.
  ++S.LinearW[{W[0], W[1]}];
  if (!inScope(E))
    return;
  S.HaveLinear = true;
  ++S.LinearK[X.back()];
  if (X.size() == 3)
    ++S.Linear3D[X];
}

void FactBuilder::scanSdpa(EventId E) {
  // Count each attention call once (the public op wraps a backend op).
  EventId P = T.parent(E);
  if (P != NoEvent && T.kind(P) == EventKind::CpuOp && isSdpaOp(T.name(P)))
    return;
  const std::vector<int64_t> &Q = Args.shapeAt(E, 0), &K = Args.shapeAt(E, 1);
  if (Q.size() != 4)
    return;
  ++S.SdpaQ[Q];
  if (K.size() == 4)
    ++S.SdpaKvHeads[{Q[1], K[1]}];
  auto It = RootFrameOf.find(E);
  if (It != RootFrameOf.end())
    ++S.AttentionPerRoot[It->second];
}

void FactBuilder::scanVarlenAttention(EventId E) {
  const std::vector<int64_t> &Q = Args.shapeAt(E, 0), &K = Args.shapeAt(E, 1);
  if (Q.size() != 3 || K.size() != 3 || Q[2] != K[2])
    return;
  ++S.VarlenQK[{Q[1], K[1], Q[2]}];
  auto It = RootFrameOf.find(E);
  if (It != RootFrameOf.end())
    ++S.AttentionPerRoot[It->second];
}

void FactBuilder::scanMatmul(EventId E) {
  // Attention scores q @ k^T: (B, H, S, D) x (B, H, D, S').
  const std::vector<int64_t> &A = Args.shapeAt(E, 0), &B = Args.shapeAt(E, 1);
  if (A.size() == 4 && B.size() == 4 && A[0] == B[0] && A[1] == B[1] &&
      A[3] == B[2] && A[2] == B[3])
    ++S.Matmul4D[A];
}

void FactBuilder::scanUnfusedGemms() {
  // Without aten::linear (compiled graphs call mm/addmm directly), read
  // the GEMMs: addmm(bias, x, w^T) and mm(x, w^T).
  for (EventId E : CpuOps) {
    StringRef N = T.name(E);
    if ((N != "aten::addmm" && N != "aten::mm") || !inScope(E))
      continue;
    size_t XI = N == "aten::addmm" ? 1 : 0;
    const std::vector<int64_t> &X = Args.shapeAt(E, XI),
                               &W = Args.shapeAt(E, XI + 1);
    if (X.size() == 2 && W.size() == 2 && X[1] == W[0]) {
      ++S.LinearK[X.back()];
      ++S.LinearW[{W[1], W[0]}];
    }
  }
}

/// Heads and head dim: SDPA q, else varlen attention q, else the
/// attention-score matmuls.
void FactBuilder::attentionHeads() {
  if (!S.SdpaQ.empty()) {
    auto [Q, N] = modeOf(S.SdpaQ);
    Heads = Q[1];
    HeadDim = Q[3];
    HeadSrc = fmt::format("SDPA q shape (B, H, S, D) = {} in {} calls",
                          shapeText(Q), N);
  } else if (!S.VarlenQK.empty()) {
    std::map<std::pair<int64_t, int64_t>, uint64_t> HD;
    for (const auto &[Q, N] : S.VarlenQK)
      HD[{std::get<0>(Q), std::get<2>(Q)}] += N;
    auto [P, N] = modeOf(HD);
    Heads = P.first;
    HeadDim = P.second;
    HeadSrc = fmt::format("varlen/paged attention op q (tokens, H, D): H = "
                          "{}, D = {} in {} calls",
                          P.first, P.second, N);
  } else if (!S.Matmul4D.empty()) {
    std::map<std::pair<int64_t, int64_t>, uint64_t> HD;
    for (const auto &[A, N] : S.Matmul4D)
      HD[{A[1], A[3]}] += N;
    auto [P, N] = modeOf(HD);
    Heads = P.first;
    HeadDim = P.second;
    HeadSrc = fmt::format("attention-score matmuls (B, H, S, D) x (B, H, D, S): "
                          "H = {}, D = {} in {} calls",
                          P.first, P.second, N);
  }
}

/// The most common GEMM input width, when attention or a norm backs it.
void FactBuilder::hiddenSize() {
  bool Attention = Heads.has_value();
  if (S.LinearK.empty() || (!Attention && S.NormWidth.empty()))
    return;
  auto [K, N] = modeOf(S.LinearK);
  uint64_t Total = 0;
  for (auto &[_, C] : S.LinearK)
    Total += C;
  bool Consistent = Attention && *Heads * *HeadDim == K;
  // Models whose attention width is not the hidden size (GPT-OSS: 64
  // heads x 64 = 4096, hidden 2880) still normalise the hidden size.
  auto NormIt = S.NormWidth.find(K);
  uint64_t NormCalls = NormIt == S.NormWidth.end() ? 0 : NormIt->second;
  uint64_t NormTotal = 0;
  for (auto &[_, C] : S.NormWidth)
    NormTotal += C;
  if (!Attention && !NormCalls)
    return;
  Hidden = K;
  std::string Why;
  if (Consistent)
    Why = fmt::format("; = heads {} x head dim {}", *Heads, *HeadDim);
  if (NormCalls)
    Why += fmt::format("; = the normalised width of {} of {} "
                       "RMSNorm/LayerNorm ops",
                       NormCalls, NormTotal);
  add("hidden_size", std::to_string(K),
      fmt::format("most common GEMM input width (K) in {} of {} {} ops{}{}", N,
                  Total, S.HaveLinear ? "linear" : "mm/addmm", Why,
                  Scoped ? " under the root module " + Root : std::string()),
      Consistent || NormCalls ? Confidence::High : Confidence::Medium, K);
}

void FactBuilder::headFacts() {
  if (!Heads)
    return;
  Confidence C = S.SdpaQ.empty() ? Confidence::Medium : Confidence::High;
  add("num_heads", std::to_string(*Heads), HeadSrc, C, *Heads);
  if (!S.SdpaKvHeads.empty()) {
    auto [P, N] = modeOf(S.SdpaKvHeads);
    if (P.second != P.first)
      add("num_kv_heads", std::to_string(P.second),
          fmt::format("SDPA k has {} heads vs q {} ({} calls): grouped-query "
                      "attention",
                      P.second, P.first, N),
          Confidence::High, P.second);
  } else if (S.SdpaQ.empty() && !S.VarlenQK.empty()) {
    auto [Q, N] = modeOf(S.VarlenQK);
    auto [H, Hkv, D] = Q;
    if (Hkv != H)
      add("num_kv_heads", std::to_string(Hkv),
          fmt::format("attention op k has {} heads vs q {} ({} calls): "
                      "grouped-query attention",
                      Hkv, H, N),
          Confidence::High, Hkv);
  }
  add("head_dim", std::to_string(*HeadDim), HeadSrc, C, *HeadDim);
}

void FactBuilder::addClassLayers(const LayerCand &L) {
  add("num_layers", std::to_string(L.Instances),
      fmt::format("{} distinct {} instances ({} calls)", L.Instances, L.Cls,
                  L.Count),
      Confidence::High, int64_t(L.Instances));
}

/// A repeated block of the model's family (or of none, under the root);
/// else attention calls per call of the root model (compiled and
/// graph-captured models keep no layer frames: SD3's 38 joint blocks,
/// vLLM's decoder layers); else a block of another family.
void FactBuilder::layers() {
  std::map<uint64_t, uint64_t> PerCall; // attention calls -> root calls
  for (const auto &[F, N] : S.AttentionPerRoot)
    ++PerCall[N];
  if (PrimaryLayers) {
    addClassLayers(*PrimaryLayers);
  } else if (!PerCall.empty() && modeOf(PerCall).first > 1) {
    auto [Calls, Frames] = modeOf(PerCall);
    add("num_layers", std::to_string(Calls),
        fmt::format("{} attention calls in each of {} of {} {} calls (one "
                    "per layer; no layer module frames of the model)",
                    Calls, Frames, S.AttentionPerRoot.size(), Root),
        Frames == S.AttentionPerRoot.size() ? Confidence::Medium
                                            : Confidence::Low,
        int64_t(Calls));
  } else if (OtherLayers) {
    addClassLayers(*OtherLayers);
  }
}

/// The largest embedding table, confirmed by an LM-head GEMM with the same
/// N; else the largest linear N well above the hidden size.
void FactBuilder::vocabulary() {
  std::optional<std::pair<int64_t, int64_t>> Emb;
  for (const auto &[P, N] : S.Embeddings)
    if ((!Hidden || P.second == *Hidden) && (!Emb || P.first > Emb->first))
      Emb = P;
  int64_t MaxN = 0, MaxK = 0;
  for (const auto &[W, N] : S.LinearW)
    if (W.first > MaxN) {
      MaxN = W.first;
      MaxK = W.second;
    }
  if (Emb && Emb->first > 1000) {
    bool Head = S.LinearW.count({Emb->first, Emb->second}) > 0;
    add("vocab_size", std::to_string(Emb->first),
        fmt::format("largest embedding table [{}, {}]{}", Emb->first,
                    Emb->second,
                    Head ? fmt::format("; LM-head GEMM [{}, {}] matches",
                                       Emb->first, Emb->second)
                         : std::string()),
        Head ? Confidence::High : Confidence::Medium, Emb->first);
  } else if (Hidden && MaxN >= 8 * *Hidden && MaxK == *Hidden) {
    add("vocab_size", std::to_string(MaxN),
        fmt::format("largest GEMM output width N = {} (weight [{}, {}]), "
                    "assumed to be the LM head",
                    MaxN, MaxN, MaxK),
        Confidence::Low, MaxN);
  }
}

/// Nearest GEMM/conv cpu_op at or above a host event. Walks longer than a
/// few steps leave their answer on every event passed, so a chain of ops
/// nested 10 000 deep is walked once, not once per kernel; normal traces
/// (a handful of ancestors) keep no memo at all.
class GemmAbove {
public:
  explicit GemmAbove(const Trace &T) : T(T), IsGemmOp(T, isGemmOrConvOp) {}

  EventId operator()(EventId From) {
    Path.clear();
    EventId Found = NoEvent;
    for (EventId P = From; P != NoEvent; P = T.parent(P)) {
      if (!Memo.empty()) {
        auto It = Memo.find(P);
        if (It != Memo.end()) {
          Found = It->second;
          break;
        }
      }
      if (T.kind(P) == EventKind::CpuOp && IsGemmOp(P)) {
        Found = P;
        break;
      }
      Path.push_back(P);
    }
    if (Path.size() > MemoAfter)
      for (EventId P : Path)
        Memo[P] = Found;
    return Found;
  }

private:
  static constexpr size_t MemoAfter = 8;
  const Trace &T;
  NamePredicate IsGemmOp;
  llvm::DenseMap<EventId, EventId> Memo;
  std::vector<EventId> Path;
};

void FactBuilder::precision() {
  if (!precisionFromOps())
    precisionFromKernelNames();
}

/// The input dtype of the GEMM/conv op above each kernel, weighted by
/// kernel time. False when no kernel has such an op with a dtype.
bool FactBuilder::precisionFromOps() {
  std::map<std::string, double> ByType;
  double Total = 0;
  GemmAbove NearestGemm(T);
  // The dtype slot of each GEMM/conv op (null: no dtype), read once per
  // op rather than once per kernel.
  llvm::DenseMap<EventId, double *> SlotOf;
  for (EventId G : T.eventsOfKind(EventKind::Kernel)) {
    EventId P = NearestGemm(T.parent(G));
    if (P == NoEvent)
      continue;
    auto [It, New] = SlotOf.try_emplace(P, nullptr);
    if (New) {
      StringRef Ty = Args.typeAt(P, 0);
      if (!Ty.empty())
        It->second = &ByType[shortDtype(Ty)];
    }
    if (It->second) {
      *It->second += T.dur(G);
      Total += T.dur(G);
    }
  }
  if (!(Total > 0))
    return false;
  auto Best = ByType.begin();
  for (auto It = ByType.begin(); It != ByType.end(); ++It)
    if (It->second > Best->second)
      Best = It;
  double Share = Best->second / Total;
  std::string Parts;
  for (const auto &[Ty, Us] : ByType)
    Parts += fmt::format("{}{} {:.1f}%", Parts.empty() ? "" : ", ", Ty,
                         Us / Total * 100);
  add("precision", Best->first,
      fmt::format("GEMM/conv kernel time by input dtype: {} ({:.3f} µs)",
                  Parts, Total),
      Share >= 0.8 ? Confidence::High : Confidence::Medium);
  return true;
}

/// GPU-only traces: dtype hints in GEMM kernel names.
void FactBuilder::precisionFromKernelNames() {
  std::map<std::string, uint64_t> Hints;
  for (EventId G : T.eventsOfKind(EventKind::Kernel)) {
    StringRef N = T.name(G);
    bool Gemm = N.starts_with("Cijk_") || N.contains("gemm") ||
                N.starts_with("nvjet") || N.contains("cutlass");
    if (!Gemm)
      continue;
    if (N.contains("_BBS_") || N.contains_insensitive("bf16"))
      ++Hints["bf16"];
    else if (N.contains("_HHS_") || N.contains("_HH_") ||
             N.contains_insensitive("fp16") || N.contains("f16"))
      ++Hints["fp16"];
    else if (N.contains("_SS_") || N.contains("sgemm") ||
             N.contains_insensitive("fp32"))
      ++Hints["fp32"];
    else if (N.contains_insensitive("e4m3") || N.contains_insensitive("fp8"))
      ++Hints["fp8"];
  }
  if (Hints.empty())
    return;
  auto [Ty, N] = modeOf(Hints);
  add("precision", Ty,
      fmt::format("{} GEMM kernel names carry a {} marker (no CPU ops "
                  "to read dtypes from)",
                  N, Ty),
      Confidence::Low);
}

/// SDPA q (B, H, S, D), else 3-D linear inputs.
void FactBuilder::batchAndSequence() {
  if (!S.SdpaQ.empty()) {
    auto [Q, N] = modeOf(S.SdpaQ);
    add("batch_size", std::to_string(Q[0]),
        fmt::format("SDPA q shape {} (B, H, S, D), {} calls", shapeText(Q), N),
        Confidence::Medium, Q[0]);
    add("seq_len", std::to_string(Q[2]),
        fmt::format("SDPA q shape {} (B, H, S, D), {} calls", shapeText(Q), N),
        Confidence::Medium, Q[2]);
    return;
  }
  if (!Hidden || S.Linear3D.empty())
    return;
  std::map<std::vector<int64_t>, uint64_t> M;
  uint64_t Total = 0;
  for (const auto &[X, N] : S.Linear3D)
    if (X[2] == *Hidden) {
      M[X] += N;
      Total += N;
    }
  // Only when one (B, S) dominates: models that reshape tokens (e.g.
  // divided space/time attention) have no single batch/sequence.
  if (M.empty() || modeOf(M).second * 5 < Total * 4)
    return;
  auto [X, N] = modeOf(M);
  std::string Ev = fmt::format("linear input {} (B, S, hidden), {} calls",
                               shapeText(X), N);
  add("batch_size", std::to_string(X[0]), Ev, Confidence::Low, X[0]);
  add("seq_len", std::to_string(X[1]), Ev, Confidence::Low, X[1]);
}

/// distributedInfo's rank, world size, backend and groups; collective
/// kernels.
void FactBuilder::distributed() {
  ArgValue D = Top.get("distributedInfo");
  uint64_t Coll = 0;
  double CollTime = 0;
  for (EventId G : T.eventsOfKind(EventKind::Kernel))
    if (KernelFacts(G).Collective) {
      ++Coll;
      CollTime += T.dur(G);
    }
  if (D.isObject()) {
    auto Rank = D.get("rank").asInt();
    auto World = D.get("world_size").asInt();
    StringRef Backend = D.get("backend").getString();
    ArgValue Pgs = D.get("pg_config");
    std::string Ev = fmt::format("distributedInfo: backend={}, rank={}, world_size={}",
                     Backend.str(), Rank ? std::to_string(*Rank) : "?",
                     World ? std::to_string(*World) : "?");
    add("distributed",
        fmt::format("rank {} of {} ({})", Rank ? std::to_string(*Rank) : "?",
                    World ? std::to_string(*World) : "?", Backend.str()),
        Ev, Confidence::High);
    if (Rank)
      add("rank", std::to_string(*Rank), "distributedInfo.rank",
          Confidence::High, *Rank);
    if (World)
      add("world_size", std::to_string(*World), "distributedInfo.world_size",
          Confidence::High, *World);
    if (!Backend.empty())
      add("backend", Backend.str(), "distributedInfo.backend",
          Confidence::High);
    if (Pgs.isArray())
      processGroups(D, Pgs);
  }
  if (Coll > 0)
    add("collectives", std::to_string(Coll),
        fmt::format("{} collective kernels (nccl/rccl/all_reduce/all_gather/"
                    "reduce_scatter/all_to_all names), {:.3f} µs",
                    Coll, CollTime),
        Confidence::High, int64_t(Coll));
}

/// Process groups by size: "71 (size 8: 5, size 1: 66)".
void FactBuilder::processGroups(ArgValue D, ArgValue Pgs) {
  std::map<int64_t, uint64_t> BySize;
  std::string Names;
  for (size_t I = 0, N = Pgs.size(); I < N; ++I) {
    ArgValue P = Pgs[I];
    ++BySize[P.get("pg_size").asInt().value_or(-1)];
    if (I < 4)
      Names += fmt::format("{}{}:{}", I ? ", " : "",
                           P.get("pg_name").getString().str(),
                           P.get("pg_desc").getString().str());
  }
  std::string Sizes;
  for (auto It = BySize.rbegin(); It != BySize.rend(); ++It)
    Sizes += fmt::format("{}size {}: {}", Sizes.empty() ? "" : ", ",
                         It->first, It->second);
  // pg_count counts every group created; pg_config may list fewer.
  int64_t Count = D.get("pg_count").asInt().value_or(int64_t(Pgs.size()));
  add("process_groups", std::to_string(Count),
      fmt::format("distributedInfo.pg_count = {}; pg_config lists {} "
                  "({}); first: {}{}",
                  Count, Pgs.size(), Sizes, Names,
                  Pgs.size() > 4 ? ", ..." : ""),
      Confidence::High, Count);
}

} // namespace

WorkloadInfo::WorkloadInfo(const Trace &T) {
  FactBuilder(T, Facts).run();
  // Keep the documented key order whatever order the steps ran in.
  static constexpr llvm::StringLiteral Order[] = {
      "framework", "device", "mode", "optimizer", "execution",
      "model_family", "model_class", "hidden_size", "num_heads",
      "num_kv_heads", "head_dim", "num_layers", "vocab_size", "precision",
      "batch_size", "seq_len", "distributed", "rank", "world_size", "backend",
      "process_groups", "collectives"};
  auto Rank = [](StringRef K) {
    return size_t(llvm::find(Order, K) - std::begin(Order));
  };
  std::stable_sort(Facts.begin(), Facts.end(),
                   [&](const WorkloadFact &A, const WorkloadFact &B) {
                     return Rank(A.Key) < Rank(B.Key);
                   });
}
