//===- ValidatorTest.cpp - The impact-marker grammar (§8.1) ---------------===//
#include "tl/Report/ReportValidator.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

unsigned errorsIn(llvm::StringRef Text) {
  ValidationResult R;
  checkMarkers(Text, "L3", R);
  return R.errors();
}

TEST(Validator, MarkerGrammar) {
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=p_item low=1 mid=2 high=3 -->\n"
                     "<!-- impact-end -->"),
            0u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=p_item low=null mid=null "
                     "high=null --><!-- impact-end -->"),
            0u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=top_ops --><!-- impact-end -->"),
            0u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=detail_estimate low=1 high=2 "
                     "--><!-- impact-end -->"),
            0u);
  // Missing attribute, mixed null, unknown kind, missing kind, no end.
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=p_item low=1 high=3 -->"
                     "<!-- impact-end -->"),
            1u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=p_item low=null mid=2 high=3 -->"
                     "<!-- impact-end -->"),
            1u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=other --><!-- impact-end -->"),
            1u);
  EXPECT_EQ(errorsIn("<!-- impact-begin low=1 --><!-- impact-end -->"), 1u);
  EXPECT_EQ(errorsIn("<!-- impact-begin kind=top_ops -->"), 1u);
  EXPECT_EQ(errorsIn("<!-- reasoning-candidate tier=compute rank=x -->"), 1u);
  EXPECT_EQ(errorsIn("<!-- reasoning-candidate tier=compute rank=3 -->"), 0u);
  // Other comments are not markers.
  EXPECT_EQ(errorsIn("<!-- tl-prose finding=x field=y -->t<!-- /tl-prose -->"),
            0u);
}

} // namespace
