//===- JunitReport.cpp - --junit: the run as JUnit XML --------------------===//
//
// The layout Jenkins, GitLab and GitHub test reporters read: <testsuites>
// of <testsuite>s of <testcase>s, a <failure> in a testcase that failed.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/CiReports.h"

#include "tl/Support/PyFormat.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

Error writeCiFile(StringRef File, function_ref<void(raw_ostream &)> Write) {
  StringRef Dir = sys::path::parent_path(File);
  return writeFileAtomically(Dir.empty() ? StringRef(".") : Dir,
                             sys::path::filename(File), Write);
}

namespace {

/// Text as an XML attribute value or element content.
std::string xml(StringRef S) {
  std::string R;
  for (char C : S) {
    switch (C) {
    case '&': R += "&amp;"; break;
    case '<': R += "&lt;"; break;
    case '>': R += "&gt;"; break;
    case '"': R += "&quot;"; break;
    case '\n': R += "&#10;"; break;
    default:
      // Control characters are not allowed in XML 1.0.
      if (static_cast<unsigned char>(C) < 0x20 && C != '\t')
        R += ' ';
      else
        R += C;
    }
  }
  return R;
}

std::string impactText(const PItem &P) {
  return P.Mid ? pyRepr(*P.Mid) + " % of E2E" : std::string("not quantified");
}

} // namespace

Error writeJunitReport(StringRef File, const CiReportInput &In) {
  std::vector<const PItem *> Order = In.Model.globalOrder();
  size_t GateFailures = 0, FindingFailures = 0;
  for (const GateResult &G : In.Gates)
    GateFailures += G.Failed;
  std::vector<std::string> Matched(Order.size());
  for (size_t I = 0; I < Order.size(); ++I) {
    if (In.FailOn)
      Matched[I] = In.FailOn->matchingClause(*Order[I], &In.Metrics);
    FindingFailures += !Matched[I].empty();
  }
  size_t Tests = In.Gates.size() + Order.size() + In.Failed.size();
  return writeCiFile(File, [&](raw_ostream &OS) {
    OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    OS << "<testsuites name=\"" << xml(In.ToolName) << "\" tests=\"" << Tests
       << "\" failures=\"" << GateFailures + FindingFailures
       << "\" errors=\"" << In.Failed.size() << "\">\n";
    OS << "  <testsuite name=\"fail-on\" tests=\"" << In.Gates.size()
       << "\" failures=\"" << GateFailures << "\" errors=\"0\">\n";
    for (const GateResult &G : In.Gates) {
      OS << "    <testcase classname=\"fail-on."
         << (G.Global ? "report" : "findings") << "\" name=\"" << xml(G.Clause)
         << "\" file=\"" << xml(In.TracePath) << "\"";
      if (!G.Failed) {
        OS << ">\n      <system-out>" << xml(G.Detail.empty() ? "no match"
                                                              : G.Detail)
           << "</system-out>\n    </testcase>\n";
        continue;
      }
      std::string Msg = G.Global ? G.Detail + " matches '" + G.Clause + "'"
                                 : "findings match '" + G.Clause +
                                       "': " + G.Detail;
      OS << ">\n      <failure type=\"fail-on\" message=\"" << xml(Msg)
         << "\"/>\n    </testcase>\n";
    }
    OS << "  </testsuite>\n";
    OS << "  <testsuite name=\"findings\" tests=\"" << Order.size()
       << "\" failures=\"" << FindingFailures << "\" errors=\"0\">\n";
    for (size_t I = 0; I < Order.size(); ++I) {
      const PItem &P = *Order[I];
      const Finding &F = *P.F;
      OS << "    <testcase classname=\"findings." << tierName(F.T) << "."
         << xml(F.Pass) << "\" name=\"" << xml(F.Id) << "\" file=\""
         << xml(In.TracePath) << "\">\n";
      std::string About = "P" + std::to_string(P.Rank) + " " +
                          tierName(F.T).str() + " (global rank " +
                          std::to_string(P.GlobalRank) + ", impact " +
                          impactText(P) + ", severity " +
                          severityName(F.Imp.Sev).str() + "): " + F.Title;
      if (!Matched[I].empty())
        OS << "      <failure type=\"fail-on\" message=\""
           << xml("matches '" + Matched[I] + "'") << "\"/>\n";
      OS << "      <system-out>" << xml(About) << "</system-out>\n";
      OS << "    </testcase>\n";
    }
    OS << "  </testsuite>\n";
    if (!In.Failed.empty()) {
      OS << "  <testsuite name=\"passes\" tests=\"" << In.Failed.size()
         << "\" failures=\"0\" errors=\"" << In.Failed.size() << "\">\n";
      for (const FailedPass &P : In.Failed)
        OS << "    <testcase classname=\"passes\" name=\"" << xml(P.Pass)
           << "\">\n      <error type=\"pass-failed\" message=\""
           << xml(P.Message) << "\"/>\n    </testcase>\n";
      OS << "  </testsuite>\n";
    }
    OS << "</testsuites>\n";
  });
}

} // namespace tl
