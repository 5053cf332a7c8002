//===- PathMemoryMarkdown.h - analysis.md's critical path / memory block --===//
#ifndef TL_LIB_REPORT_PATHMEMORYMARKDOWN_H
#define TL_LIB_REPORT_PATHMEMORYMARKDOWN_H

namespace llvm {
class raw_ostream;
}

namespace tl {
struct ReportContext;

/// The appendix block "### Critical Path and GPU Memory" (summary of
/// critical_path.json and memory_timeline.json, link to memory.svg).
void renderPathMemoryMarkdown(llvm::raw_ostream &OS, const ReportContext &Ctx);

} // namespace tl

#endif // TL_LIB_REPORT_PATHMEMORYMARKDOWN_H
