//===- PassPipeline.cpp - Textual pipeline parser -------------------------===//
#include "tl/Pass/PassPipeline.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

static Error pipelineError(StringRef Text, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid pass pipeline '" + Text + "': " + Msg);
}

static bool isNameChar(char C) {
  return isAlnum(C) || C == '-' || C == '_' || C == '.';
}

/// Parse the inside of `{...}` (Body starts at column Col of the pipeline).
static Error parseOptions(StringRef Full, StringRef Body, size_t Col,
                          PipelineElement &El) {
  SmallVector<StringRef, 8> Parts;
  Body.split(Parts, ',');
  StringSet<> Seen;
  for (StringRef Part : Parts) {
    StringRef P = Part.trim();
    if (P.empty())
      return pipelineError(Full, "empty option in '" + El.Name + "{" + Body +
                                     "}' (column " + Twine(Col) + ")");
    size_t Eq = P.find('=');
    if (Eq == StringRef::npos) {
      // `a=1,2`: a part without '=' continues the previous list value.
      if (El.Options.empty())
        return pipelineError(Full, "option '" + P + "' of '" + El.Name +
                                       "' needs a value (key=value)");
      El.Options.back().second += "," + P.str();
      continue;
    }
    StringRef Key = P.take_front(Eq).trim();
    StringRef Val = P.drop_front(Eq + 1).trim();
    if (Key.empty())
      return pipelineError(Full, "option with no name in '" + El.Name + "{" +
                                     Body + "}'");
    if (!all_of(Key, isNameChar))
      return pipelineError(Full, "invalid option name '" + Key + "' in '" +
                                     El.Name + "'");
    if (!Seen.insert(Key).second)
      return pipelineError(Full, "duplicate option '" + Key + "' in '" +
                                     El.Name + "'");
    El.Options.emplace_back(Key.str(), Val.str());
  }
  return Error::success();
}

Expected<std::vector<PipelineElement>> parsePipelineText(StringRef Text) {
  std::vector<PipelineElement> Out;
  if (Text.trim().empty())
    return pipelineError(Text, "empty pipeline");
  size_t I = 0, N = Text.size();
  while (true) {
    // One element: name, optional {options}, then ',' or end.
    while (I < N && isSpace(Text[I]))
      ++I;
    size_t NameStart = I;
    while (I < N && isNameChar(Text[I]))
      ++I;
    StringRef Name = Text.slice(NameStart, I);
    while (I < N && isSpace(Text[I]))
      ++I;
    if (Name.empty()) {
      if (I < N && Text[I] == '}')
        return pipelineError(Text, "unbalanced '}' at column " +
                                       Twine(I + 1));
      if (I < N && Text[I] != ',' && Text[I] != '{')
        return pipelineError(Text, "unexpected character '" +
                                       Twine(Text[I]) + "' at column " +
                                       Twine(I + 1));
      return pipelineError(Text, "empty pipeline element at column " +
                                     Twine(NameStart + 1));
    }
    PipelineElement El;
    El.Name = Name.str();
    if (I < N && Text[I] == '{') {
      size_t Open = I;
      size_t Close = Text.find_first_of("{}", Open + 1);
      if (Close == StringRef::npos)
        return pipelineError(Text, "unbalanced '{' at column " +
                                       Twine(Open + 1) + " (missing '}')");
      if (Text[Close] == '{')
        return pipelineError(Text, "unexpected '{' at column " +
                                       Twine(Close + 1) +
                                       " (options do not nest)");
      StringRef Body = Text.slice(Open + 1, Close);
      if (!Body.trim().empty())
        if (Error E = parseOptions(Text, Body, Open + 2, El))
          return E;
      I = Close + 1;
      while (I < N && isSpace(Text[I]))
        ++I;
    }
    Out.push_back(std::move(El));
    if (I == N)
      break;
    if (Text[I] == '}')
      return pipelineError(Text, "unbalanced '}' at column " + Twine(I + 1));
    if (Text[I] != ',')
      return pipelineError(Text, "unexpected character '" + Twine(Text[I]) +
                                     "' at column " + Twine(I + 1) +
                                     " (expected ',' or '{')");
    ++I;
    size_t J = I;
    while (J < N && isSpace(Text[J]))
      ++J;
    if (J == N)
      return pipelineError(Text, "empty pipeline element at the end");
  }
  return Out;
}

PassPipeline::PassPipeline() = default;
PassPipeline::PassPipeline(PassPipeline &&) = default;
PassPipeline &PassPipeline::operator=(PassPipeline &&) = default;
PassPipeline::~PassPipeline() = default;

void PassPipeline::print(raw_ostream &OS) const {
  for (size_t I = 0; I < Passes.size(); ++I) {
    if (I)
      OS << ',';
    Passes[I]->printAsTextualPipeline(OS);
  }
}

void PassPipeline::removeIf(function_ref<bool(const Pass &)> Pred) {
  llvm::erase_if(Passes,
                 [&](const std::unique_ptr<Pass> &P) { return Pred(*P); });
}

AnalysisPrefetch PassPipeline::prefetch() const {
  AnalysisPrefetch All;
  for (const std::unique_ptr<Pass> &P : Passes) {
    AnalysisPrefetch One;
    P->getPrefetch(One);
    All.merge(One);
  }
  return All;
}

std::vector<std::string> PassPipeline::passNames() const {
  std::vector<std::string> Names;
  for (const std::unique_ptr<Pass> &P : Passes)
    Names.push_back(P->getArgument().str());
  return Names;
}

std::vector<PassDescription> PassPipeline::describe() const {
  std::vector<PassDescription> Out;
  for (const std::unique_ptr<Pass> &P : Passes) {
    PassDescription D;
    D.Pass = P->getArgument().str();
    D.PassTier = P->getTier();
    D.Skill = P->getSkillName().str();
    for (StringLiteral C : P->claimedCategories())
      D.Claims.push_back(C.str());
    D.TakesUnclaimed = P->takesUnclaimedCategories();
    Out.push_back(std::move(D));
  }
  return Out;
}

std::vector<GateRequest> PassPipeline::gateRequests() const {
  std::vector<GateRequest> Out;
  for (const std::unique_ptr<Pass> &P : Passes) {
    ArrayRef<Capability> Needs = P->requiredCapabilities();
    Out.push_back({P->getArgument().str(), {Needs.begin(), Needs.end()}});
  }
  return Out;
}

std::string PassPipeline::str() const {
  std::string S;
  raw_string_ostream OS(S);
  print(OS);
  return S;
}

Expected<PassPipeline> buildPipeline(const PassRegistry &Registry,
                                     StringRef Text,
                                     const PassOptionOverrides *Overrides) {
  auto Top = parsePipelineText(Text);
  if (!Top)
    return Top.takeError();

  // Expand named pipelines with an explicit stack (no recursion); a name
  // already being expanded is a cycle.
  struct Item {
    PipelineElement El;
    std::string From; // pipeline it came from, for messages
    std::vector<std::string> Chain;
  };
  std::vector<Item> Stack;
  for (auto It = Top->rbegin(); It != Top->rend(); ++It)
    Stack.push_back({std::move(*It), "", {}});

  PassPipeline Result;
  StringSet<> Used;
  while (!Stack.empty()) {
    Item Cur = std::move(Stack.back());
    Stack.pop_back();
    const PipelineElement &El = Cur.El;
    std::string Where =
        Cur.From.empty() ? "" : " (in pipeline '" + Cur.From + "')";
    if (const PipelineInfo *PI = Registry.lookupPipeline(El.Name)) {
      if (!El.Options.empty())
        return pipelineError(Text, "pipeline '" + El.Name +
                                       "' takes no options; set them on its "
                                       "passes (" + PI->Text + ")");
      if (PI->FromMembers && PI->Members.empty())
        return pipelineError(Text, "pipeline '" + El.Name + "'" + Where +
                                       " has no passes: no loaded pass "
                                       "joins it (see --list-passes)");
      if (is_contained(Cur.Chain, El.Name))
        return pipelineError(Text, "pipeline '" + El.Name +
                                       "' includes itself");
      auto Sub = parsePipelineText(PI->Text);
      if (!Sub)
        return pipelineError(Text, "pipeline '" + El.Name + "': " +
                                       toString(Sub.takeError()));
      std::vector<std::string> Chain = Cur.Chain;
      Chain.push_back(El.Name);
      for (auto It = Sub->rbegin(); It != Sub->rend(); ++It)
        Stack.push_back({std::move(*It), El.Name, Chain});
      continue;
    }
    std::unique_ptr<Pass> P = Registry.createPass(El.Name);
    if (!P) {
      std::string Msg = "unknown pass or pipeline '" + El.Name + "'" + Where;
      std::string Close = Registry.closestName(El.Name);
      if (!Close.empty())
        Msg += "; did you mean '" + Close + "'?";
      else
        Msg += " (see --list-passes)";
      return pipelineError(Text, Msg);
    }
    if (!Used.insert(El.Name).second)
      return pipelineError(Text, "pass '" + El.Name +
                                     "' appears more than once" + Where);
    if (Overrides) {
      auto It = Overrides->find(El.Name);
      if (It != Overrides->end())
        for (const auto &[K, V] : It->second)
          if (Error E = P->setOption(K, V))
            return E;
    }
    for (const auto &[K, V] : El.Options)
      if (Error E = P->setOption(K, V))
        return pipelineError(Text, toString(std::move(E)));
    Result.Passes.push_back(std::move(P));
  }
  return Result;
}

} // namespace tl

namespace tl {

Expected<std::string> withPipelineMembers(const PassRegistry &Registry,
                                          StringRef Text, StringRef Extra) {
  const PipelineInfo *PI = Registry.lookupPipeline(Extra);
  if (!PI || PI->Text.empty())
    return Text.str();
  auto Have = buildPipeline(Registry, Text);
  if (!Have)
    return Have.takeError();
  std::vector<std::string> Names = Have->passNames();
  auto Add = buildPipeline(Registry, PI->Text);
  if (!Add)
    return Add.takeError();
  std::string Out = Text.str();
  for (const std::string &N : Add->passNames())
    if (!is_contained(Names, N))
      Out += "," + N;
  return Out;
}

} // namespace tl
