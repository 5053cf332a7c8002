//===- tl-quality.cpp - Print a trace's quality verdict and workload ------===//
//
// Developer tool: imports one trace and prints the trace-quality gate's
// verdict, issues, capabilities and (with --pipeline) the pipeline it would
// run, followed by the inferred workload facts. Stable text by default,
// JSON with --json. The driver emits the same blocks in its reports.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/QualityReport.h"
#include "tl/Analysis/TraceQuality.h"
#include "tl/Analysis/WorkloadInfo.h"
#include "tl/Import/Importer.h"
#include "tl/Pass/PassPipeline.h"
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tl;

namespace {
// Options live in a struct built in main(): no static constructors.
struct Options {
  cl::opt<std::string> Input{cl::Positional, cl::desc("<trace.json[.gz]>"),
                             cl::Required};
  cl::opt<bool> Json{"json", cl::desc("Print JSON instead of text")};
  cl::opt<bool> Markdown{"markdown",
                         cl::desc("Print the analysis.md blocks instead")};
  cl::opt<std::string> Pipeline{
      "pipeline",
      cl::desc("Pipeline of built-in passes to run through the gate (e.g. "
               "'system,compute'); each pass says what it needs"),
      cl::value_desc("pipeline")};
};
/// An address in this executable, for getMainExecutable.
void anchor() {}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  Options O;
  cl::ParseCommandLineOptions(argc, argv,
                              "tl-quality: trace-quality gate and workload\n");
  Expected<Trace> T = importTrace(O.Input);
  if (!T) {
    errs() << "tl-quality: error: " << toString(T.takeError()) << "\n";
    return 1;
  }
  TraceQuality Q(*T);
  WorkloadInfo W(*T);
  std::optional<PipelineChoice> Choice;
  if (O.Pipeline.getNumOccurrences()) {
    // The passes declare the capabilities they need: ask the built-ins.
    PassRegistry Registry;
    registerBuiltinPipelines(Registry);
    std::string Exe = sys::fs::getMainExecutable(argv[0], (void *)&anchor);
    for (const std::string &Path : findBuiltinPlugins(Exe)) {
      auto Plugin = PassPlugin::load(Path);
      Error E = Plugin ? Plugin->registerPasses(Registry) : Plugin.takeError();
      if (E) {
        errs() << "tl-quality: error: " << toString(std::move(E)) << "\n";
        return 1;
      }
    }
    auto P = buildPipeline(Registry, O.Pipeline);
    if (!P) {
      errs() << "tl-quality: error: " << toString(P.takeError()) << "\n";
      return 1;
    }
    Choice = choosePipeline(P->gateRequests(), Q);
  }
  const PipelineChoice *C = Choice ? &*Choice : nullptr;
  if (O.Json) {
    json::OStream J(outs(), 2);
    J.object([&] { writeQualityJson(Q, W, J, C); });
    outs() << "\n";
  } else if (O.Markdown) {
    renderQualityMarkdown(Q, W, outs(), C);
  } else {
    printQualityText(Q, W, outs(), C);
  }
  return 0;
}
