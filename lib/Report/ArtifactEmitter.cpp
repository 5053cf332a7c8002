//===- ArtifactEmitter.cpp - Files contributed by passes ------------------===//
//
// Passes may contribute whole files of their own through
// FindingSink::artifact (which refuses the reference-schema files). Their
// paths come from pass code, so they are checked to stay inside the output
// directory before anything is written.
//
//===----------------------------------------------------------------------===//
#include "ReportUtil.h"

#include "tl/Report/Emitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {
namespace {

/// Relative, no "..", no empty or hidden components, portable characters.
bool isSafeRelativePath(StringRef P) {
  if (P.empty() || sys::path::is_absolute(P))
    return false;
  for (auto It = sys::path::begin(P, sys::path::Style::posix),
            E = sys::path::end(P);
       It != E; ++It) {
    StringRef C = *It;
    if (C.empty() || C == "." || C == ".." || C.starts_with("."))
      return false;
    for (char Ch : C)
      if (!isAlnum(Ch) && Ch != '_' && Ch != '-' && Ch != '.')
        return false;
  }
  return true;
}

class ArtifactEmitter : public Emitter {
public:
  StringRef name() const override { return "artifacts"; }
  Error emit(const ReportContext &Ctx) override {
    for (const Artifact &A : Ctx.Artifacts) {
      if (!isSafeRelativePath(A.Path))
        return createStringError(inconvertibleErrorCode(),
                                 "pass '" + A.Pass +
                                     "' produced an artifact with an unsafe "
                                     "path '" +
                                     A.Path + "'");
      SmallString<256> Dir(Ctx.OutputDir);
      sys::path::append(Dir, sys::path::parent_path(A.Path));
      if (std::error_code EC = sys::fs::create_directories(Dir))
        return createStringError(EC, Twine(Dir) + ": " + EC.message());
      if (Error E = writeFileAtomically(
              Dir, sys::path::filename(A.Path),
              [&](raw_ostream &OS) { OS << A.Content; }))
        return E;
    }
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createArtifactEmitter() {
  return std::make_unique<ArtifactEmitter>();
}

} // namespace tl
