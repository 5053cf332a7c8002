//===- PerfSheets.cpp - Per-category perf-metric sheets (spec §6.6) -------===//
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/AnalysisManager.h"
#include "tl/Analysis/KernelDetails.h"
#include "tl/Analysis/NameMemo.h"
#include "tl/Analysis/OpCategory.h"
#include "tl/Analysis/OpTable.h"
#include "tl/Analysis/PerfMetrics.h"
#include "tl/Analysis/Recompute.h"

#include "PerfSheetsUtil.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/bit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>

using namespace tl;
using namespace tl::detail;

int TextTable::column(llvm::StringRef N) const {
  for (size_t I = 0; I < Columns.size(); ++I)
    if (Columns[I] == N)
      return static_cast<int>(I);
  return -1;
}

namespace {

/// Strict structural equality and hash of Python values (floats by bit
/// pattern, so 0.0 and -0.0 stay apart); explicit stacks, no recursion.
bool sameValue(const PyValue &A, const PyValue &B) {
  std::vector<std::pair<const PyValue *, const PyValue *>> S{{&A, &B}};
  while (!S.empty()) {
    auto [X, Y] = S.back();
    S.pop_back();
    if (X->kind() != Y->kind() || X->getInt() != Y->getInt() ||
        llvm::bit_cast<uint64_t>(X->getFloat()) !=
            llvm::bit_cast<uint64_t>(Y->getFloat()) ||
        X->getStr() != Y->getStr() ||
        X->elems().size() != Y->elems().size() ||
        X->items().size() != Y->items().size())
      return false;
    for (size_t I = 0; I < X->elems().size(); ++I)
      S.push_back({&X->elems()[I], &Y->elems()[I]});
    for (size_t I = 0; I < X->items().size(); ++I) {
      if (X->items()[I].first != Y->items()[I].first)
        return false;
      S.push_back({&X->items()[I].second, &Y->items()[I].second});
    }
  }
  return true;
}

llvm::hash_code hashParams(const ParamList &P) {
  llvm::hash_code H = llvm::hash_value(P.size());
  std::vector<const PyValue *> S;
  for (const auto &KV : P) {
    H = llvm::hash_combine(H, llvm::hash_value(KV.first));
    S.push_back(&KV.second);
    while (!S.empty()) {
      const PyValue *V = S.back();
      S.pop_back();
      H = llvm::hash_combine(H, static_cast<int>(V->kind()), V->getInt(),
                             llvm::bit_cast<uint64_t>(V->getFloat()),
                             llvm::hash_value(V->getStr()),
                             V->elems().size(), V->items().size());
      for (const PyValue &C : V->elems())
        S.push_back(&C);
      for (const auto &IV : V->items()) {
        H = llvm::hash_combine(H, llvm::hash_value(IV.first));
        S.push_back(&IV.second);
      }
    }
  }
  return H;
}

/// Unique param lists: millions of events share a few thousand shapes, so
/// rows point into this pool instead of each holding a copy.
class ParamPool {
public:
  /// The params of a model shared by many events, interned once.
  const ParamList *intern(const PerfModelResult &M) {
    auto [It, New] = ByModel.try_emplace(&M, nullptr);
    if (New)
      It->second = intern(M.Params);
    return It->second;
  }

  const ParamList *intern(const ParamList &P) {
    std::vector<const ParamList *> &Bucket = ByHash[hashParams(P)];
    for (const ParamList *Q : Bucket)
      if (Q->size() == P.size() &&
          std::equal(P.begin(), P.end(), Q->begin(),
                     [](const auto &A, const auto &B) {
                       return A.first == B.first &&
                              sameValue(A.second, B.second);
                     }))
        return Q;
    Lists.push_back(P);
    Bucket.push_back(&Lists.back());
    return &Lists.back();
  }

  /// A stable copy of a short text (compute specs, roofline bounds).
  llvm::StringRef text(llvm::StringRef S) {
    // Rows in a row mostly repeat the last two texts.
    for (llvm::StringRef L : Last)
      if (L.data() && L == S)
        return L;
    llvm::StringRef R = Texts.insert(S).first->getKey();
    Last[NextLast] = R;
    NextLast ^= 1;
    return R;
  }

private:
  llvm::StringSet<> Texts;
  llvm::StringRef Last[2];
  unsigned NextLast = 0;
  std::deque<ParamList> Lists;
  std::unordered_map<size_t, std::vector<const ParamList *>> ByHash;
  llvm::DenseMap<const PerfModelResult *, const ParamList *> ByModel;
};

/// One evaluated event (a raw row of §6.6).
struct RawRow {
  EventId E = NoEvent;
  const ParamList *Params = nullptr; // in the sheet's ParamPool
  double Gflops = NaN, DataMB = NaN, FpB = NaN, TBs = NaN, TFs = NaN;
  llvm::StringRef Spec; // texts in the ParamPool
  bool HasRoof = false;
  double RoofT = NaN, PctRoof = NaN;
  llvm::StringRef RoofB;
  double KernelTime = 0;
  /// Size of the kernel set; the set itself (E's subtree kernels, or the
  /// backward set kept here) is listed per group, for the rows it needs.
  size_t NumKernels = 0;
  bool Bwd = false;
  std::vector<EventId> BwdKernels;
};

/// §6.6 raw rows of one sheet evaluated forward and, WithBwd, backward.
/// Both modes of an event are asked in a row (the cache reads its args
/// once); the warnings keep the order of evaluating all forward rows,
/// then all backward rows.
void evaluate(const Trace &T, llvm::ArrayRef<EventId> Events, bool WithBwd,
              const ArchSpec *Arch, OpPerfCache &Perf, ParamPool &Pool,
              std::vector<std::string> &Warnings, std::vector<RawRow> &FwdRows,
              std::vector<RawRow> &BwdRows) {
  std::vector<std::string> BwdWarnings;
  for (EventId E : Events) {
    for (bool Bwd : {false, true}) {
      if (Bwd && !WithBwd)
        break;
      if (Bwd && T.name(E) == "vllm::unified_attention_with_output")
        continue;
      auto P = Perf.get(E, Bwd, Arch);
      if (!P) {
        llvm::handleAllErrors(
            P.takeError(), [](const NotImplementedError &) {},
            [&](const llvm::ErrorInfoBase &EI) {
              (Bwd ? BwdWarnings : Warnings)
                  .push_back("UID " + std::to_string(T.uid(E)) + " " +
                             T.name(E).str() + ": " + EI.message());
            });
        continue;
      }
      if (Bwd && T.bwdEvents(E).empty())
        continue;
      RawRow R;
      R.E = E;
      R.Params = Pool.intern(*P->Model);
      copyPerfColumns(R, *P);
      // Spec/RoofB point into *P until they are interned here.
      R.Spec = Pool.text(R.Spec);
      R.RoofB = Pool.text(R.RoofB);
      R.HasRoof = P->Metrics.HasRoofline;
      R.NumKernels = P->NumKernels;
      R.Bwd = Bwd;
      R.BwdKernels = std::move(P->Kernels);
      (Bwd ? BwdRows : FwdRows).push_back(std::move(R));
    }
  }
  for (std::string &W : BwdWarnings)
    Warnings.push_back(std::move(W));
}

/// Text of a param cell; pandas turns an int column with a missing value or
/// a float into float64 (16 -> 16.0).
/// A column holding tuples is turned into text with str() before grouping,
/// so its missing cells print "nan" and its None cells "None"; other columns
/// keep NaN/None, printed empty. (Lists in our params stand for values the
/// reference keeps as strings, e.g. output_mask; they do not trigger it.)
/// With group_by_num_kernels every param column is stringified.
/// EmptyMissing: the inference references were written by a pandas that
/// prints a missing cell of a stringified column empty (spec
/// tracelens-inference.md §A.8); the grouping still tells them apart.
struct ParamColumn {
  std::string Key;
  bool AsFloat = false;
  bool Stringified = false;
  bool EmptyMissing = false;
};

std::string paramText(const PyValue *V, const ParamColumn &C) {
  bool AsFloat = C.AsFloat;
  if (C.Stringified && !C.EmptyMissing) {
    if (!V)
      return "nan";
    if (V->isNone())
      return "None";
  }
  if (!V || V->isNone())
    return "";
  if (AsFloat && (V->kind() == PyValue::Kind::Int ||
                  V->kind() == PyValue::Kind::Float))
    return pyRepr(V->asDouble());
  return pyStr(*V);
}

const PyValue *findParam(const ParamList &P, llvm::StringRef Key) {
  for (const auto &KV : P)
    if (KV.first == Key)
      return &KV.second;
  return nullptr;
}

std::string jsonArgText(const Trace &T, EventId E, llvm::StringRef Key) {
  ArgValue A = T.args(E);
  if (!A || !A.isObject() || !A.hasKey(Key))
    return "";
  ArgValue V = A.get(Key);
  if (V.isNull())
    return "";
  return pyStr(argToPy(V));
}

TextTable summarize(const Trace &T, const SubtreeKernelIndex &KIdx,
                    std::string SheetName, std::vector<RawRow> Raw,
                    bool NumKernelsKey, bool Roofline,
                    const RecomputeMarks *RM, bool EmptyMissing) {
  TextTable Tab;
  Tab.Name = std::move(SheetName);
  // The arch (agent) flavour's references come from numpy 1.24: plain
  // floats in the kernel-details texts.
  const bool NumpyRepr = !Roofline;
  // Roofline columns exist only when some row got a roofline (the arch has a
  // peak for its compute spec and its bytes are known).
  if (Roofline)
    Roofline = std::any_of(Raw.begin(), Raw.end(),
                           [](const RawRow &R) { return R.HasRoof; });
  // Param columns in first-appearance order; float rule per column.
  // Rows share a few pooled param lists: read each distinct one once, in
  // first-appearance order.
  std::vector<const ParamList *> Distinct;
  {
    llvm::DenseSet<const ParamList *> Seen;
    for (const RawRow &R : Raw)
      if (Seen.insert(R.Params).second)
        Distinct.push_back(R.Params);
  }
  std::vector<ParamColumn> Cols;
  llvm::StringMap<size_t> ColIdx;
  for (const ParamList *P : Distinct)
    for (const auto &KV : *P)
      if (ColIdx.try_emplace(KV.first, Cols.size()).second)
        Cols.push_back({KV.first, false, false, EmptyMissing});
  for (ParamColumn &C : Cols) {
    bool AllNum = true, AnyMissing = false, AnyFloat = false;
    for (const ParamList *P : Distinct) {
      const PyValue *V = findParam(*P, C.Key);
      if (!V || V->isNone()) {
        AnyMissing = true;
        continue;
      }
      if (V->kind() == PyValue::Kind::Tuple)
        C.Stringified = true;
      if (V->kind() == PyValue::Kind::Float)
        AnyFloat = true;
      else if (V->kind() != PyValue::Kind::Int)
        AllNum = false;
    }
    C.AsFloat = AllNum && (AnyMissing || AnyFloat);
    // With num_kernels as a key the reference turns every param column
    // into text (agent-reference CSVs print "nan" / "None" there too).
    if (NumKernelsKey)
      C.Stringified = true;
  }

  // Group by (name, param texts [, num_kernels]) in first-appearance order;
  // the final sort is by a unique UID_first, so key order does not matter.
  std::map<std::vector<std::string>, size_t> GroupOf;
  std::vector<std::vector<size_t>> Groups;
  // Rows with the same name and pooled params have the same key texts:
  // build each distinct key once.
  std::map<std::tuple<StrId, const ParamList *, size_t, int>, size_t> Memo;
  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawRow &R = Raw[I];
    auto [MI, MNew] = Memo.try_emplace(
        {T.nameId(R.E), R.Params, NumKernelsKey ? R.NumKernels : 0,
         RM ? int(RM->isRecompute(R.E)) : -1},
        0);
    if (!MNew) {
      Groups[MI->second].push_back(I);
      continue;
    }
    std::vector<std::string> K{T.name(R.E).str()};
    for (const ParamColumn &C : Cols) {
      const PyValue *V = findParam(*R.Params, C.Key);
      // Missing values form their own group, apart from any text.
      // Keyed by the stringified text ("nan" / "None"), however printed.
      ParamColumn KC = C;
      KC.EmptyMissing = false;
      K.push_back(C.Stringified || (V && !V->isNone())
                      ? "v" + paramText(V, KC)
                      : "-");
    }
    if (NumKernelsKey)
      K.push_back(std::to_string(R.NumKernels));
    if (RM)
      K.push_back(RM->isRecompute(R.E) ? "True" : "False");
    auto [It, New] = GroupOf.try_emplace(std::move(K), Groups.size());
    if (New)
      Groups.emplace_back();
    MI->second = It->second;
    Groups[It->second].push_back(I);
  }

  Tab.Columns.push_back("name");
  for (const ParamColumn &C : Cols)
    Tab.Columns.push_back("param: " + C.Key);
  if (NumKernelsKey)
    Tab.Columns.push_back("num_kernels");
  if (RM)
    Tab.Columns.push_back("is_recompute");
  auto AddAgg = [&](const std::string &C) {
    for (const char *S : {"_mean", "_median", "_std", "_min", "_max"})
      Tab.Columns.push_back(C + S);
  };
  for (const char *C : {"GFLOPS_first", "Data Moved (MB)_first",
                        "FLOPS/Byte_first"})
    Tab.Columns.push_back(C);
  AddAgg("TB/s");
  AddAgg("TFLOPS/s");
  for (const char *C : {"process_name_first", "process_label_first",
                        "thread_name_first", "Compute Spec"})
    Tab.Columns.push_back(C);
  if (Roofline) {
    Tab.Columns.push_back("Roofline Time (µs)_first");
    Tab.Columns.push_back("Roofline Bound_first");
    AddAgg("Pct Roofline");
  }
  for (const char *C :
       {"kernel_details__summarize_kernel_stats", "trunc_kernel_details",
        "Input Dims_first", "Input type_first", "Input Strides_first",
        "Concrete Inputs_first"})
    Tab.Columns.push_back(C);
  AddAgg("Kernel Time (µs)");
  for (const char *C : {"Kernel Time (µs)_sum", "name_count", "UID_first"})
    Tab.Columns.push_back(C);

  struct Out {
    double Sum;
    uint64_t Uid;
    std::vector<std::string> Cells;
  };
  std::vector<Out> Rows;
  for (size_t G = 0; G < Groups.size(); ++G) {
    const std::vector<size_t> &Idx = Groups[G];
    const RawRow &F = Raw[Idx.front()];
    std::vector<std::string> C{T.name(F.E).str()};
    for (const ParamColumn &PC : Cols) {
      // First non-missing value of the group (all equal as text).
      std::string V = paramText(findParam(*F.Params, PC.Key), PC);
      if (!PC.Stringified)
        for (size_t I : Idx)
          if (const PyValue *P = findParam(*Raw[I].Params, PC.Key);
              P && !P->isNone()) {
            V = paramText(P, PC);
            break;
          }
      C.push_back(V);
    }
    if (NumKernelsKey)
      C.push_back(std::to_string(F.NumKernels));
    if (RM)
      C.push_back(RM->isRecompute(F.E) ? "True" : "False");
    auto Col = [&](double RawRow::*M) {
      std::vector<double> V;
      for (size_t I : Idx)
        V.push_back(Raw[I].*M);
      return V;
    };
    auto PushAgg = [&](const ColumnStats &S) {
      C.push_back(cell(S.Mean));
      C.push_back(cell(S.Median));
      C.push_back(cell(S.Std));
      C.push_back(cell(S.Min));
      C.push_back(cell(S.Max));
    };
    C.push_back(cell(firstOf(Col(&RawRow::Gflops))));
    C.push_back(cell(firstOf(Col(&RawRow::DataMB))));
    C.push_back(cell(firstOf(Col(&RawRow::FpB))));
    PushAgg(aggregate(Col(&RawRow::TBs)));
    PushAgg(aggregate(Col(&RawRow::TFs)));
    C.push_back(processNameOf(T, F.E));
    C.push_back(processLabelOf(T, F.E));
    C.push_back(threadNameOf(T, F.E));
    C.push_back(F.Spec.str());
    if (Roofline) {
      C.push_back(cell(firstOf(Col(&RawRow::RoofT))));
      std::string B;
      for (size_t I : Idx)
        if (!Raw[I].RoofB.empty()) {
          B = Raw[I].RoofB.str();
          break;
        }
      C.push_back(B);
      PushAgg(aggregate(Col(&RawRow::PctRoof)));
    }
    // §6.5 reads only the lists as long as the template (the first
    // non-empty one): list just those, once per distinct kernel set
    // (nested ops with as many kernels have the same subtree kernels).
    size_t TmplN = 0;
    for (size_t I : Idx)
      if (Raw[I].NumKernels) {
        TmplN = Raw[I].NumKernels;
        break;
      }
    // Only the template (the first list) needs names and streams; the
    // others give their durations.
    std::vector<KernelDetail> Tmpl;
    std::vector<double> Durs;
    llvm::DenseMap<const EventId *, size_t> Seen; // kernel set -> in Durs
    for (size_t I : Idx) {
      const RawRow &R = Raw[I];
      if (!TmplN || R.NumKernels != TmplN)
        continue;
      if (R.Bwd) {
        if (Tmpl.empty())
          Tmpl = kernelDetailsOf(T, R.BwdKernels);
        for (EventId K : R.BwdKernels)
          Durs.push_back(T.dur(K));
        continue;
      }
      llvm::ArrayRef<EventId> G = T.subtreeGpuEvents(R.E);
      auto [It, New] = Seen.try_emplace(G.data(), Durs.size());
      if (!New) {
        for (size_t J = 0, Off = It->second; J < TmplN; ++J) {
          double D = Durs[Off + J];
          Durs.push_back(D);
        }
        continue;
      }
      if (G.size() == 1) {
        if (Tmpl.empty())
          Tmpl = kernelDetailsOf(T, G);
        Durs.push_back(T.dur(G[0]));
        continue;
      }
      std::vector<EventId> Sorted = KIdx.sortedByTs(R.E);
      if (Tmpl.empty())
        Tmpl = kernelDetailsOf(T, Sorted);
      for (EventId K : Sorted)
        Durs.push_back(T.dur(K));
    }
    std::vector<KernelStat> KS;
    if (!Tmpl.empty())
      KS = summarizeKernelDurations(Tmpl, Durs);
    C.push_back(formatKernelDetailsSummary(KS, NumpyRepr));
    C.push_back(formatTruncKernelDetails(KS, NumpyRepr));
    for (const char *K :
         {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"})
      C.push_back(jsonArgText(T, F.E, K));
    std::vector<double> KT = Col(&RawRow::KernelTime);
    ColumnStats KTS = aggregate(KT);
    PushAgg(KTS);
    C.push_back(cell(KTS.Sum));
    C.push_back(std::to_string(Idx.size()));
    C.push_back(std::to_string(T.uid(F.E)));
    Rows.push_back({*KTS.Sum, T.uid(F.E), std::move(C)});
  }
  std::stable_sort(Rows.begin(), Rows.end(), [](const Out &A, const Out &B) {
    if (A.Sum != B.Sum)
      return A.Sum > B.Sum;
    return A.Uid < B.Uid;
  });
  for (Out &O : Rows)
    Tab.Rows.push_back(std::move(O.Cells));
  return Tab;
}

bool isNonSplit(llvm::StringRef Sheet) {
  return Sheet == "GEMM" || Sheet == "UnaryElementwise" ||
         Sheet == "BinaryElementwise" || Sheet == "Normalization";
}

/// The inference generator's single sheets (§A.7); Normalization is split
/// there (Normalization_fwd).
bool isInferenceSingle(llvm::StringRef Sheet) {
  return Sheet == "GEMM" || Sheet == "UnaryElementwise" ||
         Sheet == "BinaryElementwise";
}

/// Ops that would move to a _bwd sheet; inference mode has none, so they
/// go (ConvBias_Backward / ConvBiasReLU_Backward stay in CONV_fwd).
bool droppedInInference(llvm::StringRef N) {
  return N == "flash_attn::_flash_attn_varlen_backward" ||
         N == "aten::convolution_backward";
}

bool movesToBwd(llvm::StringRef N) {
  return N == "flash_attn::_flash_attn_varlen_backward" ||
         N == "aten::convolution_backward" || N == "ConvBias_Backward" ||
         N == "ConvBiasReLU_Backward";
}

bool droppedFromBwd(llvm::StringRef N) {
  return N == "aten::convolution" || N == "aten::miopen_convolution" ||
         N == "aten::cudnn_convolution" || N == "ConvBias_" ||
         N == "ConvBiasReLU_";
}

} // namespace

PerfSheets::PerfSheets(const Trace &T, AnalysisManager &AM) {
  const AnalysisOptions &O = AM.options();
  const ArchSpec *Arch = O.Arch ? &*O.Arch : nullptr;
  const CategoryRegistry &Reg = CategoryRegistry::builtin();
  const RecomputeMarks *RM =
      O.DetectRecompute ? &AM.get<RecomputeMarks>() : nullptr;
  // Events per sheet, in file order (EventIds follow the file).
  llvm::StringMap<std::string> SheetOfOp;
  std::vector<std::string> Order = Reg.sheetOrder();
  for (const std::string &S : Order)
    for (const std::string &Op : Reg.opsOfSheet(S))
      if (hasPerfModel(Op))
        SheetOfOp[Op] = S;
  llvm::StringMap<size_t> SheetIdx;
  for (size_t I = 0; I < Order.size(); ++I)
    SheetIdx.try_emplace(Order[I], I);
  std::vector<std::vector<EventId>> EventsOf(Order.size());
  ParamPool Pool;
  const SubtreeKernelIndex &KIdx = AM.get<SubtreeKernelIndex>();
  OpPerfCache Perf(T, KIdx);
  // Sheet of each distinct name (-1: none).
  NameMemo SheetOfName(T, [&](llvm::StringRef Name) {
    auto S = SheetOfOp.find(Name);
    return S == SheetOfOp.end() ? -1 : int(SheetIdx.lookup(S->second));
  });
  for (EventId E = 0, N = T.size(); E < N; ++E)
    if (int Sheet = SheetOfName(E); Sheet >= 0)
      EventsOf[Sheet].push_back(E);
  for (size_t SI = 0; SI < Order.size(); ++SI) {
    const std::string &S = Order[SI];
    std::vector<EventId> &Ev = EventsOf[SI];
    if (Ev.empty())
      continue;
    // Usually in UID order already (both follow the file).
    auto ByUid = [&](EventId A, EventId B) { return T.uid(A) < T.uid(B); };
    if (!std::is_sorted(Ev.begin(), Ev.end(), ByUid))
      std::sort(Ev.begin(), Ev.end(), ByUid);
    std::vector<RawRow> Fwd, Bwd;
    // Inference mode: GEMM and the two elementwise families stay single
    // sheets, every other family is `<family>_fwd` only, computed forward
    // (spec tracelens-inference.md §A.7).
    bool Single = O.Inference ? isInferenceSingle(S) : isNonSplit(S);
    evaluate(T, Ev, /*WithBwd=*/!Single && !O.Inference, Arch, Perf, Pool,
             Warnings, Fwd, Bwd);
    if (Single) {
      if (!Fwd.empty())
        Sheets.push_back(summarize(T, KIdx, S, std::move(Fwd),
                                   O.GroupByNumKernels, Arch != nullptr, RM,
                                   O.Inference));
      continue;
    }
    if (O.Inference) {
      // No _bwd sheet receives the backward ops that would move there.
      llvm::erase_if(Fwd, [&](const RawRow &R) {
        return droppedInInference(T.name(R.E));
      });
      if (!Fwd.empty())
        Sheets.push_back(summarize(T, KIdx, S + "_fwd", std::move(Fwd),
                                   O.GroupByNumKernels, Arch != nullptr, RM,
                                   /*EmptyMissing=*/true));
      continue;
    }
    std::vector<RawRow> FwdKeep, BwdKeep;
    for (RawRow &R : Bwd)
      if (!droppedFromBwd(T.name(R.E)))
        BwdKeep.push_back(std::move(R));
    for (RawRow &R : Fwd)
      (movesToBwd(T.name(R.E)) ? BwdKeep : FwdKeep).push_back(std::move(R));
    // Release the moved-from rows before summarizing.
    std::vector<RawRow>().swap(Fwd);
    std::vector<RawRow>().swap(Bwd);
    if (!FwdKeep.empty())
      Sheets.push_back(summarize(T, KIdx, S + "_fwd", std::move(FwdKeep),
                                 O.GroupByNumKernels, Arch != nullptr, RM,
                                 /*EmptyMissing=*/false));
    if (!BwdKeep.empty())
      Sheets.push_back(summarize(T, KIdx, S + "_bwd", std::move(BwdKeep),
                                 O.GroupByNumKernels, Arch != nullptr, RM,
                                 /*EmptyMissing=*/false));
  }
}
