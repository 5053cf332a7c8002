//===- PyValue.cpp - Python-like value for report cells ---------------------===//
#include "tl/Support/PyValue.h"
#include "tl/Support/PyFormat.h"

#include <cmath>

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
/// One pending piece of output: either literal text or a value to expand.
struct Work {
  const PyValue *V = nullptr;
  std::string Text;
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
  Stack.push_back({&V, {}});
  while (!Stack.empty()) {
    Work W = std::move(Stack.back());
    Stack.pop_back();
    if (!W.V) {
      Out += W.Text;
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
      std::string Close = Tup ? (E.size() == 1 ? ",)" : ")") : "]";
      Stack.push_back({nullptr, Close});
      for (size_t I = E.size(); I-- > 0;) {
        Stack.push_back({&E[I], {}});
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
        Stack.push_back({&Items[I].second, {}});
        Stack.push_back(
            {nullptr, (I != 0 ? ", " : "") + pyReprString(Items[I].first) + ": "});
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
