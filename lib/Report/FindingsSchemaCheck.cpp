//===- FindingsSchemaCheck.cpp - findings.json against its schema ---------===//
//
// --validate-report checks findings.json against docs/findings.schema.json
// (embedded at build time), with the JSON Schema keywords the schema uses:
// type, required, properties, items, enum, const, oneOf, $ref, minimum,
// pattern. Numbers must be finite. The walk over the document is a work
// list, so only the schema's own nesting (a few levels) is ever recursed
// into (oneOf); the file's depth is bounded by parseJsonBounded first.
//
// Each problem is one line naming the file, the JSON path and the byte
// offset of the value ("findings.json: $.findings: expected array, got
// string (byte 13)").
//
//===----------------------------------------------------------------------===//
#include "tl/Report/ReportValidator.h"

#include "tl/Support/BoundedJson.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

#include <cmath>
#include <optional>

using namespace llvm;

namespace tl {
namespace {

const char *const FindingsSchemaText =
#include "FindingsSchema.inc"
    ;

/// One step of a JSON path: a key or an index.
struct Step {
  std::string Key;
  int64_t Index = -1;
};
using JsonPath = std::vector<Step>;

std::string showPath(const JsonPath &P) {
  std::string S = "$";
  for (const Step &St : P) {
    if (St.Index >= 0) {
      S += "[" + std::to_string(St.Index) + "]";
      continue;
    }
    bool Plain = !St.Key.empty() && all_of(St.Key, [](char C) {
      return isAlnum(C) || C == '_';
    });
    if (Plain)
      S += "." + St.Key;
    else
      S += "[\"" + St.Key + "\"]"; // only for the message
  }
  return S;
}

/// Byte offset of the value at P in Text (valid JSON), by scanning tokens:
/// iterative, a stack of the open containers. nullopt when not found (a
/// key written with escapes).
std::optional<size_t> offsetOf(StringRef Text, const JsonPath &P) {
  struct Frame {
    bool Object;
    std::string Key;
    int64_t Index = -1;
    bool ExpectKey = false;
  };
  std::vector<Frame> Stack;
  size_t I = 0, N = Text.size();
  auto SkipWs = [&] {
    while (I < N && (Text[I] == ' ' || Text[I] == '\n' || Text[I] == '\t' ||
                     Text[I] == '\r'))
      ++I;
  };
  auto AtTarget = [&] {
    if (Stack.size() != P.size())
      return false;
    for (size_t K = 0; K < P.size(); ++K) {
      const Frame &F = Stack[K];
      if (P[K].Index >= 0 ? (F.Object || F.Index != P[K].Index)
                          : (!F.Object || F.Key != P[K].Key))
        return false;
    }
    return true;
  };
  auto ScanString = [&]() -> StringRef {
    size_t Start = ++I;
    while (I < N && Text[I] != '"')
      I += Text[I] == '\\' ? 2 : 1;
    StringRef S = Text.slice(Start, std::min(I, N));
    ++I;
    return S;
  };
  if (P.empty())
    return (SkipWs(), I);
  while (I < N) {
    SkipWs();
    if (I >= N)
      break;
    char C = Text[I];
    if (!Stack.empty() && Stack.back().Object && Stack.back().ExpectKey &&
        C == '"') {
      Stack.back().Key = ScanString().str();
      Stack.back().ExpectKey = false;
      SkipWs();
      if (I < N && Text[I] == ':')
        ++I;
      continue;
    }
    if (C == ',') {
      ++I;
      if (!Stack.empty()) {
        if (Stack.back().Object)
          Stack.back().ExpectKey = true;
        else
          ++Stack.back().Index;
      }
      continue;
    }
    if (C == '}' || C == ']') {
      ++I;
      if (!Stack.empty())
        Stack.pop_back();
      continue;
    }
    // A value starts here.
    if (AtTarget())
      return I;
    if (C == '{' || C == '[') {
      ++I;
      Frame F{C == '{', "", C == '[' ? 0 : -1, C == '{'};
      Stack.push_back(F);
      continue;
    }
    if (C == '"') {
      ScanString();
      continue;
    }
    while (I < N && !StringRef(",]} \n\t\r").contains(Text[I]))
      ++I;
  }
  return std::nullopt;
}

StringRef kindName(const json::Value &V) {
  switch (V.kind()) {
  case json::Value::Null:
    return "null";
  case json::Value::Boolean:
    return "boolean";
  case json::Value::Number:
    return "number";
  case json::Value::String:
    return "string";
  case json::Value::Array:
    return "array";
  case json::Value::Object:
    return "object";
  }
  return "value";
}

bool isInteger(const json::Value &V) {
  if (V.getAsInteger())
    return true;
  std::optional<double> D = V.getAsNumber();
  return D && std::isfinite(*D) && *D == std::floor(*D);
}

bool hasType(const json::Value &V, StringRef T) {
  if (T == "number")
    return V.kind() == json::Value::Number;
  if (T == "integer")
    return V.kind() == json::Value::Number && isInteger(V);
  return kindName(V) == T;
}

class SchemaChecker {
public:
  SchemaChecker(const json::Object &Root, StringRef Text)
      : Root(Root), Text(Text) {}

  /// Problems of V against S (at most Limit are kept), as
  /// "<path>: <what>".
  void check(const json::Object &S, const json::Value &V, JsonPath Path,
             std::vector<std::string> &Out, size_t Limit) {
    struct Item {
      const json::Object *S;
      const json::Value *V;
      JsonPath Path;
    };
    std::vector<Item> Work{{&S, &V, std::move(Path)}};
    while (!Work.empty() && Out.size() < Limit) {
      Item It = std::move(Work.back());
      Work.pop_back();
      const json::Object *Sc = resolve(It.S);
      if (!Sc)
        continue;
      auto Fail = [&](const Twine &What) {
        std::string M = showPath(It.Path) + ": " + What.str();
        if (std::optional<size_t> Off = offsetOf(Text, It.Path))
          M += " (byte " + std::to_string(*Off) + ")";
        Out.push_back(std::move(M));
      };
      const json::Value &Val = *It.V;
      if (Val.kind() == json::Value::Number) {
        std::optional<double> D = Val.getAsNumber();
        if (D && !std::isfinite(*D)) {
          Fail("number is not finite");
          continue;
        }
      }
      if (const json::Value *T = Sc->get("type")) {
        std::vector<StringRef> Types;
        if (auto S1 = T->getAsString())
          Types.push_back(*S1);
        else if (const json::Array *A = T->getAsArray())
          for (const json::Value &E : *A)
            if (auto S2 = E.getAsString())
              Types.push_back(*S2);
        if (!Types.empty() &&
            none_of(Types, [&](StringRef Ty) { return hasType(Val, Ty); })) {
          Fail("expected " + join(Types, " or ") + ", got " + kindName(Val));
          continue;
        }
      }
      if (const json::Value *C = Sc->get("const"))
        if (!(*C == Val)) {
          std::string Want;
          raw_string_ostream(Want) << *C;
          Fail("expected " + Want);
          continue;
        }
      if (const json::Array *E = Sc->getArray("enum"))
        if (none_of(*E, [&](const json::Value &X) { return X == Val; })) {
          std::string Want;
          raw_string_ostream OS(Want);
          for (size_t K = 0; K < E->size(); ++K)
            OS << (K ? ", " : "") << (*E)[K];
          Fail("expected one of " + Want);
          continue;
        }
      if (const json::Array *One = Sc->getArray("oneOf")) {
        unsigned Matches = 0;
        for (const json::Value &Alt : *One)
          if (const json::Object *AO = Alt.getAsObject()) {
            std::vector<std::string> Sub;
            check(*AO, Val, It.Path, Sub, 1);
            Matches += Sub.empty();
          }
        if (Matches != 1)
          Fail(Matches ? "matches more than one of the allowed forms"
                       : "matches none of the allowed forms");
        continue;
      }
      if (std::optional<double> Min = Sc->getNumber("minimum"))
        if (std::optional<double> D = Val.getAsNumber(); D && *D < *Min)
          Fail("must be at least " + formatNumber(*Min));
      if (std::optional<StringRef> Pat = Sc->getString("pattern"))
        if (std::optional<StringRef> S3 = Val.getAsString())
          if (!Regex(*Pat).match(*S3))
            Fail("'" + *S3 + "' does not match " + *Pat);
      if (const json::Object *O = Val.getAsObject()) {
        if (const json::Array *Req = Sc->getArray("required"))
          for (const json::Value &K : *Req)
            if (auto Key = K.getAsString(); Key && !O->get(*Key))
              Fail("required key '" + *Key + "' missing");
        if (const json::Object *Props = Sc->getObject("properties"))
          for (const auto &[K, Sub] : *Props)
            if (const json::Value *Child = O->get(K))
              if (const json::Object *SO = Sub.getAsObject()) {
                JsonPath P = It.Path;
                P.push_back({K.str(), -1});
                Work.push_back({SO, Child, std::move(P)});
              }
      }
      if (const json::Array *A = Val.getAsArray())
        if (const json::Object *ItemS = Sc->getObject("items"))
          for (size_t K = A->size(); K-- > 0;) {
            JsonPath P = It.Path;
            P.push_back({"", static_cast<int64_t>(K)});
            Work.push_back({ItemS, &(*A)[K], std::move(P)});
          }
    }
  }

private:
  /// S, or what its "$ref": "#/$defs/<name>" names.
  const json::Object *resolve(const json::Object *S) const {
    for (int Hops = 0; S && Hops < 8; ++Hops) {
      std::optional<StringRef> Ref = S->getString("$ref");
      if (!Ref)
        return S;
      StringRef Name = *Ref;
      if (!Name.consume_front("#/$defs/"))
        return nullptr;
      const json::Object *Defs = Root.getObject("$defs");
      S = Defs ? Defs->getObject(Name) : nullptr;
    }
    return nullptr;
  }
  static std::string formatNumber(double D) {
    std::string S;
    raw_string_ostream(S) << json::Value(D);
    return S;
  }

  const json::Object &Root;
  StringRef Text;
};

} // namespace

void checkFindingsSchema(StringRef Text, StringRef File, ValidationResult &R,
                         unsigned MaxIssues) {
  auto Err = [&](const Twine &Msg) {
    R.Issues.push_back(
        {ValidationIssue::Kind::Error, "tl", "schema", (File + ": " + Msg).str()});
  };
  ++R.Checks;
  Expected<json::Value> V = parseJsonBounded(Text);
  if (!V) {
    Err(toString(V.takeError()));
    return;
  }
  Expected<json::Value> Schema = json::parse(FindingsSchemaText);
  if (!Schema) {
    Err("the embedded schema does not parse: " +
        toString(Schema.takeError()));
    return;
  }
  const json::Object *SO = Schema->getAsObject();
  if (!SO)
    return;
  std::vector<std::string> Problems;
  SchemaChecker(*SO, Text).check(*SO, *V, {}, Problems, MaxIssues + 1);
  for (size_t I = 0; I < Problems.size() && I < MaxIssues; ++I)
    Err(Problems[I]);
  if (Problems.size() > MaxIssues)
    Err("more schema errors not shown");
}

} // namespace tl
