//===- ComparativeColumns.cpp - TraceDiff columns of unified_perf_summary -===//
#include "tl/Analysis/Compare/ComparativeColumns.h"

#include "tl/Analysis/Compare/TraceDiff.h"
#include "tl/Analysis/PerfSheets.h"
#include "tl/Analysis/UnifiedPerfTable.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/DenseSet.h"

using namespace llvm;

namespace tl {

ComparativeCells comparativeCells(const Trace &T, const TraceDiff &D,
                                  const UnifiedPerfRow &Row) {
  ComparativeCells C;
  if (!D.available())
    return C;
  DenseSet<uint32_t> Seen;
  for (EventId I : Row.Instances) {
    ArrayRef<EventId> Gpu = T.subtreeGpuEvents(I);
    // A synthetic op's instance is its launching runtime event.
    for (EventId G : Gpu) {
      const LcaGroup *LG = D.groupOf(G, /*FromReference=*/false);
      if (!LG || !Seen.insert(LG->Id).second)
        continue;
      C.LcaIds.push_back(LG->Id);
      C.LcaNames.push_back(LG->Name);
      C.LcaTime1Us += LG->Time1Us;
      C.LcaTime2Us += LG->Time2Us;
      C.LcaCountTrace2 += !LG->Kernels2.empty();
    }
  }
  if (C.LcaIds.empty())
    return C;
  if (C.LcaTime1Us > 0)
    C.Speedup = C.LcaTime2Us / C.LcaTime1Us;
  C.DeltaUs = C.LcaTime2Us - Row.KernelTimeUs.Sum.value_or(0);
  return C;
}

void addComparativeColumns(TextTable &Tab, const Trace &T,
                           const UnifiedPerfTable &U, const TraceDiff &D) {
  int After = Tab.column("Kernel Time (µs)_sum");
  if (After < 0 || !D.available())
    return;
  static const char *const Names[] = {
      "speedup (trace2/trace1)",         "delta_us (trace2 - trace1)",
      "lca_count_trace2",                "lca_id",
      "lca_name",                        "lca_total_kernel_time_trace1_us",
      "lca_total_kernel_time_trace2_us"};
  size_t Pos = size_t(After) + 1;
  Tab.Columns.insert(Tab.Columns.begin() + Pos, std::begin(Names),
                     std::end(Names));
  ArrayRef<UnifiedPerfRow> Rows = U.rows();
  for (size_t R = 0; R < Tab.Rows.size() && R < Rows.size(); ++R) {
    ComparativeCells C = comparativeCells(T, D, Rows[R]);
    auto Opt = [](std::optional<double> V) {
      return V ? pyRepr(*V) : std::string();
    };
    std::string Ids, NamesText;
    for (size_t I = 0; I < C.LcaIds.size(); ++I) {
      Ids += (I ? "; " : "") + std::to_string(C.LcaIds[I]);
      NamesText += (I ? "; " : "") + C.LcaNames[I];
    }
    bool Any = !C.LcaIds.empty();
    std::vector<std::string> Cells = {
        Opt(C.Speedup),
        Opt(C.DeltaUs),
        Any ? pyRepr(double(C.LcaCountTrace2)) : std::string(),
        Ids,
        NamesText,
        Any ? pyRepr(C.LcaTime1Us) : std::string(),
        Any ? pyRepr(C.LcaTime2Us) : std::string()};
    Tab.Rows[R].insert(Tab.Rows[R].begin() + Pos, Cells.begin(), Cells.end());
  }
}

} // namespace tl
