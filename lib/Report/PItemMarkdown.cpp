//===- PItemMarkdown.cpp - Markdown blocks of one P-item ------------------===//
//
// Card and detailed block of a ranked finding (tracelens-analysis §9 items
// 4-7): icons by P-number, impact markers in the grammar of §8.1, anchors
// and reasoning candidates that --validate-report pairs with the cards.
//
//===----------------------------------------------------------------------===//
#include "PItemMarkdown.h"

#include "Prose.h"
#include "ReportUtil.h"

#include "tl/Support/Markdown.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <iterator>
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

StringRef icon(unsigned Rank) {
  return Rank == 1 ? "🔴" : Rank == 2 ? "🟡" : "🟢";
}

StringRef tierAnchor(Tier T) {
  return T == Tier::Compute ? "compute" : T == Tier::Fusion ? "fusion"
                                                             : "system";
}

} // namespace

std::string detailAnchor(Tier T, unsigned Number) {
  return ("detailed-analysis-" + tierAnchor(T) + "-" +
          (T == Tier::Fusion ? "P" : "p") + Twine(Number))
      .str();
}

namespace {
/// S split at newlines and at "<br>" (the metrics documents join a
/// kernel list with it), each part through Part, joined with "<br>".
template <typename Fn> std::string byLine(StringRef S, Fn Part) {
  std::string Out;
  bool First = true;
  while (true) {
    size_t NL = S.find('\n'), BR = S.find("<br>");
    size_t Cut = std::min(NL, BR);
    if (!First)
      Out += "<br>";
    First = false;
    Out += Part(S.take_front(Cut));
    if (Cut == StringRef::npos)
      break;
    S = S.drop_front(Cut + (Cut == BR ? 4 : 1));
  }
  return Out;
}
} // namespace

std::string mdCell(StringRef S) {
  if (S.empty())
    return "—";
  return byLine(S, [](StringRef P) { return mdEscape(P); });
}

std::string mdNameCell(StringRef S) {
  if (S.empty() || S == "—" || S == "-")
    return S.empty() ? "—" : S.str();
  return byLine(S, [](StringRef P) {
    return P.empty() ? std::string() : mdCode(P, /*InTable=*/true);
  });
}

std::string mdInline(StringRef S) { return mdEscape(S); }

bool isNameColumn(StringRef Header) {
  std::string H = Header.lower();
  std::replace(H.begin(), H.end(), '_', ' ');
  for (StringRef N : {"op", "operation", "kernel", "kernel name", "name",
                      "kernel before", "kernel after", "op after", "cpu op",
                      "call", "top op on the path"})
    if (H == N)
      return true;
  return false;
}

namespace {

std::string valueText(const Value &V) {
  if (const double *D = std::get_if<double>(&V))
    return pyRepr(pyRound(*D, 3));
  std::string S;
  raw_string_ostream OS(S);
  printValue(OS, V);
  return S;
}

void table(raw_ostream &OS, const EvidenceTable &T) {
  OS << "|";
  for (const std::string &C : T.Columns)
    OS << " " << mdCell(C) << " |";
  OS << "\n|";
  for (size_t I = 0; I < T.Columns.size(); ++I)
    OS << "---|";
  OS << "\n";
  for (const auto &Row : T.Rows) {
    OS << "|";
    for (size_t I = 0; I < T.Columns.size(); ++I) {
      std::string Cell = "—";
      if (I < Row.size())
        Cell = std::get_if<std::string>(&Row[I]) && isNameColumn(T.Columns[I])
                   ? mdNameCell(valueText(Row[I]))
                   : mdCell(valueText(Row[I]));
      OS << " " << Cell << " |";
    }
    OS << "\n";
  }
}

void metricsTable(raw_ostream &OS, const Finding &F) {
  EvidenceTable T;
  T.Columns = {"Metric", "Value"};
  for (const Metric &M : F.Metrics) {
    std::string V = valueText(M.V);
    if (!M.Unit.empty())
      V += M.Unit == "%" ? "%" : " " + M.Unit;
    T.Rows.push_back({M.Name, V});
  }
  if (T.Rows.empty())
    T.Rows.push_back({std::string("findings"), std::string("no metrics")});
  table(OS, T);
}

/// Python str() of a JSON scalar; "—" for null or absent.
std::string jsonText(const json::Value *V) {
  if (!V || V->kind() == json::Value::Null)
    return "—";
  if (auto S = V->getAsString())
    return S->empty() ? "—" : S->str();
  if (auto I = V->getAsInteger())
    return std::to_string(*I);
  if (auto D = V->getAsNumber())
    return pyRepr(*D);
  if (auto B = V->getAsBoolean())
    return *B ? "True" : "False";
  return "—";
}

bool sameNumber(const json::Value *A, const json::Value *B) {
  std::optional<double> X = A ? A->getAsNumber() : std::nullopt;
  std::optional<double> Y = B ? B->getAsNumber() : std::nullopt;
  return X == Y;
}

bool startsCanonical(const EvidenceTable &T) {
  size_t N = std::size(ComputeDataTables::Columns);
  if (T.Columns.size() < N)
    return false;
  for (size_t I = 0; I < N; ++I)
    if (T.Columns[I] != ComputeDataTables::Columns[I])
      return false;
  return true;
}

/// The canonical table row of an operations[] record.
std::vector<std::string> canonicalRow(const json::Object &Op) {
  const json::Object *Eff = Op.getObject("efficiency");
  auto E = [&](StringRef K) { return Eff ? Eff->get(K) : nullptr; };
  std::string Bound = jsonText(E("bound_type"));
  std::string Efficiency = "—";
  std::string Pct = jsonText(E("efficiency_percent"));
  if (Pct != "—" && Bound == "compute")
    Efficiency = Pct + "% of " + jsonText(E("resolved_peak_maf")) + " TFLOPS";
  else if (Pct != "—" && Bound == "memory")
    Efficiency = Pct + "% of " + jsonText(E("resolved_peak_hbm_bw")) + " TB/s";
  if (Bound != "compute" && Bound != "memory")
    Bound = "—";
  else
    Bound += "-bound";
  return {jsonText(Op.get("name")),        jsonText(Op.get("args")),
          jsonText(Op.get("launcher_path")), jsonText(Op.get("kernel_name_trunc")),
          jsonText(Op.get("time_ms")),      jsonText(Op.get("percent_of_total")),
          jsonText(Op.get("count")),        jsonText(E("flops_per_byte")),
          Efficiency,                       Bound};
}

/// The comparative table row (§8.2 item 5): trace 1's op with trace 2's time
/// and count from the comparative operations[] fields.
std::vector<std::string> comparativeRow(const json::Object &Op) {
  const json::Object *Eff = Op.getObject("efficiency");
  auto E = [&](StringRef K) { return Eff ? Eff->get(K) : nullptr; };
  std::string Bound = jsonText(E("bound_type"));
  Bound = Bound == "compute" || Bound == "memory" ? Bound + "-bound" : "—";
  return {jsonText(Op.get("name")),
          jsonText(Op.get("args")),
          jsonText(Op.get("launcher_path")),
          jsonText(Op.get("kernel_name_trunc")),
          jsonText(Op.get("time_ms")),
          jsonText(Op.get("t2_time_ms")),
          jsonText(Op.get("count")) + " / " + jsonText(Op.get("count_trace2")),
          jsonText(Op.get("difference_ms")),
          jsonText(E("flops_per_byte")),
          Bound};
}

/// "<Brief Title> (<library>)", the suffix omitted for Unknown (§9 item 4);
/// the detailed heading repeats it (item 7).
std::string cardTitle(const PItem &P, const Prose &Pr) {
  const std::string &Lib = P.F->Facts.Library;
  if (P.F->T == Tier::Compute && !Lib.empty() && Lib != "Unknown")
    return Pr.Title + " (" + Lib + ")";
  return Pr.Title;
}

} // namespace

std::vector<std::vector<std::string>>
ComputeDataTables::rows(StringRef Key, unsigned Rank) const {
  std::vector<std::vector<std::string>> Out;
  auto It = Metrics.find((Key + "_metrics.json").str());
  const json::Object *O =
      It == Metrics.end() ? nullptr : It->second->getAsObject();
  const json::Array *Ops = O ? O->getArray("operations") : nullptr;
  const json::Array *CF = O ? O->getArray("category_findings") : nullptr;
  if (!Ops || !CF)
    return Out;
  const json::Array *Members = nullptr;
  for (const json::Value &V : *CF)
    if (const json::Object *F = V.getAsObject())
      if (F->getInteger("rank") == static_cast<int64_t>(Rank))
        Members = F->getArray("members");
  if (!Members)
    return Out;
  // Join each member to its operation: same name, time and efficiency
  // first, then same name and time, then the name alone; each operation
  // once.
  std::vector<bool> Used(Ops->size(), false);
  for (const json::Value &MV : *Members) {
    const json::Object *Mem = MV.getAsObject();
    if (!Mem)
      continue;
    std::optional<StringRef> Name = Mem->getString("operation");
    const json::Object *Match = nullptr;
    for (int Strict = 2; Strict >= 0 && !Match; --Strict)
      for (size_t I = 0; I < Ops->size() && !Match; ++I) {
        const json::Object *Op = (*Ops)[I].getAsObject();
        if (!Op || Used[I] || Op->getString("name") != Name)
          continue;
        const json::Object *Eff = Op->getObject("efficiency");
        if (Strict >= 1 && !sameNumber(Op->get("time_ms"), Mem->get("time_ms")))
          continue;
        if (Strict == 2 &&
            !sameNumber(Eff ? Eff->get("efficiency_percent") : nullptr,
                        Mem->get("efficiency_pct")))
          continue;
        Used[I] = true;
        Match = Op;
      }
    if (Match)
      Out.push_back(Comparative ? comparativeRow(*Match)
                                : canonicalRow(*Match));
  }
  return Out;
}

std::string pathImpactLine(const PItem &P, const ReportModel &M) {
  const PathShare &S = *P.Path;
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "**Critical path**: " << fixed(S.OnPathUs / 1000, 3) << " of "
     << fixed(S.EventUs / 1000, 3) << " ms on the critical path ("
     << fixed(S.share() * 100, 1) << " %)";
  if (P.scored()) {
    OS << "; expected step saving ";
    if (M.utilization().Available)
      OS << fixed(*P.placeScore() / 100 * M.utilization().TotalMs, 3)
         << " ms (";
    OS << fixed(*P.placeScore(), 2) << "% of end-to-end time";
    if (M.utilization().Available)
      OS << ")";
  }
  OS << ".";
  return Out;
}

void renderCard(raw_ostream &OS, const PItem &P, const ReportModel &M,
                PItemPlacement Where) {
  const Finding &F = *P.F;
  unsigned N = Where.Number ? Where.Number : P.Rank;
  Prose Pr = writeProse(P, M);
  // Titles and prose are plain text that may hold kernel/op names:
  // escaped so a renderer shows them exactly.
  OS << "### " << icon(N) << " P" << N << ": " << mdInline(cardTitle(P, Pr))
     << "\n\n";
  OS << "**Insight**: " << proseHook(F.Id, "insight", mdInline(Pr.Insight))
     << "\n\n";
  OS << "**Action**: " << proseHook(F.Id, "action", mdInline(Pr.Action))
     << "\n\n";
  OS << "<!-- impact-begin kind=p_item";
  if (F.T == Tier::Compute && Where.InReport)
    OS << " category=" << P.CategoryKey;
  OS << " low=" << score(P.Low) << " mid=" << score(P.Mid)
     << " high=" << score(P.High) << " -->\n";
  if (!P.scored()) {
    OS << "**Impact**: Not quantifiable from trace data\n";
  } else if (F.T == Tier::Fusion && F.Facts.Estimation != "measured") {
    // Comparative (measured) estimates have no perf-model coverage (§10.3).
    int64_t Kernels = F.Facts.KernelCount.value_or(0),
            Modelled = F.Facts.ModeledKernelCount.value_or(Kernels);
    OS << "**Impact**: impact_score: " << score(P.Mid)
       << " (perf-model coverage " << Modelled << "/" << Kernels
       << " kernels)\n";
  } else {
    OS << "**Impact**: impact_score: " << score(P.Mid) << "\n";
  }
  OS << "<!-- impact-end -->\n";
  if (P.Path && Where.InReport)
    OS << "\n" << pathImpactLine(P, M) << "\n";
  if (F.T == Tier::Compute && P.isHeuristic()) {
    OS << "\n> **Warning — estimated:** No performance model for this op; "
          "impact is derived from its E2E GPU-time share";
    if (std::optional<double> Pct = F.Facts.PercentOfTotal)
      OS << " (" << pyRepr(*Pct) << "%)";
    OS << ", not a gap projection.\n";
  }
  if (F.T == Tier::Fusion) {
    std::string Conf = F.Facts.Confidence;
    if (Conf.empty())
      Conf = "low";
    OS << "\n**Confidence**: " << Conf
       << " — from the kernel names and composition of the sequence\n";
  }
  StringRef Section = F.T == Tier::Compute  ? "Compute kernel insights"
                      : F.T == Tier::Fusion ? "Kernel fusion insights"
                                            : "System-level insights";
  if (Where.InReport)
    OS << "\n→ *See [Detailed Analysis: " << Section << " > P" << N << "](#"
       << detailAnchor(F.T, N) << ") for details*\n";
  OS << "\n---\n\n";
}

void renderDetail(raw_ostream &OS, const PItem &P, const ReportModel &M,
                  PItemPlacement Where) {
  const Finding &F = *P.F;
  unsigned N = Where.Number ? Where.Number : P.Rank;
  Prose Pr = writeProse(P, M);
  OS << "<a id=\"" << detailAnchor(F.T, N) << "\"></a>\n";
  OS << "<!-- reasoning-candidate tier=" << tierAnchor(F.T) << " rank=" << N
     << " -->\n";
  OS << "#### " << icon(N) << " P" << N << ": " << mdInline(cardTitle(P, Pr));
  // Fusion headings carry the sequence's time and instances (§9 item 7).
  if (F.T == Tier::Fusion) {
    std::optional<double> Ms = F.Facts.TimeMs;
    std::optional<int64_t> Inst = F.Facts.InstanceCount;
    if (Ms && Inst)
      OS << " (" << pyRepr(*Ms) << " ms, " << *Inst << " instances)";
  }
  OS << "\n\n";
  OS << "**Identification:** "
     << proseHook(F.Id, "identification",
                  mdInline(Pr.Identification) +
                      " (source: `findings.json` → `findings[id=" + F.Id +
                      "]`)")
     << "\n\n";
  OS << "**Data:**\n\n";
  // Compute blocks open with the canonical table (§8.2 item 5): the pass's
  // own when it has that layout, else one built from the metrics
  // documents; the pass's evidence follows under its title.
  // Comparative reports always build the comparative table.
  bool Cmp = Where.Data && Where.Data->comparative();
  bool Canonical = F.T != Tier::Compute ||
                   (!Cmp && !F.Evidence.empty() &&
                    startsCanonical(F.Evidence.front()));
  if (!Canonical) {
    EvidenceTable C;
    if (Cmp)
      C.Columns.assign(Where.Data->columns().begin(),
                       Where.Data->columns().end());
    else
      C.Columns.assign(std::begin(ComputeDataTables::Columns),
                       std::end(ComputeDataTables::Columns));
    if (Where.Data)
      for (std::vector<std::string> &R :
           Where.Data->rows(P.CategoryKey, P.CategoryRank))
        C.Rows.push_back({R.begin(), R.end()});
    if (C.Rows.empty()) // No artifact: the ops the finding names.
      for (const Location &L : F.Locations)
        if (L.K == Location::Kind::Op) {
          std::vector<Value> Row(C.Columns.size(), Value(std::string()));
          Row[0] = Value(L.Name);
          C.Rows.push_back(std::move(Row));
        }
    if (C.Rows.empty())
      C.Rows.push_back(std::vector<Value>(C.Columns.size(),
                                          Value(std::string())));
    table(OS, C);
  }
  if (F.Evidence.empty()) {
    if (!Canonical)
      OS << "\n*Metrics*\n\n";
    metricsTable(OS, F);
  }
  for (const EvidenceTable &T : F.Evidence) {
    if (!Canonical || (!T.Title.empty() && &T != &F.Evidence.front()))
      OS << "\n*" << (T.Title.empty() ? "Evidence" : T.Title) << "*\n\n";
    table(OS, T);
  }
  // Titles name ops and kernels in short form: the full names the finding
  // points at that no evidence cell shows are listed here, so analysis.md
  // shows every name of findings.json.
  EvidenceTable Names;
  Names.Title = "Names";
  Names.Columns = {"kind", "name"};
  for (const Location &L : F.Locations) {
    if ((L.K != Location::Kind::Op && L.K != Location::Kind::Kernel) ||
        L.Name.empty() || StringRef(L.Name).contains("<br>"))
      continue;
    bool Shown = false;
    for (const EvidenceTable &T : F.Evidence)
      for (const auto &Row : T.Rows)
        for (const Value &V : Row)
          if (const std::string *S = std::get_if<std::string>(&V))
            Shown |= *S == L.Name;
    for (const auto &Row : Names.Rows)
      Shown |= std::get<std::string>(Row[1]) == L.Name;
    if (!Shown)
      Names.Rows.push_back(
          {std::string(locationKindName(L.K)), L.Name});
  }
  if (!Names.Rows.empty()) {
    OS << "\n*" << Names.Title << "*\n\n";
    table(OS, Names);
  }
  OS << "\n";
  if (F.T != Tier::Fusion) {
    OS << "**Reasoning for Slowdown:** "
       << proseHook(F.Id, "reasoning", mdInline(Pr.Reasoning)) << "\n\n";
    OS << "**Resolution:** "
       << proseHook(F.Id, "resolution", mdInline(Pr.Resolution))
       << "\n\n";
  }
  OS << "**Impact estimate:**\n";
  if (P.scored()) {
    OS << "<!-- impact-begin kind=detail_estimate low=" << score(P.Low)
       << " high=" << score(P.High) << " -->\n";
    OS << "- Low end impact_score: " << score(P.Low) << "\n";
    OS << "- High end impact_score: " << score(P.High) << "\n";
    if (F.T == Tier::Fusion) {
      std::optional<int64_t> K = F.Facts.KernelCount;
      if (K && F.Facts.Estimation != "measured") {
        int64_t Mod = F.Facts.ModeledKernelCount.value_or(*K);
        OS << "- Coverage: " << Mod << " of " << *K << " kernels modelled";
        if (Mod < *K)
          OS << " (" << (*K - Mod) << " kernel(s) use measured trace time)";
        OS << "\n";
      }
      const std::string &Bound = F.Facts.BoundType,
                        &Type = F.Facts.FusionType;
      if (!Bound.empty() && !Type.empty())
        OS << "- Fusion pattern: " << Bound << "-bound, " << Type << "\n";
      const std::string &Conf = F.Facts.Confidence;
      if (!Conf.empty())
        OS << "- Confidence: " << Conf << "\n";
    }
    OS << "<!-- impact-end -->\n\n";
  } else {
    OS << "Impact estimate is not quantifiable from trace data.\n\n";
  }
  if (!F.Notes.empty()) {
    for (const std::string &Note : F.Notes)
      OS << "> " << mdInline(Note) << "\n";
    OS << "\n";
  }
}

} // namespace tl
