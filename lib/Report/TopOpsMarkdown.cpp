//===- TopOpsMarkdown.cpp - The share note under Top Operations -----------===//
#include "TopOpsMarkdown.h"

#include "ReportUtil.h"

#include "tl/Support/Markdown.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace tl {

void renderTopOpsShareNote(raw_ostream &OS, const ReportModel &M) {
  double Total = M.totalKernelMs();
  if (Total <= 0)
    return;
  StringSet<> Listed;
  double ListedMs = 0;
  for (const Priority &P : M.priorities()) {
    const CategoryInfo *C = M.category(P.Category);
    ListedMs += C ? C->GpuKernelTimeMs : P.GpuKernelTimeMs.value_or(0);
    Listed.insert(P.Category);
  }
  // The categories left out, largest first.
  std::vector<const CategoryInfo *> Out;
  for (const CategoryInfo &C : M.categories())
    if (!Listed.contains(C.Key) && C.GpuKernelTimeMs > 0)
      Out.push_back(&C);
  std::stable_sort(Out.begin(), Out.end(),
                   [](const CategoryInfo *A, const CategoryInfo *B) {
                     return A->GpuKernelTimeMs > B->GpuKernelTimeMs;
                   });
  std::string Rest;
  double RestMs = 0;
  for (const CategoryInfo *C : Out) {
    RestMs += C->GpuKernelTimeMs;
    Rest += (Rest.empty() ? "" : ", ") + mdEscape(C->DisplayName) + " " +
            fixed(C->GpuKernelTimeMs, 3) + " ms";
  }
  OS << "Shares are of the " << fixed(Total, 3)
     << " ms of kernel time in all " << M.categories().size()
     << " categories: listed " << fixed(ListedMs / Total * 100, 1)
     << "%, not listed " << fixed(RestMs / Total * 100, 1) << "%";
  if (!Rest.empty())
    OS << " (" << Rest << ")";
  OS << ".\n\n";
}

} // namespace tl
