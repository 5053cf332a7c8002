//===- FailOnTest.cpp - --fail-on expressions ------------------------------===//
#include "tl/Report/FailOn.h"

#include "gtest/gtest.h"

using namespace tl;

namespace {

PItem item(const Finding &F, unsigned Rank, std::optional<double> Mid,
           const std::string &Method = "quantified") {
  PItem P;
  P.F = &F;
  P.Rank = Rank;
  P.Mid = Mid;
  P.Low = Mid ? std::optional<double>(*Mid / 2) : std::nullopt;
  P.High = Mid ? std::optional<double>(*Mid * 2) : std::nullopt;
  P.EstimateMethod = Method;
  P.CategoryKey = F.Category;
  return P;
}

bool matches(llvm::StringRef Expr, const PItem &P) {
  auto E = FailOnExpr::parse(Expr);
  EXPECT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  return E && E->matches(P);
}

TEST(FailOn, Terms) {
  Finding F;
  F.T = Tier::System;
  F.Pass = "cpu-idle";
  F.Category = "cpu_idle";
  F.Id = "cpu-idle.cpu_idle.0";
  F.Imp.Sev = Severity::Medium;
  PItem Scored = item(F, 2, 6.0);
  PItem Unscored = item(F, 1, std::nullopt, "heuristic");

  EXPECT_TRUE(matches("impact>=5", Scored));
  EXPECT_TRUE(matches("impact>5.99", Scored));
  EXPECT_FALSE(matches("impact<5", Scored));
  EXPECT_FALSE(matches("impact>=0", Unscored)); // never for unscored
  EXPECT_TRUE(matches("impact_low=3", Scored));
  EXPECT_TRUE(matches("impact_high>11", Scored));
  EXPECT_TRUE(matches("tier=system", Scored));
  EXPECT_FALSE(matches("tier!=system", Scored));
  EXPECT_TRUE(matches("pass=cpu-idle", Scored));
  EXPECT_TRUE(matches("category=cpu_idle", Scored));
  EXPECT_TRUE(matches("id=cpu-idle.cpu_idle.0", Scored));
  EXPECT_TRUE(matches("severity>=medium", Scored));
  EXPECT_FALSE(matches("severity=high", Scored));
  EXPECT_FALSE(matches("P1", Scored));
  EXPECT_TRUE(matches("P2", Scored));
  EXPECT_TRUE(matches("P1", Unscored));
  EXPECT_TRUE(matches("heuristic", Unscored));
  EXPECT_FALSE(matches("quantified", Unscored));
  EXPECT_TRUE(matches("quantified", Scored));
  // ',' is or, '&' is and.
  EXPECT_TRUE(matches("tier=compute,impact>5", Scored));
  EXPECT_FALSE(matches("tier=compute&impact>5", Scored));
  EXPECT_TRUE(matches(" tier = system & P3 ", Scored));
}

TEST(FailOn, Errors) {
  for (const char *Bad : {"", "impact", "impact>>3", "impact>=x", "speed>3",
                          "tier=gpu", "tier>system", "severity>=huge", "Px",
                          "a&"}) {
    auto E = FailOnExpr::parse(Bad);
    EXPECT_FALSE(static_cast<bool>(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
}

} // namespace
