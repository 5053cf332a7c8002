//===- ProgressInstrumentation.cpp - Import and phase progress ------------===//
//
// A terminal gets one status line rewritten in place; a log (CI, a pipe)
// gets a handful of whole lines, never carriage returns.
//
//===----------------------------------------------------------------------===//
#include "tl/Driver/Instrumentations.h"
#include "tl/Pass/Pass.h"

#include <algorithm>

using namespace llvm;

namespace tl {

void ProgressInstrumentation::line(const Twine &Text) {
  OS << ToolName << ": " << Path << ": " << Text;
  if (Interactive)
    OS << "\x1b[K\r";
  else
    OS << "\n";
  OS.flush();
}

void ProgressInstrumentation::importStart(StringRef P,
                                          std::optional<uint64_t> T) {
  std::lock_guard<std::mutex> L(M);
  Path = P.str();
  Total = T && *T ? T : std::nullopt;
  LastPct = -1;
  line(Total ? "importing " + Twine(*Total) + " bytes of JSON"
             : Twine("importing"));
}

void ProgressInstrumentation::importBytes(uint64_t Bytes) {
  std::lock_guard<std::mutex> L(M);
  if (!Total) {
    // Unknown size: a terminal shows MiB read; a log says nothing more.
    if (Interactive)
      line("importing: " + Twine(Bytes >> 20) + " MiB read");
    return;
  }
  // 99 at most until the import is done: the part a second thread parses
  // is not counted here, and a trailer may undercount.
  int Pct = int(std::min<uint64_t>(Bytes * 100 / *Total, 99));
  int Shown = Interactive ? Pct : Pct / 10 * 10;
  if (Shown <= LastPct)
    return;
  LastPct = Shown;
  line("import " + Twine(Shown) + "%");
}

void ProgressInstrumentation::importDone() {
  std::lock_guard<std::mutex> L(M);
  line("import 100%");
}

void ProgressInstrumentation::phase(const Twine &Name) {
  std::lock_guard<std::mutex> L(M);
  line(Name);
}

void ProgressInstrumentation::finishLine() {
  std::lock_guard<std::mutex> L(M);
  if (Interactive) {
    OS << "\x1b[K";
    OS.flush();
  }
}

void ProgressInstrumentation::runBeforePipeline(
    ArrayRef<std::unique_ptr<Pass>> Passes, const Trace &) {
  std::lock_guard<std::mutex> L(M);
  Done = 0;
  NumPasses = Passes.size();
}

void ProgressInstrumentation::runAfterPass(const Pass &P, const Trace &,
                                           const PassResult &) {
  std::lock_guard<std::mutex> L(M);
  ++Done;
  if (Interactive)
    line("passes " + Twine(Done) + "/" + Twine(NumPasses) + " (" +
         P.getArgument() + ")");
}

void ProgressInstrumentation::runAfterPipeline(ArrayRef<PassResult>,
                                               const Trace &) {
  std::lock_guard<std::mutex> L(M);
  line("passes done (" + Twine(Done) + "/" + Twine(NumPasses) + ")");
}

} // namespace tl
