//===- DTypeTest.cpp - dtype maps (spec §5.2, §6.10) ----------------------===//
#include "tl/Analysis/DType.h"

#include "gtest/gtest.h"

using namespace tl;

TEST(DType, BytesPerElement) {
  EXPECT_EQ(bytesPerElement("c10::BFloat16"), 2);
  EXPECT_EQ(bytesPerElement("Float"), 4);
  EXPECT_EQ(bytesPerElement("Scalar"), 4);
  EXPECT_EQ(bytesPerElement("long int"), 8);
  EXPECT_EQ(bytesPerElement("c10::Float8_e4m3fnuz"), 1);
  EXPECT_FALSE(bytesPerElement("bool").has_value());
  EXPECT_FALSE(bytesPerElement("long").has_value());
  EXPECT_FALSE(bytesPerElement("ScalarList").has_value());
}

TEST(DType, Precision) {
  EXPECT_EQ(*precisionOf("float"), "fp32");
  EXPECT_EQ(*precisionOf("c10::BFloat16"), "bf16");
  EXPECT_EQ(*precisionOf("c10::Half"), "fp16");
  EXPECT_EQ(*precisionOf("unsigned char"), "fp8");
  EXPECT_EQ(*precisionOf("c10::Float4_e2m1fn_x2"), "fp4");
  EXPECT_FALSE(precisionOf("long int").has_value());
  EXPECT_FALSE(precisionOf("c10::Float8_e5m2").has_value());
}

TEST(DType, CollAndTriton) {
  EXPECT_EQ(collDtypeBytes("BFloat16"), 2);
  EXPECT_EQ(collDtypeBytes("Bool"), 1);
  EXPECT_EQ(collDtypeBytes("Long"), 8);
  EXPECT_FALSE(collDtypeBytes("bfloat16").has_value());
  EXPECT_EQ(tritonDtypeBytes("BFloat16"), 2);
  EXPECT_EQ(tritonDtypeBytes("Char"), 1);
  EXPECT_EQ(tritonDtypeBytes("Bool"), 0);
}
