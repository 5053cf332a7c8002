//===- ModelFamilyTest.cpp - Family normalization from module names ------===//

#include "tl/Analysis/ModelFamily.h"
#include "tl/Analysis/WorkloadInfo.h"

#include <gtest/gtest.h>

using namespace tl;

TEST(ModelFamily, SplitInstance) {
  auto [C, N] = splitModuleInstance("nn.Module: Qwen2DecoderLayer_23");
  EXPECT_EQ(C, "Qwen2DecoderLayer");
  ASSERT_TRUE(N.has_value());
  EXPECT_EQ(*N, 23);
  auto [C2, N2] = splitModuleInstance("ViTModel");
  EXPECT_EQ(C2, "ViTModel");
  EXPECT_FALSE(N2.has_value());
  // A trailing underscore with letters is part of the name.
  auto [C3, N3] = splitModuleInstance("nn.Module: Qwen2_5_VLModel");
  EXPECT_EQ(C3, "Qwen2_5_VLModel");
  EXPECT_FALSE(N3.has_value());
}

TEST(ModelFamily, KnownPrefixes) {
  EXPECT_EQ(familyOfModuleClass("Qwen2RMSNorm"), "Qwen2");
  EXPECT_EQ(familyOfModuleClass("Qwen2MoeSparseMoeBlock"), "Qwen2-MoE");
  EXPECT_EQ(familyOfModuleClass("BertLayer"), "BERT");
  EXPECT_EQ(familyOfModuleClass("DistilBertModel"), "DistilBERT");
  EXPECT_EQ(familyOfModuleClass("ViTModel"), "ViT");
  EXPECT_EQ(familyOfModuleClass("Owlv2VisionModel"), "OWLv2");
  EXPECT_EQ(familyOfModuleClass("OwlViTModel"), "OWL-ViT");
  // HF spells both TimeSformer and Timesformer.
  EXPECT_EQ(familyOfModuleClass("TimesformerLayer"), "TimeSformer");
  EXPECT_EQ(familyOfModuleClass("TimeSformerAttention"), "TimeSformer");
  EXPECT_EQ(familyOfModuleClass("ResNet"), "ResNet");
  EXPECT_EQ(familyOfModuleClass("Bottleneck"), "ResNet");
  EXPECT_EQ(familyOfModuleClass("BasicBlock"), "ResNet");
  EXPECT_EQ(familyOfModuleClass("LlamaDecoderLayer"), "Llama");
  EXPECT_EQ(familyOfModuleClass("GptOssForCausalLM"), "GPT-OSS");
  EXPECT_EQ(familyOfModuleClass("TransformerBlock"), "");
}

TEST(ModelFamily, GenericClasses) {
  for (const char *C : {"Linear", "LayerNorm", "Dropout", "GELUActivation",
                        "Conv2d", "Embedding", "DistributedDataParallel",
                        "CheckpointWrapper", "Sequential"})
    EXPECT_TRUE(isGenericModuleClass(C)) << C;
  for (const char *C : {"BertLayer", "Qwen2RMSNorm", "ResNet", "BasicBlock"})
    EXPECT_FALSE(isGenericModuleClass(C)) << C;
}

TEST(ModelFamily, SuffixesAndLayers) {
  EXPECT_EQ(stripModelClassSuffix("FooForCausalLM"), "Foo");
  EXPECT_EQ(stripModelClassSuffix("BarModel"), "Bar");
  EXPECT_EQ(stripModelClassSuffix("Model"), "Model");
  EXPECT_TRUE(isRepeatedLayerClass("Qwen2DecoderLayer"));
  EXPECT_TRUE(isRepeatedLayerClass("TransformerBlock"));
  EXPECT_TRUE(isRepeatedLayerClass("Bottleneck"));
  EXPECT_FALSE(isRepeatedLayerClass("Qwen2Model"));
}

TEST(ModelFamily, ShortDtype) {
  EXPECT_EQ(shortDtype("c10::BFloat16"), "bf16");
  EXPECT_EQ(shortDtype("c10::Half"), "fp16");
  EXPECT_EQ(shortDtype("float"), "fp32");
  EXPECT_EQ(shortDtype("c10::Float8_e4m3fn"), "fp8");
  EXPECT_EQ(shortDtype("long int"), "long int");
}
