//===- ReportTestPasses.cpp - Findings from a JSON description ------------===//
//
// `test-findings{file=<spec.json>}` emits the findings (and pass artifacts)
// described in the file, exactly as a real pass would through FindingSink:
//
//   {"findings": [{"tier": "compute", "category": "gemm", "title": "...",
//                  "key": "...", "metrics": {"impact_score": 3.91, ...},
//                  "impact": [low, mid, high] | "heuristic",
//                  "evidence": [{"title": "", "columns": [..], "rows": [[..]]}],
//                  "action": "...", "mechanism": "...", "expect": "...",
//                  "ops": ["aten::mm"], "kernels": ["k"], "events": [uid],
//                  "severity": "high", "notes": [".."]}],
//    "artifacts": {"category_data/gemm_metrics.json": {...}}}
//
// An artifact category_data/<key>_metrics.json is handed over as the
// category's typed metrics (categoryMetrics), as a real pass does.
//
// Metric keys are emitted in sorted order; integral JSON numbers become
// integer metrics. Keys that name a typed fact (FindingFacts' findings.json
// names) set that fact too, as the pass's typed setter would.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"
#include "tl/Report/FindingSink.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tl;
using namespace llvm;

namespace {

std::optional<Value> toValue(const json::Value &V) {
  if (auto I = V.getAsInteger())
    return Value(*I);
  if (auto D = V.getAsNumber())
    return Value(*D);
  if (auto S = V.getAsString())
    return Value(S->str());
  if (auto B = V.getAsBoolean())
    return Value(*B);
  return std::nullopt;
}

std::optional<double> num(const Value &V) {
  if (const double *D = std::get_if<double>(&V))
    return *D;
  if (const int64_t *I = std::get_if<int64_t>(&V))
    return static_cast<double>(*I);
  return std::nullopt;
}
std::optional<int64_t> count(const Value &V) {
  if (std::optional<double> D = num(V))
    return static_cast<int64_t>(*D);
  return std::nullopt;
}
std::string text(const Value &V) {
  const std::string *S = std::get_if<std::string>(&V);
  return S ? *S : std::string();
}

/// The description's metric K = V on F: listed, and its fact set.
void addMetric(Finding &F, StringRef K, const Value &V) {
  F.Metrics.push_back({K.str(), V, ""});
  FindingFacts &X = F.Facts;
  auto Score = [&]() -> ImpactScore & {
    if (!X.Score)
      X.Score = ImpactScore{};
    return *X.Score;
  };
  if (K == "time_ms")
    X.TimeMs = num(V);
  else if (K == "percent_of_total")
    X.PercentOfTotal = num(V);
  else if (K == "exposed_percent_of_total")
    X.ExposedPercentOfTotal = num(V);
  else if (K == "impact_score" && num(V))
    Score().Mid = *num(V);
  else if (K == "impact_score_low" && num(V))
    Score().Low = num(V);
  else if (K == "impact_score_high" && num(V))
    Score().High = num(V);
  else if (K == "estimate_method")
    X.EstimateMethod = text(V);
  else if (K == "member_count")
    X.MemberCount = count(V);
  else if (K == "instance_count")
    X.InstanceCount = count(V);
  else if (K == "kernel_count")
    X.KernelCount = count(V);
  else if (K == "modeled_kernel_count")
    X.ModeledKernelCount = count(V);
  else if (K == "rank")
    X.Rank = count(V);
  else if (K == "category_key")
    X.CategoryKey = text(V);
  else if (K == "bound_type")
    X.BoundType = text(V);
  else if (K == "library")
    X.Library = text(V);
  else if (K == "eff_bucket")
    X.EffBucket = text(V);
  else if (K == "fusion_type")
    X.FusionType = text(V);
  else if (K == "confidence")
    X.Confidence = text(V);
  else if (K == "estimation")
    X.Estimation = text(V);
  else if (K == "efficiency_pct")
    X.EfficiencyPct = num(V);
  else if (K == "flops_per_byte")
    X.FlopsPerByte = num(V);
  else if (K == "report_face" && (text(V) == "tl" || text(V) == "reference"))
    X.OnlyFace = text(V) == "tl" ? ReportFace::Tl : ReportFace::Reference;
}

std::vector<StringRef> sortedKeys(const json::Object &O) {
  std::vector<StringRef> K;
  for (const auto &KV : O)
    K.push_back(KV.first);
  llvm::sort(K);
  return K;
}

/// V as a PyValue: integral numbers as ints, object members sorted (what
/// json::Object iterates in is not an order).
PyValue toPyValue(const json::Value &Root) {
  // Explicit stack: the test files nest a few levels, but stay bounded.
  struct Frame {
    const json::Value *V;
    std::vector<StringRef> Keys; // objects: members left, sorted
    size_t Next = 0;
    std::vector<PyValue> Elems;
    std::vector<std::pair<std::string, PyValue>> Items;
  };
  auto Scalar = [](const json::Value &V) {
    if (auto B = V.getAsBoolean())
      return PyValue::boolean(*B);
    if (auto I = V.getAsInteger())
      return PyValue::integer(*I);
    if (auto D = V.getAsNumber())
      return PyValue::real(*D);
    if (auto S = V.getAsString())
      return PyValue::str(*S);
    return PyValue::none();
  };
  auto Open = [](const json::Value &V) {
    Frame F;
    F.V = &V;
    if (const json::Object *O = V.getAsObject())
      F.Keys = sortedKeys(*O);
    return F;
  };
  auto IsContainer = [](const json::Value &V) {
    return V.getAsObject() || V.getAsArray();
  };
  if (!IsContainer(Root))
    return Scalar(Root);
  std::vector<Frame> Stack;
  Stack.push_back(Open(Root));
  for (;;) {
    Frame &F = Stack.back();
    const json::Object *O = F.V->getAsObject();
    size_t N = O ? F.Keys.size() : F.V->getAsArray()->size();
    if (F.Next == N) {
      PyValue Done = O ? PyValue::dict(std::move(F.Items))
                       : PyValue::list(std::move(F.Elems));
      Stack.pop_back();
      if (Stack.empty())
        return Done;
      Frame &P = Stack.back();
      if (P.V->getAsObject())
        P.Items.emplace_back(P.Keys[P.Next - 1].str(), std::move(Done));
      else
        P.Elems.push_back(std::move(Done));
      continue;
    }
    const json::Value &C =
        O ? *O->get(F.Keys[F.Next]) : (*F.V->getAsArray())[F.Next];
    ++F.Next;
    if (IsContainer(C)) {
      Stack.push_back(Open(C));
      continue;
    }
    if (O)
      F.Items.emplace_back(F.Keys[F.Next - 1].str(), Scalar(C));
    else
      F.Elems.push_back(Scalar(C));
  }
}

class FindingsFromFile : public PassBase<FindingsFromFile> {
public:
  static constexpr StringLiteral Argument = "test-findings";
  static constexpr StringLiteral Description =
      "Emits the findings described in a JSON file";
  Option<std::string> file{*this, "file", desc("JSON description"),
                           init("")};

  Error run(const Trace &, AnalysisManager &, FindingSink &Sink) override {
    auto Buf = MemoryBuffer::getFile(*file);
    if (!Buf)
      return createStringError(Buf.getError(), *file + ": cannot read");
    Expected<json::Value> Doc = json::parse((*Buf)->getBuffer());
    if (!Doc)
      return Doc.takeError();
    const json::Object *Root = Doc->getAsObject();
    if (!Root)
      return createStringError(inconvertibleErrorCode(), "not an object");
    if (const json::Array *Fs = Root->getArray("findings"))
      for (const json::Value &FV : *Fs) {
        const json::Object *F = FV.getAsObject();
        if (!F)
          continue;
        auto T = parseTier(F->getString("tier").value_or("compute"));
        if (!T)
          return createStringError(inconvertibleErrorCode(), "bad tier");
        FindingBuilder B = Sink.finding(*T, F->getString("category").value_or(""),
                                        F->getString("title").value_or(""));
        if (auto K = F->getString("key"))
          B.key(*K);
        if (const json::Object *Ms = F->getObject("metrics"))
          for (StringRef K : sortedKeys(*Ms)) {
            std::optional<Value> V = toValue(*Ms->get(K));
            if (!V)
              continue;
            addMetric(B.get(), K, *V);
          }
        if (const json::Array *I = F->getArray("impact"); I && I->size() == 3)
          B.impact((*I)[0].getAsNumber().value_or(0),
                   (*I)[1].getAsNumber().value_or(0),
                   (*I)[2].getAsNumber().value_or(0), "quantified");
        else if (F->getString("impact") == StringRef("heuristic"))
          B.nonQuantified("heuristic");
        if (const json::Array *Ev = F->getArray("evidence"))
          for (const json::Value &TV : *Ev) {
            const json::Object *TO = TV.getAsObject();
            if (!TO)
              continue;
            EvidenceTable Tab;
            Tab.Title = TO->getString("title").value_or("").str();
            if (const json::Array *C = TO->getArray("columns"))
              for (const json::Value &CV : *C)
                Tab.Columns.push_back(CV.getAsString().value_or("").str());
            if (const json::Array *Rs = TO->getArray("rows"))
              for (const json::Value &RV : *Rs) {
                std::vector<Value> Row;
                if (const json::Array *RA = RV.getAsArray())
                  for (const json::Value &CV : *RA)
                    Row.push_back(toValue(CV).value_or(Value(std::string())));
                Tab.Rows.push_back(std::move(Row));
              }
            B.evidence(std::move(Tab));
          }
        if (auto S = F->getString("action"))
          B.action(*S);
        if (auto S = F->getString("mechanism"))
          B.mechanism(*S);
        if (auto S = F->getString("expect"))
          B.expect(*S);
        if (const json::Array *Ops = F->getArray("ops"))
          for (const json::Value &O : *Ops)
            B.op(O.getAsString().value_or(""));
        if (const json::Array *Ks = F->getArray("kernels"))
          for (const json::Value &K : *Ks)
            B.kernel(K.getAsString().value_or(""));
        if (const json::Array *Es = F->getArray("events"))
          for (const json::Value &E : *Es)
            B.event(E.getAsUINT64().value_or(0));
        if (const json::Array *Ns = F->getArray("notes"))
          for (const json::Value &N : *Ns)
            B.note(N.getAsString().value_or(""));
        if (auto S = F->getString("severity"))
          B.severity(StringSwitch<Severity>(*S)
                         .Case("low", Severity::Low)
                         .Case("medium", Severity::Medium)
                         .Case("high", Severity::High)
                         .Default(Severity::Info));
      }
    if (const json::Object *As = Root->getObject("artifacts"))
      for (StringRef K : sortedKeys(*As)) {
        // A category's metrics are typed data, not a file the pass writes.
        StringRef Key = K;
        if (Key.consume_front("category_data/") &&
            Key.consume_back("_metrics.json")) {
          Sink.categoryMetrics(Key, toPyValue(*As->get(K)));
          continue;
        }
        std::string Text;
        raw_string_ostream OS(Text);
        OS << formatv("{0:2}", *As->get(K));
        if (Error E = Sink.artifact(K, std::move(Text)))
          return E;
      }
    return Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "ReportTestPasses", "1.0",
          [](PassRegistry &R) { R.registerPass<FindingsFromFile>(); }};
}
