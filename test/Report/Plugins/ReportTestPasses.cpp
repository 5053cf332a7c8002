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
// Metric keys are emitted in sorted order; integral JSON numbers become
// integer metrics.
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

std::vector<StringRef> sortedKeys(const json::Object &O) {
  std::vector<StringRef> K;
  for (const auto &KV : O)
    K.push_back(KV.first);
  llvm::sort(K);
  return K;
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
            B.get().Metrics.push_back({K.str(), *V, ""});
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
        std::string Text;
        raw_string_ostream OS(Text);
        OS << formatv("{0:2}", *As->get(K));
        Sink.artifact(K, std::move(Text));
      }
    return Error::success();
  }
};

} // namespace

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "ReportTestPasses", "1.0",
          [](PassRegistry &R) { R.registerPass<FindingsFromFile>(); }};
}
