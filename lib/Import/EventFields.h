//===- EventFields.h - The fields of one traceEvents entry ------*- C++ -*-===//
//
// Decoding an event's known keys (ph, name, cat, ts, dur, pid, tid, id) from
// SAX scalars, with the type checks and their messages. What the event then
// becomes in the IR is EventLowering's job.
//
//===----------------------------------------------------------------------===//
#ifndef TL_LIB_IMPORT_EVENTFIELDS_H
#define TL_LIB_IMPORT_EVENTFIELDS_H

#include "InternCache.h"

#include "tl/IR/ArgStore.h"
#include "tl/IR/TraceStorage.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace tl {

/// A JSON scalar as delivered by the SAX reader.
struct Scalar {
  enum Kind { Null, Bool, Int, Double, String } K;
  int64_t I;
  double D;
  llvm::StringRef S;
  Scalar(Kind K, int64_t I = 0, double D = 0) : K(K), I(I), D(D) {}
};

enum class Field : uint8_t {
  Ph,
  Name,
  Cat,
  Ts,
  Dur,
  Pid,
  Tid,
  Id,
  Args,
  Other
};

llvm::StringRef fieldName(Field F);
/// What a field must hold ("number", "integer or a string", "string").
std::string expectedType(Field F);

/// The event field named K (by length, then bytes: every event has several
/// keys, and StringSwitch tries each name in turn).
inline Field eventField(llvm::StringRef K) {
  // (K.size() bytes of W, its terminating NUL excluded.)
  auto Is = [&](const char *W) {
    return std::memcmp(K.data(), W, K.size()) == 0;
  };
  switch (K.size()) {
  case 2:
    return Is("ph")   ? Field::Ph
           : Is("ts") ? Field::Ts
           : Is("id") ? Field::Id
                      : Field::Other;
  case 3:
    return Is("cat")   ? Field::Cat
           : Is("dur") ? Field::Dur
           : Is("pid") ? Field::Pid
           : Is("tid") ? Field::Tid
                       : Field::Other;
  case 4:
    return Is("name")   ? Field::Name
           : Is("args") ? Field::Args
                        : Field::Other;
  default:
    return Field::Other;
  }
}

/// The event being parsed.
struct EventFields {
  bool HasPh, HasName, HasCat, HasTs, HasDur, HasId;
  char Ph = 0;
  std::string Name, Cat;
  double Ts = 0, Dur = 0;
  TrackPart Pid, Tid;
  int64_t FlowId = 0;
  /// The args node (0 = none) and where the event's args began in the
  /// store, to drop them when the event is not kept.
  uint32_t Args = 0;
  ArgStore::Mark ArgMark{0, 0};

  void begin(ArgStore &Store) {
    HasPh = HasName = HasCat = HasTs = HasDur = HasId = false;
    Pid = Tid = TrackPart();
    Args = 0;
    ArgMark = Store.mark();
    Name.clear();
    Cat.clear();
  }

  /// Set field F (not args) from a non-null scalar V. Returns nullptr, or
  /// what F expected when V has the wrong type ("a number", ...).
  const char *set(Field F, const Scalar &V, InternCache &Intern) {
    switch (F) {
    case Field::Ph:
    case Field::Name:
    case Field::Cat:
      if (V.K != Scalar::String)
        return "a string";
      if (F == Field::Ph) {
        Ph = V.S.size() == 1 ? V.S[0] : '?';
        HasPh = true;
      } else if (F == Field::Name) {
        Name.assign(V.S.data(), V.S.size());
        HasName = true;
      } else {
        Cat.assign(V.S.data(), V.S.size());
        HasCat = true;
      }
      return nullptr;
    case Field::Ts:
    case Field::Dur: {
      if (V.K != Scalar::Int && V.K != Scalar::Double)
        return "a number";
      double D = V.K == Scalar::Int ? double(V.I) : V.D;
      if (F == Field::Ts) {
        Ts = D;
        HasTs = true;
      } else {
        Dur = D;
        HasDur = true;
      }
      return nullptr;
    }
    case Field::Pid:
    case Field::Tid:
    case Field::Id: {
      TrackPart P;
      if (V.K == Scalar::Int) {
        P.Int = V.I;
      } else if (V.K == Scalar::Double && std::trunc(V.D) == V.D &&
                 std::fabs(V.D) < 9.2e18) {
        P.Int = int64_t(V.D);
      } else if (V.K == Scalar::String) {
        if (F == Field::Id) {
          // Flow ids are integers; accept their decimal or hex text.
          if (V.S.getAsInteger(0, P.Int))
            return nullptr; // not a number: the flow is ignored
        } else {
          P.IsString = true;
          P.Str = Intern.intern(V.S);
        }
      } else {
        return "an integer or a string";
      }
      if (F == Field::Pid)
        Pid = P;
      else if (F == Field::Tid)
        Tid = P;
      else {
        FlowId = P.Int;
        HasId = true;
      }
      return nullptr;
    }
    case Field::Args:
    case Field::Other:
      return nullptr;
    }
    return nullptr;
  }
};

} // namespace tl

#endif // TL_LIB_IMPORT_EVENTFIELDS_H
