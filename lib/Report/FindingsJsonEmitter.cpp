//===- FindingsJsonEmitter.cpp - findings.json -----------------------------===//
//
// Machine-readable findings: every field of every finding, in report order,
// plus the passes that failed. Schema version bumps on incompatible change.
//
//===----------------------------------------------------------------------===//
#include "tl/Report/Emitter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

namespace {

void writeValue(json::OStream &J, const Value &V) {
  if (const double *D = std::get_if<double>(&V))
    J.value(*D);
  else if (const int64_t *I = std::get_if<int64_t>(&V))
    J.value(*I);
  else if (const bool *B = std::get_if<bool>(&V))
    J.value(*B);
  else
    J.value(std::get<std::string>(V));
}

void writeFinding(json::OStream &J, const Finding &F) {
  J.object([&] {
    J.attribute("id", F.Id);
    J.attribute("tier", tierName(F.T));
    J.attribute("pass", F.Pass);
    J.attribute("category", F.Category);
    J.attribute("title", F.Title);
    J.attributeArray("metrics", [&] {
      for (const Metric &M : F.Metrics)
        J.object([&] {
          J.attribute("name", M.Name);
          J.attributeBegin("value");
          writeValue(J, M.V);
          J.attributeEnd();
          if (!M.Unit.empty())
            J.attribute("unit", M.Unit);
        });
    });
    J.attributeArray("evidence", [&] {
      for (const EvidenceTable &T : F.Evidence)
        J.object([&] {
          J.attribute("title", T.Title);
          J.attributeArray("columns", [&] {
            for (const std::string &C : T.Columns)
              J.value(C);
          });
          J.attributeArray("rows", [&] {
            for (const auto &Row : T.Rows)
              J.array([&] {
                for (const Value &C : Row)
                  writeValue(J, C);
              });
          });
        });
    });
    J.attributeObject("impact", [&] {
      J.attribute("quantified", F.Imp.Quantified);
      if (F.Imp.Quantified) {
        J.attribute("low_pct", F.Imp.LowPct);
        J.attribute("mid_pct", F.Imp.MidPct);
        J.attribute("high_pct", F.Imp.HighPct);
      }
      J.attribute("method", F.Imp.Method);
      J.attribute("severity", severityName(F.Imp.Sev));
    });
    J.attributeArray("locations", [&] {
      for (const Location &L : F.Locations)
        J.object([&] {
          J.attribute("kind", locationKindName(L.K));
          switch (L.K) {
          case Location::Kind::Event:
            J.attribute("uid", static_cast<int64_t>(L.Uid));
            break;
          case Location::Kind::Op:
          case Location::Kind::Kernel:
            J.attribute("name", L.Name);
            break;
          case Location::Kind::TimeRange:
            J.attribute("start_us", L.StartUs);
            J.attribute("end_us", L.EndUs);
            break;
          }
        });
    });
    J.attributeObject("recommendation", [&] {
      J.attribute("action", F.Rec.Action);
      J.attribute("mechanism", F.Rec.Mechanism);
      J.attribute("expected", F.Rec.Expected);
    });
    J.attributeArray("notes", [&] {
      for (const std::string &N : F.Notes)
        J.value(N);
    });
  });
}

class FindingsJsonEmitter final : public Emitter {
public:
  StringRef name() const override { return "findings-json"; }
  Error emit(const ReportContext &Ctx) override {
    return writeFileAtomically(Ctx.OutputDir, "findings.json",
                               [&](raw_ostream &OS) {
      json::OStream J(OS, /*IndentSize=*/2);
      J.object([&] {
        J.attribute("schema_version", 1);
        J.attribute("tool", Ctx.ToolVersion);
        J.attribute("pipeline", Ctx.Pipeline);
        J.attributeArray("findings", [&] {
          for (const Finding &F : Ctx.Findings)
            writeFinding(J, F);
        });
        J.attributeArray("failed_passes", [&] {
          for (const FailedPass &P : Ctx.Failed)
            J.object([&] {
              J.attribute("pass", P.Pass);
              J.attribute("message", P.Message);
            });
        });
      });
      OS << "\n";
    });
  }
};

} // namespace

std::unique_ptr<Emitter> createFindingsJsonEmitter() {
  return std::make_unique<FindingsJsonEmitter>();
}

} // namespace tl
