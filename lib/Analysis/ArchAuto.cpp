//===- ArchAuto.cpp - --arch=auto: the arch spec a trace asks for ---------===//
#include "tl/Analysis/ArchSpec.h"
#include "tl/IR/Trace.h"

using namespace llvm;

namespace tl {

std::optional<std::string> traceDeviceName(const Trace &T) {
  ArgValue Props = T.topLevel().get("deviceProperties");
  for (size_t I = 0, E = Props.isArray() ? Props.size() : 0; I < E; ++I) {
    ArgValue Name = Props[I].get("name");
    if (Name.isString() && !Name.getString().empty())
      return Name.getString().str();
  }
  return std::nullopt;
}

Expected<std::optional<ArchSpec>> autoArchSpec(const Trace &T,
                                               StringRef DataDir,
                                               std::string &Note) {
  std::optional<std::string> Device = traceDeviceName(T);
  if (!Device) {
    Note = "--arch=auto: the trace records no deviceProperties; roofline "
           "numbers are unavailable (pass --arch=NAME)";
    return std::nullopt;
  }
  std::optional<std::string> Name = archNameForDevice(*Device);
  if (!Name) {
    Note = "--arch=auto: no shipped arch file matches device '" + *Device +
           "'; roofline numbers are unavailable (pass --arch=NAME or "
           "--arch=file.yaml)";
    return std::nullopt;
  }
  Expected<ArchSpec> A = resolveArchSpec(*Name, DataDir);
  if (!A)
    return A.takeError();
  Note = "--arch=auto: using " + *Name + " (" + A->Source +
         " numbers) for device '" + *Device + "'";
  return std::optional<ArchSpec>(std::move(*A));
}

} // namespace tl
