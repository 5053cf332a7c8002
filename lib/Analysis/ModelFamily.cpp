//===- ModelFamily.cpp - Model family from nn.Module class names ---------===//

#include "tl/Analysis/ModelFamily.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tl;
using llvm::StringRef;

std::pair<StringRef, std::optional<int64_t>>
tl::splitModuleInstance(StringRef FrameName) {
  FrameName.consume_front("nn.Module: ");
  size_t U = FrameName.rfind('_');
  if (U == StringRef::npos || U + 1 >= FrameName.size())
    return {FrameName, std::nullopt};
  StringRef Digits = FrameName.drop_front(U + 1);
  if (!llvm::all_of(Digits, llvm::isDigit) || Digits.size() > 12)
    return {FrameName, std::nullopt};
  int64_t N = 0;
  Digits.getAsInteger(10, N);
  return {FrameName.take_front(U), N};
}

bool tl::isGenericModuleClass(StringRef Class) {
  // torch.nn layers and containers, parallel wrappers, HF activation
  // helpers: present in every model, so they never name a family.
  static constexpr llvm::StringLiteral Exact[] = {
      "Linear", "Bilinear", "Identity", "Embedding", "EmbeddingBag",
      "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
      "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm",
      "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
      "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
      "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
      "ConvTranspose3d", "Conv1D", "ReLU", "ReLU6", "GELU", "SiLU", "Tanh",
      "Sigmoid", "Softmax", "LogSoftmax", "ELU", "LeakyReLU", "PReLU", "Mish",
      "Hardswish", "Hardsigmoid", "Softplus", "GLU", "GELUActivation",
      "QuickGELUActivation", "NewGELUActivation", "FastGELUActivation",
      "PytorchGELUTanh", "GELUTanh", "ClassInstantier", "Sequential",
      "ModuleList", "ModuleDict", "ParameterList", "MaxPool1d", "MaxPool2d",
      "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
      "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
      "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "Upsample", "Flatten",
      "Unflatten", "PixelShuffle", "MultiheadAttention",
      "NonDynamicallyQuantizableLinear", "DistributedDataParallel",
      "DataParallel", "FullyShardedDataParallel", "FSDP", "CheckpointWrapper",
      "OffloadWrapper", "OptimizedModule", "GraphModule", "FusedMoE",
      "QuantFP8"};
  return llvm::is_contained(Exact, Class);
}

namespace {
struct FamilyPrefix {
  llvm::StringLiteral Prefix;
  llvm::StringLiteral Family;
};
} // namespace

// Longest prefixes first so DistilBert wins over Bert and Qwen2Moe over
// Qwen2. Compared case-insensitively: HF spells TimeSformer/Timesformer.
static constexpr FamilyPrefix FamilyPrefixes[] = {
    {"DistilBert", "DistilBERT"},
    {"DeepseekV3", "DeepSeek-V3"},
    {"DeepseekV2", "DeepSeek-V2"},
    {"Timesformer", "TimeSformer"},
    {"StableDiffusion3", "Stable Diffusion 3"},
    {"EfficientNet", "EfficientNet"},
    {"Wav2Vec2", "Wav2Vec2"},
    {"Bottleneck", "ResNet"},
    {"BasicBlock", "ResNet"},
    {"Qwen2Moe", "Qwen2-MoE"},
    {"Qwen2_5_VL", "Qwen2.5-VL"},
    {"Qwen2VL", "Qwen2-VL"},
    {"Qwen3Moe", "Qwen3-MoE"},
    {"ConvNext", "ConvNeXt"},
    {"Mixtral", "Mixtral"},
    {"Mistral", "Mistral"},
    {"Roberta", "RoBERTa"},
    {"Whisper", "Whisper"},
    {"GPTNeoX", "GPT-NeoX"},
    {"OwlViT", "OWL-ViT"},
    {"Falcon", "Falcon"},
    {"Gemma3", "Gemma3"},
    {"Gemma2", "Gemma2"},
    {"GptOss", "GPT-OSS"},
    {"ResNet", "ResNet"},
    {"Llama4", "Llama4"},
    {"Mllama", "Llama-Vision"},
    {"Owlv2", "OWLv2"},
    {"Qwen3", "Qwen3"},
    {"Qwen2", "Qwen2"},
    {"Llama", "Llama"},
    {"Llava", "LLaVA"},
    {"Gemma", "Gemma"},
    {"Bloom", "BLOOM"},
    {"Mamba", "Mamba"},
    {"GPTJ", "GPT-J"},
    {"GPT2", "GPT-2"},
    {"Swin", "Swin"},
    {"Deit", "DeiT"},
    {"Clip", "CLIP"},
    {"Blip", "BLIP"},
    {"Bert", "BERT"},
    {"Phi3", "Phi-3"},
    {"Flux", "Flux"},
    {"SD3", "Stable Diffusion 3"},
    {"UNet", "UNet"},
    {"ViT", "ViT"},
    {"VGG", "VGG"},
    {"T5", "T5"},
};

StringRef tl::familyOfModuleClass(StringRef Class) {
  for (const FamilyPrefix &P : FamilyPrefixes)
    if (Class.starts_with_insensitive(P.Prefix))
      return P.Family;
  return "";
}

std::string tl::stripModelClassSuffix(StringRef Class) {
  static constexpr llvm::StringLiteral Suffixes[] = {
      "ForConditionalGeneration", "ForSequenceClassification",
      "ForImageClassification", "ForVideoClassification",
      "ForTokenClassification", "ForQuestionAnswering", "ForObjectDetection",
      "ForMaskedLM", "ForCausalLM", "LMHeadModel", "PreTrainedModel",
      "Model"};
  for (StringRef S : Suffixes)
    if (Class.size() > S.size() && Class.ends_with(S))
      return Class.drop_back(S.size()).str();
  return Class.str();
}

bool tl::isRepeatedLayerClass(StringRef Class) {
  return Class.ends_with("Layer") || Class.ends_with("Block") ||
         Class.ends_with("Bottleneck");
}
