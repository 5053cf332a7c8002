//===- AgentFindingsEmitter.cpp - Per-agent *_findings.md files -----------===//
//
// The reference's sub-agents each write a findings file (tracelens-analysis
// §11.4, §12): category_findings/<category>_findings.md for every compute
// category of the manifest and system_findings/{cpu_idle, multi_kernel,
// kernel_fusion}_findings.md for the system entries. tl writes them
// deterministically from the same P-items as analysis.md, numbered by rank
// inside the category (the `rank` of category_findings[]), so the
// reference's level-1 and level-2 checks (coverage) apply to our output.
//
//===----------------------------------------------------------------------===//
#include "PItemMarkdown.h"
#include "ReportUtil.h"

#include "tl/Report/ReportEmitters.h"
#include "tl/Report/ReportModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tl {
namespace {

/// One findings file.
struct AgentFile {
  std::string Dir;   // "category_findings" or "system_findings"
  std::string Name;  // "gemm", "cpu_idle"
  std::string Title; // "GEMM", "CPU/Idle Analysis"
  Tier T = Tier::Compute;
  std::vector<const PItem *> Items;
  std::vector<std::string> Errors; // messages of failed passes
};

/// The system file of a system-tier finding: a finding of category
/// cpu_idle / multi_kernel, or of the built-in passes (cpu-idle,
/// multi-kernel), goes to the manifest entry's file; other passes get their
/// own.
std::string systemAgent(StringRef Pass) {
  std::string N = Pass.str();
  std::replace(N.begin(), N.end(), '-', '_');
  return N;
}

void writeBody(raw_ostream &OS, const AgentFile &A, const ReportModel &M,
               const ComputeDataTables &Data) {
  OS << "# " << A.Title << " Findings\n\n";
  if (!A.Errors.empty()) {
    // The exact substring the reference's validator looks for (§13.14).
    OS << "Status: ERROR\n\n";
    for (const std::string &E : A.Errors)
      OS << "Error: " << E << "\n";
    OS << "\n";
  } else {
    OS << "Status: SUCCESS\n\n";
  }
  OS << A.Items.size() << " finding(s); the P-numbers below rank them inside "
     << "this " << (A.T == Tier::Compute ? "category" : "analysis")
     << ". analysis.md ranks them across the tier:";
  if (A.Items.empty())
    OS << " none";
  for (size_t I = 0; I < A.Items.size(); ++I)
    OS << (I ? ", " : " ") << "P" << (I + 1) << " = tier P"
       << A.Items[I]->Rank;
  OS << ".\n\n";
  OS << "## Recommendations\n\n";
  for (size_t I = 0; I < A.Items.size(); ++I)
    renderCard(OS, *A.Items[I], M, {unsigned(I + 1), /*InReport=*/false});
  OS << "## Detailed Analysis\n\n";
  for (size_t I = 0; I < A.Items.size(); ++I)
    renderDetail(OS, *A.Items[I], M,
                 {unsigned(I + 1), /*InReport=*/false, &Data});
}

class AgentFindingsEmitter final : public Emitter {
public:
  StringRef name() const override { return "agent-findings-md"; }
  Error emit(const ReportContext &Ctx) override {
    const ReportModel &M = ReportModel::of(Ctx);
    ManifestSystemEntries Sys = manifestSystemEntries(Ctx, M);

    // Files keyed by (dir, name); std::map keeps the output order stable.
    std::map<std::pair<std::string, std::string>, AgentFile> Files;
    auto File = [&](StringRef Dir, StringRef Name, StringRef Title,
                    Tier T) -> AgentFile & {
      auto [It, New] = Files.try_emplace({Dir.str(), Name.str()});
      if (New)
        It->second = {Dir.str(), Name.str(), Title.str(), T, {}, {}};
      return It->second;
    };
    // Every manifest entry has a file (the reference's coverage check).
    File("system_findings", "cpu_idle", "CPU/Idle Analysis", Tier::System);
    for (const CategoryInfo &C : M.categories())
      File("category_findings", C.Key, C.DisplayName, Tier::Compute);
    if (Sys.MultiKernel)
      File("system_findings", "multi_kernel", "Multi-Kernel Issues",
           Tier::System);
    if (Sys.KernelFusion)
      File("system_findings", "kernel_fusion",
           "Kernel Fusion Opportunities", Tier::Fusion);

    for (const PItem &P : M.items(Tier::Compute))
      File("category_findings", P.CategoryKey, M.displayName(P.CategoryKey),
           Tier::Compute)
          .Items.push_back(&P);
    for (const PItem &P : M.items(Tier::Fusion))
      File("system_findings", "kernel_fusion",
           "Kernel Fusion Opportunities", Tier::Fusion)
          .Items.push_back(&P);
    for (const PItem &P : M.items(Tier::System)) {
      StringRef Cat = P.F->Category;
      std::string N = Cat == "cpu_idle" || Cat == "multi_kernel"
                          ? Cat.str()
                          : systemAgent(P.F->Pass);
      File("system_findings", N, N == "cpu_idle"       ? "CPU/Idle Analysis"
                                 : N == "multi_kernel" ? "Multi-Kernel Issues"
                                                       : N,
           Tier::System)
          .Items.push_back(&P);
    }
    // A failed pass marks the file of its name (a new one if it has none).
    for (const FailedPass &FP : Ctx.Failed) {
      std::string N = systemAgent(FP.Pass);
      bool System = FP.PassTier != Tier::Compute ||
                    any_of(Ctx.Findings, [&](const Finding &F) {
                      return F.Pass == FP.Pass && F.T != Tier::Compute;
                    });
      AgentFile &A = File(System ? "system_findings" : "category_findings", N,
                          N, System ? Tier::System : Tier::Compute);
      A.Errors.push_back(FP.Message);
    }

    ComputeDataTables Data(metricsDocs(Ctx));
    for (auto &[Key, A] : Files) {
      // Inside a category the reference's order is category_findings[].rank.
      if (A.T == Tier::Compute)
        std::stable_sort(A.Items.begin(), A.Items.end(),
                         [](const PItem *X, const PItem *Y) {
                           return X->CategoryRank < Y->CategoryRank;
                         });
      if (Error E = writeFileAtomically(
              Ctx.OutputDir, A.Dir + "/" + A.Name + "_findings.md",
              [&](raw_ostream &OS) { writeBody(OS, A, M, Data); }))
        return E;
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createAgentFindingsEmitter() {
  return std::make_unique<AgentFindingsEmitter>();
}

} // namespace tl
