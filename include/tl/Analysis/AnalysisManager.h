//===- AnalysisManager.h - Lazily computed, shared analyses ----*- C++ -*-===//
//
// Derived data over a Trace (GPU timeline, op table, perf models, ...) is an
// *analysis*: a class with
//
//   static constexpr llvm::StringLiteral Name = "gpu-timeline";
//   X(const Trace &T, AnalysisManager &AM);   // may call AM.get<Other>()
//
// AM.get<X>() computes X once, on first use, and every pass shares the
// result. Concurrent callers of the same analysis wait for the one that
// computes it. A dependency cycle (A needs B needs A, on one thread or
// across threads) never deadlocks: it is detected when it closes and reported
// as `tl-opt: error: analysis dependency cycle: a -> b -> a`, then the process
// exits with code 2 (see AnalysisManager.cpp for why it cannot be an Error).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_ANALYSISMANAGER_H
#define TL_ANALYSIS_ANALYSISMANAGER_H

#include "tl/Analysis/AnalysisOptions.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl {

class Trace;

/// Time spent computing one analysis (for --timing).
struct AnalysisTiming {
  std::string Name;
  double WallSeconds = 0;
  double CpuSeconds = 0;
};

class AnalysisManager {
public:
  AnalysisManager(const Trace &T, AnalysisOptions Opts = {});
  ~AnalysisManager();
  AnalysisManager(const AnalysisManager &) = delete;
  AnalysisManager &operator=(const AnalysisManager &) = delete;

  const Trace &trace() const { return T; }
  const AnalysisOptions &options() const { return Opts; }

  /// The analysis of type A, computed on first use. Thread-safe.
  template <typename A> const A &get() {
    return *static_cast<const A *>(
        getImpl(A::Name, [this]() -> std::shared_ptr<const void> {
          return std::make_shared<const A>(T, *this);
        }));
  }

  /// True when A has already been computed.
  template <typename A> bool isCached() const {
    return isCachedImpl(A::Name);
  }

  /// Timings of every analysis computed so far, in completion order.
  std::vector<AnalysisTiming> timings() const;

private:
  using Factory = std::function<std::shared_ptr<const void>()>;
  // Analyses are keyed by their unique Name, so a plugin and the core agree
  // on identity without relying on template statics across shared objects.
  const void *getImpl(llvm::StringRef Name, Factory Make);
  bool isCachedImpl(llvm::StringRef Name) const;

  const Trace &T;
  AnalysisOptions Opts;
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tl

#endif // TL_ANALYSIS_ANALYSISMANAGER_H
