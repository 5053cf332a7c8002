//===- KernelNameTest.cpp - short kernel names, markdown-safe text --------===//
//
// Expected strings worked out by hand from the rule in KernelName.h / the
// CommonMark spec (code spans §6.1, backslash escapes §2.4); widths counted
// by hand (U+2026 "…" counts as one).
//
//===----------------------------------------------------------------------===//
#include "tl/Support/KernelName.h"
#include "tl/Support/Markdown.h"
#include "tl/Support/NumberFormat.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {
const char *const Mul =
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::MulFunctor<float>, at::detail::Array<char*, 3> >(int, "
    "at::native::MulFunctor<float>, at::detail::Array<char*, 3>)";
} // namespace

TEST(KernelName, ShortNamesUnchanged) {
  EXPECT_EQ(shortKernelName("aten::mm"), "aten::mm");
  EXPECT_EQ(shortKernelName("Memcpy HtoD (Pageable -> Device)"),
            "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(shortKernelName("void f<int>(int)"), "void f<int>(int)");
}

TEST(KernelName, TemplateSummary) {
  // Return type, parameter list and qualifiers dropped; 29 + 39 = 68 chars.
  EXPECT_EQ(shortKernelName(Mul),
            "vectorized_elementwise_kernel<4, MulFunctor<float>, "
            "Array<char*, 3>>");
  // 40 chars: "vectorized_elementwise_kernel<4" is 31, adding
  // ", MulFunctor<float>" and ", …>" would make 54, so it stops at 35.
  EXPECT_EQ(shortKernelName(Mul, 40),
            "vectorized_elementwise_kernel<4, \xE2\x80\xA6>");
  EXPECT_EQ(displayWidth(shortKernelName(Mul, 40)), 35u);
}

TEST(KernelName, Mangled) {
  // c++filt of this symbol is exactly Mul above.
  EXPECT_EQ(shortKernelName("_ZN2at6native29vectorized_elementwise_kernelILi4E"
                            "NS0_10MulFunctorIfEENS_6detail5ArrayIPcLi3EEEEEv"
                            "iT0_T1_"),
            "vectorized_elementwise_kernel<4, MulFunctor<float>, "
            "Array<char*, 3>>");
}

TEST(KernelName, LambdaAndAnonymousNamespace) {
  const char *Add =
      "void at::native::elementwise_kernel<128, 2, "
      "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<float> "
      ">(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> "
      "const&)::{lambda(int)#1}>(int, "
      "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<float> "
      ">(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> "
      "const&)::{lambda(int)#1})";
  // The third argument summarises to a 64-char text; 25 + 2 + 64 + 1 = 92
  // does not fit 80.
  EXPECT_EQ(shortKernelName(Add), "elementwise_kernel<128, 2, \xE2\x80\xA6>");
  EXPECT_EQ(shortKernelName(Add, 100),
            "elementwise_kernel<128, 2, gpu_kernel_impl_nocast<CUDAFunctor_add"
            "<float>>(\xE2\x80\xA6)::{lambda(\xE2\x80\xA6)#1}>");
  EXPECT_EQ(displayWidth(shortKernelName(Add, 100)), 92u);
  EXPECT_EQ(
      shortKernelName("void at::native::(anonymous namespace)::"
                      "cunn_SoftMaxForward<4, float, float, float, "
                      "at::native::(anonymous "
                      "namespace)::SoftMaxForwardEpilogue>(float*, float "
                      "const*, int)"),
      "cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>");
}

TEST(KernelName, LongPlainNameIsCut) {
  std::string Long(100, 'x');
  std::string Want = std::string(79, 'x') + "\xE2\x80\xA6";
  EXPECT_EQ(shortKernelName(Long), Want);
  EXPECT_EQ(displayWidth(Want), 80u);
}

TEST(Markdown, CodeSpanFences) {
  EXPECT_EQ(mdCode("MulFunctor<float>"), "`MulFunctor<float>`");
  // One backtick inside: a two-backtick fence.
  EXPECT_EQ(mdCode("a`b"), "``a`b``");
  // A leading backtick would join the fence: padded with spaces.
  EXPECT_EQ(mdCode("`x"), "`` `x ``");
  EXPECT_EQ(mdCode("a``b"), "```a``b```");
  EXPECT_EQ(mdCode("a|b", /*InTable=*/true), "`a\\|b`");
  EXPECT_EQ(mdCode("a|b"), "`a|b`");
  EXPECT_EQ(mdCode("a\nb"), "`a b`");
}

TEST(Markdown, Escape) {
  EXPECT_EQ(mdEscape("MulFunctor<float>"), "MulFunctor\\<float>");
  EXPECT_EQ(mdEscape("<c10::BFloat16>"), "\\<c10::BFloat16>");
  // Intraword '_' cannot delimit emphasis and stays; the others do not.
  EXPECT_EQ(mdEscape("impact_score"), "impact_score");
  EXPECT_EQ(mdEscape("__global__ x_"), "\\_\\_global\\_\\_ x\\_");
  EXPECT_EQ(mdEscape("a*b `c` [d](e) a|b & ~"),
            "a\\*b \\`c\\` \\[d](e) a\\|b \\& \\~");
  EXPECT_EQ(mdEscape("back\\slash"), "back\\\\slash");
}

TEST(Markdown, PlainReadsBack) {
  for (const char *S : {"MulFunctor<float>", "a`b", "`x", "a|b", "__x__ *y*",
                        "back\\slash"}) {
    EXPECT_EQ(mdPlain(mdCode(S)), S) << S;
    EXPECT_EQ(mdPlain(mdEscape(S)), S) << S;
  }
}

TEST(NumberFormat, ReadableProse) {
  EXPECT_EQ(readableMs(1234.56), "1234.6 ms");
  EXPECT_EQ(readableMs(12.345), "12.35 ms"); // binary 12.34500000000000064 rounds up
  EXPECT_EQ(readableMs(0.1234), "0.123 ms");
  EXPECT_EQ(readableMs(0), "0 ms");
  EXPECT_EQ(readablePct(12.34), "12.3%");
  EXPECT_EQ(readablePct(0.0123), "0.01%");
  EXPECT_EQ(readablePct(-0.0001), "-0.0001%");
  EXPECT_EQ(readablePct(0.04), "0.04%");
  EXPECT_EQ(readablePct(0), "0.0%");
}
