//===- Pass.cpp - Pass base class ------------------------------------------===//
#include "tl/Pass/Pass.h"
#include "tl/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

Pass::~Pass() = default;

// Kernel -> op attribution: what most analyses start from.
static constexpr Capability DefaultCapabilities[] = {
    Capability::OpAttribution};

ArrayRef<Capability> Pass::requiredCapabilities() const {
  return DefaultCapabilities;
}

ArrayRef<std::string> Pass::scheduledClaims() const {
  if (!ScheduledClaims)
    return {};
  return *ScheduledClaims;
}

void AnalysisPrefetch::merge(const AnalysisPrefetch &Other) {
  for (const Job &J : Other.Jobs)
    if (llvm::none_of(Jobs, [&](const Job &Old) { return Old.Key == J.Key; }))
      Jobs.push_back(J);
}

PassOptionBase *Pass::findOption(StringRef Name) const {
  for (PassOptionBase *O : Options)
    if (O->name() == Name)
      return O;
  return nullptr;
}

Error Pass::setOption(StringRef Name, StringRef Value) {
  PassOptionBase *O = findOption(Name);
  if (!O) {
    std::vector<std::string> Names;
    for (PassOptionBase *Opt : Options)
      Names.push_back(Opt->name().str());
    std::string Msg = "pass '" + getArgument().str() + "' has no option '" +
                      Name.str() + "'";
    std::string Close = closestMatch(Name, Names);
    if (!Close.empty())
      Msg += "; did you mean '" + Close + "'?";
    else if (Names.empty())
      Msg += " (it takes no options)";
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  if (Error E = O->parse(Value))
    return createStringError(inconvertibleErrorCode(),
                             "pass '" + getArgument().str() + "' option '" +
                                 Name.str() + "' (" + O->typeName() +
                                 "): " + toString(std::move(E)));
  return Error::success();
}

void Pass::printAsTextualPipeline(raw_ostream &OS) const {
  OS << getArgument();
  if (Options.empty())
    return;
  OS << '{';
  for (size_t I = 0; I < Options.size(); ++I) {
    if (I)
      OS << ',';
    OS << Options[I]->name() << '=';
    Options[I]->printValue(OS);
  }
  OS << '}';
}

} // namespace tl
