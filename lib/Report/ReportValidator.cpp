//===- ReportValidator.cpp - The reference's report validation rules ------===//
//
// tracelens-analysis §8. Deliberate differences from validation_utils.py
// (docs/ReportFormat.md "Validation"): a `—` Args cell means "no args" and
// passes; the fusion impact-line rule applies to lines that carry an
// impact_score (unquantified items say "Not quantifiable"); null P-item
// scores must be null on both sides; level 1 runs on the per-tier blocks of
// analysis.md because tl writes no per-agent findings files.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/ReportValidator.h"
#include "tl/Analysis/CopyRating.h"
#include "tl/Report/ReportModel.h"

#include "ReportUtil.h"

#include "tl/Support/BoundedJson.h"
#include "tl/Support/Csv.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"
#include "tl/Support/OutputTransaction.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;

namespace tl {

bool ValidationResult::ok() const { return errors() == 0; }
unsigned ValidationResult::errors() const {
  return count_if(Issues, [](const ValidationIssue &I) {
    return I.K == ValidationIssue::Kind::Error;
  });
}
unsigned ValidationResult::warnings() const {
  return Issues.size() - errors();
}

void ValidationResult::print(raw_ostream &OS, StringRef Dir) const {
  for (const ValidationIssue &I : Issues)
    OS << Dir << ": " << I.Level << " " << I.Rule << ": "
       << (I.K == ValidationIssue::Kind::Error ? "error" : "warning") << ": "
       << I.Message << "\n";
  OS << Dir << ": " << (ok() ? "valid" : "INVALID") << " (" << Checks
     << " checks, " << errors() << " error(s), " << warnings()
     << " warning(s))\n";
}

namespace {

/// category_findings[] groups tl's own report keeps: a group whose every
/// member op ran only copies / sets (kernel_name "Memcpy ..." or "Memset
/// ...", several joined by <br>) is rated against its link by the
/// multi-kernel pass, so the findings files need not list it.
static size_t countNonCopyGroups(const json::Array &Groups,
                                 const json::Array *Ops) {
  // Members name an op and its time_ms: (name, time) -> every such row is
  // copy-only.
  auto KeyOf = [](const json::Object &O, StringRef NameKey) {
    return O.getString(NameKey).value_or("").str() + "|" +
           std::to_string(O.getNumber("time_ms").value_or(-1));
  };
  StringMap<bool> CopyOnly;
  if (Ops)
    for (const json::Value &Op : *Ops)
      if (const json::Object *OO = Op.getAsObject()) {
        std::string Name = KeyOf(*OO, "name");
        SmallVector<StringRef, 4> Ks;
        OO->getString("kernel_name").value_or("").split(Ks, "<br>", -1,
                                                        false);
        bool Copy = !Ks.empty() && all_of(Ks, [](StringRef K) {
          return isCopyOrSetName(K.trim());
        });
        auto [It, New] = CopyOnly.try_emplace(Name, Copy);
        if (!New)
          It->second = It->second && Copy;
      }
  size_t N = 0;
  for (const json::Value &G : Groups) {
    const json::Object *GO = G.getAsObject();
    const json::Array *Ms = GO ? GO->getArray("members") : nullptr;
    bool AllCopies = Ms && !Ms->empty() && all_of(*Ms, [&](const json::Value &M) {
      const json::Object *MO = M.getAsObject();
      auto It = CopyOnly.find(MO ? KeyOf(*MO, "operation") : "");
      return It != CopyOnly.end() && It->second;
    });
    N += !AllCopies;
  }
  return N;
}


struct Marker {
  enum class Kind { Begin, End, Candidate, TopOpsRow, Other } K = Kind::Other;
  StringMap<std::string> Attrs;
  size_t Offset = 0;
  std::string attr(StringRef Name) const {
    auto It = Attrs.find(Name);
    return It == Attrs.end() ? "" : It->second;
  }
  bool has(StringRef Name) const { return Attrs.count(Name); }
};

std::vector<Marker> scanMarkers(StringRef Text) {
  std::vector<Marker> Out;
  size_t Pos = 0;
  while ((Pos = Text.find("<!--", Pos)) != StringRef::npos) {
    size_t End = Text.find("-->", Pos + 4);
    if (End == StringRef::npos)
      break;
    StringRef Body = Text.slice(Pos + 4, End).trim();
    SmallVector<StringRef, 8> Toks;
    Body.split(Toks, ' ', -1, /*KeepEmpty=*/false);
    Marker M;
    M.Offset = Pos;
    if (!Toks.empty()) {
      StringRef Head = Toks.front();
      M.K = Head == "impact-begin"          ? Marker::Kind::Begin
            : Head == "impact-end"          ? Marker::Kind::End
            : Head == "reasoning-candidate" ? Marker::Kind::Candidate
            : Head == "top-ops-row"         ? Marker::Kind::TopOpsRow
                                            : Marker::Kind::Other;
      for (StringRef T : drop_begin(Toks)) {
        auto [K, V] = T.split('=');
        if (!V.empty() || T.contains('='))
          M.Attrs[K.trim()] = V.trim().str();
      }
    }
    Out.push_back(std::move(M));
    Pos = End + 3;
  }
  return Out;
}

/// Text of the block starting at the line `Header` up to the next line that
/// starts a heading of the same or higher level; "" when absent.
StringRef block(StringRef Text, StringRef Header) {
  size_t Pos = 0;
  while (true) {
    Pos = Text.find(Header, Pos);
    if (Pos == StringRef::npos)
      return "";
    bool LineStart = Pos == 0 || Text[Pos - 1] == '\n';
    size_t EOL = Text.find('\n', Pos);
    StringRef Line = Text.slice(Pos, EOL);
    if (LineStart && Line.rtrim() == Header.rtrim())
      break;
    Pos += Header.size();
  }
  size_t Level = Header.find(' ');
  std::string Stop = "\n" + std::string(Level, '#') + " ";
  size_t Next = Pos + Header.size();
  while (true) {
    Next = Text.find(Stop, Next);
    if (Next == StringRef::npos)
      return Text.drop_front(Pos);
    // A deeper heading ("\n### " while looking for "\n## ") is not a stop.
    Next += 1;
    size_t Hashes = 0;
    while (Next + Hashes < Text.size() && Text[Next + Hashes] == '#')
      ++Hashes;
    if (Hashes <= Level)
      return Text.slice(Pos, Next);
  }
}

SmallVector<StringRef, 0> lines(StringRef Text) {
  SmallVector<StringRef, 0> L;
  Text.split(L, '\n');
  return L;
}

/// Headings "<prefix>...P<N>:" in Text.
unsigned countPHeadings(StringRef Text, StringRef Prefix) {
  unsigned N = 0;
  for (StringRef L : lines(Text)) {
    if (!L.starts_with(Prefix))
      continue;
    size_t P = L.find(" P");
    while (P != StringRef::npos) {
      size_t D = P + 2, E = D;
      while (E < L.size() && isDigit(L[E]))
        ++E;
      if (E > D && E < L.size() && L[E] == ':') {
        ++N;
        break;
      }
      P = L.find(" P", P + 1);
    }
  }
  return N;
}

/// The text a renderer shows for a table cell tl wrote (code spans and
/// backslash escapes resolved, per "<br>" part); a reference cell, which
/// has neither, reads as itself.
std::string plainCell(StringRef Cell) {
  std::string Out;
  SmallVector<StringRef, 4> Parts;
  Cell.split(Parts, "<br>");
  for (size_t I = 0; I < Parts.size(); ++I)
    Out += (I ? "<br>" : "") + mdPlain(Parts[I]);
  return Out;
}

std::vector<std::string> splitRow(StringRef Line) {
  std::vector<std::string> Cells;
  StringRef S = Line.trim();
  if (!S.consume_front("|"))
    return Cells;
  std::string Cur;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\\' && I + 1 < S.size() && S[I + 1] == '|') {
      Cur += '|';
      ++I;
    } else if (S[I] == '|') {
      Cells.push_back(StringRef(Cur).trim().str());
      Cur.clear();
    } else {
      Cur += S[I];
    }
  }
  if (!StringRef(Cur).trim().empty())
    Cells.push_back(StringRef(Cur).trim().str());
  return Cells;
}

bool isSeparatorRow(StringRef Line) {
  StringRef S = Line.trim();
  return S.starts_with("|") && S.find_first_not_of("|-: ") == StringRef::npos;
}

std::optional<std::string> readFile(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!B)
    return std::nullopt;
  return (*B)->getBuffer().str();
}

std::optional<double> parseScore(StringRef S) {
  if (S == "null" || S.empty())
    return std::nullopt;
  double D;
  if (S.getAsDouble(D))
    return std::nullopt;
  return D;
}

class Validator {
public:
  Validator(StringRef Dir, ValidationResult &R) : Dir(Dir), R(R) {}
  void run();

private:
  void error(StringRef Level, StringRef Rule, const Twine &Msg) {
    R.Issues.push_back({ValidationIssue::Kind::Error, Level.str(), Rule.str(),
                        Msg.str()});
  }
  void warn(StringRef Level, StringRef Rule, const Twine &Msg) {
    R.Issues.push_back({ValidationIssue::Kind::Warning, Level.str(),
                        Rule.str(), Msg.str()});
  }
  bool check(bool Cond, StringRef Level, StringRef Rule, const Twine &Msg) {
    ++R.Checks;
    if (!Cond)
      error(Level, Rule, Msg);
    return Cond;
  }
  std::string path(StringRef Rel) const {
    SmallString<256> P(Dir);
    sys::path::append(P, Rel);
    return std::string(P);
  }
  /// One tier's recommendations and detailed analysis: a tier of
  /// analysis.md or a per-agent findings file.
  struct TierDoc {
    std::string Name;
    StringRef Tier, Recs, Detail;
    /// Not relaxed-empty: at least one card and p_item marker.
    bool RequireItems = false;
    /// Category of a compute findings file ("" in analysis.md: from the
    /// cards' markers).
    std::string Category;
  };
  struct OpSets {
    StringSet<> Args, LauncherPaths, KernelNames;
  };
  void loadJson();
  void timeChecks(const json::Array &Fs, std::optional<double> WindowMs);
  /// findings.json's compute findings as priority_data.json findings[]
  /// entries (category key, impact_score*), in report order.
  std::optional<json::Array> tlComputeItems() const;
  void tierDoc(const TierDoc &D);
  void level1(StringRef Md);
  void level2();
  void level3(StringRef Md);
  void tlChecks(StringRef Md);
  void truthChecks(StringRef Md);
  void shareChecks(StringRef Md);
  void renderChecks();

  StringRef Dir;
  ValidationResult &R;
  std::optional<json::Value> Priority, Manifest;
  /// operations[].args of every metrics file (§8.4 item 5).
  StringSet<> Args;
  /// Per metrics `category`: its operations' cells (§8.2 item 5), and the
  /// size of its category_findings[].
  StringMap<OpSets> CategoryOps;
  StringMap<size_t> CategoryFindings;
  /// The manifest says comparison_scope "comparative".
  bool Comparative = false;
};

void Validator::loadJson() {
  auto Load = [&](StringRef Rel, std::optional<json::Value> &Out) {
    std::optional<std::string> Text = readFile(path(Rel));
    if (!Text)
      return;
    Expected<json::Value> V = parseJsonBounded(*Text);
    if (!V) {
      error("L2", "json", Rel + ": " + toString(V.takeError()));
      return;
    }
    Out = std::move(*V);
  };
  Load("priority_data.json", Priority);
  Load("category_data/category_manifest.json", Manifest);
  if (const json::Object *MO = Manifest ? Manifest->getAsObject() : nullptr)
    Comparative =
        MO->getString("comparison_scope") == StringRef("comparative");
  // operations[] of every metrics file, for the Args / path / name checks.
  std::error_code EC;
  for (sys::fs::directory_iterator It(path("category_data"), EC), E;
       It != E && !EC; It.increment(EC)) {
    if (!StringRef(It->path()).ends_with("_metrics.json"))
      continue;
    std::optional<std::string> Text = readFile(It->path());
    if (!Text)
      continue;
    Expected<json::Value> V = parseJsonBounded(*Text);
    if (!V) {
      consumeError(V.takeError());
      continue;
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      continue;
    StringRef File = sys::path::filename(It->path());
    std::string Cat = O->getString("category")
                          .value_or(File.drop_back(
                              StringRef("_metrics.json").size()))
                          .str();
    const json::Array *Ops = O->getArray("operations");
    if (const json::Array *CF = O->getArray("category_findings"))
      CategoryFindings[Cat] = countNonCopyGroups(*CF, Ops);
    if (!Ops)
      continue;
    OpSets &Sets = CategoryOps[Cat];
    for (const json::Value &Op : *Ops)
      if (const json::Object *OO = Op.getAsObject()) {
        if (auto A = OO->getString("args")) {
          Args.insert(*A);
          Sets.Args.insert(*A);
        }
        if (auto L = OO->getString("launcher_path"))
          Sets.LauncherPaths.insert(*L);
        if (auto K = OO->getString("kernel_name_trunc"))
          Sets.KernelNames.insert(*K);
      }
  }
}

/// The ten leading columns of a compute Data table (§8.2 item 5),
/// standalone and comparative.
constexpr StringLiteral CanonicalColumns[] = {
    "Operation", "Args",  "Kernel Path", "Kernel Name", "Time (ms)",
    "%E2E",      "Count", "FLOPS/Byte",  "Efficiency",  "Bound"};
constexpr StringLiteral ComparativeColumns[] = {
    "Operation",         "Args (T1)",         "Kernel Path",
    "Kernel Name",       "Trace 1 Time (ms)", "Trace 2 Time (ms)",
    "Count (T1/T2)",     "Difference (ms)",   "FLOPS/Byte (T1)",
    "Bound (T1)"};

bool startsWith(ArrayRef<std::string> Cols, ArrayRef<StringLiteral> Want) {
  if (Cols.size() < Want.size())
    return false;
  for (size_t I = 0; I < Want.size(); ++I)
    if (Cols[I] != Want[I])
      return false;
  return true;
}

void Validator::tierDoc(const TierDoc &D) {
  unsigned Cards = countPHeadings(D.Recs, "### ");
  unsigned Items = 0;
  std::vector<std::string> CardCategory; // category= of each p_item marker
  for (const Marker &M : scanMarkers(D.Recs))
    if (M.K == Marker::Kind::Begin && M.attr("kind") == "p_item") {
      ++Items;
      CardCategory.push_back(M.attr("category"));
    }
  std::vector<Marker> Ms = scanMarkers(D.Detail);
  unsigned Cands = 0;
  for (const Marker &M : Ms)
    if (M.K == Marker::Kind::Candidate) {
      ++Cands;
      check(M.attr("tier") == D.Tier, "L1", "candidate-tier",
            D.Name + ": reasoning-candidate has tier=" + M.attr("tier") +
                ", expected " + D.Tier);
    }
  if (D.RequireItems) {
    check(Cards > 0, "L1", "recommendations",
          D.Name + ": no '### P<N>:' recommendation heading");
    check(Items > 0, "L1", "markers", D.Name + ": no kind=p_item marker");
  }
  check(Cards == Cands, "L1", "cards-vs-candidates",
        D.Name + ": " + Twine(Cards) + " P-item card(s) but " + Twine(Cands) +
            " reasoning candidate(s)");
  check(Cards == Items, "L1", "cards-vs-markers",
        D.Name + ": " + Twine(Cards) + " P-item card(s) but " + Twine(Items) +
            " kind=p_item marker(s)");
  if (Cards > 0)
    for (StringRef Label : {"**Insight**", "**Action**", "**Impact**"})
      check(D.Recs.contains(Label), "L1", "labels",
            D.Name + ": cards lack " + Label);
  // Each candidate block: detail_estimate marker or the sentinel; compute
  // blocks carry `**Data:**` followed by the canonical table whose Args,
  // Kernel Path and Kernel Name cells name real operations.
  size_t Pos = 0;
  for (unsigned I = 0; I < Cands; ++I) {
    size_t Start = D.Detail.find("<!-- reasoning-candidate", Pos);
    size_t Next = D.Detail.find("<!-- reasoning-candidate", Start + 1);
    StringRef Blk = D.Detail.slice(Start, Next);
    Pos = Start + 1;
    std::string Lower = Blk.lower();
    check(Blk.contains("kind=detail_estimate") ||
              StringRef(Lower).contains("not quantifiable from trace data"),
          "L1", "detail-estimate",
          D.Name + ": candidate " + Twine(I + 1) +
              " has neither a detail_estimate marker nor the sentinel");
    if (D.Tier != "compute")
      continue;
    std::string Category = D.Category;
    if (Category.empty()) {
      unsigned Rank = 0;
      for (const Marker &M : scanMarkers(Blk))
        if (M.K == Marker::Kind::Candidate)
          StringRef(M.attr("rank")).getAsInteger(10, Rank);
      if (Rank >= 1 && Rank <= CardCategory.size())
        Category = CardCategory[Rank - 1];
    }
    auto Ls = lines(Blk);
    size_t Header = Ls.size();
    for (size_t J = 0; J < Ls.size() && Header == Ls.size(); ++J)
      if (Ls[J].trim() == "**Data:**") {
        size_t K = J + 1;
        while (K < Ls.size() && Ls[K].trim().empty())
          ++K;
        if (K < Ls.size() && Ls[K].trim().starts_with("|"))
          Header = K;
      }
    if (!check(Header < Ls.size(), "L1", "data-table",
               D.Name + ": compute candidate " + Twine(I + 1) +
                   " lacks a '**Data:**' line followed by a table"))
      continue;
    // Comparative reports (manifest comparison_scope) use the comparative
    // columns; tl's per-agent files keep the standalone ones, so both pass
    // there.
    std::vector<std::string> Cols = splitRow(Ls[Header]);
    bool Canon = Comparative ? startsWith(Cols, ComparativeColumns) ||
                                   startsWith(Cols, CanonicalColumns)
                             : startsWith(Cols, CanonicalColumns);
    if (!check(Canon, "L1", "data-columns",
               D.Name + ": compute candidate " + Twine(I + 1) +
                   " Data table does not start with 'Operation | " +
                   (Comparative ? "Args (T1)" : "Args") +
                   " | Kernel Path | Kernel Name | ...' (§8.2 item 5)"))
      continue;
    const OpSets *Sets = nullptr;
    auto SIt = CategoryOps.find(Category);
    if (SIt != CategoryOps.end())
      Sets = &SIt->second;
    for (size_t J = Header + 1; J < Ls.size() && Ls[J].trim().starts_with("|");
         ++J) {
      if (isSeparatorRow(Ls[J]))
        continue;
      std::vector<std::string> Cells = splitRow(Ls[J]);
      Cells.resize(4);
      struct {
        size_t Col;
        const StringSet<> *Set;
        StringRef Field;
      } Refs[] = {{1, Sets ? &Sets->Args : nullptr, "args"},
                  {2, Sets ? &Sets->LauncherPaths : nullptr, "launcher_path"},
                  {3, Sets ? &Sets->KernelNames : nullptr,
                   "kernel_name_trunc"}};
      for (auto &Ref : Refs) {
        std::string Plain = plainCell(Cells[Ref.Col]);
        StringRef V = Plain;
        if (!Ref.Set || Ref.Set->empty() || V.empty() || V == "—")
          continue;
        check(Ref.Set->contains(V) || Ref.Set->contains(Cells[Ref.Col]), "L1",
              "data-cells",
              D.Name + ": compute candidate " + Twine(I + 1) + " cell '" + V +
                  "' matches no operations[]." + Ref.Field + " of '" +
                  Category + "'");
      }
    }
  }
}

void Validator::level1(StringRef Md) {
  // analysis.md, per tier: its section (cards) and its detailed subsection.
  struct TierBlocks {
    StringRef Tier, Section, Detail;
  } Tiers[] = {
      {"compute", "## Compute Kernel Optimizations", "### Compute Kernel Insights"},
      {"fusion", "## Kernel Fusion Opportunities (Experimental)",
       "### Kernel Fusion Insights"},
      {"system", "## System-Level Optimizations", "### System-Level Insights"}};
  StringRef Detailed = block(Md, "## Detailed Analysis");
  for (const TierBlocks &T : Tiers)
    tierDoc({("analysis.md " + T.Tier).str(), T.Tier, block(Md, T.Section),
             block(Detailed, T.Detail), /*RequireItems=*/false, ""});

  // Per-agent findings files (§8.2, §11.4).
  for (StringRef Sub : {"category_findings", "system_findings"}) {
    std::error_code EC;
    std::vector<std::string> Paths;
    for (sys::fs::directory_iterator It(path(Sub), EC), E; It != E && !EC;
         It.increment(EC))
      if (StringRef(It->path()).ends_with("_findings.md"))
        Paths.push_back(It->path());
    llvm::sort(Paths);
    for (const std::string &P : Paths) {
      std::optional<std::string> Text = readFile(P);
      if (!Text)
        continue;
      StringRef T(*Text);
      std::string Name = (Sub + "/" + sys::path::filename(P)).str();
      StringRef Stem = sys::path::filename(P).drop_back(
          StringRef("_findings.md").size());
      size_t Rec = T.find("\n## Recommendations"),
             Det = T.find("\n## Detailed Analysis");
      if (!check(Rec != StringRef::npos && Det != StringRef::npos && Rec < Det,
                 "L1", "findings-file",
                 Name + ": needs '## Recommendations' then '## Detailed "
                        "Analysis'"))
        continue;
      StringRef Tier = Sub == "category_findings" ? "compute"
                       : Stem == "kernel_fusion"  ? "fusion"
                                                  : "system";
      StringRef Recs = T.slice(Rec + 1, Det + 1), Detail = T.drop_front(Det + 1);
      // Relaxed-empty (§8.2 item 2): a compute category whose metrics list
      // no findings. tl also relaxes a category no pass analysed (no metrics
      // file) and a system/fusion analysis that found nothing.
      bool Empty = countPHeadings(Recs, "### ") == 0 &&
                   !Detail.contains("reasoning-candidate");
      bool Relaxed;
      if (Tier == "compute") {
        auto It = CategoryFindings.find(Stem);
        Relaxed = It == CategoryFindings.end() ? Empty : It->second == 0;
      } else {
        Relaxed = Empty;
      }
      tierDoc({Name, Tier, Recs, Detail, !Relaxed,
               Tier == "compute" ? Stem.str() : ""});
      checkMarkers(T, "L1", R);
    }
  }
}

void Validator::level2() {
  if (!check(Priority.has_value(), "L2", "priority_data",
             "priority_data.json missing or unreadable"))
    return;
  const json::Object *P = Priority->getAsObject();
  if (!check(P != nullptr, "L2", "priority_data", "not a JSON object"))
    return;
  const json::Array *Findings = P->getArray("findings");
  const json::Array *Prios = P->getArray("priorities");
  if (!check(Findings && Prios, "L2", "priority_data",
             "findings[] or priorities[] missing"))
    return;
  double Prev = INFINITY;
  for (size_t I = 0; I < Findings->size(); ++I) {
    const json::Object *F = (*Findings)[I].getAsObject();
    if (!F)
      continue;
    double S = F->getNumber("impact_score").value_or(-INFINITY);
    check(S <= Prev, "L2", "INV1",
          "findings not sorted by impact_score at index " + Twine(I));
    Prev = S;
    check(F->getInteger("global_rank") == int64_t(I + 1), "L2", "INV2",
          "findings[" + Twine(I) + "].global_rank != " + Twine(I + 1));
  }
  for (size_t I = 0; I < Prios->size(); ++I) {
    const json::Object *Pr = (*Prios)[I].getAsObject();
    if (!Pr)
      continue;
    check(Pr->getInteger("rank") == int64_t(I + 1), "L2", "INV3",
          "priorities[" + Twine(I) + "].rank != " + Twine(I + 1));
    if (Pr->getString("source") != StringRef("findings_rollup"))
      continue;
    double Sum = 0;
    for (const json::Value &FV : *Findings)
      if (const json::Object *F = FV.getAsObject())
        if (F->getString("category") == Pr->getString("category") &&
            F->getString("estimate_method") != StringRef("heuristic"))
          Sum += F->getNumber("impact_score").value_or(0);
    double Score = Pr->getNumber("impact_score").value_or(0);
    check(std::fabs(Score - Sum) <= 0.02, "L2", "INV7",
          "priority '" + Pr->getString("category").value_or("") +
              "' impact_score " + fixed(Score, 2) +
              " differs from its findings' sum " + fixed(Sum, 2));
  }
  if (!Manifest)
    return;
  const json::Object *M = Manifest->getAsObject();
  const json::Object *U = M ? M->getObject("gpu_utilization") : nullptr;
  const json::Array *Cats = M ? M->getArray("categories") : nullptr;
  if (!U || !Cats)
    return;
  // coverage_check (WARN): every manifest category has its findings file.
  for (const json::Value &CV : *Cats)
    if (const json::Object *C = CV.getAsObject()) {
      std::string Rel =
          ((C->getString("tier") == StringRef("system") ? "system_findings/"
                                                        : "category_findings/") +
           C->getString("name").value_or("") + "_findings.md")
              .str();
      ++R.Checks;
      if (!sys::fs::exists(path(Rel)))
        warn("L2", "coverage_check", Rel + " missing");
    }
  // Time sanity: Σ compute kernel time vs computation time (WARN).
  double Comp = U->getNumber("total_time_ms").value_or(0) *
                U->getNumber("computation_time_percent").value_or(0) / 100;
  double Sum = 0;
  for (const json::Value &CV : *Cats)
    if (const json::Object *C = CV.getAsObject())
      if (C->getString("tier") == StringRef("compute_kernel"))
        Sum += C->getNumber("gpu_kernel_time_ms").value_or(0);
  ++R.Checks;
  if (Comp <= 0)
    warn("L2", "time_check", "computation time is 0");
  else if (std::fabs(Sum - Comp) / Comp * 100 > 10)
    warn("L2", "time_check",
         "compute categories sum to " + fixed(Sum, 3) +
             " ms but computation time is " + fixed(Comp, 3) +
             " ms (> 10% apart)");
}

void Validator::level3(StringRef Md) {
  check(Md.trim().size() >= 100, "L3", "length",
        "analysis.md is shorter than 100 characters");
  for (StringRef H : {"Executive Summary", "Compute Kernel Optimizations",
                      "Kernel Fusion Opportunities (Experimental)",
                      "System-Level Optimizations", "Detailed Analysis",
                      "Appendix"})
    check(!block(Md, ("## " + H).str()).empty(), "L3", "sections",
          "missing section '## " + H + "'");

  StringRef Exec = block(Md, "## Executive Summary");
  for (StringRef Label : {"Total Time", "Compute %", "Idle %",
                          "Exposed Communication %", "Top Bottleneck Category"})
    check(Exec.contains(("| " + Label + " |").str()), "L3", "exec-table",
          "executive summary table lacks row '" + Label + "'");
  for (StringRef Ph : {"| X ms", "| Y%", "| Z%", "| W%"})
    check(!Exec.contains(Ph), "L3", "exec-table",
          "executive summary has template value '" + Ph + "'");
  for (StringRef Ph : {"<Brief Title>", "<Library>", "<platform>", "<model>",
                       "<architecture>", "<scale>", "<precision>"})
    check(!Md.contains(Ph), "L3", "placeholders",
          "unfilled placeholder '" + Ph + "'");

  // Args cells must name real operations (when metrics files list them).
  if (!Args.empty()) {
    int ArgsCol = -1;
    for (StringRef L : lines(Md)) {
      if (!L.trim().starts_with("|")) {
        ArgsCol = -1;
        continue;
      }
      std::vector<std::string> Cells = splitRow(L);
      if (ArgsCol < 0) {
        for (size_t I = 0; I < Cells.size(); ++I)
          if (Cells[I] == "Args" || Cells[I] == "Args (T1)")
            ArgsCol = I;
        continue;
      }
      if (isSeparatorRow(L) || ArgsCol >= int(Cells.size()))
        continue;
      std::string Plain = plainCell(Cells[ArgsCol]);
      StringRef A = Plain;
      if (A.empty() || A == "—")
        continue;
      check(Args.contains(A) || Args.contains(Cells[ArgsCol]), "L3", "args",
            "Args cell '" + A + "' matches no operations[].args");
    }
  }

  // Fusion impact lines when they carry a score: standalone with the
  // perf-model coverage, comparative (measured gap) with the score alone.
  StringRef Fusion = block(Md, "## Kernel Fusion Opportunities (Experimental)");
  for (StringRef L : lines(Fusion))
    if (L.starts_with("**Impact**") && L.contains("impact_score")) {
      StringRef S = L.split("impact_score:").second.trim();
      StringRef Num = S.take_while([](char C) {
        return isDigit(C) || C == '.';
      });
      StringRef Rest = S.drop_front(Num.size()).trim();
      if (Comparative) {
        check(!Num.empty() && Rest.empty(), "L3", "fusion-impact",
              "comparative fusion impact line '" + L +
                  "' must be 'impact_score: <mid>' alone");
        continue;
      }
      bool Ok = !Num.empty() && Rest.starts_with("(perf-model coverage ") &&
                Rest.ends_with(" kernels)");
      check(Ok, "L3", "fusion-impact",
            "fusion impact line '" + L + "' lacks '(perf-model coverage M/N "
                                         "kernels)'");
    }

  // P-items vs priority_data.json. Where tl's own report keeps other
  // compute groups than the reference (docs/conformance.md, "tl's own
  // report": copies, GEMMs inside fusion candidates, unmodelled ops),
  // analysis.md follows findings.json: the cards are checked against its
  // compute findings, in the same form.
  StringRef Compute = block(Md, "## Compute Kernel Optimizations");
  const json::Object *P = Priority ? Priority->getAsObject() : nullptr;
  const json::Array *Findings = P ? P->getArray("findings") : nullptr;
  const json::Array *Prios = P ? P->getArray("priorities") : nullptr;
  json::Array TlCompute;
  bool TwoFaces = false;
  if (Findings)
    if (std::optional<json::Array> Own = tlComputeItems()) {
      auto Key = [](const json::Value &V) {
        const json::Object *O = V.getAsObject();
        return O ? std::make_tuple(O->getString("category").value_or("").str(),
                                   O->getNumber("impact_score"),
                                   O->getNumber("impact_score_low"),
                                   O->getNumber("impact_score_high"))
                 : std::make_tuple(std::string(), std::optional<double>(),
                                   std::optional<double>(),
                                   std::optional<double>());
      };
      TwoFaces = Own->size() != Findings->size();
      for (size_t I = 0; !TwoFaces && I < Own->size(); ++I)
        TwoFaces = Key((*Own)[I]) != Key((*Findings)[I]);
      if (TwoFaces) {
        TlCompute = std::move(*Own);
        Findings = &TlCompute;
      }
    }
  if (Findings) {
    unsigned Headings = countPHeadings(Compute, "### ");
    check(Headings == Findings->size(), "L3", "R1",
          Twine(Headings) + " compute P-item heading(s) but " +
              Twine(Findings->size()) + " finding(s) in priority_data.json");
    std::vector<Marker> Items;
    for (Marker &M : scanMarkers(Compute))
      if (M.K == Marker::Kind::Begin && M.attr("kind") == "p_item")
        Items.push_back(std::move(M));
    for (size_t I = 0; I < Items.size() && I < Findings->size(); ++I) {
      const json::Object *F = (*Findings)[I].getAsObject();
      if (!F)
        continue;
      check(Items[I].attr("category") == F->getString("category").value_or(""),
            "L3", "R2",
            "P" + Twine(I + 1) + " marker category '" +
                Items[I].attr("category") + "' != findings[" + Twine(I) +
                "].category");
      const char *Keys[][2] = {{"low", "impact_score_low"},
                               {"mid", "impact_score"},
                               {"high", "impact_score_high"}};
      for (auto &K : Keys) {
        std::optional<double> A = parseScore(Items[I].attr(K[0]));
        std::optional<double> B = F->getNumber(K[1]);
        check(A.has_value() == B.has_value() &&
                  (!A || std::fabs(*A - *B) <= 0.005),
              "L3", "R3",
              "P" + Twine(I + 1) + " marker " + K[0] + "=" +
                  Items[I].attr(K[0]) + " != findings[" + Twine(I) + "]." +
                  K[1]);
      }
    }
  }
  // R4: top_ops rows = priorities.
  std::vector<Marker> All = scanMarkers(Md);
  bool TopOps = false;
  for (size_t I = 0; I < All.size(); ++I) {
    if (All[I].K != Marker::Kind::Begin || All[I].attr("kind") != "top_ops")
      continue;
    TopOps = true;
    size_t End = Md.size();
    for (size_t J = I + 1; J < All.size(); ++J)
      if (All[J].K == Marker::Kind::End) {
        End = All[J].Offset;
        break;
      }
    unsigned Rows = 0;
    for (StringRef L : lines(Md.slice(All[I].Offset, End)))
      if (L.trim().starts_with("|"))
        ++Rows;
    Rows = Rows >= 2 ? Rows - 2 : 0; // header and separator
    if (Prios && !TwoFaces)
      check(Rows == Prios->size(), "L3", "R4",
            Twine(Rows) + " top-operations row(s) but " +
                Twine(Prios->size()) + " priorities");
  }
  check(TopOps, "L3", "markers", "no kind=top_ops marker");

  // R5: detailed-analysis headings vs candidates per subsection.
  StringRef Detailed = block(Md, "## Detailed Analysis");
  for (auto [Sub, Tier] :
       {std::pair<StringRef, StringRef>{"### Compute Kernel Insights", "compute"},
        {"### Kernel Fusion Insights", "fusion"},
        {"### System-Level Insights", "system"}}) {
    StringRef B = block(Detailed, Sub);
    unsigned H = countPHeadings(B, "#### ");
    unsigned C = 0;
    for (const Marker &M : scanMarkers(B))
      C += M.K == Marker::Kind::Candidate && M.attr("tier") == Tier;
    if (H > 0)
      check(H == C, "L3", "R5",
            Sub.drop_front(4) + ": " + Twine(H) + " heading(s) but " +
                Twine(C) + " reasoning candidate(s)");
  }
  checkMarkers(Md, "L3", R);
}

void Validator::tlChecks(StringRef Md) {
  // Linked images exist; every #anchor link resolves.
  size_t Pos = 0;
  while ((Pos = Md.find("](", Pos)) != StringRef::npos) {
    size_t End = Md.find(')', Pos);
    if (End == StringRef::npos)
      break;
    StringRef Target = Md.slice(Pos + 2, End);
    Pos = End;
    if (Target.starts_with("#")) {
      std::string Id = ("id=\"" + Target.drop_front() + "\"").str();
      check(Md.contains(Id), "tl", "anchors",
            "link to missing anchor '" + Target + "'");
    } else if (!Target.contains("://") && !Target.starts_with("data:")) {
      check(sys::fs::exists(path(Target)), "tl", "links",
            "linked file '" + Target + "' does not exist");
    }
  }
  for (StringRef F : {"findings.json", "performance_breakdown.svg",
                      "gpu_timeline.svg"})
    check(sys::fs::exists(path(F)), "tl", "files", Twine(F) + " missing");
  truthChecks(Md);
  shareChecks(Md);
  renderChecks();
}

void Validator::truthChecks(StringRef Md) {
  // tl's own report must be true: one ranking 1..N, no expected saving
  // above the whole run, one value per quantity (the executive summary's
  // exposed communication = findings.json's = the communication finding's).
  auto num = [](double X) { return printfDouble("%g", X); };
  std::optional<std::string> Text = readFile(path("findings.json"));
  if (!Text)
    return;
  Expected<json::Value> V = parseJsonBounded(*Text);
  if (!V) {
    error("tl", "truth", "findings.json: " + toString(V.takeError()));
    return;
  }
  const json::Object *O = V->getAsObject();
  const json::Array *Fs = O ? O->getArray("findings") : nullptr;
  if (!Fs)
    return;
  const json::Object *U = O->getObject("gpu_utilization");
  std::optional<double> Exposed =
      U ? U->getNumber("exposed_comm_time_percent") : std::nullopt;
  std::vector<int64_t> Ranks;
  for (const json::Value &FV : *Fs) {
    const json::Object *F = FV.getAsObject();
    if (!F)
      continue;
    StringRef Id = F->getString("id").value_or("");
    if (std::optional<int64_t> G = F->getInteger("global_rank"))
      Ranks.push_back(*G);
    const json::Array *Ms = F->getArray("metrics");
    if (!Ms)
      continue;
    for (const json::Value &MV : *Ms) {
      const json::Object *M = MV.getAsObject();
      if (!M)
        continue;
      StringRef Name = M->getString("name").value_or("");
      std::optional<double> X = M->getNumber("value");
      if (!X)
        continue;
      if (Name.starts_with("impact_score"))
        check(*X <= 100, "tl", "truth",
              Id + ": " + Name + " " + num(*X) + " > 100 % of E2E");
      if (Name == "exposed_percent_of_total" && Exposed && !Comparative)
        check(std::fabs(*X - *Exposed) <= 0.01, "tl", "truth",
              Id + ": exposed communication " + num(*X) +
                  " % != gpu_utilization's " + num(*Exposed) + " %");
    }
  }
  timeChecks(*Fs, U ? U->getNumber("total_time_ms") : std::nullopt);
  llvm::sort(Ranks);
  bool Contiguous = true;
  for (size_t I = 0; I < Ranks.size(); ++I)
    Contiguous &= Ranks[I] == int64_t(I + 1);
  check(Ranks.size() == Fs->size() && Contiguous, "tl", "truth",
        "findings.json global_rank is not 1.." + Twine(Fs->size()));
  if (Exposed && !Comparative) {
    StringRef Exec = block(Md, "## Executive Summary");
    size_t P = Exec.find("| Exposed Communication % | ");
    if (P != StringRef::npos) {
      StringRef Cell = Exec.drop_front(P).drop_front(
          StringRef("| Exposed Communication % | ").size());
      Cell = Cell.take_until([](char C) { return C == '%'; });
      double X = 0;
      check(!Cell.trim().getAsDouble(X) &&
                std::fabs(X - *Exposed) <= 0.0051,
            "tl", "truth",
            "executive summary exposed communication '" + Cell +
                "%' != findings.json " + num(*Exposed) + " %");
    }
  }
}

std::optional<json::Array> Validator::tlComputeItems() const {
  std::optional<std::string> Text = readFile(path("findings.json"));
  if (!Text)
    return std::nullopt;
  Expected<json::Value> V = parseJsonBounded(*Text);
  if (!V) {
    consumeError(V.takeError());
    return std::nullopt;
  }
  const json::Object *O = V->getAsObject();
  const json::Array *Fs = O ? O->getArray("findings") : nullptr;
  if (!Fs)
    return std::nullopt;
  json::Array Out;
  for (const json::Value &FV : *Fs) {
    const json::Object *F = FV.getAsObject();
    if (!F || F->getString("tier") != StringRef("compute"))
      continue;
    json::Object Item;
    // As ReportModel: the category_key metric, else the category's key.
    Item["category"] = categoryKey(F->getString("category").value_or(""));
    if (const json::Array *Ms = F->getArray("metrics"))
      for (const json::Value &MV : *Ms)
        if (const json::Object *M = MV.getAsObject()) {
          StringRef N = M->getString("name").value_or("");
          if (N == "category_key")
            Item["category"] = M->getString("value").value_or("").str();
          else if (N == "impact_score" || N == "impact_score_low" ||
                   N == "impact_score_high")
            if (std::optional<double> X = M->getNumber("value"))
              Item[N.str()] = *X;
        }
    // No impact metrics: the finding's own quantified impact (as
    // ReportModel reads it), which findings.json gives as impact.score.
    const json::Object *Imp = F->getObject("impact");
    const json::Object *Score = Imp ? Imp->getObject("score") : nullptr;
    if (!Item.get("impact_score") && Score &&
        Imp->getBoolean("quantified").value_or(false))
      for (auto [From, To] : {std::pair<StringRef, StringRef>{"low",
                                                            "impact_score_low"},
                              {"mid", "impact_score"},
                              {"high", "impact_score_high"}})
        if (std::optional<double> X = Score->getNumber(From))
          Item[To.str()] = *X;
    Out.push_back(std::move(Item));
  }
  return Out;
}

/// Kernel name -> total time (µs) from perf_report_csvs/kernel_summary.csv,
/// the trace's own kernel times.
static StringMap<double> kernelTotals(StringRef Text) {
  StringMap<double> Out;
  Expected<std::vector<CsvRow>> Rows = parseCsv(Text);
  if (!Rows) {
    consumeError(Rows.takeError());
    return Out;
  }
  if (Rows->empty())
    return Out;
  const CsvRow &H = Rows->front();
  auto Col = [&](StringRef N) -> int {
    for (size_t I = 0; I < H.size(); ++I)
      if (H[I] == N)
        return int(I);
    return -1;
  };
  int Name = Col("Kernel name"), Sum = Col("Kernel duration (µs)_sum");
  if (Name < 0 || Sum < 0)
    return Out;
  for (size_t I = 1; I < Rows->size(); ++I) {
    const CsvRow &R = (*Rows)[I];
    double D = 0;
    if (size_t(std::max(Name, Sum)) < R.size() &&
        !StringRef(R[Sum]).getAsDouble(D))
      Out[R[Name]] += D;
  }
  return Out;
}

/// "Kernel 2: Memset (Device)" -> "Memset (Device)".
static StringRef dropKernelIndex(StringRef K) {
  K = K.trim();
  if (K.starts_with("Kernel ")) {
    size_t P = K.find(": ");
    if (P != StringRef::npos)
      return K.drop_front(P + 2);
  }
  return K;
}

void Validator::timeChecks(const json::Array &Fs,
                           std::optional<double> WindowMs) {
  // From the trace itself: no finding's time exceeds the analysis window
  // (gpu_utilization.total_time_ms); a fusion candidate's time does not
  // exceed what its kernels ran (kernel_summary.csv); no copy or set is
  // rated against a roofline as compute work.
  auto num = [](double X) { return printfDouble("%g", X); };
  std::optional<StringMap<double>> Kernels;
  if (std::optional<std::string> KS =
          readFile(path("perf_report_csvs/kernel_summary.csv")))
    Kernels = kernelTotals(*KS);
  for (const json::Value &FV : Fs) {
    const json::Object *F = FV.getAsObject();
    if (!F)
      continue;
    StringRef Id = F->getString("id").value_or("");
    std::optional<double> TimeMs;
    std::string BoundType;
    if (const json::Array *Ms = F->getArray("metrics"))
      for (const json::Value &MV : *Ms) {
        const json::Object *M = MV.getAsObject();
        if (!M)
          continue;
        StringRef Name = M->getString("name").value_or("");
        if (Name == "bound_type")
          BoundType = M->getString("value").value_or("").str();
        std::optional<double> X = M->getNumber("value");
        if (!X)
          continue;
        if (Name == "time_ms")
          TimeMs = *X;
        if (WindowMs && *WindowMs > 0 && !Comparative &&
            (Name == "time_ms" || Name == "savings_ms" ||
             Name == "fusion_overlap_ms"))
          check(*X <= *WindowMs + 0.0015, "tl", "truth",
                Id + ": " + Name + " " + num(*X) +
                    " ms > the analysis window's " + num(*WindowMs) + " ms");
      }
    const json::Array *Ev = F->getArray("evidence");
    const json::Object *First =
        Ev && !Ev->empty() ? (*Ev)[0].getAsObject() : nullptr;
    const json::Array *Cols = First ? First->getArray("columns") : nullptr;
    const json::Array *Rows = First ? First->getArray("rows") : nullptr;
    int KCol = -1;
    if (Cols)
      for (size_t I = 0; I < Cols->size(); ++I)
        if ((*Cols)[I].getAsString() == StringRef("kernel"))
          KCol = int(I);
    if (KCol < 0 || !Rows)
      continue;
    std::vector<std::string> Names;
    for (const json::Value &RV : *Rows)
      if (const json::Array *R = RV.getAsArray())
        if (size_t(KCol) < R->size())
          if (std::optional<StringRef> K = (*R)[KCol].getAsString())
            Names.push_back(K->str());
    if (F->getString("tier") == StringRef("fusion") && TimeMs && Kernels &&
        !Kernels->empty()) {
      double RanUs = 0;
      std::set<std::string> Seen;
      for (const std::string &K : Names)
        if (Seen.insert(K).second) {
          auto It = Kernels->find(K);
          RanUs += It == Kernels->end() ? 0 : It->second;
        }
      check(*TimeMs <= RanUs / 1000 + 0.0015, "tl", "truth",
            Id + ": fusion candidate time " + num(*TimeMs) +
                " ms > the " + num(RanUs / 1000) +
                " ms its kernels ran in the trace");
    }
    if (F->getString("tier") == StringRef("compute") &&
        (BoundType == "memory" || BoundType == "compute") && !Names.empty()) {
      bool AllCopies = all_of(Names, [](const std::string &K) {
        SmallVector<StringRef, 4> Parts;
        StringRef(K).split(Parts, "<br>", -1, false);
        return !Parts.empty() && all_of(Parts, [](StringRef P) {
          return isCopyOrSetName(dropKernelIndex(P));
        });
      });
      check(!AllCopies, "tl", "truth",
            Id + ": copies / sets rated as " + BoundType +
                "-bound compute kernels (a copy is limited by its link)");
    }
  }
}

void Validator::shareChecks(StringRef Md) {
  // A share column ("% of ...", "share_pct") of one table: no cell above
  // 100 and a sum that does not exceed 100 (each cell may be rounded by
  // half a unit of its last decimal, 0.05 for one decimal).
  auto Ls = lines(Md);
  for (size_t I = 0; I + 1 < Ls.size(); ++I) {
    if (!Ls[I].trim().starts_with("|") || !isSeparatorRow(Ls[I + 1]) ||
        (I > 0 && Ls[I - 1].trim().starts_with("|")))
      continue;
    std::vector<std::string> Head = splitRow(Ls[I]);
    for (size_t C = 0; C < Head.size(); ++C) {
      StringRef H = Head[C];
      if (!H.starts_with("% of") && H != "share_pct")
        continue;
      double Sum = 0;
      unsigned Rows = 0;
      size_t J = I + 2;
      for (; J < Ls.size() && Ls[J].trim().starts_with("|"); ++J) {
        std::vector<std::string> Cells = splitRow(Ls[J]);
        double V;
        if (C >= Cells.size() ||
            StringRef(Cells[C]).trim().rtrim('%').getAsDouble(V))
          continue;
        check(V <= 100.05, "tl", "shares",
              "table '" + H + "' has a share of " + Cells[C] + " (> 100%)");
        Sum += V;
        ++Rows;
      }
      check(Sum <= 100 + 0.05 * Rows + 1e-9, "tl", "shares",
            "table column '" + H + "' sums to " + fixed(Sum, 2) +
                "% (> 100%)");
      // Top Operations states what its shares are of: listed must be the
      // column's sum, listed + not listed 100 %.
      if (H != "% of Kernel Time")
        continue;
      for (; J < Ls.size() && J < I + 8; ++J) {
        StringRef L = Ls[J];
        size_t P = L.find(": listed ");
        if (!L.starts_with("Shares are of the ") || P == StringRef::npos)
          continue;
        StringRef Rest = L.drop_front(P + StringRef(": listed ").size());
        double Listed = 0, NotListed = 0;
        StringRef A = Rest.take_until([](char Ch) { return Ch == '%'; });
        Rest = Rest.drop_front(A.size());
        bool Ok = !A.getAsDouble(Listed) && Rest.consume_front("%, not listed ");
        StringRef B = Rest.take_until([](char Ch) { return Ch == '%'; });
        Ok = Ok && !B.getAsDouble(NotListed);
        if (!check(Ok, "tl", "shares",
                   "cannot read the Top Operations share line '" + L + "'"))
          break;
        check(std::fabs(Listed - Sum) <= 0.05 * Rows + 0.05 + 1e-9, "tl",
              "shares",
              "Top Operations rows sum to " + fixed(Sum, 1) +
                  "% but the table says listed " + fixed(Listed, 1) + "%");
        check(std::fabs(Listed + NotListed - 100) <= 0.1 + 1e-9, "tl",
              "shares",
              "Top Operations listed " + fixed(Listed, 1) + "% + not listed " +
                  fixed(NotListed, 1) + "% != 100%");
        break;
      }
    }
  }
}

/// Text content of cmark-gfm's HTML: tags dropped (each a line break, so
/// names in adjacent cells do not join), entities decoded.
std::string htmlText(StringRef Html) {
  std::string Out;
  for (size_t I = 0; I < Html.size(); ++I) {
    char C = Html[I];
    if (C == '<') {
      size_t E = Html.find('>', I);
      if (E == StringRef::npos)
        break;
      Out += '\n';
      I = E;
      continue;
    }
    if (C == '&') {
      size_t E = Html.find(';', I);
      StringRef Ent = E == StringRef::npos ? "" : Html.slice(I + 1, E);
      static constexpr struct {
        const char *Name, *Text;
      } Named[] = {
          {"lt", "<"}, {"gt", ">"}, {"amp", "&"}, {"quot", "\""},
          {"apos", "'"}};
      bool Done = false;
      for (const auto &N : Named)
        if (Ent == N.Name) {
          Out += N.Text;
          Done = true;
        }
      unsigned Code = 0;
      if (!Done && Ent.consume_front("#") &&
          !(Ent.consume_front("x") || Ent.consume_front("X")
                ? Ent.getAsInteger(16, Code)
                : Ent.getAsInteger(10, Code)) &&
          Code < 0x80) {
        Out += char(Code);
        Done = true;
      }
      if (Done) {
        I = E;
        continue;
      }
    }
    Out += C;
  }
  return Out;
}

void Validator::renderChecks() {
  // Every kernel and op name of findings.json must show exactly as it is
  // once analysis.md is rendered by a CommonMark/GFM renderer (raw HTML
  // omitted, as GitHub does): a `<...>` name read as a tag disappears.
  std::optional<std::string> Text = readFile(path("findings.json"));
  if (!Text)
    return;
  Expected<json::Value> V = parseJsonBounded(*Text);
  if (!V) {
    consumeError(V.takeError());
    return;
  }
  std::vector<std::string> Names;
  StringSet<> Seen;
  const json::Object *O = V->getAsObject();
  if (const json::Array *Fs = O ? O->getArray("findings") : nullptr)
    for (const json::Value &FV : *Fs)
      if (const json::Object *F = FV.getAsObject())
        if (const json::Array *Ls = F->getArray("locations"))
          for (const json::Value &LV : *Ls)
            if (const json::Object *L = LV.getAsObject()) {
              StringRef K = L->getString("kind").value_or("");
              std::optional<StringRef> N = L->getString("name");
              if ((K == "kernel" || K == "op") && N && !N->empty() &&
                  Seen.insert(*N).second)
                Names.push_back(N->str());
            }
  if (Names.empty())
    return;
  ErrorOr<std::string> Cmark = sys::findProgramByName("cmark-gfm");
  if (!Cmark) {
    ++R.Checks;
    warn("tl", "names-render",
         "cmark-gfm not found on PATH: rendering of kernel/op names not "
         "checked (Debian package cmark-gfm)");
    return;
  }
  SmallString<128> Out;
  int FD;
  if (sys::fs::createTemporaryFile("tl-validate", "html", FD, Out)) {
    warn("tl", "names-render", "no temporary file for cmark-gfm's output");
    return;
  }
  sys::Process::SafelyCloseFileDescriptor(FD);
  FileRemover Remove(Out);
  std::string Md = path("analysis.md");
  StringRef Args[] = {*Cmark, "--extension", "table", "--extension",
                      "strikethrough", "--extension", "autolink", Md};
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out),
                                          StringRef("")};
  std::string Err;
  int RC = sys::ExecuteAndWait(*Cmark, Args, std::nullopt, Redirects, 60, 0,
                               &Err);
  std::optional<std::string> Html = readFile(Out);
  if (!check(RC == 0 && Html, "tl", "names-render",
             "cmark-gfm failed on analysis.md" +
                 (Err.empty() ? std::string() : ": " + Err)))
    return;
  std::string Shown = htmlText(*Html);
  for (const std::string &N : Names)
    check(StringRef(Shown).contains(N), "tl", "names-render",
          "name '" + N + "' from findings.json does not render verbatim in "
                         "analysis.md");
}

void Validator::run() {
  std::optional<std::string> Md = readFile(path("analysis.md"));
  if (!check(Md.has_value(), "L3", "exists", "analysis.md missing"))
    return;
  loadJson();
  level1(*Md);
  level2();
  level3(*Md);
  tlChecks(*Md);
  if (std::optional<std::string> F = readFile(path("findings.json")))
    checkFindingsSchema(*F, "findings.json", R);
  checkManifest(Dir, R);
}

} // namespace

void checkMarkers(StringRef Text, StringRef Level, ValidationResult &R) {
  auto Err = [&](const Twine &Msg) {
    R.Issues.push_back(
        {ValidationIssue::Kind::Error, Level.str(), "markers", Msg.str()});
  };
  unsigned Begins = 0, Ends = 0;
  for (const Marker &M : scanMarkers(Text)) {
    if (M.K == Marker::Kind::End)
      ++Ends;
    if (M.K == Marker::Kind::Candidate) {
      ++R.Checks;
      std::string Rank = M.attr("rank");
      unsigned N;
      if (M.attr("tier").empty() || StringRef(Rank).getAsInteger(10, N))
        Err("reasoning-candidate needs tier=<word> rank=<int>");
    }
    if (M.K != Marker::Kind::Begin)
      continue;
    ++Begins;
    ++R.Checks;
    std::string Kind = M.attr("kind");
    if (Kind.empty()) {
      Err("impact-begin without kind");
      continue;
    }
    SmallVector<StringRef, 3> Req;
    if (Kind == "p_item")
      Req = {"low", "mid", "high"};
    else if (Kind == "detail_estimate")
      Req = {"low", "high"};
    else if (Kind != "top_ops") {
      Err("unknown marker kind '" + Kind + "'");
      continue;
    }
    for (StringRef A : Req)
      if (!M.has(A))
        Err("kind=" + Kind + " marker lacks " + A);
    unsigned Present = 0, Nulls = 0;
    for (StringRef A : {"low", "mid", "high"})
      if (M.has(A)) {
        ++Present;
        if (M.attr(A) == "null")
          ++Nulls;
        else if (!parseScore(M.attr(A)))
          Err("kind=" + Kind + " marker: " + A + "=" + M.attr(A) +
              " is not a number");
      }
    if (Nulls != 0 && Nulls != Present)
      Err("kind=" + Kind + " marker mixes null and numeric scores");
  }
  ++R.Checks;
  if (Begins != Ends)
    Err(Twine(Begins) + " impact-begin marker(s) but " + Twine(Ends) +
        " impact-end");
}

/// A file tl-opt writes: a report file name at the top, or anything in one
/// of the report's folders (a job's rank<N>/ included).
static bool looksLikeReportFile(StringRef Rel) {
  auto [Top, Rest] = Rel.split('/');
  if (Rest.empty())
    return is_contained({"analysis.md", "analysis.html", "findings.json",
                         "priority_data.json", "memory_timeline.json",
                         "critical_path.json", "diff.md",
                         "trace_annotated.json.gz", "perf_report.xlsx"},
                        Top) ||
           Top.ends_with(".svg");
  if (is_contained({"category_data", "metadata", "perf_report_csvs",
                    "category_findings", "system_findings", "multirank"},
                   Top))
    return true;
  StringRef N = Top;
  return N.consume_front("rank") && !N.empty() && all_of(N, isDigit) &&
         looksLikeReportFile(Rest);
}

void checkManifest(StringRef Dir, ValidationResult &R) {
  std::optional<std::vector<std::string>> M =
      OutputTransaction::readManifest(Dir);
  if (!M)
    return; // a reference report, or one of an older tl
  auto Err = [&](const Twine &Msg) {
    R.Issues.push_back(
        {ValidationIssue::Kind::Error, "tl", "manifest", Msg.str()});
  };
  StringSet<> Listed;
  for (const std::string &F : *M) {
    Listed.insert(F);
    ++R.Checks;
    SmallString<256> P(Dir);
    sys::path::append(P, F);
    if (!sys::fs::exists(P))
      Err(F + ": listed in " + ReportManifestName + " but missing");
  }
  for (const std::string &F : OutputTransaction::listFiles(Dir)) {
    ++R.Checks;
    if (!Listed.contains(F) && looksLikeReportFile(F))
      Err(F + ": not in " + ReportManifestName +
          ": a stale file of an earlier run (remove it)");
  }
}

ValidationResult validateReport(StringRef Dir) {
  ValidationResult R;
  Validator(Dir, R).run();
  return R;
}

} // namespace tl
