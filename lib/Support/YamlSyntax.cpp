//===- YamlSyntax.cpp - a YAML text checked before yaml-cpp reads it ------===//
#include "tl/Support/YamlSyntax.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <optional>
#include <string>

using namespace llvm;

namespace tl {

namespace {
/// The first diagnostic of the parser ("line L, column C: msg").
struct FirstDiag {
  std::optional<std::string> Msg;
};

void keepFirst(const SMDiagnostic &D, void *Ctx) {
  auto &F = *static_cast<FirstDiag *>(Ctx);
  if (!F.Msg)
    F.Msg = ("line " + Twine(D.getLineNo()) + ", column " +
             Twine(D.getColumnNo() + 1) + ": " + D.getMessage())
                .str();
}

/// One collection being walked. Children are visited before the parent's
/// iterator moves on, so LLVM's lazy parser never has to skip (skipping
/// recurses once per level).
struct Frame {
  yaml::MappingNode *Map = nullptr;
  yaml::SequenceNode *Seq = nullptr;
  yaml::MappingNode::iterator MI;
  yaml::SequenceNode::iterator SI;
  bool Begun = false;
};

bool isCollection(const yaml::Node *N) {
  return N && (isa<yaml::MappingNode>(N) || isa<yaml::SequenceNode>(N));
}

/// Whether L points into the text. LLVM's parser leaves some nodes made
/// while recovering (a `? {` key cut short) with a range outside it.
bool within(SourceMgr &SM, SMLoc L) {
  const MemoryBuffer *B = SM.getMemoryBuffer(SM.getMainFileID());
  const char *P = L.getPointer();
  return P && P >= B->getBufferStart() && P <= B->getBufferEnd();
}

/// Where N opens. A flow collection's range starts at its first entry, so
/// the bracket before it (past blanks) is named instead.
SMLoc opening(SourceMgr &SM, const yaml::Node *N) {
  const char *P = N->getSourceRange().Start.getPointer();
  const char *Begin = SM.getMemoryBuffer(SM.getMainFileID())->getBufferStart();
  const char *Q = P;
  while (Q > Begin && (Q[-1] == ' ' || Q[-1] == '\t' || Q[-1] == '\r' ||
                       Q[-1] == '\n'))
    --Q;
  if (Q > Begin && (Q[-1] == '[' || Q[-1] == '{'))
    return SMLoc::getFromPointer(Q - 1);
  return SMLoc::getFromPointer(P);
}

Error at(SourceMgr &SM, const yaml::Node *N, const Twine &Msg) {
  // A document the parser gave up on has no root to point at.
  if (!N || !within(SM, N->getSourceRange().Start))
    return createStringError(inconvertibleErrorCode(), Msg);
  auto [Line, Col] = SM.getLineAndColumn(opening(SM, N));
  return createStringError(inconvertibleErrorCode(),
                           "line " + Twine(Line) + ", column " + Twine(Col) +
                               ": " + Msg);
}

/// Moves a collection's iterator to its next entry (the first on the first
/// call); false at the end.
template <typename Collection, typename Iterator>
bool step(Collection *C, Iterator &It, bool &Begun) {
  if (Begun)
    ++It;
  else
    It = C->begin();
  Begun = true;
  return It != C->end();
}

/// Walks one document's tree; stops at the first problem. Last is where the
/// last node read ends.
Error walk(SourceMgr &SM, yaml::Node *Root, FirstDiag &Diag, SMLoc &Last) {
  SmallVector<Frame, 16> Stack;
  auto Enter = [&](yaml::Node *N) -> Error {
    if (N && within(SM, N->getSourceRange().End))
      Last = N->getSourceRange().End;
    if (!isCollection(N))
      return Error::success();
    if (Stack.size() >= MaxYamlDepth)
      return at(SM, N,
                "nested more than " + Twine(MaxYamlDepth) + " levels deep");
    Frame F;
    F.Map = dyn_cast<yaml::MappingNode>(N);
    F.Seq = dyn_cast<yaml::SequenceNode>(N);
    Stack.push_back(F);
    return Error::success();
  };
  if (Error E = Enter(Root))
    return E;
  while (!Stack.empty() && !Diag.Msg) {
    Frame &F = Stack.back();
    yaml::Node *Child = nullptr;
    bool More = F.Map ? step(F.Map, F.MI, F.Begun) : step(F.Seq, F.SI, F.Begun);
    if (!More) {
      Stack.pop_back();
      continue;
    }
    if (F.Map) {
      yaml::Node *Key = F.MI->getKey();
      if (isCollection(Key))
        return at(SM, Key, "a mapping key must be a scalar");
      Child = F.MI->getValue();
    } else {
      Child = &*F.SI;
    }
    if (Error E = Enter(Child))
      return E;
  }
  return Error::success();
}
} // namespace

Error checkYamlSyntax(StringRef Text) {
  SourceMgr SM;
  FirstDiag Diag;
  SM.setDiagHandler(keepFirst, &Diag);
  yaml::Stream S(Text, SM);
  unsigned Docs = 0;
  SMLoc FirstEnd;
  for (auto DI = S.begin(), DE = S.end(); DI != DE && !Diag.Msg; ++DI) {
    yaml::Node *Root = DI->getRoot();
    if (Diag.Msg)
      break;
    // yaml-cpp reads the first document alone: a second would be ignored
    // without a word. One the parser could not root (a stray `%` line) is
    // placed after the first.
    if (++Docs == 2) {
      if (Root || !within(SM, FirstEnd))
        return at(SM, Root, "a second YAML document; only one is read");
      return createStringError(
          inconvertibleErrorCode(),
          "a second YAML document after line " +
              Twine(SM.getLineAndColumn(FirstEnd).first) +
              "; only one is read");
    }
    if (Error E = walk(SM, Root, Diag, FirstEnd))
      return E;
  }
  if (Diag.Msg)
    return createStringError(inconvertibleErrorCode(), *Diag.Msg);
  return Error::success();
}

} // namespace tl
