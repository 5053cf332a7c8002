//===- YamlExpansion.cpp - how big a YAML text is with aliases expanded ---===//
#include "YamlExpansion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <sstream>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace tl {

namespace {
uint64_t addSat(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

/// Sizes every node as its events arrive: an open collection is a stack
/// entry (no recursion), a finished anchored node's size is kept for the
/// aliases that follow it.
class SizeCounter : public YAML::EventHandler {
public:
  uint64_t Total = 0;

  void OnDocumentStart(const YAML::Mark &) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &, YAML::anchor_t A) override { leaf(A, 1); }
  void OnAlias(const YAML::Mark &, YAML::anchor_t A) override {
    auto It = Anchored.find(A);
    add(It == Anchored.end() ? 1 : It->second);
  }
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t A,
                const std::string &V) override {
    leaf(A, addSat(V.size(), 1));
  }
  void OnSequenceStart(const YAML::Mark &, const std::string &,
                       YAML::anchor_t A, YAML::EmitterStyle::value) override {
    Open.push_back({A, 1});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t A,
                  YAML::EmitterStyle::value) override {
    Open.push_back({A, 1});
  }
  void OnMapEnd() override { close(); }

private:
  struct Node {
    YAML::anchor_t Anchor;
    uint64_t Size;
  };
  void add(uint64_t N) {
    if (Open.empty())
      Total = addSat(Total, N);
    else
      Open.back().Size = addSat(Open.back().Size, N);
  }
  void leaf(YAML::anchor_t A, uint64_t N) {
    if (A)
      Anchored[A] = N;
    add(N);
  }
  void close() {
    Node N = Open.pop_back_val();
    leaf(N.Anchor, N.Size);
  }

  llvm::SmallVector<Node, 16> Open;
  llvm::DenseMap<YAML::anchor_t, uint64_t> Anchored;
};
} // namespace

uint64_t yamlExpandedSize(llvm::StringRef Text) {
  std::istringstream In{std::string(Text)};
  YAML::Parser P(In);
  SizeCounter C;
  // The first document only, as YAML::Load reads. Looping until
  // HandleNextDocument returns false hung on ",i": the parser reports a
  // null document without consuming the stray ',' and is then never done
  // (found by the config fuzzer).
  P.HandleNextDocument(C);
  return C.Total;
}

} // namespace tl
