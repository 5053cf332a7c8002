//===- PassRegistry.h - Known passes and named pipelines -------*- C++ -*-===//
//
// No static constructors: the driver owns one PassRegistry and fills it by
// explicit calls (registerBuiltinPipelines, then each plugin's callback).
// Registration problems (duplicate names) are collected and returned by
// takeError(), because plugin callbacks cannot return errors.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSREGISTRY_H
#define TL_PASS_PASSREGISTRY_H

#include "tl/Pass/Pass.h"
#include "tl/Report/Emitter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl {

using PassFactory = std::function<std::unique_ptr<Pass>()>;
using EmitterFactory = std::function<std::unique_ptr<Emitter>()>;

struct PassInfo {
  std::string Argument;
  std::string Description;
  /// Who registered it ("builtin", a plugin name).
  std::string Origin;
  /// Registered by a plugin that is not built in: the pass manager runs it
  /// in a child process (include/tl/Pass/PassIsolation.h).
  bool Isolated = false;
  PassFactory Factory;
  /// A default-constructed instance for listings and claimed categories.
  std::unique_ptr<Pass> Prototype;
};

struct PipelineInfo {
  std::string Name;
  std::string Description;
  /// Pipeline text the name expands to ("pass-a,pass-b,..."); for a
  /// pipeline built from its members, their names in member order.
  std::string Text;
  /// Built from the passes that declare they join it (Pass::pipelines()),
  /// ordered by (Order, pass name); otherwise Text was given explicitly.
  bool FromMembers = false;
  std::vector<std::pair<int, std::string>> Members;
};

class PassRegistry {
public:
  PassRegistry();
  ~PassRegistry();
  PassRegistry(const PassRegistry &) = delete;
  PassRegistry &operator=(const PassRegistry &) = delete;

  /// Register a pass from its factory. The pass name comes from an instance.
  void registerPass(PassFactory Factory);
  template <typename P> void registerPass() {
    registerPass([] { return std::unique_ptr<Pass>(new P()); });
  }
  /// Register a named pipeline: a pipeline text that may reference passes
  /// registered later (resolved when parsed). Passes cannot join it.
  void registerPipeline(llvm::StringRef Name, llvm::StringRef Description,
                        llvm::StringRef Text);
  /// Declare a pipeline that passes join by their own declaration
  /// (Pass::pipelines()); a pass may also join one nobody declared.
  void declarePipeline(llvm::StringRef Name, llvm::StringRef Description);
  /// Register an emitter factory (plugins add report outputs this way). The
  /// driver adds one emitter per factory after the built-in ones, in
  /// registration order.
  void registerEmitter(EmitterFactory Factory);
  llvm::ArrayRef<EmitterFactory> emitterFactories() const {
    return Emitters;
  }

  /// Name of whoever registers next (used in duplicate-name messages).
  void setOrigin(llvm::StringRef Origin) { CurrentOrigin = Origin.str(); }
  /// Whether the passes registered next run isolated (PassInfo::Isolated).
  void setIsolated(bool Isolated) { CurrentIsolated = Isolated; }
  /// Registration errors collected so far (success when none); clears them.
  llvm::Error takeError();

  const PassInfo *lookupPass(llvm::StringRef Argument) const;
  const PipelineInfo *lookupPipeline(llvm::StringRef Name) const;
  /// A fresh instance of the pass, or null when unknown.
  std::unique_ptr<Pass> createPass(llvm::StringRef Argument) const;

  /// Every pass / pipeline, sorted by name.
  std::vector<const PassInfo *> passes() const;
  std::vector<const PipelineInfo *> pipelines() const;

  /// The registered pass or pipeline name closest to Name (for "did you
  /// mean"), "" when nothing is close.
  std::string closestName(llvm::StringRef Name) const;

  /// `--list-passes` text.
  void printListing(llvm::raw_ostream &OS) const;

private:
  void addMember(llvm::StringRef Pipeline, int Order, llvm::StringRef Pass);

  llvm::StringMap<PassInfo> Passes;
  llvm::StringMap<PipelineInfo> Pipelines;
  std::vector<EmitterFactory> Emitters;
  std::string CurrentOrigin = "builtin";
  bool CurrentIsolated = false;
  std::vector<std::string> Errors;
};

/// Declares `system` and `compute` (spec: tracelens-analysis §1) and
/// `comparative` (what --compare adds); their passes join them.
void registerBuiltinPipelines(PassRegistry &Registry);

/// Closest candidate by edit distance ("" if none within a small bound).
std::string closestMatch(llvm::StringRef Name,
                         llvm::ArrayRef<std::string> Candidates);

} // namespace tl

#endif // TL_PASS_PASSREGISTRY_H
