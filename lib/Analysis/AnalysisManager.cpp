//===- AnalysisManager.cpp - Lazily computed, shared analyses -------------===//
//
// Each analysis is computed once, by the first thread that asks; other
// threads asking meanwhile wait for it. The manager tracks which thread
// computes what and which thread waits for what, so a dependency cycle —
// A needs B needs A, on one thread or across threads — is detected when the
// closing request is made instead of deadlocking.
//
// get() returns a reference, so a cycle cannot be handed back as an
// llvm::Error. A cycle is a bug in the analyses' code (their dependencies are
// fixed), never a property of the input trace, and no sensible value exists
// for the analysis that closes it. The manager therefore prints one clear
// diagnostic naming the whole cycle and terminates the process with exit code
// 2 ("an analysis/pass failed"), without a crash dump; tests catch such a
// bug on the first run of any pass that uses the analysis.
//
//===----------------------------------------------------------------------===//
#include "tl/Analysis/AnalysisManager.h"
#include "tl/IR/Trace.h"
#include "tl/Support/HeapTrim.h"
#include "tl/Support/ThreadTiming.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

using namespace llvm;

namespace tl {

namespace {
struct Entry {
  std::shared_ptr<const void> Value;
  bool Done = false;
  bool InProgress = false;
  std::thread::id Owner;
};
} // namespace

struct AnalysisManager::Impl {
  mutable std::mutex M;
  std::condition_variable CV;
  // By type key. StringMap entries never move, so references stay valid.
  StringMap<Entry> Entries;
  // Name -> the type key that first used it.
  StringMap<std::string> NameOwners;
  // Analyses each thread is computing (innermost last).
  std::map<std::thread::id, std::vector<std::string>> Computing;
  // The analysis each blocked thread waits for.
  std::map<std::thread::id, std::string> Waiting;
  AnalysisInstrumentation *Instrumentation = nullptr;

  [[noreturn]] void reportCycle(std::vector<std::string> Chain) {
    std::string Text = join(Chain, " -> ");
    errs() << "tl-opt: error: analysis dependency cycle: " << Text
           << " (a bug in these analyses' code, not in the trace)\n";
    errs().flush();
    // Other threads may hold the manager's lock or be blocked on it; leave
    // without running destructors.
    std::_Exit(2);
  }
};

std::string AnalysisManager::typeKeyFrom(StringRef PF) {
  // clang: "... [A = tl::GpuTimeline]"; gcc: "... [with A = tl::GpuTimeline;
  // std::string = ...]".
  size_t B = PF.find("A = ");
  if (B == StringRef::npos)
    return PF.str();
  StringRef Rest = PF.drop_front(B + 4);
  return Rest.take_until([](char C) { return C == ';' || C == ']'; }).str();
}

AnalysisManager::AnalysisManager(const Trace &T, AnalysisOptions Opts)
    : T(T), Opts(std::move(Opts)), P(std::make_unique<Impl>()) {}

AnalysisManager::~AnalysisManager() = default;

const void *AnalysisManager::getImpl(StringRef Key, StringRef Name,
                                     Factory Make) {
  std::thread::id Me = std::this_thread::get_id();
  std::unique_lock<std::mutex> L(P->M);
  Entry &E = P->Entries[Key];
  if (E.Done)
    return E.Value.get();
  auto Owner = P->NameOwners.try_emplace(Name, Key.str()).first;
  if (Owner->second != Key) {
    // Sorted, so the message does not depend on which thread came first.
    std::string A = Owner->second, B = Key.str();
    if (B < A)
      std::swap(A, B);
    errs() << "tl-opt: error: analysis name '" << Name
           << "' is used by two types: " << A << " and " << B
           << " (give one of them another Name)\n";
    errs().flush();
    std::_Exit(2);
  }

  if (E.InProgress) {
    if (E.Owner == Me) {
      // Re-entrance on this thread: Name is already on our stack.
      std::vector<std::string> &Stack = P->Computing[Me];
      auto It = llvm::find(Stack, Name);
      std::vector<std::string> Chain(It, Stack.end());
      Chain.push_back(Name.str());
      P->reportCycle(std::move(Chain));
    }
    // Follow the wait-for chain from the owner: if it leads back to us,
    // waiting would deadlock.
    std::vector<std::string> Waits; // analyses waited for along the chain
    std::thread::id Cur = E.Owner;
    for (size_t Steps = 0; Steps <= P->Waiting.size(); ++Steps) {
      auto W = P->Waiting.find(Cur);
      if (W == P->Waiting.end())
        break;
      // A waiter whose analysis just finished has not woken up yet: its
      // entry in Waiting is stale and leads nowhere.
      const Entry &Awaited = P->Entries[P->NameOwners[W->second]];
      if (Awaited.Done || !Awaited.InProgress)
        break;
      Waits.push_back(W->second);
      Cur = Awaited.Owner;
      if (Cur != Me)
        continue;
      // We compute Waits.back(), which (through our stack) asked for Name,
      // whose owner waits ... for Waits.back().
      std::vector<std::string> &Mine = P->Computing[Me];
      auto It = llvm::find(Mine, Waits.back());
      std::vector<std::string> Chain(It, Mine.end());
      Chain.push_back(Name.str());
      Chain.insert(Chain.end(), Waits.begin(), Waits.end());
      P->reportCycle(std::move(Chain));
    }
    P->Waiting[Me] = Name.str();
    P->CV.wait(L, [&] { return E.Done; });
    P->Waiting.erase(Me);
    return E.Value.get();
  }

  E.InProgress = true;
  E.Owner = Me;
  P->Computing[Me].push_back(Name.str());
  AnalysisInstrumentation *Hooks = P->Instrumentation;
  L.unlock();

  if (Hooks)
    Hooks->runBeforeAnalysis(Name, T);
  auto Wall0 = std::chrono::steady_clock::now();
  double Cpu0 = threadCpuSeconds();
  std::shared_ptr<const void> V = Make();
  AnalysisTiming Timing{Name.str(), 0, threadCpuSeconds() - Cpu0};
  Timing.WallSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - Wall0)
                           .count();

  L.lock();
  E.Value = std::move(V);
  E.Done = true;
  E.InProgress = false;
  std::vector<std::string> &Stack = P->Computing[Me];
  Stack.pop_back();
  bool Outermost = Stack.empty();
  if (Outermost)
    P->Computing.erase(Me);
  P->CV.notify_all();
  const void *Result = E.Value.get();
  L.unlock();
  if (Hooks)
    Hooks->runAfterAnalysis(Timing, T);
  // An analysis frees its temporaries when done; hand their pages back
  // before the next one grows the heap (see HeapTrim.h).
  if (Outermost && heapTrimPays(T.size()))
    releaseFreeHeapPages();
  return Result;
}

bool AnalysisManager::isCachedImpl(StringRef Key) const {
  std::lock_guard<std::mutex> L(P->M);
  auto It = P->Entries.find(Key);
  return It != P->Entries.end() && It->second.Done;
}

void AnalysisManager::setInstrumentation(AnalysisInstrumentation *I) {
  std::lock_guard<std::mutex> L(P->M);
  P->Instrumentation = I;
}

AnalysisInstrumentation::~AnalysisInstrumentation() = default;

} // namespace tl
