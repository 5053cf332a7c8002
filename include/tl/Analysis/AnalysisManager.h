//===- AnalysisManager.h - Lazily computed, shared analyses ----*- C++ -*-===//
//
// Derived data over a Trace (GPU timeline, op table, perf models, ...) is an
// *analysis*: a class with
//
//   static constexpr llvm::StringLiteral Name = "gpu-timeline";
//   X(const Trace &T, AnalysisManager &AM);   // may call AM.get<Other>()
//
// AM.get<X>() computes X once, on first use, and every pass shares the
// result. Results are keyed by the C++ type, so a plugin cannot read another
// type's data; Name must still be unique (it names the analysis in --timing
// and --time-trace): two types with one Name stop the run with
// `tl-opt: error: analysis name 'x' is used by two types: ns::A and ns::B`,
// exit code 2, like a cycle (both are bugs in code, not in the trace). Concurrent callers of the same analysis wait for the one that
// computes it. A dependency cycle (A needs B needs A, on one thread or
// across threads) never deadlocks: it is detected when it closes and reported
// as `tl-opt: error: analysis dependency cycle: a -> b -> a`, then the process
// exits with code 2 (see AnalysisManager.cpp for why it cannot be an Error).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_ANALYSISMANAGER_H
#define TL_ANALYSIS_ANALYSISMANAGER_H

#include "tl/Analysis/AnalysisInstrumentation.h"
#include "tl/Analysis/AnalysisOptions.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl {

class Trace;

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
        getImpl(keyOf<A>(), A::Name, [this]() -> std::shared_ptr<const void> {
          return std::make_shared<const A>(T, *this);
        }));
  }

  /// True when A has already been computed.
  template <typename A> bool isCached() const {
    return isCachedImpl(keyOf<A>());
  }

  /// The identity of analysis type A: its qualified C++ name, the same in
  /// every shared object (no RTTI or template statics needed).
  template <typename A> static llvm::StringRef keyOf() {
    static const std::string Key = typeKeyFrom(__PRETTY_FUNCTION__);
    return Key;
  }

  /// Hooks around every analysis computed from now on (null = none). Set
  /// it before the first get(); not owned.
  void setInstrumentation(AnalysisInstrumentation *I);

private:
  using Factory = std::function<std::shared_ptr<const void>()>;
  /// "A" out of this header's __PRETTY_FUNCTION__ "...[A = ns::X]".
  static std::string typeKeyFrom(llvm::StringRef PrettyFunction);
  // Key: keyOf<A>(); Name: A::Name.
  const void *getImpl(llvm::StringRef Key, llvm::StringRef Name,
                      Factory Make);
  bool isCachedImpl(llvm::StringRef Key) const;

  const Trace &T;
  AnalysisOptions Opts;
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tl

#endif // TL_ANALYSIS_ANALYSISMANAGER_H
