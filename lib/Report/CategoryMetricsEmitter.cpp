//===- CategoryMetricsEmitter.cpp - category_data/<cat>_metrics.json ------===//
//
// The reference's per-category metrics files, written from the documents
// the passes handed over (ReportData::Metrics), json.dumps(indent=2)
// spelling (tl's own multi_kernel file: llvm::json's, JsonSpelling). No
// pass writes them itself.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"

#include "tl/Report/Emitter.h"
#include "tl/Report/ReportData.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

class CategoryMetricsEmitter : public Emitter {
public:
  StringRef name() const override { return "category-metrics"; }
  Error emit(const ReportContext &Ctx) override {
    if (!Ctx.Data || Ctx.Data->Metrics.empty())
      return Error::success();
    SmallString<256> Dir(Ctx.OutputDir);
    sys::path::append(Dir, "category_data");
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return createStringError(EC, Twine(Dir) + ": " + EC.message());
    for (const CategoryMetrics &M : Ctx.Data->Metrics) {
      // The key comes from pass code: it names a file inside Dir only.
      if (!isValidMetricsKey(M.Key))
        return createStringError(inconvertibleErrorCode(),
                                 "pass '" + M.Pass +
                                     "' handed over metrics with an unsafe "
                                     "category key '" +
                                     M.Key + "'");
      const PyValue None;
      const PyValue &Doc = M.Doc ? *M.Doc : None;
      if (Error E = writeFileAtomically(
              Dir, metricsFileName(M.Key), [&](raw_ostream &OS) {
                if (M.Spelling == JsonSpelling::Tl) {
                  json::OStream J(OS, 2);
                  writePyJson(J, Doc);
                } else {
                  OS << pyJsonDumps(Doc, 2);
                }
                if (M.TrailingNewline)
                  OS << "\n";
              }))
        return E;
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createCategoryMetricsEmitter() {
  return std::make_unique<CategoryMetricsEmitter>();
}

} // namespace tl
