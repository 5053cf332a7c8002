//===- JsonCompare.cpp - JSON mode of tl-conform -------------------------===//
//
// Compares the reference's category_data/*.json files with ours (see
// JsonCompare.h). Walks both documents with an explicit stack.
//
//===----------------------------------------------------------------------===//
#include "JsonCompare.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

using namespace llvm;

namespace tl::conform {
namespace {

std::optional<double> asNumber(const json::Value &V) {
  if (auto I = V.getAsInteger())
    return static_cast<double>(*I);
  return V.getAsNumber();
}

std::string brief(const json::Value &V) {
  std::string S;
  raw_string_ostream(S) << V;
  if (S.size() > 120)
    S = S.substr(0, 120) + "...";
  return S;
}

struct FileResult {
  unsigned Values = 0, Failures = 0, Deviations = 0, Shown = 0;
  double MaxRel = 0;
};

void compareDocs(const json::Value &Ours, const json::Value &Ref,
                 ArrayRef<std::string> Ignore, FileResult &R) {
  struct Item {
    const json::Value *O, *F;
    std::string Path;
  };
  std::vector<Item> Stack{{&Ours, &Ref, ""}};
  auto Report = [&](const std::string &Path, const std::string &Msg) {
    bool Listed = llvm::any_of(Ignore, [&](const std::string &P) {
      return StringRef(Path).starts_with(P);
    });
    if (Listed)
      ++R.Deviations;
    else
      ++R.Failures;
    if (R.Shown++ < 60)
      outs() << "  " << (Listed ? "deviation" : "mismatch") << " at "
             << (Path.empty() ? "/" : Path) << ": " << Msg << "\n";
  };
  while (!Stack.empty()) {
    Item I = Stack.back();
    Stack.pop_back();
    const json::Value &O = *I.O, &F = *I.F;
    if (const json::Object *FO = F.getAsObject()) {
      const json::Object *OO = O.getAsObject();
      if (!OO) {
        Report(I.Path, "expected an object, ours " + brief(O));
        continue;
      }
      std::vector<std::string> Keys;
      for (const auto &KV : *FO)
        Keys.push_back(KV.first.str());
      std::sort(Keys.begin(), Keys.end());
      for (auto It = Keys.rbegin(); It != Keys.rend(); ++It) {
        const json::Value *OV = OO->get(*It);
        if (!OV) {
          Report(I.Path + "/" + *It, "key missing from ours");
          continue;
        }
        Stack.push_back({OV, FO->get(*It), I.Path + "/" + *It});
      }
      std::vector<std::string> Extra;
      for (const auto &KV : *OO)
        if (!FO->get(KV.first) && KV.first != "tl_extensions")
          Extra.push_back(KV.first.str());
      std::sort(Extra.begin(), Extra.end());
      for (const std::string &K : Extra)
        Report(I.Path + "/" + K, "extra key in ours");
      continue;
    }
    if (const json::Array *FA = F.getAsArray()) {
      const json::Array *OA = O.getAsArray();
      if (!OA) {
        Report(I.Path, "expected a list, ours " + brief(O));
        continue;
      }
      if (OA->size() != FA->size())
        Report(I.Path, "list length ours " + std::to_string(OA->size()) +
                           " reference " + std::to_string(FA->size()));
      size_t N = std::min(OA->size(), FA->size());
      for (size_t J = N; J-- > 0;)
        Stack.push_back({&(*OA)[J], &(*FA)[J],
                         I.Path + "/" + std::to_string(J)});
      continue;
    }
    ++R.Values;
    std::optional<double> FN = asNumber(F), ON = asNumber(O);
    if (FN && ON && F.kind() != json::Value::Boolean &&
        O.kind() != json::Value::Boolean) {
      double A = *ON, B = *FN;
      double D = std::fabs(A - B), M = std::max(std::fabs(A), std::fabs(B));
      if (M > 0)
        R.MaxRel = std::max(R.MaxRel, D / M);
      if (!(D <= std::max(1e-9, 1e-6 * M)) && !(std::isnan(A) && std::isnan(B)))
        Report(I.Path, "ours " + brief(O) + " reference " + brief(F));
      continue;
    }
    if (O != F)
      Report(I.Path, "ours " + brief(O) + " reference " + brief(F));
  }
}

Expected<json::Value> load(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  auto V = json::parse((*Buf)->getBuffer());
  if (!V)
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             Path.str().c_str(),
                             toString(V.takeError()).c_str());
  return std::move(*V);
}

} // namespace

int runJsonCompare(StringRef OurDir, StringRef RefDir,
                   ArrayRef<std::string> Files, ArrayRef<std::string> Ignore,
                   StringRef Label) {
  auto Fail = [](const Twine &Msg) {
    errs() << "tl-conform: error: " << Msg << "\n";
    return 2;
  };
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(RefDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".json")
      Names.push_back(sys::path::stem(It->path()).str());
  if (EC)
    return Fail(RefDir + ": " + EC.message());
  std::sort(Names.begin(), Names.end());
  if (!Files.empty()) {
    std::set<std::string> Want(Files.begin(), Files.end());
    llvm::erase_if(Names, [&](const std::string &N) { return !Want.count(N); });
  }
  if (Names.empty())
    return Fail(RefDir + ": no reference file to compare");
  unsigned Failures = 0, Deviations = 0;
  for (const std::string &N : Names) {
    SmallString<256> RP(RefDir), OP(OurDir);
    sys::path::append(RP, N + ".json");
    sys::path::append(OP, N + ".json");
    auto Ref = load(RP);
    if (!Ref)
      return Fail(toString(Ref.takeError()));
    if (!sys::fs::exists(OP)) {
      outs() << Label << " " << N << ": FAIL (missing)\n";
      ++Failures;
      continue;
    }
    auto Ours = load(OP);
    if (!Ours)
      return Fail(toString(Ours.takeError()));
    std::vector<std::string> Paths;
    for (const std::string &I : Ignore) {
      StringRef S(I);
      auto [Stem, Path] = S.split(':');
      if (Stem == N)
        Paths.push_back(Path.str());
    }
    FileResult R;
    compareDocs(*Ours, *Ref, Paths, R);
    outs() << Label << " " << N << ": values=" << R.Values << " max_rel="
           << format("%.3g", R.MaxRel) << ": ";
    if (R.Failures)
      outs() << "FAIL (" << R.Failures << " mismatches)\n";
    else if (R.Deviations)
      outs() << "OK with " << R.Deviations << " listed deviation(s)\n";
    else
      outs() << "OK\n";
    Failures += R.Failures;
    Deviations += R.Deviations;
  }
  outs() << Label << ": " << Names.size() << " file(s), " << Failures
         << " mismatch(es), " << Deviations << " listed deviation(s)\n";
  return Failures ? 1 : 0;
}

} // namespace tl::conform
