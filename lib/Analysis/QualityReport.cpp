//===- QualityReport.cpp - Rendering the quality verdict and workload ----===//

#include "tl/Analysis/QualityReport.h"
#include "tl/Support/Markdown.h"

#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace tl;

void tl::writeTraceQualityJson(const TraceQuality &Q, llvm::json::OStream &J,
                               const PipelineChoice *Choice) {
  J.object([&] {
    J.attribute("verdict", verdictName(Q.verdict()));
    J.attributeArray("issues", [&] {
      for (const QualityIssue &I : Q.issues())
        J.object([&] {
          J.attribute("id", I.Id);
          J.attribute("severity", severityName(I.Severity));
          J.attribute("summary", I.Summary);
          J.attribute("evidence", I.Evidence);
          J.attribute("disables", I.Disables);
          J.attribute("reprofile", I.Reprofile);
        });
    });
    J.attributeObject("capabilities", [&] {
      for (unsigned I = 0; I < NumCapabilities; ++I) {
        Capability C = Capability(I);
        J.attributeObject(capabilityName(C), [&] {
          J.attribute("state", capabilityStateName(Q.capability(C)));
          if (!Q.capabilityReason(C).empty())
            J.attribute("reason", Q.capabilityReason(C));
        });
      }
    });
    if (Choice)
      J.attributeObject("pipeline", [&] {
        J.attribute("mode", Choice->Mode);
        J.attribute("fallback", Choice->Fallback);
        J.attributeArray("run", [&] {
          for (const std::string &P : Choice->Run)
            J.value(P);
        });
        J.attributeArray("skipped", [&] {
          for (const std::string &P : Choice->Skipped)
            J.value(P);
        });
        J.attributeArray("notes", [&] {
          for (const std::string &N : Choice->Notes)
            J.value(N);
        });
      });
  });
}

void tl::writeWorkloadJson(const WorkloadInfo &W, llvm::json::OStream &J) {
  J.object([&] {
    J.attribute("title", W.title());
    J.attributeArray("facts", [&] {
      for (const WorkloadFact &F : W.facts())
        J.object([&] {
          J.attribute("key", F.Key);
          if (F.Number)
            J.attribute("value", *F.Number);
          else
            J.attribute("value", F.Value);
          J.attribute("confidence", confidenceName(F.Conf));
          J.attribute("evidence", F.Evidence);
        });
    });
  });
}

void tl::writeQualityJson(const TraceQuality &Q, const WorkloadInfo &W,
                          llvm::json::OStream &J, const PipelineChoice *Choice) {
  J.attributeBegin("trace_quality");
  writeTraceQualityJson(Q, J, Choice);
  J.attributeEnd();
  J.attributeBegin("workload");
  writeWorkloadJson(W, J);
  J.attributeEnd();
}

/// A table cell or inline text that renders as S: the evidence quotes op,
/// module and kernel names, whose `<...>`, `*` or `_` would be markup.
static std::string cell(llvm::StringRef S) { return tl::mdEscape(S); }

void tl::renderQualityMarkdown(const TraceQuality &Q, const WorkloadInfo &W,
                               llvm::raw_ostream &OS,
                               const PipelineChoice *Choice) {
  OS << "## Workload: " << W.title() << "\n\n";
  OS << "| Fact | Value | Confidence | Evidence |\n|---|---|---|---|\n";
  for (const WorkloadFact &F : W.facts())
    OS << "| " << F.Key << " | " << cell(F.Value) << " | "
       << confidenceName(F.Conf) << " | " << cell(F.Evidence) << " |\n";
  OS << "\n## Trace quality: " << verdictName(Q.verdict()) << "\n\n";
  if (Q.issues().empty())
    OS << "No issues found.\n";
  for (const QualityIssue &I : Q.issues())
    OS << "- **" << I.Id << "** (" << severityName(I.Severity) << "): "
       << cell(I.Summary) << ". Evidence: " << cell(I.Evidence)
       << ". Disables: " << cell(I.Disables)
       << ". Re-profile: " << tl::mdCode(I.Reprofile) << "\n";
  OS << "\nCapabilities: ";
  for (unsigned I = 0; I < NumCapabilities; ++I) {
    Capability C = Capability(I);
    OS << (I ? ", " : "") << capabilityName(C) << " "
       << capabilityStateName(Q.capability(C));
  }
  OS << "\n";
  if (Choice) {
    OS << "\nPipeline: " << Choice->Mode << "\n";
    for (const std::string &N : Choice->Notes)
      OS << "- " << N << "\n";
  }
}

void tl::printQualityText(const TraceQuality &Q, const WorkloadInfo &W,
                          llvm::raw_ostream &OS, const PipelineChoice *Choice) {
  OS << "title: " << W.title() << "\n";
  OS << "verdict: " << verdictName(Q.verdict()) << "\n";
  for (const QualityIssue &I : Q.issues()) {
    OS << "issue " << I.Id << " " << severityName(I.Severity) << ": "
       << I.Summary << "\n";
    OS << "  evidence: " << I.Evidence << "\n";
    OS << "  disables: " << I.Disables << "\n";
    OS << "  reprofile: " << I.Reprofile << "\n";
  }
  for (unsigned I = 0; I < NumCapabilities; ++I) {
    Capability C = Capability(I);
    OS << "capability " << capabilityName(C) << ": "
       << capabilityStateName(Q.capability(C));
    if (!Q.capabilityReason(C).empty())
      OS << " (" << Q.capabilityReason(C) << ")";
    OS << "\n";
  }
  if (Choice) {
    OS << "pipeline: " << Choice->Mode << "\n";
    OS << "run:";
    for (const std::string &P : Choice->Run)
      OS << " " << P;
    OS << "\nskipped:";
    for (const std::string &P : Choice->Skipped)
      OS << " " << P;
    OS << "\n";
    for (const std::string &N : Choice->Notes)
      OS << "note: " << N << "\n";
  }
  for (const WorkloadFact &F : W.facts()) {
    OS << "fact " << F.Key << " = " << F.Value << " [" << confidenceName(F.Conf)
       << "]\n";
    OS << "  evidence: " << F.Evidence << "\n";
  }
}
