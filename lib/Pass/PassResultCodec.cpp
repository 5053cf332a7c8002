//===- PassResultCodec.cpp - A pass's results as bytes --------------------===//
//
// Little-endian fixed-width integers, doubles by their bit pattern (exact,
// NaN and infinities included), strings as a 64-bit length and the bytes.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/PassResultCodec.h"

#include <cstring>

using namespace llvm;

namespace tl {

static constexpr StringLiteral Magic = "TLPASSOUT3\n";
static constexpr StringLiteral EndMarker = "END\n";

namespace {

class Writer {
public:
  std::string Buf;
  void u8(uint8_t V) { Buf.push_back(static_cast<char>(V)); }
  void u64(uint64_t V) {
    for (int I = 0; I < 8; ++I)
      Buf.push_back(static_cast<char>((V >> (8 * I)) & 0xff));
  }
  void f64(double D) {
    uint64_t V;
    std::memcpy(&V, &D, sizeof(V));
    u64(V);
  }
  void str(StringRef S) {
    u64(S.size());
    Buf.append(S.data(), S.size());
  }
  void value(const Value &V) {
    u8(static_cast<uint8_t>(V.index()));
    if (auto *D = std::get_if<double>(&V))
      f64(*D);
    else if (auto *I = std::get_if<int64_t>(&V))
      u64(static_cast<uint64_t>(*I));
    else if (auto *S = std::get_if<std::string>(&V))
      str(*S);
    else
      u8(std::get<bool>(V));
  }
  void optF64(const std::optional<double> &V) {
    u8(V.has_value());
    if (V)
      f64(*V);
  }
  void optI64(const std::optional<int64_t> &V) {
    u8(V.has_value());
    if (V)
      u64(static_cast<uint64_t>(*V));
  }
  void facts(const FindingFacts &X);
  void finding(const Finding &F);
  /// Pre-order, on an explicit stack; the reader bounds the nesting
  /// (MaxPyDepth).
  void pyValue(const PyValue &Root) {
    struct Item {
      const PyValue *V;
      const std::string *Key; // a dict member's key, written first
    };
    std::vector<Item> Stack{{&Root, nullptr}};
    while (!Stack.empty()) {
      Item I = Stack.back();
      Stack.pop_back();
      if (I.Key)
        str(*I.Key);
      const PyValue &V = *I.V;
      u8(static_cast<uint8_t>(V.kind()));
      switch (V.kind()) {
      case PyValue::Kind::None:
        break;
      case PyValue::Kind::Bool:
        u8(V.getBool());
        break;
      case PyValue::Kind::Int:
        u64(static_cast<uint64_t>(V.getInt()));
        break;
      case PyValue::Kind::Float:
        f64(V.getFloat());
        break;
      case PyValue::Kind::Str:
        str(V.getStr());
        break;
      case PyValue::Kind::Tuple:
      case PyValue::Kind::List:
        u64(V.elems().size());
        for (auto It = V.elems().rbegin(); It != V.elems().rend(); ++It)
          Stack.push_back({&*It, nullptr});
        break;
      case PyValue::Kind::Dict:
        u64(V.items().size());
        for (auto It = V.items().rbegin(); It != V.items().rend(); ++It)
          Stack.push_back({&It->second, &It->first});
        break;
      }
    }
  }
};

/// Deeper documents are refused (the metrics documents nest about five).
constexpr unsigned MaxPyDepth = 64;

void Writer::facts(const FindingFacts &X) {
  optF64(X.TimeMs);
  optF64(X.PercentOfTotal);
  optF64(X.ExposedPercentOfTotal);
  u8(X.Score.has_value());
  if (X.Score) {
    f64(X.Score->Mid);
    optF64(X.Score->Low);
    optF64(X.Score->High);
  }
  str(X.EstimateMethod);
  for (const std::optional<int64_t> *V :
       {&X.MemberCount, &X.InstanceCount, &X.KernelCount,
        &X.ModeledKernelCount, &X.Rank})
    optI64(*V);
  for (const std::string *S : {&X.CategoryKey, &X.BoundType, &X.Library,
                               &X.EffBucket, &X.FusionType, &X.Confidence,
                               &X.Estimation})
    str(*S);
  optF64(X.EfficiencyPct);
  optF64(X.FlopsPerByte);
  u8(X.OnlyFace ? 1 + static_cast<uint8_t>(*X.OnlyFace) : 0);
}

void Writer::finding(const Finding &F) {
  u8(static_cast<uint8_t>(F.T));
  str(F.Pass);
  str(F.Category);
  str(F.Id);
  str(F.Key);
  str(F.Title);
  u64(F.Metrics.size());
  for (const Metric &M : F.Metrics) {
    str(M.Name);
    value(M.V);
    str(M.Unit);
  }
  facts(F.Facts);
  u64(F.Evidence.size());
  for (const EvidenceTable &E : F.Evidence) {
    str(E.Title);
    u64(E.Columns.size());
    for (const std::string &C : E.Columns)
      str(C);
    u64(E.Rows.size());
    for (const std::vector<Value> &Row : E.Rows) {
      u64(Row.size());
      for (const Value &V : Row)
        value(V);
    }
  }
  u8(F.Imp.Quantified);
  f64(F.Imp.LowPct);
  f64(F.Imp.MidPct);
  f64(F.Imp.HighPct);
  str(F.Imp.Method);
  u8(static_cast<uint8_t>(F.Imp.Sev));
  u64(F.Locations.size());
  for (const Location &L : F.Locations) {
    u8(static_cast<uint8_t>(L.K));
    u64(L.Uid);
    str(L.Name);
    f64(L.StartUs);
    f64(L.EndUs);
  }
  u64(F.Events.size());
  for (uint32_t E : F.Events)
    u64(E);
  str(F.Rec.Action);
  str(F.Rec.Mechanism);
  str(F.Rec.Expected);
  str(F.Insight);
  u64(F.Notes.size());
  for (const std::string &N : F.Notes)
    str(N);
}

/// Reads with bounds checks; the first problem sticks and later reads
/// return zeros, so callers check ok() once per element.
class Reader {
public:
  explicit Reader(StringRef B) : B(B) {}
  bool ok() const { return Problem.empty(); }
  const std::string &problem() const { return Problem; }
  size_t offset() const { return Pos; }

  uint8_t u8() {
    if (!need(1))
      return 0;
    return static_cast<uint8_t>(B[Pos++]);
  }
  uint64_t u64() {
    if (!need(8))
      return 0;
    uint64_t V = 0;
    for (int I = 0; I < 8; ++I)
      V |= uint64_t(static_cast<uint8_t>(B[Pos + I])) << (8 * I);
    Pos += 8;
    return V;
  }
  double f64() {
    uint64_t V = u64();
    double D;
    std::memcpy(&D, &V, sizeof(D));
    return D;
  }
  std::string str() {
    uint64_t N = u64();
    if (!need(N))
      return {};
    std::string S(B.data() + Pos, N);
    Pos += N;
    return S;
  }
  /// A count of elements, each at least MinBytes long: never more than the
  /// bytes left allow (a corrupt count cannot make us reserve gigabytes).
  uint64_t count(uint64_t MinBytes) {
    uint64_t N = u64();
    if (ok() && N > (B.size() - Pos) / MinBytes)
      fail("count " + std::to_string(N) + " exceeds the data left");
    return ok() ? N : 0;
  }
  template <typename E> E tag(uint8_t Max, const char *What) {
    uint8_t V = u8();
    if (ok() && V > Max)
      fail(std::string("bad ") + What + " " + std::to_string(V));
    return static_cast<E>(ok() ? V : 0);
  }
  Value value() {
    switch (u8()) {
    case 0:
      return f64();
    case 1:
      return static_cast<int64_t>(u64());
    case 2:
      return str();
    case 3:
      return u8() != 0;
    default:
      fail("bad value tag");
      return 0.0;
    }
  }
  void fail(std::string Msg) {
    if (Problem.empty())
      Problem = std::move(Msg) + " at byte " + std::to_string(Pos);
  }
  std::optional<double> optF64() {
    if (u8() == 0)
      return std::nullopt;
    return f64();
  }
  std::optional<int64_t> optI64() {
    if (u8() == 0)
      return std::nullopt;
    return static_cast<int64_t>(u64());
  }
  FindingFacts facts();
  Finding finding();
  PyValue pyValue(unsigned Depth = 0) {
    if (Depth > MaxPyDepth) {
      fail("document nested too deep");
      return PyValue();
    }
    auto K = tag<PyValue::Kind>(static_cast<uint8_t>(PyValue::Kind::Dict),
                                "value kind");
    switch (K) {
    case PyValue::Kind::None:
      return PyValue();
    case PyValue::Kind::Bool:
      return PyValue::boolean(u8() != 0);
    case PyValue::Kind::Int:
      return PyValue::integer(static_cast<int64_t>(u64()));
    case PyValue::Kind::Float:
      return PyValue::real(f64());
    case PyValue::Kind::Str:
      return PyValue::str(str());
    case PyValue::Kind::Tuple:
    case PyValue::Kind::List: {
      std::vector<PyValue> Elems;
      for (uint64_t I = 0, N = count(1); I < N && ok(); ++I)
        Elems.push_back(pyValue(Depth + 1));
      return K == PyValue::Kind::List ? PyValue::list(std::move(Elems))
                                      : PyValue::tuple(std::move(Elems));
    }
    case PyValue::Kind::Dict: {
      std::vector<std::pair<std::string, PyValue>> Items;
      for (uint64_t I = 0, N = count(9); I < N && ok(); ++I) {
        std::string Key = str();
        Items.emplace_back(std::move(Key), pyValue(Depth + 1));
      }
      return PyValue::dict(std::move(Items));
    }
    }
    return PyValue();
  }

private:
  bool need(uint64_t N) {
    if (!ok())
      return false;
    if (N > B.size() - Pos) {
      fail("truncated");
      return false;
    }
    return true;
  }
  StringRef B;
  size_t Pos = 0;
  std::string Problem;
};

FindingFacts Reader::facts() {
  FindingFacts X;
  X.TimeMs = optF64();
  X.PercentOfTotal = optF64();
  X.ExposedPercentOfTotal = optF64();
  if (u8()) {
    ImpactScore S;
    S.Mid = f64();
    S.Low = optF64();
    S.High = optF64();
    X.Score = S;
  }
  X.EstimateMethod = str();
  for (std::optional<int64_t> *V : {&X.MemberCount, &X.InstanceCount,
                                    &X.KernelCount, &X.ModeledKernelCount,
                                    &X.Rank})
    *V = optI64();
  for (std::string *S : {&X.CategoryKey, &X.BoundType, &X.Library,
                         &X.EffBucket, &X.FusionType, &X.Confidence,
                         &X.Estimation})
    *S = str();
  X.EfficiencyPct = optF64();
  X.FlopsPerByte = optF64();
  if (uint8_t Face = tag<uint8_t>(2, "report face"))
    X.OnlyFace = static_cast<ReportFace>(Face - 1);
  return X;
}

Finding Reader::finding() {
  Finding F;
  F.T = tag<Tier>(static_cast<uint8_t>(Tier::System), "tier");
  F.Pass = str();
  F.Category = str();
  F.Id = str();
  F.Key = str();
  F.Title = str();
  for (uint64_t I = 0, N = count(18); I < N && ok(); ++I) {
    Metric M;
    M.Name = str();
    M.V = value();
    M.Unit = str();
    F.Metrics.push_back(std::move(M));
  }
  F.Facts = facts();
  for (uint64_t I = 0, N = count(24); I < N && ok(); ++I) {
    EvidenceTable E;
    E.Title = str();
    for (uint64_t C = 0, NC = count(8); C < NC && ok(); ++C)
      E.Columns.push_back(str());
    for (uint64_t R = 0, NR = count(8); R < NR && ok(); ++R) {
      std::vector<Value> Row;
      for (uint64_t C = 0, NC = count(2); C < NC && ok(); ++C)
        Row.push_back(value());
      E.Rows.push_back(std::move(Row));
    }
    F.Evidence.push_back(std::move(E));
  }
  F.Imp.Quantified = u8() != 0;
  F.Imp.LowPct = f64();
  F.Imp.MidPct = f64();
  F.Imp.HighPct = f64();
  F.Imp.Method = str();
  F.Imp.Sev = tag<Severity>(static_cast<uint8_t>(Severity::High), "severity");
  for (uint64_t I = 0, N = count(33); I < N && ok(); ++I) {
    Location L;
    L.K = tag<Location::Kind>(static_cast<uint8_t>(Location::Kind::TimeRange),
                              "location kind");
    L.Uid = u64();
    L.Name = str();
    L.StartUs = f64();
    L.EndUs = f64();
    F.Locations.push_back(std::move(L));
  }
  for (uint64_t I = 0, N = count(8); I < N && ok(); ++I)
    F.Events.push_back(static_cast<uint32_t>(u64()));
  F.Rec.Action = str();
  F.Rec.Mechanism = str();
  F.Rec.Expected = str();
  F.Insight = str();
  for (uint64_t I = 0, N = count(8); I < N && ok(); ++I)
    F.Notes.push_back(str());
  return F;
}

} // namespace

std::string encodePassOutput(const PassOutput &Out) {
  Writer W;
  W.Buf.append(Magic.data(), Magic.size());
  W.u8(Out.Failed);
  W.str(Out.Message);
  W.u64(Out.Findings.size());
  for (const Finding &F : Out.Findings)
    W.finding(F);
  W.u64(Out.Artifacts.size());
  for (const Artifact &A : Out.Artifacts) {
    W.str(A.Pass);
    W.str(A.Path);
    W.str(A.Content);
  }
  W.u64(Out.Data.Metrics.size());
  for (const CategoryMetrics &C : Out.Data.Metrics) {
    W.str(C.Pass);
    W.str(C.Key);
    W.pyValue(C.Doc ? *C.Doc : PyValue());
    W.u8(C.TrailingNewline);
    W.u8(static_cast<uint8_t>(C.Spelling));
  }
  W.u8(Out.Data.MultiKernelData != nullptr);
  if (Out.Data.MultiKernelData)
    W.pyValue(*Out.Data.MultiKernelData);
  W.u8(Out.Data.FusionCandidates.has_value());
  if (Out.Data.FusionCandidates) {
    W.u64(Out.Data.FusionCandidates->size());
    for (const FusionCandidateEntry &C : *Out.Data.FusionCandidates) {
      W.pyValue(C.Members);
      W.str(C.InputDims);
    }
  }
  W.u64(Out.StatisticValues.size());
  for (uint64_t V : Out.StatisticValues)
    W.u64(V);
  W.Buf.append(EndMarker.data(), EndMarker.size());
  return std::move(W.Buf);
}

Expected<PassOutput> decodePassOutput(StringRef Bytes) {
  auto Bad = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), Msg);
  };
  if (!Bytes.consume_front(Magic))
    return Bad(Bytes.empty() ? "no result" : "no result header");
  if (!Bytes.consume_back(EndMarker))
    return Bad("result incomplete (" + Twine(Bytes.size()) +
               " bytes, no end marker)");
  Reader R(Bytes);
  PassOutput Out;
  Out.Failed = R.u8() != 0;
  Out.Message = R.str();
  for (uint64_t I = 0, N = R.count(64); I < N && R.ok(); ++I)
    Out.Findings.push_back(R.finding());
  for (uint64_t I = 0, N = R.count(24); I < N && R.ok(); ++I) {
    Artifact A;
    A.Pass = R.str();
    A.Path = R.str();
    A.Content = R.str();
    Out.Artifacts.push_back(std::move(A));
  }
  for (uint64_t I = 0, N = R.count(18); I < N && R.ok(); ++I) {
    CategoryMetrics C;
    C.Pass = R.str();
    C.Key = R.str();
    C.Doc = std::make_shared<const PyValue>(R.pyValue());
    C.TrailingNewline = R.u8() != 0;
    C.Spelling = R.tag<JsonSpelling>(static_cast<uint8_t>(JsonSpelling::Tl),
                                     "spelling");
    Out.Data.Metrics.push_back(std::move(C));
  }
  if (R.u8() && R.ok())
    Out.Data.MultiKernelData = std::make_shared<const PyValue>(R.pyValue());
  if (R.u8() && R.ok()) {
    Out.Data.FusionCandidates.emplace();
    for (uint64_t I = 0, N = R.count(9); I < N && R.ok(); ++I) {
      FusionCandidateEntry C;
      C.Members = R.pyValue();
      C.InputDims = R.str();
      Out.Data.FusionCandidates->push_back(std::move(C));
    }
  }
  for (uint64_t I = 0, N = R.count(8); I < N && R.ok(); ++I)
    Out.StatisticValues.push_back(R.u64());
  if (R.ok() && R.offset() != Bytes.size())
    R.fail("trailing data");
  if (!R.ok())
    return Bad("malformed result: " + R.problem());
  return Out;
}

} // namespace tl
