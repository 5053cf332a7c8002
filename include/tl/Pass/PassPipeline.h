//===- PassPipeline.h - Textual pipelines ----------------------*- C++ -*-===//
//
//   pipeline ::= element (',' element)*
//   element  ::= name ('{' option (',' option)* '}')?
//   option   ::= key '=' value        value: text up to the next ',' or '}'
//                                     at depth 0; list values `k=1,2,3`
//                                     continue while the next part has no '='
//
// `name` is a pass or a named pipeline (expanded in place). Whitespace around
// tokens is ignored. Errors name the problem and the closest known name.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSPIPELINE_H
#define TL_PASS_PASSPIPELINE_H

#include "tl/Pass/Pass.h"
#include "tl/Report/Emitter.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class PassRegistry;

/// One parsed `name{k=v,...}` before name resolution.
struct PipelineElement {
  std::string Name;
  std::vector<std::pair<std::string, std::string>> Options;
};

/// Syntax only: split pipeline text into elements.
llvm::Expected<std::vector<PipelineElement>>
parsePipelineText(llvm::StringRef Text);

/// Per-pass option values from a config file, applied before the options
/// written in the pipeline text (which win).
using PassOptionOverrides =
    std::map<std::string, std::vector<std::pair<std::string, std::string>>>;

/// An expanded pipeline: fresh pass instances with options applied.
class PassPipeline {
public:
  PassPipeline();
  PassPipeline(PassPipeline &&);
  PassPipeline &operator=(PassPipeline &&);
  ~PassPipeline();

  llvm::ArrayRef<std::unique_ptr<Pass>> passes() const { return Passes; }
  std::vector<std::unique_ptr<Pass>> takePasses() { return std::move(Passes); }
  size_t size() const { return Passes.size(); }
  /// Drop the passes for which Pred is true (the trace-quality gate uses it
  /// to narrow a pipeline to what the trace supports).
  void removeIf(llvm::function_ref<bool(const Pass &)> Pred);
  /// The analyses every pass declares it will ask for, in pipeline order,
  /// one job per analysis.
  AnalysisPrefetch prefetch() const;
  std::vector<std::string> passNames() const;
  /// What each pass declares, for the report (ReportContext::Scheduled).
  std::vector<PassDescription> describe() const;
  /// Each pass with the capabilities it needs, for choosePipeline().
  std::vector<GateRequest> gateRequests() const;
  /// Canonical text: every pass with every option value; re-parses to the
  /// same pipeline.
  std::string str() const;
  void print(llvm::raw_ostream &OS) const;

private:
  friend llvm::Expected<PassPipeline>
  buildPipeline(const PassRegistry &, llvm::StringRef,
                const PassOptionOverrides *);
  std::vector<std::unique_ptr<Pass>> Passes;
};

/// Text plus the passes of named pipeline Extra that Text does not already
/// schedule (how --compare adds the `comparative` pipeline). Text unchanged
/// when Extra is not registered or adds nothing.
llvm::Expected<std::string> withPipelineMembers(const PassRegistry &Registry,
                                                llvm::StringRef Text,
                                                llvm::StringRef Extra);

/// Parse Text, expand named pipelines, create the passes from Registry and
/// apply Overrides then the text's options.
llvm::Expected<PassPipeline>
buildPipeline(const PassRegistry &Registry, llvm::StringRef Text,
              const PassOptionOverrides *Overrides = nullptr);

} // namespace tl

#endif // TL_PASS_PASSPIPELINE_H
