//===- PassInstrumentation.h - Hooks around passes and analyses -*- C++ -*-===//
//
// As MLIR's PassInstrumentation: hooks around the pipeline and every pass.
// The pass manager calls the pass hooks on the thread running the pass,
// concurrently for passes running in parallel; implementations must be
// thread-safe. --timing, --time-trace, --pass-statistics and progress are
// instrumentations (include/tl/Driver/Instrumentations.h). The analysis
// hooks are inherited from AnalysisInstrumentation: the AnalysisManager
// calls them on the thread computing the analysis.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSINSTRUMENTATION_H
#define TL_PASS_PASSINSTRUMENTATION_H

#include "tl/Analysis/AnalysisInstrumentation.h"
#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <vector>

namespace tl {

class Pass;
class Trace;
struct PassResult;

/// The analysis hooks (AnalysisInstrumentation) come with it: a Session
/// hands its instrumentor to every AnalysisManager it makes.
class PassInstrumentation : public AnalysisInstrumentation {
public:
  ~PassInstrumentation() override;
  /// Before any pass of the pipeline starts; Passes in pipeline order.
  virtual void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                                 const Trace &T) {}
  /// After every pass finished; Results in pipeline order.
  virtual void runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                                const Trace &T) {}
  virtual void runBeforePass(const Pass &P, const Trace &T) {}
  /// R holds the pass's findings, failure and statistics.
  virtual void runAfterPass(const Pass &P, const Trace &T,
                            const PassResult &R) {}
};

/// Several instrumentations as one: before-hooks in registration order,
/// after-hooks in reverse, so that registered instrumentations nest.
class PassInstrumentor final : public PassInstrumentation {
public:
  PassInstrumentor();
  ~PassInstrumentor() override;
  void addInstrumentation(std::unique_ptr<PassInstrumentation> PI);
  bool empty() const { return Instrumentations.empty(); }

  void runBeforePipeline(llvm::ArrayRef<std::unique_ptr<Pass>> Passes,
                         const Trace &T) override;
  void runAfterPipeline(llvm::ArrayRef<PassResult> Results,
                        const Trace &T) override;
  void runBeforePass(const Pass &P, const Trace &T) override;
  void runAfterPass(const Pass &P, const Trace &T,
                    const PassResult &R) override;
  void runBeforeAnalysis(llvm::StringRef Name, const Trace &T) override;
  void runAfterAnalysis(const AnalysisTiming &Timing,
                        const Trace &T) override;

private:
  std::vector<std::unique_ptr<PassInstrumentation>> Instrumentations;
};

} // namespace tl

#endif // TL_PASS_PASSINSTRUMENTATION_H
