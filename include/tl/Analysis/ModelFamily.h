//===- ModelFamily.h - Model family from nn.Module class names -*- C++ -*-===//
//
// Pure string helpers used by WorkloadInfo: which `nn.Module:` class names
// are generic building blocks (Linear, LayerNorm, ...) and which name a model
// family (Qwen2RMSNorm -> Qwen2, BertLayer -> BERT, BasicBlock -> ResNet).
//
//===----------------------------------------------------------------------===//
#ifndef TL_ANALYSIS_MODELFAMILY_H
#define TL_ANALYSIS_MODELFAMILY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tl {

/// Split "nn.Module: Qwen2DecoderLayer_3" (or "Qwen2DecoderLayer_3") into
/// the class name and the instance number (nullopt without `_<digits>`).
std::pair<llvm::StringRef, std::optional<int64_t>>
splitModuleInstance(llvm::StringRef FrameName);

/// True for torch.nn / wrapper / generic activation classes that say nothing
/// about the model (Linear, Dropout, GELUActivation, DistributedDataParallel).
bool isGenericModuleClass(llvm::StringRef Class);

/// The family a model-specific class belongs to ("Qwen2RMSNorm" -> "Qwen2",
/// "TimeSformerAttention" -> "TimeSformer"), or "" when no known prefix
/// matches. Matching is by case-insensitive prefix, longest prefix first.
llvm::StringRef familyOfModuleClass(llvm::StringRef Class);

/// A readable model name for an unknown root class: strips the usual
/// head/wrapper suffixes ("FooForCausalLM" -> "Foo", "BarModel" -> "Bar").
std::string stripModelClassSuffix(llvm::StringRef Class);

/// True when the class looks like the repeated block of a network
/// (ends in Layer, DecoderLayer, EncoderLayer, Block, BasicBlock, Bottleneck).
bool isRepeatedLayerClass(llvm::StringRef Class);

} // namespace tl

#endif // TL_ANALYSIS_MODELFAMILY_H
