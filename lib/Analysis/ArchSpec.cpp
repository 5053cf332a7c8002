//===- ArchSpec.cpp - GPU peak numbers for roofline -----------------------===//
#include "tl/Analysis/ArchSpec.h"
#include "tl/Support/TerminalText.h"
#include "tl/Support/YamlSyntax.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace tl;

std::optional<double> ArchSpec::peakTflops(llvm::StringRef ComputeSpec) const {
  auto It = MaxTflops.find(ComputeSpec);
  if (It == MaxTflops.end())
    return std::nullopt;
  return It->second;
}

static llvm::Error archError(llvm::StringRef Path, const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 singleLine((Path + ": " + Msg).str()));
}

/// The only place where yaml-cpp may throw.
llvm::Expected<ArchSpec> tl::parseArchSpec(llvm::StringRef Path,
                                           llvm::StringRef Text) {
  // yaml-cpp reads some malformed texts without a word and ignores every
  // document after the first (tl/Support/YamlSyntax.h); they stop here.
  if (llvm::Error E = checkYamlSyntax(Text))
    return archError(Path, llvm::toString(std::move(E)));
  ArchSpec A;
  // Every figure divides a roofline: NaN, infinite, zero or negative peaks
  // would print "nan TB/s" and rank nonsense, so they are refused here.
  std::string Bad;
  auto Peak = [&](const YAML::Node &V, const std::string &Key) {
    double D = V.as<double>();
    if (Bad.empty() && !(std::isfinite(D) && D > 0))
      Bad = Key + " must be a positive number, got '" + V.Scalar() + "'";
    return D;
  };
  try {
    YAML::Node Root = YAML::Load(Text.str());
    if (!Root.IsMap())
      return archError(Path, "top level is not a mapping");
    bool HaveName = false, HaveBw = false;
    for (const auto &KV : Root) {
      std::string Key = KV.first.as<std::string>();
      const YAML::Node &V = KV.second;
      if (Key == "name") {
        A.Name = V.as<std::string>();
        // The name titles the roofline; an empty one says nothing.
        if (A.Name.empty())
          return archError(Path, "'name' is empty");
        HaveName = true;
      } else if (Key == "source") {
        A.Source = V.as<std::string>();
        if (A.Source != "measured" && A.Source != "datasheet")
          return archError(Path, "source must be 'measured' or 'datasheet', "
                                 "got '" + A.Source + "'");
      } else if (Key == "mem_bw_gbps") {
        A.MemBwGBps = Peak(V, Key);
        HaveBw = true;
      } else if (Key == "memory_gb") {
        A.MemoryGB = Peak(V, Key);
      } else if (Key == "host_link" || Key == "peer_link") {
        (Key == "host_link" ? A.HostLink : A.PeerLink) = V.as<std::string>();
      } else if (Key == "host_link_gbps") {
        A.HostLinkGBps = Peak(V, Key);
      } else if (Key == "peer_link_gbps") {
        A.PeerLinkGBps = Peak(V, Key);
      } else if (Key == "intra_node_busbw_gbps") {
        A.IntraNodeBusbwGBps = Peak(V, Key);
      } else if (Key == "inter_node_busbw_gbps") {
        A.InterNodeBusbwGBps = Peak(V, Key);
      } else if (Key == "max_achievable_tflops") {
        if (!V.IsMap())
          return archError(Path, "max_achievable_tflops is not a mapping");
        for (const auto &P : V)
          A.MaxTflops[P.first.as<std::string>()] =
              Peak(P.second, Key + "." + P.first.as<std::string>());
      } else {
        return archError(Path, "unknown key '" + Key + "'");
      }
    }
    if (!Bad.empty())
      return archError(Path, Bad);
    if (!HaveName)
      return archError(Path, "missing key 'name'");
    if (!HaveBw)
      return archError(Path, "missing key 'mem_bw_gbps'");
  } catch (const YAML::Exception &E) {
    if (E.mark.is_null())
      return archError(Path, E.msg);
    return archError(Path, "line " + llvm::Twine(E.mark.line + 1) +
                               ", column " + llvm::Twine(E.mark.column + 1) +
                               ": " + E.msg);
  }
  return A;
}

llvm::Expected<ArchSpec> tl::loadArchSpec(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return archError(Path, Buf.getError().message());
  return parseArchSpec(Path, (*Buf)->getBuffer());
}

llvm::Expected<ArchSpec> tl::resolveArchSpec(llvm::StringRef NameOrPath,
                                             llvm::StringRef DataDir) {
  llvm::StringRef Ext = llvm::sys::path::extension(NameOrPath);
  bool LooksLikePath = NameOrPath.contains('/') || Ext == ".yaml" ||
                       Ext == ".yml" || Ext == ".json";
  if (LooksLikePath || llvm::sys::fs::is_regular_file(NameOrPath))
    return loadArchSpec(NameOrPath);
  llvm::SmallString<256> Dir(DataDir);
  llvm::sys::path::append(Dir, "arch");
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef P = It->path();
    if (llvm::sys::path::extension(P) != ".yaml")
      continue;
    llvm::StringRef Stem = llvm::sys::path::stem(P);
    if (Stem.equals_insensitive(NameOrPath))
      return loadArchSpec(P);
    Names.push_back(Stem.str());
  }
  std::sort(Names.begin(), Names.end());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "unknown arch '" + NameOrPath.str() + "' (known: " +
          llvm::join(Names, ", ") + ")");
}

std::optional<std::string> tl::archNameForDevice(llvm::StringRef DeviceName) {
  // Longer / more specific names first.
  static const char *const Known[] = {"MI355X", "MI325X", "MI300X", "H200",
                                      "H100",   "B200",   "A100"};
  for (const char *K : Known)
    if (DeviceName.contains_insensitive(K))
      return std::string(K);
  return std::nullopt;
}
