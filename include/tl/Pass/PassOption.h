//===- PassOption.h - Typed, textual per-pass options ----------*- C++ -*-===//
//
// A pass declares its options as members:
//
//   Option<double> minImpact{*this, "min-impact", desc("..."), init(0.5)};
//   ListOption<int> ranks{*this, "ranks", desc("...")};
//   Option<std::string> mode{*this, "mode", desc("..."), init("auto"),
//                            values({"auto", "train", "infer"})};
//
// Options register themselves with their pass, so the pipeline parser, the
// config file and --list-passes all see the same list. Values round-trip
// through text: printValue() re-parses to the same value.
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSOPTION_H
#define TL_PASS_PASSOPTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace tl {

class Pass;

namespace detail {
/// Text <-> value for the supported option types. Errors say what was
/// expected ("expected a number"), callers add the option's name.
llvm::Error parseOptionValue(llvm::StringRef Text, double &V);
llvm::Error parseOptionValue(llvm::StringRef Text, int64_t &V);
llvm::Error parseOptionValue(llvm::StringRef Text, int &V);
llvm::Error parseOptionValue(llvm::StringRef Text, unsigned &V);
llvm::Error parseOptionValue(llvm::StringRef Text, bool &V);
llvm::Error parseOptionValue(llvm::StringRef Text, std::string &V);
void printOptionValue(llvm::raw_ostream &OS, double V);
void printOptionValue(llvm::raw_ostream &OS, int64_t V);
void printOptionValue(llvm::raw_ostream &OS, int V);
void printOptionValue(llvm::raw_ostream &OS, unsigned V);
void printOptionValue(llvm::raw_ostream &OS, bool V);
void printOptionValue(llvm::raw_ostream &OS, const std::string &V);

template <typename T> constexpr llvm::StringLiteral typeName() {
  if constexpr (std::is_same_v<T, double>)
    return "number";
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, unsigned>)
    return "unsigned";
  else if constexpr (std::is_integral_v<T>)
    return "int";
  else
    return "string";
}
} // namespace detail

/// Option modifiers (Pass::desc / Pass::init / Pass::values build them).
struct OptDesc {
  llvm::StringRef Text;
};
template <typename T> struct OptInit {
  T Value;
};
template <typename T> struct OptListInit {
  std::vector<T> Values;
};
struct OptValues {
  std::vector<std::string> Allowed;
};

/// Type-erased view of one option, used by parser, config and listings.
class PassOptionBase {
public:
  PassOptionBase(Pass &Owner, llvm::StringRef Name);
  virtual ~PassOptionBase();
  PassOptionBase(const PassOptionBase &) = delete;
  PassOptionBase &operator=(const PassOptionBase &) = delete;

  llvm::StringRef name() const { return Name; }
  llvm::StringRef description() const { return Desc; }
  /// "number", "int", "unsigned", "bool", "string", "enum", "list<int>", ...
  virtual std::string typeName() const = 0;
  /// Parse and store a value; the error does not mention the option name.
  virtual llvm::Error parse(llvm::StringRef Text) = 0;
  /// Canonical text of the current value (re-parses to the same value).
  virtual void printValue(llvm::raw_ostream &OS) const = 0;
  /// Canonical text of the default value.
  virtual void printDefault(llvm::raw_ostream &OS) const = 0;
  /// Allowed values of an enum-like string option (empty otherwise).
  llvm::ArrayRef<std::string> allowedValues() const { return Allowed; }

  std::string valueString() const;
  std::string defaultString() const;

protected:
  void apply(const OptDesc &D) { Desc = D.Text.str(); }
  void apply(const OptValues &V) { Allowed = V.Allowed; }
  llvm::Error checkAllowed(llvm::StringRef V) const;

  std::string Name;
  std::string Desc;
  std::vector<std::string> Allowed;
};

/// A scalar option of type T (double, int, int64_t, unsigned, bool,
/// std::string; a string with values({...}) is enum-like).
template <typename T> class PassOption final : public PassOptionBase {
public:
  template <typename... Mods>
  PassOption(Pass &Owner, llvm::StringRef Name, const Mods &...M)
      : PassOptionBase(Owner, Name) {
    (applyMod(M), ...);
    Value = Default;
  }

  operator const T &() const { return Value; }
  const T &getValue() const { return Value; }
  const T &operator*() const { return Value; }
  const T *operator->() const { return &Value; }

  std::string typeName() const override {
    if (!Allowed.empty())
      return "enum";
    return detail::typeName<T>().str();
  }
  llvm::Error parse(llvm::StringRef Text) override {
    T V{};
    if (llvm::Error E = detail::parseOptionValue(Text, V))
      return E;
    if constexpr (std::is_same_v<T, std::string>)
      if (llvm::Error E = checkAllowed(V))
        return E;
    Value = std::move(V);
    return llvm::Error::success();
  }
  void printValue(llvm::raw_ostream &OS) const override {
    detail::printOptionValue(OS, Value);
  }
  void printDefault(llvm::raw_ostream &OS) const override {
    detail::printOptionValue(OS, Default);
  }

private:
  using PassOptionBase::apply;
  template <typename M> void applyMod(const M &Mod) {
    if constexpr (std::is_same_v<M, OptDesc> || std::is_same_v<M, OptValues>)
      apply(Mod);
    else
      Default = static_cast<T>(Mod.Value);
  }
  T Default{};
  T Value{};
};

/// A comma-separated list option: `ranks=0,1,2`.
template <typename T> class PassListOption final : public PassOptionBase {
public:
  template <typename... Mods>
  PassListOption(Pass &Owner, llvm::StringRef Name, const Mods &...M)
      : PassOptionBase(Owner, Name) {
    (applyMod(M), ...);
    Values = Default;
  }

  llvm::ArrayRef<T> getValue() const { return Values; }
  operator llvm::ArrayRef<T>() const { return Values; }
  auto begin() const { return Values.begin(); }
  auto end() const { return Values.end(); }
  size_t size() const { return Values.size(); }
  bool empty() const { return Values.empty(); }
  const T &operator[](size_t I) const { return Values[I]; }

  std::string typeName() const override {
    return "list<" + detail::typeName<T>().str() + ">";
  }
  llvm::Error parse(llvm::StringRef Text) override {
    std::vector<T> Out;
    Text = Text.trim();
    if (!Text.empty()) {
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      Text.split(Parts, ',');
      for (llvm::StringRef P : Parts) {
        T V{};
        if (llvm::Error E = detail::parseOptionValue(P.trim(), V))
          return E;
        if constexpr (std::is_same_v<T, std::string>)
          if (llvm::Error E = checkAllowed(V))
            return E;
        Out.push_back(std::move(V));
      }
    }
    Values = std::move(Out);
    return llvm::Error::success();
  }
  void printValue(llvm::raw_ostream &OS) const override { print(OS, Values); }
  void printDefault(llvm::raw_ostream &OS) const override {
    print(OS, Default);
  }

private:
  using PassOptionBase::apply;
  static void print(llvm::raw_ostream &OS, const std::vector<T> &Vs) {
    for (size_t I = 0; I < Vs.size(); ++I) {
      if (I)
        OS << ',';
      detail::printOptionValue(OS, Vs[I]);
    }
  }
  template <typename M> void applyMod(const M &Mod) {
    if constexpr (std::is_same_v<M, OptDesc> || std::is_same_v<M, OptValues>)
      apply(Mod);
    else
      Default.assign(Mod.Values.begin(), Mod.Values.end());
  }
  std::vector<T> Default;
  std::vector<T> Values;
};

/// A named counter reported by --pass-statistics. Safe to bump from any
/// thread the pass uses.
class PassStatistic {
public:
  PassStatistic(Pass &Owner, llvm::StringRef Name, llvm::StringRef Desc);
  PassStatistic(const PassStatistic &) = delete;
  PassStatistic &operator=(const PassStatistic &) = delete;

  llvm::StringRef name() const { return Name; }
  llvm::StringRef description() const { return Desc; }
  uint64_t getValue() const { return Value.load(std::memory_order_relaxed); }
  operator uint64_t() const { return getValue(); }
  PassStatistic &operator++() {
    Value.fetch_add(1, std::memory_order_relaxed);
    return *this;
  }
  PassStatistic &operator+=(uint64_t N) {
    Value.fetch_add(N, std::memory_order_relaxed);
    return *this;
  }
  PassStatistic &operator=(uint64_t N) {
    Value.store(N, std::memory_order_relaxed);
    return *this;
  }

private:
  std::string Name;
  std::string Desc;
  std::atomic<uint64_t> Value{0};
};

} // namespace tl

#endif // TL_PASS_PASSOPTION_H
