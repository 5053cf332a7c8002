//===- CategoryDataEmitter.cpp - multi_kernel_data, fusion_candidates -----===//
//
// category_data/multi_kernel_data.json and fusion_candidates.json, written
// from the typed data the multi-kernel and kernel-fusion passes handed over
// (ReportData::MultiKernelData, ::FusionCandidates). Spelling as tl wrote
// them before they were typed (llvm::json, indent 2, trailing newline), so
// the files stay byte-identical; a candidate's input_dims is the trace's
// own text on one line.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/Emitter.h"
#include "tl/Report/ReportData.h"
#include "tl/Report/ReportEmitters.h"
#include "tl/Support/PyValue.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

void writeFusionCandidates(raw_ostream &OS,
                           ArrayRef<FusionCandidateEntry> Candidates) {
  json::OStream J(OS, 2);
  J.array([&] {
    for (const FusionCandidateEntry &C : Candidates)
      J.object([&] {
        for (const auto &[Key, V] : C.Members.items()) {
          J.attributeBegin(Key);
          writePyJson(J, V);
          J.attributeEnd();
        }
        J.attributeBegin("input_dims");
        if (C.InputDims.empty())
          J.value(nullptr);
        else
          J.rawValue(C.InputDims);
        J.attributeEnd();
      });
  });
  OS << "\n";
}

class CategoryDataEmitter : public Emitter {
public:
  StringRef name() const override { return "category-data"; }
  Error emit(const ReportContext &Ctx) override {
    if (!Ctx.Data || (!Ctx.Data->MultiKernelData && !Ctx.Data->FusionCandidates))
      return Error::success();
    SmallString<256> Dir(Ctx.OutputDir);
    sys::path::append(Dir, "category_data");
    if (std::error_code EC = sys::fs::create_directories(Dir))
      return createStringError(EC, Twine(Dir) + ": " + EC.message());
    if (const PyValue *D = Ctx.Data->MultiKernelData.get())
      if (Error E = writeFileAtomically(Dir, "multi_kernel_data.json",
                                        [&](raw_ostream &OS) {
                                          json::OStream J(OS, 2);
                                          writePyJson(J, *D);
                                          OS << "\n";
                                        }))
        return E;
    if (const auto &C = Ctx.Data->FusionCandidates) {
      for (size_t I = 0; I < C->size(); ++I)
        if ((*C)[I].Members.kind() != PyValue::Kind::Dict)
          return createStringError(inconvertibleErrorCode(),
                                   "fusion candidate " + Twine(I + 1) +
                                       " handed over is not a dict");
      if (Error E = writeFileAtomically(
              Dir, "fusion_candidates.json",
              [&](raw_ostream &OS) { writeFusionCandidates(OS, *C); }))
        return E;
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createCategoryDataEmitter() {
  return std::make_unique<CategoryDataEmitter>();
}

} // namespace tl
