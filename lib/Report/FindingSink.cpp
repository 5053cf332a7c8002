//===- FindingSink.cpp - Per-pass finding collection ----------------------===//
#include "tl/Report/FindingSink.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tl {

FindingBuilder &FindingBuilder::key(StringRef K) {
  F->Key = K.str();
  return *this;
}
FindingBuilder &FindingBuilder::metric(StringRef Name, double V,
                                       StringRef Unit) {
  F->Metrics.push_back({Name.str(), V, Unit.str()});
  return *this;
}
FindingBuilder &FindingBuilder::metric(StringRef Name, int64_t V,
                                       StringRef Unit) {
  F->Metrics.push_back({Name.str(), V, Unit.str()});
  return *this;
}
FindingBuilder &FindingBuilder::metric(StringRef Name, bool V) {
  F->Metrics.push_back({Name.str(), V, ""});
  return *this;
}
FindingBuilder &FindingBuilder::metric(StringRef Name, StringRef V) {
  F->Metrics.push_back({Name.str(), V.str(), ""});
  return *this;
}
FindingBuilder &FindingBuilder::time(double Ms) {
  F->Facts.TimeMs = Ms;
  return metric("time_ms", Ms, "ms");
}
FindingBuilder &FindingBuilder::share(double Pct) {
  F->Facts.PercentOfTotal = Pct;
  return metric("percent_of_total", Pct, "%");
}
FindingBuilder &FindingBuilder::exposedShare(double Pct) {
  F->Facts.ExposedPercentOfTotal = Pct;
  return metric("exposed_percent_of_total", Pct, "%");
}
FindingBuilder &FindingBuilder::score(double Low, double Mid, double High,
                                      StringRef Unit) {
  F->Facts.Score = ImpactScore{Mid, Low, High};
  return metric("impact_score", Mid, Unit)
      .metric("impact_score_low", Low, Unit)
      .metric("impact_score_high", High, Unit);
}
FindingBuilder &FindingBuilder::estimateMethod(StringRef Method) {
  F->Facts.EstimateMethod = Method.str();
  return metric("estimate_method", Method);
}
FindingBuilder &FindingBuilder::members(int64_t N) {
  F->Facts.MemberCount = N;
  return metric("member_count", N);
}
FindingBuilder &FindingBuilder::instances(int64_t N) {
  F->Facts.InstanceCount = N;
  return metric("instance_count", N);
}
FindingBuilder &FindingBuilder::kernels(int64_t N) {
  F->Facts.KernelCount = N;
  return metric("kernel_count", N);
}
FindingBuilder &FindingBuilder::modeledKernels(int64_t N) {
  F->Facts.ModeledKernelCount = N;
  return metric("modeled_kernel_count", N);
}
FindingBuilder &FindingBuilder::rank(int64_t R) {
  F->Facts.Rank = R;
  return metric("rank", R);
}
FindingBuilder &FindingBuilder::categoryKey(StringRef Key) {
  F->Facts.CategoryKey = Key.str();
  return metric("category_key", Key);
}
FindingBuilder &FindingBuilder::boundType(StringRef Bound) {
  F->Facts.BoundType = Bound.str();
  return metric("bound_type", Bound);
}
FindingBuilder &FindingBuilder::library(StringRef Lib) {
  F->Facts.Library = Lib.str();
  return metric("library", Lib);
}
FindingBuilder &FindingBuilder::effBucket(StringRef Bucket) {
  F->Facts.EffBucket = Bucket.str();
  return metric("eff_bucket", Bucket);
}
FindingBuilder &FindingBuilder::fusionType(StringRef Type) {
  F->Facts.FusionType = Type.str();
  return metric("fusion_type", Type);
}
FindingBuilder &FindingBuilder::confidence(StringRef Conf) {
  F->Facts.Confidence = Conf.str();
  return metric("confidence", Conf);
}
FindingBuilder &FindingBuilder::estimation(StringRef How) {
  F->Facts.Estimation = How.str();
  return metric("estimation", How);
}
FindingBuilder &FindingBuilder::efficiency(double Pct) {
  F->Facts.EfficiencyPct = Pct;
  return metric("efficiency_pct", Pct, "%");
}
FindingBuilder &FindingBuilder::flopsPerByte(double V) {
  F->Facts.FlopsPerByte = V;
  return metric("flops_per_byte", V);
}
FindingBuilder &FindingBuilder::onlyIn(ReportFace Face) {
  F->Facts.OnlyFace = Face;
  return metric("report_face", Face == ReportFace::Tl ? "tl" : "reference");
}

FindingBuilder &FindingBuilder::evidence(EvidenceTable Table) {
  F->Evidence.push_back(std::move(Table));
  return *this;
}
FindingBuilder &FindingBuilder::impact(double Low, double Mid, double High,
                                       StringRef Method) {
  F->Imp.Quantified = true;
  F->Imp.LowPct = Low;
  F->Imp.MidPct = Mid;
  F->Imp.HighPct = High;
  F->Imp.Method = Method.str();
  return *this;
}
FindingBuilder &FindingBuilder::nonQuantified(StringRef Method) {
  F->Imp.Quantified = false;
  F->Imp.LowPct = F->Imp.MidPct = F->Imp.HighPct = 0;
  F->Imp.Method = Method.str();
  return *this;
}
FindingBuilder &FindingBuilder::severity(Severity S) {
  F->Imp.Sev = S;
  return *this;
}
FindingBuilder &FindingBuilder::event(uint64_t Uid) {
  Location L;
  L.K = Location::Kind::Event;
  L.Uid = Uid;
  F->Locations.push_back(std::move(L));
  return *this;
}
FindingBuilder &FindingBuilder::op(StringRef Name) {
  Location L;
  L.K = Location::Kind::Op;
  L.Name = Name.str();
  F->Locations.push_back(std::move(L));
  return *this;
}
FindingBuilder &FindingBuilder::kernel(StringRef Name) {
  Location L;
  L.K = Location::Kind::Kernel;
  L.Name = Name.str();
  F->Locations.push_back(std::move(L));
  return *this;
}
FindingBuilder &FindingBuilder::timeRange(double StartUs, double EndUs) {
  Location L;
  L.K = Location::Kind::TimeRange;
  L.StartUs = StartUs;
  L.EndUs = EndUs;
  F->Locations.push_back(std::move(L));
  return *this;
}
FindingBuilder &FindingBuilder::events(ArrayRef<uint32_t> Ids) {
  F->Events.insert(F->Events.end(), Ids.begin(), Ids.end());
  return *this;
}
FindingBuilder &FindingBuilder::insight(StringRef Text) {
  F->Insight = Text.str();
  return *this;
}

FindingBuilder &FindingBuilder::action(StringRef Text) {
  F->Rec.Action = Text.str();
  return *this;
}
FindingBuilder &FindingBuilder::mechanism(StringRef Text) {
  F->Rec.Mechanism = Text.str();
  return *this;
}
FindingBuilder &FindingBuilder::expect(StringRef Text) {
  F->Rec.Expected = Text.str();
  return *this;
}
FindingBuilder &FindingBuilder::note(StringRef Text) {
  F->Notes.push_back(Text.str());
  return *this;
}

FindingSink::FindingSink(StringRef PassName) : PassName(PassName.str()) {}

FindingBuilder FindingSink::finding(Tier T, StringRef Category,
                                    StringRef Title) {
  std::lock_guard<std::mutex> L(M);
  Finding &F = Findings.emplace_back();
  F.T = T;
  F.Pass = PassName;
  F.Category = Category.str();
  F.Title = Title.str();
  return FindingBuilder(&F);
}

size_t FindingSink::size() const {
  std::lock_guard<std::mutex> L(M);
  return Findings.size();
}

/// The first directory (or the file) of a report path, "." components
/// skipped.
static StringRef firstComponent(StringRef Path) {
  for (auto It = sys::path::begin(Path, sys::path::Style::posix),
            E = sys::path::end(Path);
       It != E; ++It)
    if (*It != "." && *It != "/")
      return *It;
  return "";
}

Error FindingSink::artifact(StringRef RelPath, std::string Content) {
  StringRef First = firstComponent(RelPath);
  if (First == "category_data" || First == "metadata" ||
      First == "priority_data.json")
    return createStringError(
        inconvertibleErrorCode(),
        "pass '" + PassName + "' may not write '" + RelPath.str() +
            "': category_data/, metadata/ and priority_data.json are "
            "written by the report from typed data (FindingSink::"
            "categoryMetrics, docs/WritingAPass.md)");
  std::lock_guard<std::mutex> L(M);
  for (Artifact &A : Artifacts)
    if (A.Path == RelPath) {
      A.Content = std::move(Content);
      return Error::success();
    }
  Artifacts.push_back({PassName, RelPath.str(), std::move(Content)});
  return Error::success();
}

void FindingSink::categoryMetrics(StringRef Key, PyValue Doc,
                                  bool TrailingNewline,
                                  JsonSpelling Spelling) {
  ReportData D;
  D.Metrics.push_back({PassName, Key.str(),
                       std::make_shared<const PyValue>(std::move(Doc)),
                       TrailingNewline, Spelling});
  std::lock_guard<std::mutex> L(M);
  Data.append(std::move(D));
}

void FindingSink::multiKernelData(PyValue Doc) {
  std::lock_guard<std::mutex> L(M);
  Data.MultiKernelData = std::make_shared<const PyValue>(std::move(Doc));
}

void FindingSink::fusionCandidates(
    std::vector<FusionCandidateEntry> Candidates) {
  std::lock_guard<std::mutex> L(M);
  Data.FusionCandidates = std::move(Candidates);
}

ReportData FindingSink::takeReportData() {
  std::lock_guard<std::mutex> L(M);
  ReportData Out = std::move(Data);
  Data = ReportData();
  return Out;
}

std::vector<Artifact> FindingSink::takeArtifacts() {
  std::lock_guard<std::mutex> L(M);
  std::vector<Artifact> Out = std::move(Artifacts);
  Artifacts.clear();
  return Out;
}

std::vector<Finding> FindingSink::take() {
  std::lock_guard<std::mutex> L(M);
  std::vector<Finding> Out(std::make_move_iterator(Findings.begin()),
                           std::make_move_iterator(Findings.end()));
  Findings.clear();
  for (Finding &F : Out)
    F.Id = F.computeId();
  return Out;
}

std::vector<Finding> mergeFindings(std::vector<std::vector<Finding>> PerPass) {
  std::vector<Finding> All;
  for (std::vector<Finding> &V : PerPass)
    for (Finding &F : V)
      All.push_back(std::move(F));
  StringMap<unsigned> Seen;
  for (Finding &F : All) {
    if (F.Id.empty())
      F.Id = F.computeId();
    unsigned &N = Seen[F.Id];
    if (++N > 1)
      F.Id += "-" + std::to_string(N);
  }
  return All;
}

} // namespace tl
