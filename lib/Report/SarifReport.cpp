//===- SarifReport.cpp - --sarif: findings as SARIF 2.1.0 -----------------===//
//
// Static-analysis viewers (GitHub code scanning, VS Code's SARIF viewer) read
// one result per finding: ruleId = the pass, level from the severity, the
// trace as the location, the finding id as a stable fingerprint so a viewer
// tracks one finding across runs.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/CiReports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

namespace {

/// SARIF levels: high -> error, medium -> warning, low and info -> note.
StringRef level(Severity S) {
  switch (S) {
  case Severity::High: return "error";
  case Severity::Medium: return "warning";
  case Severity::Low:
  case Severity::Info: return "note";
  }
  return "note";
}

/// A relative path as a URI reference (RFC 3986: unreserved characters and
/// '/' stay, the rest is percent-encoded).
std::string uriReference(StringRef Path) {
  std::string R;
  for (unsigned char C : Path) {
    if (isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/') {
      R += char(C);
      continue;
    }
    R += '%';
    R += hexdigit(C >> 4, /*LowerCase=*/false);
    R += hexdigit(C & 15, /*LowerCase=*/false);
  }
  return R;
}

} // namespace

Error writeSarifReport(StringRef File, const CiReportInput &In) {
  std::vector<const PItem *> Order = In.Model.globalOrder();
  // One rule per pass, in first-appearance order.
  std::vector<std::string> Rules;
  StringMap<unsigned> RuleIndex;
  for (const PItem *P : Order)
    if (RuleIndex.try_emplace(P->F->Pass, Rules.size()).second)
      Rules.push_back(P->F->Pass);
  std::string Uri = uriReference(In.TracePath);
  return writeCiFile(File, [&](raw_ostream &OS) {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
      J.attribute("version", "2.1.0");
      J.attributeArray("runs", [&] {
        J.object([&] {
          J.attributeObject("tool", [&] {
            J.attributeObject("driver", [&] {
              J.attribute("name", In.ToolName);
              J.attribute("version", In.ToolVersion);
              J.attributeArray("rules", [&] {
                for (const std::string &R : Rules)
                  J.object([&] {
                    J.attribute("id", R);
                    J.attributeObject("shortDescription", [&] {
                      J.attribute("text", "findings of the tl pass '" + R +
                                              "'");
                    });
                  });
              });
            });
          });
          J.attributeArray("artifacts", [&] {
            J.object([&] {
              J.attributeObject("location",
                                [&] { J.attribute("uri", Uri); });
            });
          });
          J.attributeArray("results", [&] {
            for (const PItem *P : Order) {
              const Finding &F = *P->F;
              J.object([&] {
                J.attribute("ruleId", F.Pass);
                J.attribute("ruleIndex",
                            static_cast<int64_t>(RuleIndex.lookup(F.Pass)));
                J.attribute("level", level(F.Imp.Sev));
                J.attributeObject("message", [&] {
                  std::string Text = F.Title;
                  if (!F.Rec.Action.empty())
                    Text += ". " + F.Rec.Action;
                  J.attribute("text", Text);
                });
                J.attributeArray("locations", [&] {
                  J.object([&] {
                    J.attributeObject("physicalLocation", [&] {
                      J.attributeObject("artifactLocation", [&] {
                        J.attribute("uri", Uri);
                        J.attribute("index", 0);
                      });
                    });
                  });
                });
                J.attributeObject("partialFingerprints", [&] {
                  J.attribute("tlFindingId/v1", F.Id);
                });
                J.attributeObject("properties", [&] {
                  J.attribute("id", F.Id);
                  J.attribute("tier", tierName(F.T));
                  J.attribute("category", F.Category);
                  J.attribute("rank", static_cast<int64_t>(P->Rank));
                  J.attribute("global_rank",
                              static_cast<int64_t>(P->GlobalRank));
                  J.attribute("severity", severityName(F.Imp.Sev));
                  J.attributeBegin("impact_pct");
                  if (P->Mid)
                    J.value(*P->Mid);
                  else
                    J.value(nullptr);
                  J.attributeEnd();
                  if (In.FailOn) {
                    std::string C =
                        In.FailOn->matchingClause(*P, &In.Metrics);
                    if (!C.empty())
                      J.attribute("fail_on", C);
                  }
                });
              });
            }
          });
        });
      });
    });
    OS << "\n";
  });
}

} // namespace tl
