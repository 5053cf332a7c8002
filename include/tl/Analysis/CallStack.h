//===- CallStack.h - Python call stacks of ops and kernels -----*- C++ -*-===//
//
// The agent reference's `entry_point` and `call_stack_full` columns of
// unified_perf_summary (perf report with --include_call_stack; see
// tracelens-analysis.md §2.3): host frames (python functions and cpu_ops,
// runtime events skipped) from the thread's root down to each kernel. The
// frame rules are not in the spec; they were read off the eleven agent
// references and match all of them (docs/conformance.md).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_CALLSTACK_H
#define TL_ANALYSIS_CALLSTACK_H

#include "tl/IR/Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tl {

/// Whether a python_function event is a frame of call_stack_full: nn.Module
/// frames and `dir/file.py(line): func` frames. The references leave out
/// frames without a directory: `<string>(1): <module>`, `<built-in ...>`
/// C calls and the top-level script (`train_ddp.py(184): <module>`).
bool isStackPythonFrame(llvm::StringRef Name);

/// Host frames above and including E (E itself only when it is a host
/// event), outermost first: cpu_ops and the python frames above;
/// runtime/driver events are skipped. Python frame names lose every
/// `_<digits>` (re.sub(r'_\d+', '')): "nn.Module: Linear_0" -> "nn.Module:
/// Linear", "_prepare_4d_attention_mask" -> "_prepared_attention_mask".
std::vector<std::string> hostFrames(const Trace &T, EventId E);

/// A frame entry_point steps over on its way out (the reference's wrapper
/// test): `<built-in`, `pybind11_builtins`, `nn.Module:` frames, torch
/// dispatch files (torch/_ops.py, torch/nn/modules/module.py, ...,
/// triton/backends/) and wrapper functions (`wrapper`, `_call_impl`,
/// `__torch_function__`, ...).
bool isEntryWrapperFrame(llvm::StringRef Frame);

/// Function part of a frame: the text after the last "): ", else all of it.
llvm::StringRef frameFunction(llvm::StringRef Frame);

/// Frames of distinct tails call_stack_full lists before it stops.
inline constexpr size_t CallStackFrameBudget = 1 << 16;

/// Python list literal of the frames root -> kernel for each of Kernels: a
/// flat list when every kernel has the same path, else the common prefix
/// followed by one sub-list per distinct tail, in the order of Kernels
/// (callers pass the kernel_details_summary order); "Not found" when
/// Kernels is empty. Kernels nested D deep have tails of up to D frames (a
/// D^2 text): once the listed tails would pass CallStackFrameBudget frames,
/// the kernels from there on are counted in a last element
/// '... N more kernels' instead (docs/conformance.md).
std::string callStackFull(const Trace &T, llvm::ArrayRef<EventId> Kernels);

/// callStackFull for many kernel lists of one trace: each host event's
/// frame path is found once (a trie of frame names), so a list costs O(1)
/// per kernel plus the text it prints.
class CallStackBuilder {
public:
  explicit CallStackBuilder(const Trace &T);
  ~CallStackBuilder();
  /// Above: a pseudo op (Trace::isPseudoOp) the kernels' parent walk does
  /// not meet; each kernel's stack is then the pseudo op's frames followed
  /// by the whole walk from the root, as the reference repeats them
  /// (tracelens-inference §A.6, §E.4).
  std::string callStackFull(llvm::ArrayRef<EventId> Kernels,
                            EventId Above = NoEvent);

private:
  struct Node {
    uint32_t Parent, Name, Depth;
  };
  uint32_t child(uint32_t Parent, llvm::StringRef Frame);
  /// Trie node of hostFrames(E).
  uint32_t hostPath(EventId E);
  /// Appends the frames of Node below depth From, outermost first.
  void appendPath(uint32_t Node, size_t From,
                  std::vector<llvm::StringRef> &Out) const;

  const Trace &T;
  std::vector<Node> Nodes;
  llvm::StringMap<uint32_t> NameIds;
  std::vector<llvm::StringRef> Names;
  llvm::DenseMap<std::pair<uint32_t, uint32_t>, uint32_t> Children;
  llvm::DenseMap<EventId, uint32_t> PathOf;
};

/// call_stack_full of a synthetic op: the reference lists its one kernel
/// alone (`['<kernel>']`).
std::string kernelOnlyStack(const Trace &T, EventId Kernel);

/// entry_point of a unified row, derived from its call_stack_full text as
/// the reference does (tracelens-inference §A.6): flatten the stack, find
/// the op's own frame (the last equal to OpName, else to OpName without a
/// trailing _<digits>), then take the first `.py` frame below it whose
/// function contains the op's local name (after `::`, lower-cased), else
/// the nearest `.py` frame above it that is not a wrapper
/// (isEntryWrapperFrame); "Not found" otherwise.
std::string entryPoint(llvm::StringRef OpName, llvm::StringRef CallStackFull);

/// re.sub(r'_\d+', '', N): every `_` followed by digits goes, also inside a
/// name ("_prepare_4d_attention_mask" -> "_prepared_attention_mask").
std::string stripIndices(llvm::StringRef N);

} // namespace tl

#endif // TL_ANALYSIS_CALLSTACK_H
