//===- StatisticsInstrumentation.cpp - --pass-statistics on the hooks -----===//
#include "tl/Driver/Instrumentations.h"
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassManager.h"
#include "tl/Pass/PassOption.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace tl {

std::vector<PassStatisticsRecord>
StatisticsInstrumentation::take(const Trace &T) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(&T);
  if (It == Records.end())
    return {};
  std::vector<PassStatisticsRecord> Out = std::move(It->second);
  Records.erase(It);
  return Out;
}

void StatisticsInstrumentation::runBeforePipeline(
    ArrayRef<std::unique_ptr<Pass>> Passes, const Trace &T) {
  std::lock_guard<std::mutex> L(M);
  std::vector<PassStatisticsRecord> &Rs = Records[&T];
  Rs.clear();
  for (size_t I = 0; I < Passes.size(); ++I) {
    Rs.push_back({Passes[I]->getArgument().str(), 0, {}});
    PassIndex[Passes[I].get()] = I;
  }
}

void StatisticsInstrumentation::runAfterPass(const Pass &P, const Trace &T,
                                             const PassResult &R) {
  // Read the counters outside the lock: they belong to this pass only.
  std::vector<PassStatisticsRecord::Counter> Counters;
  for (const PassStatistic *S : P.statistics())
    Counters.push_back(
        {S->name().str(), S->description().str(), S->getValue()});
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(&T);
  auto I = PassIndex.find(&P);
  if (It == Records.end() || I == PassIndex.end() ||
      I->second >= It->second.size())
    return;
  PassStatisticsRecord &Rec = It->second[I->second];
  Rec.NumFindings = R.Findings.size();
  Rec.Counters = std::move(Counters);
}

void StatisticsInstrumentation::print(raw_ostream &OS,
                                      ArrayRef<PassStatisticsRecord> Records) {
  OS << "===" << std::string(70, '-') << "===\n"
     << "                         ... Pass statistics report ...\n"
     << "===" << std::string(70, '-') << "===\n";
  for (const PassStatisticsRecord &R : Records) {
    OS << R.Pass << "\n";
    OS << format("  (S) %8zu findings - Findings reported\n", R.NumFindings);
    for (const PassStatisticsRecord::Counter &C : R.Counters) {
      OS << format("  (S) %8llu %s", (unsigned long long)C.Value,
                   C.Name.c_str());
      // The description the pass gave its counter.
      if (!C.Description.empty())
        OS << " - " << C.Description;
      OS << "\n";
    }
  }
}

} // namespace tl
