//===- CaptureFolder.cpp - A folder of graph-capture traces ---------------===//
#include "CaptureFolder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace tl;

namespace {
Error folderError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}
} // namespace

Expected<CaptureFolder> tl::loadCaptureFolder(StringRef Dir) {
  CaptureFolder F;
  F.Dir = Dir.str();
  F.HasDetails = false;
  if (!sys::fs::is_directory(Dir))
    return folderError(Dir + ": capture folder is not a directory");
  SmallString<256> Details(Dir);
  sys::path::append(Details, "execution_details.json");
  if (!sys::fs::exists(Details)) {
    F.Warnings.push_back("execution_details.json missing; no capture "
                         "trace merged");
    return F;
  }
  F.HasDetails = true;
  auto Buf = MemoryBuffer::getFile(Details);
  if (!Buf)
    return folderError(Details + ": " + Buf.getError().message());
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return folderError(Details + ": " + toString(V.takeError()));
  const json::Array *List = V->getAsArray();
  if (!List)
    return folderError(Details + ": expected a list of {file, batch_size, "
                                 "mode} objects");
  for (size_t I = 0; I < List->size(); ++I) {
    const json::Object *O = (*List)[I].getAsObject();
    if (!O)
      return folderError(Details + ": entry " + Twine(I) +
                         " is not an object");
    std::optional<StringRef> File = O->getString("file");
    std::optional<StringRef> Mode = O->getString("mode");
    const json::Value *Batch = O->get("batch_size");
    std::optional<int64_t> B = Batch ? Batch->getAsInteger() : std::nullopt;
    // (json::Value reads 32.0 as an integer too; the reference would not.)
    bool IntBatch = B.has_value();
    if (!Mode || (*Mode != "FULL" && *Mode != "PIECEWISE") || !IntBatch) {
      F.Warnings.push_back("execution_details.json: entry " +
                           std::to_string(I) +
                           " skipped (mode must be FULL or PIECEWISE and "
                           "batch_size an integer)");
      continue;
    }
    F.Sizes.push_back(*B);
    SmallString<256> Path(Dir);
    if (File)
      sys::path::append(Path, *File);
    if (!File || !sys::fs::exists(Path)) {
      F.Warnings.push_back("execution_details.json: entry " +
                           std::to_string(I) + ": capture trace '" +
                           (File ? File->str() : std::string()) +
                           "' not found");
      continue;
    }
    F.Files[std::to_string(*B) + "_" + Mode->str()] = Path.str().str();
  }
  return F;
}

std::optional<std::string>
CaptureFolder::chooseFile(int64_t Batch, size_t NumGraphLaunches,
                          std::string &Why) const {
  // The smallest captured size that holds the batch (graphs are padded).
  std::optional<int64_t> Closest;
  for (int64_t S : Sizes)
    if (S >= Batch && (!Closest || S < *Closest))
      Closest = S;
  if (!Closest) {
    Why = "no capture for batch size " + std::to_string(Batch) +
          " or larger";
    return std::nullopt;
  }
  std::string Base = std::to_string(*Closest);
  auto Full = Files.find(Base + "_FULL");
  auto Piece = Files.find(Base + "_PIECEWISE");
  if (Full != Files.end() && Piece != Files.end())
    return NumGraphLaunches != 1 ? Piece->second : Full->second;
  if (Full != Files.end())
    return Full->second;
  if (Piece != Files.end())
    return Piece->second;
  Why = "no capture trace for key " + Base + "_FULL or " + Base +
        "_PIECEWISE";
  return std::nullopt;
}
