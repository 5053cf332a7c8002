//===- PyValue.cpp - Python-like value for report cells ---------------------===//
#include "tl/Support/PyValue.h"
#include "tl/Support/PyFormat.h"

#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstdio>
#include <deque>

using namespace tl;

PyValue PyValue::boolean(bool B) {
  PyValue V;
  V.K = Kind::Bool;
  V.I = B ? 1 : 0;
  return V;
}
PyValue PyValue::integer(int64_t I) {
  PyValue V;
  V.K = Kind::Int;
  V.I = I;
  return V;
}
PyValue PyValue::real(double D) {
  PyValue V;
  V.K = Kind::Float;
  V.D = D;
  return V;
}
PyValue PyValue::str(llvm::StringRef S) {
  PyValue V;
  V.K = Kind::Str;
  V.S = S.str();
  return V;
}
PyValue PyValue::tuple(std::vector<PyValue> Elems) {
  PyValue V;
  V.K = Kind::Tuple;
  V.Elems = std::move(Elems);
  return V;
}
PyValue PyValue::list(std::vector<PyValue> Elems) {
  PyValue V;
  V.K = Kind::List;
  V.Elems = std::move(Elems);
  return V;
}
PyValue PyValue::dict(std::vector<std::pair<std::string, PyValue>> Items) {
  PyValue V;
  V.K = Kind::Dict;
  V.Items = std::move(Items);
  return V;
}
PyValue PyValue::intTuple(llvm::ArrayRef<int64_t> Elems) {
  std::vector<PyValue> E;
  E.reserve(Elems.size());
  for (int64_t X : Elems)
    E.push_back(integer(X));
  return tuple(std::move(E));
}

double PyValue::asDouble() const {
  if (K == Kind::Float)
    return D;
  if (K == Kind::Int || K == Kind::Bool)
    return static_cast<double>(I);
  return std::nan("");
}

bool PyValue::truthy() const {
  switch (K) {
  case Kind::None:
    return false;
  case Kind::Bool:
  case Kind::Int:
    return I != 0;
  case Kind::Float:
    return D != 0;
  case Kind::Str:
    return !S.empty();
  case Kind::Tuple:
  case Kind::List:
    return !Elems.empty();
  case Kind::Dict:
    return !Items.empty();
  }
  return false;
}

bool tl::operator==(const PyValue &A, const PyValue &B) {
  // Python equality across numeric kinds: 1 == 1.0 == True.
  if (A.isNumber() && B.isNumber()) {
    if (A.K != PyValue::Kind::Float && B.K != PyValue::Kind::Float)
      return A.I == B.I;
    return A.asDouble() == B.asDouble();
  }
  if (A.K != B.K)
    return false;
  switch (A.K) {
  case PyValue::Kind::None:
    return true;
  case PyValue::Kind::Str:
    return A.S == B.S;
  case PyValue::Kind::Tuple:
  case PyValue::Kind::List:
    return A.Elems == B.Elems;
  case PyValue::Kind::Dict:
    return A.Items == B.Items;
  default:
    return false;
  }
}

namespace {
/// pyRepr's work item: a value, a fixed text, or a dict key with the
/// separator before it (written straight into the output).
struct Work {
  const PyValue *V = nullptr;
  const char *Text = nullptr;
  const std::string *Key = nullptr;
  bool First = false; // Key: the dict's first item
};
} // namespace

static std::string scalarRepr(const PyValue &V) {
  switch (V.kind()) {
  case PyValue::Kind::None:
    return "None";
  case PyValue::Kind::Bool:
    return V.getBool() ? "True" : "False";
  case PyValue::Kind::Int:
    return std::to_string(V.getInt());
  case PyValue::Kind::Float:
    return pyRepr(V.getFloat());
  case PyValue::Kind::Str:
    return pyReprString(V.getStr());
  default:
    return "";
  }
}

std::string tl::pyRepr(const PyValue &V) {
  // Explicit stack: values come from traces and may nest arbitrarily deep.
  std::string Out;
  std::vector<Work> Stack;
  Stack.push_back({&V});
  while (!Stack.empty()) {
    Work W = Stack.back();
    Stack.pop_back();
    if (W.Text) {
      Out += W.Text;
      continue;
    }
    if (W.Key) {
      if (!W.First)
        Out += ", ";
      appendPyReprString(Out, *W.Key);
      Out += ": ";
      continue;
    }
    const PyValue &X = *W.V;
    switch (X.kind()) {
    case PyValue::Kind::Tuple:
    case PyValue::Kind::List: {
      bool Tup = X.kind() == PyValue::Kind::Tuple;
      const auto &E = X.elems();
      Out += Tup ? '(' : '[';
      // Push in reverse so the first element is printed first.
      Stack.push_back({nullptr, Tup ? (E.size() == 1 ? ",)" : ")") : "]"});
      for (size_t I = E.size(); I-- > 0;) {
        Stack.push_back({&E[I]});
        if (I != 0)
          Stack.push_back({nullptr, ", "});
      }
      break;
    }
    case PyValue::Kind::Dict: {
      const auto &Items = X.items();
      Out += '{';
      Stack.push_back({nullptr, "}"});
      for (size_t I = Items.size(); I-- > 0;) {
        Stack.push_back({&Items[I].second});
        Stack.push_back({nullptr, nullptr, &Items[I].first, I == 0});
      }
      break;
    }
    default:
      Out += scalarRepr(X);
    }
  }
  return Out;
}

std::string tl::pyStr(const PyValue &V) {
  if (V.kind() == PyValue::Kind::Str)
    return V.getStr();
  return pyRepr(V);
}

std::string tl::jsonString(llvm::StringRef S) {
  std::string Out = "\"";
  Out.reserve(S.size() + 2);
  const char *P = S.data(), *E = S.data() + S.size();
  char B[16];
  while (P < E) {
    // Copy the run of characters that need no escape in one append.
    const char *Run = P;
    while (P < E && static_cast<unsigned char>(*P) >= 0x20 &&
           static_cast<unsigned char>(*P) < 0x80 && *P != '"' && *P != '\\')
      ++P;
    if (P != Run)
      Out.append(Run, P);
    if (P == E)
      break;
    unsigned char C = static_cast<unsigned char>(*P);
    if (C < 0x80) {
      ++P;
      switch (C) {
      case '"': Out += "\\\""; break;
      case '\\': Out += "\\\\"; break;
      case '\n': Out += "\\n"; break;
      case '\r': Out += "\\r"; break;
      case '\t': Out += "\\t"; break;
      case '\b': Out += "\\b"; break;
      case '\f': Out += "\\f"; break;
      default:
        if (C < 0x20) {
          std::snprintf(B, sizeof(B), "\\u%04x", C);
          Out += B;
        } else {
          Out += static_cast<char>(C);
        }
      }
      continue;
    }
    // Decode one UTF-8 sequence; invalid bytes are escaped as themselves.
    unsigned Len = C >= 0xf0 ? 4 : C >= 0xe0 ? 3 : C >= 0xc0 ? 2 : 1;
    uint32_t CP = Len == 1 ? C : (C & (0x7f >> Len));
    bool Ok = Len > 1 && P + Len <= E;
    for (unsigned I = 1; Ok && I < Len; ++I) {
      unsigned char X = static_cast<unsigned char>(P[I]);
      Ok = (X & 0xc0) == 0x80;
      CP = (CP << 6) | (X & 0x3f);
    }
    if (!Ok) {
      CP = C;
      Len = 1;
    }
    P += Len;
    if (CP >= 0x10000) {
      CP -= 0x10000;
      std::snprintf(B, sizeof(B), "\\u%04x\\u%04x", 0xd800 + (CP >> 10),
                    0xdc00 + (CP & 0x3ff));
    } else {
      std::snprintf(B, sizeof(B), "\\u%04x", CP);
    }
    Out += B;
  }
  Out += '"';
  return Out;
}

std::optional<llvm::json::Value> tl::pyJsonValue(const PyValue &Root) {
  using llvm::json::Value;
  auto IsContainer = [](const PyValue &X) {
    return X.kind() == PyValue::Kind::Tuple ||
           X.kind() == PyValue::Kind::List || X.kind() == PyValue::Kind::Dict;
  };
  auto Leaf = [](const PyValue &X) -> std::optional<Value> {
    switch (X.kind()) {
    case PyValue::Kind::None:
      return Value(nullptr);
    case PyValue::Kind::Bool:
      return Value(X.getBool());
    case PyValue::Kind::Int:
      return Value(X.getInt());
    case PyValue::Kind::Float:
      // json::parse rejects the NaN/Infinity that json.dumps writes.
      if (!std::isfinite(X.getFloat()))
        return std::nullopt;
      return Value(X.getFloat());
    case PyValue::Kind::Str:
      // jsonString escapes invalid bytes as Latin-1: the parse differs.
      if (!llvm::json::isUTF8(X.getStr()))
        return std::nullopt;
      return Value(X.getStr());
    default:
      return std::nullopt;
    }
  };
  // json::Value's move is not noexcept: a growing std::vector of them
  // copies every element, so arrays are sized up front and frames live in
  // a deque.
  auto Empty = [](const PyValue &X) {
    if (X.kind() == PyValue::Kind::Dict)
      return Value(llvm::json::Object());
    llvm::json::Array A;
    A.reserve(X.elems().size());
    return Value(std::move(A));
  };
  if (!IsContainer(Root))
    return Leaf(Root);
  // Explicit stack: values may nest deeply.
  struct Frame {
    const PyValue *V;
    size_t Next;
    Value Acc;
  };
  auto Size = [](const PyValue &X) {
    return X.kind() == PyValue::Kind::Dict ? X.items().size()
                                           : X.elems().size();
  };
  // Add the value of child Next - 1 of F.
  auto Add = [](Frame &F, Value V) {
    if (F.V->kind() != PyValue::Kind::Dict) {
      F.Acc.getAsArray()->push_back(std::move(V));
      return true;
    }
    const std::string &Key = F.V->items()[F.Next - 1].first;
    return llvm::json::isUTF8(Key) &&
           F.Acc.getAsObject()->try_emplace(Key, std::move(V)).second;
  };
  std::deque<Frame> Stack;
  Stack.push_back({&Root, 0, Empty(Root)});
  for (;;) {
    Frame &F = Stack.back();
    if (F.Next == Size(*F.V)) {
      Value Done = std::move(F.Acc);
      Stack.pop_back();
      if (Stack.empty())
        return Done;
      if (!Add(Stack.back(), std::move(Done)))
        return std::nullopt;
      continue;
    }
    const PyValue &C = F.V->kind() == PyValue::Kind::Dict
                           ? F.V->items()[F.Next].second
                           : F.V->elems()[F.Next];
    ++F.Next;
    if (IsContainer(C)) {
      Stack.push_back({&C, 0, Empty(C)});
      continue;
    }
    std::optional<Value> L = Leaf(C);
    if (!L || !Add(F, std::move(*L)))
      return std::nullopt;
  }
}

std::string tl::pyJsonDumps(const PyValue &V, int Indent) {
  std::string Out;
  // Work items: a value, or the punctuation around container elements
  // (written straight into Out: no string per element).
  enum Op : uint8_t { Value, Elem, Key, CloseList, CloseDict };
  struct Item {
    Op O;
    bool First; // Elem/Key: the container's first element
    int Depth;
    const PyValue *V;      // Value
    const std::string *K;  // Key
  };
  auto newline = [&](int Depth) {
    if (Indent < 0)
      return;
    Out += '\n';
    Out.append(static_cast<size_t>(Indent * Depth), ' ');
  };
  llvm::StringRef Sep = Indent < 0 ? ", " : ",";
  std::vector<Item> Stack;
  Stack.push_back({Value, false, 0, &V, nullptr});
  while (!Stack.empty()) {
    Item W = Stack.back();
    Stack.pop_back();
    switch (W.O) {
    case Elem:
    case Key:
      if (!W.First)
        Out += Sep;
      newline(W.Depth);
      if (W.O == Key) {
        Out += jsonString(*W.K);
        Out += ": ";
      }
      continue;
    case CloseList:
    case CloseDict:
      newline(W.Depth);
      Out += W.O == CloseList ? ']' : '}';
      continue;
    case Value:
      break;
    }
    const PyValue &X = *W.V;
    switch (X.kind()) {
    case PyValue::Kind::None:
      Out += "null";
      break;
    case PyValue::Kind::Bool:
      Out += X.getBool() ? "true" : "false";
      break;
    case PyValue::Kind::Int:
      Out += std::to_string(X.getInt());
      break;
    case PyValue::Kind::Float:
      Out += jsonNumber(X.getFloat());
      break;
    case PyValue::Kind::Str:
      Out += jsonString(X.getStr());
      break;
    case PyValue::Kind::Tuple:
    case PyValue::Kind::List: {
      const auto &E = X.elems();
      if (E.empty()) {
        Out += "[]";
        break;
      }
      Out += '[';
      Stack.push_back({CloseList, false, W.Depth, nullptr, nullptr});
      for (size_t I = E.size(); I-- > 0;) {
        Stack.push_back({Value, false, W.Depth + 1, &E[I], nullptr});
        Stack.push_back({Elem, I == 0, W.Depth + 1, nullptr, nullptr});
      }
      break;
    }
    case PyValue::Kind::Dict: {
      const auto &Items = X.items();
      if (Items.empty()) {
        Out += "{}";
        break;
      }
      Out += '{';
      Stack.push_back({CloseDict, false, W.Depth, nullptr, nullptr});
      for (size_t I = Items.size(); I-- > 0;) {
        Stack.push_back({Value, false, W.Depth + 1, &Items[I].second, nullptr});
        Stack.push_back({Key, I == 0, W.Depth + 1, nullptr, &Items[I].first});
      }
      break;
    }
    }
  }
  return Out;
}

void tl::writePyJson(llvm::json::OStream &J, const PyValue &Root) {
  // Explicit stack of open containers and the next child to write: values
  // may nest deeply.
  struct Frame {
    const PyValue *V;
    size_t Next;
  };
  std::vector<Frame> Stack;
  auto IsDict = [](const PyValue &X) { return X.kind() == PyValue::Kind::Dict; };
  // Writes X, or opens it and pushes its frame when it is a container.
  auto Write = [&](const PyValue &X) {
    switch (X.kind()) {
    case PyValue::Kind::None:
      J.value(nullptr);
      return;
    case PyValue::Kind::Bool:
      J.value(X.getBool());
      return;
    case PyValue::Kind::Int:
      J.value(X.getInt());
      return;
    case PyValue::Kind::Float:
      J.rawValue(jsonNumber(X.getFloat()));
      return;
    case PyValue::Kind::Str:
      J.value(X.getStr());
      return;
    case PyValue::Kind::Tuple:
    case PyValue::Kind::List:
      J.arrayBegin();
      Stack.push_back({&X, 0});
      return;
    case PyValue::Kind::Dict:
      J.objectBegin();
      Stack.push_back({&X, 0});
      return;
    }
  };
  Write(Root);
  while (!Stack.empty()) {
    const PyValue &X = *Stack.back().V;
    size_t I = Stack.back().Next++;
    if (I == (IsDict(X) ? X.items().size() : X.elems().size())) {
      if (IsDict(X))
        J.objectEnd();
      else
        J.arrayEnd();
      Stack.pop_back();
      // A container that was a member closes its attribute too.
      if (!Stack.empty() && IsDict(*Stack.back().V))
        J.attributeEnd();
      continue;
    }
    if (!IsDict(X)) {
      Write(X.elems()[I]);
      continue;
    }
    const auto &[Key, Child] = X.items()[I];
    J.attributeBegin(Key);
    bool Container = Child.kind() == PyValue::Kind::Tuple ||
                     Child.kind() == PyValue::Kind::List || IsDict(Child);
    Write(Child);
    if (!Container)
      J.attributeEnd();
  }
}
