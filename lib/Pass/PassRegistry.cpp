//===- PassRegistry.cpp - Known passes and named pipelines ----------------===//
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace tl {

PassRegistry::PassRegistry() = default;
PassRegistry::~PassRegistry() = default;

void PassRegistry::registerPass(PassFactory Factory) {
  std::unique_ptr<Pass> Proto = Factory ? Factory() : nullptr;
  if (!Proto) {
    Errors.push_back(CurrentOrigin + ": pass factory returned no pass");
    return;
  }
  StringRef Arg = Proto->getArgument();
  if (Arg.empty()) {
    Errors.push_back(CurrentOrigin + ": pass with an empty name");
    return;
  }
  if (const PassInfo *Old = lookupPass(Arg)) {
    Errors.push_back(CurrentOrigin + ": pass '" + Arg.str() +
                     "' is already registered by " + Old->Origin);
    return;
  }
  if (lookupPipeline(Arg)) {
    Errors.push_back(CurrentOrigin + ": pass '" + Arg.str() +
                     "' has the name of a pipeline");
    return;
  }
  for (const PipelineMembership &M : Proto->pipelines()) {
    const PipelineInfo *PI = lookupPipeline(M.Pipeline);
    if (PI && !PI->FromMembers) {
      Errors.push_back(CurrentOrigin + ": pass '" + Arg.str() +
                       "' joins pipeline '" + M.Pipeline.str() +
                       "', which is given by its text");
      return;
    }
    if (lookupPass(M.Pipeline) || M.Pipeline == Arg) {
      Errors.push_back(CurrentOrigin + ": pass '" + Arg.str() +
                       "' joins '" + M.Pipeline.str() +
                       "', which is a pass, not a pipeline");
      return;
    }
  }
  for (const PipelineMembership &M : Proto->pipelines())
    addMember(M.Pipeline, M.Order, Arg);
  Proto->Registry = this;
  PassInfo Info;
  Info.Argument = Arg.str();
  Info.Description = Proto->getDescription().str();
  Info.Origin = CurrentOrigin;
  Info.Isolated = CurrentIsolated;
  Info.Factory = std::move(Factory);
  Info.Prototype = std::move(Proto);
  std::string Key = Info.Argument;
  Passes.try_emplace(Key, std::move(Info));
}

void PassRegistry::registerPipeline(StringRef Name, StringRef Description,
                                    StringRef Text) {
  if (lookupPass(Name) || lookupPipeline(Name)) {
    Errors.push_back(CurrentOrigin + ": pipeline '" + Name.str() +
                     "' is already registered");
    return;
  }
  Pipelines.try_emplace(Name, PipelineInfo{Name.str(), Description.str(),
                                           Text.str(), false, {}});
}

void PassRegistry::declarePipeline(StringRef Name, StringRef Description) {
  if (lookupPass(Name)) {
    Errors.push_back(CurrentOrigin + ": pipeline '" + Name.str() +
                     "' has the name of a pass");
    return;
  }
  auto It = Pipelines.find(Name);
  if (It != Pipelines.end()) {
    // A pass may have joined it first (creating it without a description).
    PipelineInfo *PI = &It->second;
    if (!PI->FromMembers || !PI->Description.empty()) {
      Errors.push_back(CurrentOrigin + ": pipeline '" + Name.str() +
                       "' is already registered");
      return;
    }
    PI->Description = Description.str();
    return;
  }
  Pipelines.try_emplace(
      Name, PipelineInfo{Name.str(), Description.str(), "", true, {}});
}

void PassRegistry::addMember(StringRef Pipeline, int Order, StringRef Pass) {
  PipelineInfo &PI =
      Pipelines.try_emplace(Pipeline, PipelineInfo{Pipeline.str(), "", "",
                                                   true, {}})
          .first->second;
  PI.Members.emplace_back(Order, Pass.str());
  // Deterministic whatever the plugin load order: by Order, then name.
  llvm::sort(PI.Members);
  std::vector<std::string> Names;
  for (const auto &M : PI.Members)
    Names.push_back(M.second);
  PI.Text = join(Names, ",");
}

void PassRegistry::registerEmitter(EmitterFactory Factory) {
  if (!Factory) {
    Errors.push_back(CurrentOrigin + ": empty emitter factory");
    return;
  }
  Emitters.push_back(std::move(Factory));
}

Error PassRegistry::takeError() {
  if (Errors.empty())
    return Error::success();
  std::string Msg = join(Errors, "\n");
  Errors.clear();
  return createStringError(inconvertibleErrorCode(), Msg);
}

const PassInfo *PassRegistry::lookupPass(StringRef Argument) const {
  auto It = Passes.find(Argument);
  return It == Passes.end() ? nullptr : &It->second;
}

const PipelineInfo *PassRegistry::lookupPipeline(StringRef Name) const {
  auto It = Pipelines.find(Name);
  return It == Pipelines.end() ? nullptr : &It->second;
}

std::unique_ptr<Pass> PassRegistry::createPass(StringRef Argument) const {
  const PassInfo *Info = lookupPass(Argument);
  if (!Info)
    return nullptr;
  std::unique_ptr<Pass> P = Info->Factory();
  if (P)
    P->Registry = this;
  return P;
}

std::vector<const PassInfo *> PassRegistry::passes() const {
  std::vector<const PassInfo *> R;
  for (const auto &E : Passes)
    R.push_back(&E.second);
  llvm::sort(R, [](const PassInfo *A, const PassInfo *B) {
    return A->Argument < B->Argument;
  });
  return R;
}

std::vector<const PipelineInfo *> PassRegistry::pipelines() const {
  std::vector<const PipelineInfo *> R;
  for (const auto &E : Pipelines)
    R.push_back(&E.second);
  llvm::sort(R, [](const PipelineInfo *A, const PipelineInfo *B) {
    return A->Name < B->Name;
  });
  return R;
}

std::string PassRegistry::closestName(StringRef Name) const {
  std::vector<std::string> Names;
  for (const auto &E : Passes)
    Names.push_back(E.first().str());
  for (const auto &E : Pipelines)
    Names.push_back(E.first().str());
  llvm::sort(Names);
  return closestMatch(Name, Names);
}

std::string closestMatch(StringRef Name, ArrayRef<std::string> Candidates) {
  std::string Best;
  unsigned BestDist = ~0u;
  // Allow roughly one edit per three characters, at least two.
  unsigned Bound = std::max<unsigned>(2, Name.size() / 3);
  for (const std::string &C : Candidates) {
    unsigned D = Name.edit_distance(C, /*AllowReplacements=*/true, Bound + 1);
    if (D <= Bound && D < BestDist) {
      BestDist = D;
      Best = C;
    }
  }
  return Best;
}

void PassRegistry::printListing(raw_ostream &OS) const {
  OS << "Passes:\n";
  for (const PassInfo *P : passes()) {
    OS << "  " << P->Argument << " - " << P->Description;
    if (P->Origin != "builtin")
      OS << " [" << P->Origin << "]";
    OS << "\n";
    ArrayRef<StringLiteral> Cats = P->Prototype->claimedCategories();
    if (!Cats.empty()) {
      OS << "      claims:";
      for (StringLiteral C : Cats)
        OS << ' ' << C;
      OS << "\n";
    }
    for (const PassOptionBase *O : P->Prototype->options()) {
      OS << "      " << O->name() << "=<" << O->typeName() << ">";
      if (!O->allowedValues().empty())
        OS << " (" << join(O->allowedValues(), "|") << ")";
      OS << " default: " << O->defaultString() << " - " << O->description()
         << "\n";
    }
  }
  OS << "Pipelines:\n";
  for (const PipelineInfo *P : pipelines())
    OS << "  " << P->Name << " - "
       << (P->Description.empty() ? "Passes that join it" : P->Description)
       << "\n      = "
       << (P->Text.empty() ? "(no loaded pass joins it)" : P->Text) << "\n";
}

void registerBuiltinPipelines(PassRegistry &Registry) {
  // Names and descriptions only: the passes declare their membership.
  Registry.declarePipeline(
      "system",
      "System-level analyzers (idle GPU, fusion, communication, copies, "
      "memory)");
  Registry.declarePipeline("compute",
                           "Compute-kernel analyzers, one per op category");
  Registry.declarePipeline(
      "comparative",
      "Analyzers of a --compare reference trace (--compare adds them)");
}

} // namespace tl
