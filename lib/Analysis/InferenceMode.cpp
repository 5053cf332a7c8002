//===- InferenceMode.cpp - Training or inference report layout ------------===//
#include "tl/Analysis/InferenceMode.h"

#include "tl/IR/Trace.h"
#include "tl/Support/IterationAnnotation.h"

using namespace tl;

std::string tl::inferenceEvidence(const Trace &T, bool CaptureMerged) {
  for (EventId E : T.eventsOfKind(EventKind::CpuOp))
    if (T.name(E).starts_with("autograd::engine::evaluate_function"))
      return "";
  if (CaptureMerged)
    return "graph replays merged with their capture";
  IterationAnnotationParser Parser;
  for (EventKind K : {EventKind::UserAnnotation, EventKind::GpuUserAnnotation})
    for (EventId E : T.eventsOfKind(K)) {
      llvm::StringRef N = T.name(E);
      // Every format starts so; the regexes need not see the others.
      if (!N.starts_with("execute_") && !N.starts_with("step[") &&
          !N.starts_with("prefill[") && !N.starts_with("decode["))
        continue;
      if (Parser.parse(N).Format != IterationFormat::None)
        return "serving iteration annotation '" + N.str() + "'";
    }
  return "";
}
