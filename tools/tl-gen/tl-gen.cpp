//===- tl-gen.cpp - synthetic Kineto trace generator -----------------------===//
//
// Writes realistic PyTorch-profiler (Kineto) Chrome traces of any size for
// tests, the demo and the benchmark. The output is streamed: only the events
// of the current top-level CPU op are held in memory, so a 4 GB trace costs a
// few MB of RAM. All times are integers in nanoseconds printed as µs with
// three decimals, so the same arguments always give a byte-identical file.
//
//===----------------------------------------------------------------------===//

#include "JobGen.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

using namespace llvm;

namespace {

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

enum class Flavor { Cuda, Rocm };
enum class Mode { Inference, Training };
enum class Shape { Balanced, Deep, OneStream, CriticalPath };
enum class DType { BF16, FP16, FP32 };

/// The generator's settings (parsed in main, whose cl::opt objects are
/// locals: no static constructors).
struct GenOptions {
  std::string OutFile;
  Flavor FlavorOpt = Flavor::Cuda;
  Mode ModeOpt = Mode::Inference;
  Shape ShapeOpt = Shape::Balanced;
  unsigned Steps = 2, Layers = 2, Hidden = 1024, Heads = 16, Seq = 512,
           Batch = 1;
  DType DTypeOpt = DType::BF16;
  unsigned Ranks = 1;
  double CommOverlap = 0.5;
  uint64_t Seed = 1;
  double TargetMB = 0;
  uint64_t TargetEvents = 0;
  unsigned Depth = 10000;
  int GzipLevel = 6;
  bool Stats = false;
  /// --shape=critical-path: allocator [memory] events too.
  bool MemoryEvents = false;
  /// Where to write the injected critical path and memory peak (JSON).
  std::string TruthFile;
};

//===----------------------------------------------------------------------===//
// Output sink: a large buffer flushed to a FILE* or a gzFile.
//===----------------------------------------------------------------------===//

class Sink {
public:
  bool open(const std::string &Path, int Level) {
    if (Path == "-") {
      File = stdout;
      return true;
    }
    if (Path.size() > 3 && Path.compare(Path.size() - 3, 3, ".gz") == 0) {
      std::string Mode = fmt::format("wb{}", Level);
      Gz = gzopen(Path.c_str(), Mode.c_str());
      if (!Gz)
        return false;
      gzbuffer(Gz, 1 << 20);
      return true;
    }
    File = std::fopen(Path.c_str(), "wb");
    return File != nullptr;
  }
  fmt::memory_buffer &buf() { return Buf; }
  void maybeFlush() {
    if (Buf.size() >= (4u << 20))
      flush();
  }
  void flush() {
    Written += Buf.size();
    if (Gz) {
      if (Buf.size() && gzwrite(Gz, Buf.data(), unsigned(Buf.size())) <= 0)
        Failed = true;
    } else if (Buf.size() &&
               std::fwrite(Buf.data(), 1, Buf.size(), File) != Buf.size()) {
      Failed = true;
    }
    Buf.clear();
  }
  bool close() {
    flush();
    if (Gz)
      return gzclose(Gz) == Z_OK && !Failed;
    if (File == stdout)
      return std::fflush(stdout) == 0 && !Failed;
    return std::fclose(File) == 0 && !Failed;
  }
  uint64_t bytes() const { return Written + Buf.size(); }

private:
  fmt::memory_buffer Buf;
  std::FILE *File = nullptr;
  gzFile Gz = nullptr;
  uint64_t Written = 0;
  bool Failed = false;
};

//===----------------------------------------------------------------------===//
// Deterministic jitter (splitmix64).
//===----------------------------------------------------------------------===//

class Rng {
public:
  explicit Rng(uint64_t S) : State(S * 0x9E3779B97F4A7C15ULL + 0x1234567ULL) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  /// Base duration (ns) scaled by a factor in [1 - Spread, 1 + Spread].
  int64_t jitter(double BaseNs, double Spread = 0.1) {
    double V = BaseNs * (1.0 + Spread * (2.0 * unit() - 1.0));
    return V < 1.0 ? 1 : int64_t(V);
  }

private:
  uint64_t State;
};

//===----------------------------------------------------------------------===//
// Small formatting helpers.
//===----------------------------------------------------------------------===//

using Dims = std::vector<int64_t>;
using Buf = fmt::memory_buffer;

template <typename... T>
void put(Buf &B, fmt::format_string<T...> F, T &&...Args) {
  fmt::format_to(std::back_inserter(B), F, std::forward<T>(Args)...);
}
void putStr(Buf &B, std::string_view S) { B.append(S); }
/// Times are integer ns printed as µs with exactly three decimals.
void putUs(Buf &B, int64_t Ns) {
  put(B, "{}.{:03}", Ns / 1000, Ns % 1000);
}
void putDims(Buf &B, const Dims &D) {
  B.push_back('[');
  for (size_t I = 0; I < D.size(); ++I) {
    if (I)
      putStr(B, ", ");
    put(B, "{}", D[I]);
  }
  B.push_back(']');
}
Dims contiguousStrides(const Dims &D) {
  Dims S(D.size());
  int64_t Acc = 1;
  for (size_t I = D.size(); I-- > 0;) {
    S[I] = Acc;
    Acc *= D[I];
  }
  return S;
}
int64_t numel(const Dims &D) {
  int64_t N = 1;
  for (int64_t X : D)
    N *= X;
  return N;
}

/// One input of a cpu_op: a tensor (dims + strides + dtype) or a scalar-ish
/// value (type string + concrete value).
struct Input {
  Dims Shape;
  Dims Strides;
  std::string Type;
  std::string Concrete;
  static Input tensor(const Dims &D, std::string Ty) {
    return {D, contiguousStrides(D), std::move(Ty), ""};
  }
  static Input tensorStrided(const Dims &D, const Dims &S, std::string Ty) {
    return {D, S, std::move(Ty), ""};
  }
  static Input scalar(std::string Value, std::string Ty = "Scalar") {
    return {{}, {}, std::move(Ty), std::move(Value)};
  }
  static Input none() { return {{}, {}, "", ""}; }
};

//===----------------------------------------------------------------------===//
// Device and flavour constants.
//===----------------------------------------------------------------------===//

struct Device {
  const char *Name;
  double PeakMatrixTflops; // dense bf16/fp16
  double PeakVectorTflops; // fp32 non-tensor
  double HbmTBs;
  int NumSms;
};

const Device &deviceOf(Flavor F) {
  static const Device H100{"NVIDIA H100 80GB HBM3", 989.0, 67.0, 3.35, 132};
  static const Device MI300{"AMD Instinct MI300X", 1307.0, 163.0, 5.3, 304};
  return F == Flavor::Cuda ? H100 : MI300;
}

//===----------------------------------------------------------------------===//
// The generator.
//===----------------------------------------------------------------------===//

class Generator : private GenOptions {
public:
  Generator(Sink &S, const GenOptions &O)
      : GenOptions(O), Out(S), R(O.Seed) {
    Cuda = FlavorOpt == Flavor::Cuda;
    CpuPid = Cuda ? 12345 : 542;
    MainTid = CpuPid;
    BwdTid = CpuPid + 97;
    GpuPid = Cuda ? 0 : 2;
    ComputeStream = Cuda ? 7 : 0;
    CommStream = Cuda ? 20 : 4;
    // Around 1.7e12 µs like real traces; the seed moves the origin a little.
    T0 = int64_t(1700000000000000000LL / 1000) + int64_t(Seed % 1000) * 1000003;
    CpuT[0] = CpuT[1] = T0 + 1000000;
    GpuT[0] = GpuT[1] = T0;
    switch (DTypeOpt) {
    case DType::BF16:
      Ty = "c10::BFloat16"; Elt = 2; NcclTy = "BFloat16"; ShortTy = "bf16";
      break;
    case DType::FP16:
      Ty = "c10::Half"; Elt = 2; NcclTy = "Half"; ShortTy = "f16";
      break;
    case DType::FP32:
      Ty = "float"; Elt = 4; NcclTy = "Float"; ShortTy = "f32";
      break;
    }
  }

  bool run();
  const Device &device() const { return deviceOf(FlavorOpt); }

  uint64_t NumEvents = 0, NumKernels = 0, NumCpuOps = 0, NumRuntime = 0,
           NumMemcpy = 0, NumMemset = 0, NumColl = 0;

private:
  // --- pending events of the current top-level scope ---------------------
  struct Pending {
    uint32_t HeadOff, HeadLen; // `"ph": "X", ..., "tid": T` without braces
    uint32_t ArgsOff, ArgsLen; // `"args": {...}` or empty
    int64_t Ts, Dur;           // Dur < 0: no dur field
    bool Flow;                 // ac2g layout
  };
  std::vector<Pending> Pend;
  Buf Arena;
  unsigned OpenCpuScopes = 0;
  bool FirstEvent = true;

  Sink &Out;
  Rng R;
  bool Cuda;
  int64_t CpuPid, MainTid, BwdTid, GpuPid, ComputeStream, CommStream;
  int64_t T0;
  int64_t CpuT[2]; // 0 = main thread, 1 = autograd thread
  int64_t GpuT[2]; // 0 = compute stream, 1 = comm stream
  unsigned Thread = 0; // current CPU thread index
  const char *Ty, *NcclTy, *ShortTy;
  int Elt;
  int64_t ExternalId = 1, Correlation = 1000, PythonId = 1, EvIdx = 0,
          SeqNr = 100;
  std::vector<int64_t> ExtStack;    // External ids of open cpu_ops
  std::vector<int64_t> PyStack;     // Python ids of open python frames
  unsigned ModuleCounter[16] = {};  // per-class instance counters
  struct FwdRecord {
    int64_t Seq;
    int Kind; // 0 linear, 1 sdpa, 2 layernorm, 3 add, 4 mul, 5 silu
    int64_t M, N, K;
  };
  std::vector<FwdRecord> FwdOps; // forward ops of the current step
  int64_t StepNr = 0;

  // --- sizing -------------------------------------------------------------
  bool sizeReached() const {
    if (TargetEvents && NumEvents >= TargetEvents)
      return true;
    if (TargetMB > 0 && double(Out.bytes()) >= TargetMB * 1e6)
      return true;
    return false;
  }
  bool sized() const { return TargetEvents || TargetMB > 0; }

  int64_t &cpu() { return CpuT[Thread]; }
  int64_t tid() const { return Thread ? BwdTid : MainTid; }
  void advance(double Ns) { cpu() += R.jitter(Ns, 0.3); }

  // --- low-level emission --------------------------------------------------
  void beginEvent() {
    Buf &B = Out.buf();
    if (FirstEvent) {
      putStr(B, "\n  {\n    ");
      FirstEvent = false;
    } else {
      putStr(B, ",\n  {\n    ");
    }
    ++NumEvents;
  }
  void writePending(const Pending &P) {
    beginEvent();
    Buf &B = Out.buf();
    B.append(Arena.data() + P.HeadOff, Arena.data() + P.HeadOff + P.HeadLen);
    if (P.Flow) {
      putStr(B, ", \"ts\": ");
      putUs(B, P.Ts);
      B.append(Arena.data() + P.ArgsOff, Arena.data() + P.ArgsOff + P.ArgsLen);
      putStr(B, "\n  }");
      return;
    }
    putStr(B, ",\n    \"ts\": ");
    putUs(B, P.Ts);
    if (P.Dur >= 0) {
      putStr(B, ", \"dur\": ");
      putUs(B, P.Dur);
    }
    if (P.ArgsLen) {
      putStr(B, ",\n    ");
      B.append(Arena.data() + P.ArgsOff, Arena.data() + P.ArgsOff + P.ArgsLen);
    }
    putStr(B, "\n  }");
  }
  void flushPending() {
    for (const Pending &P : Pend)
      writePending(P);
    Pend.clear();
    Arena.clear();
    Out.maybeFlush();
  }
  /// Adds an event; returns its index in Pend. Head and args are written by
  /// the callbacks into the arena.
  template <typename HeadFn, typename ArgsFn>
  size_t add(int64_t Ts, int64_t Dur, bool Flow, HeadFn &&Head, ArgsFn &&Args) {
    Pending P;
    P.Ts = Ts;
    P.Dur = Dur;
    P.Flow = Flow;
    P.HeadOff = uint32_t(Arena.size());
    Head(Arena);
    P.HeadLen = uint32_t(Arena.size()) - P.HeadOff;
    P.ArgsOff = uint32_t(Arena.size());
    Args(Arena);
    P.ArgsLen = uint32_t(Arena.size()) - P.ArgsOff;
    Pend.push_back(P);
    return Pend.size() - 1;
  }
  void maybeFlushTop() {
    if (OpenCpuScopes == 0)
      flushPending();
  }

  void putHead(Buf &B, const char *Cat, std::string_view Name, int64_t Pid,
               int64_t Tid) {
    put(B, "\"ph\": \"X\", \"cat\": \"{}\", \"name\": \"{}\", \"pid\": {}, "
           "\"tid\": {}",
        Cat, Name, Pid, Tid);
  }

  // --- CPU scopes -----------------------------------------------------------
  struct Scope {
    size_t Index;
    bool Buffered;
  };
  void putInputs(Buf &B, const std::vector<Input> &In) {
    putStr(B, "\"Concrete Inputs\": [");
    for (size_t I = 0; I < In.size(); ++I)
      put(B, "{}\"{}\"", I ? ", " : "", In[I].Concrete);
    putStr(B, "], \"Input type\": [");
    for (size_t I = 0; I < In.size(); ++I)
      put(B, "{}\"{}\"", I ? ", " : "", In[I].Type);
    putStr(B, "], \"Input Strides\": [");
    for (size_t I = 0; I < In.size(); ++I) {
      if (I)
        putStr(B, ", ");
      putDims(B, In[I].Strides);
    }
    putStr(B, "], \"Input Dims\": [");
    for (size_t I = 0; I < In.size(); ++I) {
      if (I)
        putStr(B, ", ");
      putDims(B, In[I].Shape);
    }
    putStr(B, "]");
  }

  /// Opens a cpu_op; its events stay buffered until the outermost cpu_op
  /// closes so that file order is start order like Kineto's.
  size_t openOp(std::string_view Name, const std::vector<Input> &In,
                int64_t SeqNumber = -1, std::string_view Extra = {}) {
    advance(1500);
    int64_t Ext = ExternalId++;
    ExtStack.push_back(Ext);
    ++OpenCpuScopes;
    ++NumCpuOps;
    return add(
        cpu(), 0, false,
        [&](Buf &B) { putHead(B, "cpu_op", Name, CpuPid, tid()); },
        [&](Buf &B) {
          put(B, "\"args\": {{\n      \"External id\": {},", Ext);
          if (SeqNumber >= 0)
            put(B, "\"Sequence number\": {}, \"Fwd thread id\": {}, ",
                SeqNumber, Thread ? 1 : 0);
          putStr(B, "\"Record function id\": 0, ");
          if (!Extra.empty()) {
            putStr(B, Extra);
            putStr(B, ", ");
          }
          if (!In.empty()) {
            putInputs(B, In);
            putStr(B, ", ");
          }
          put(B, "\"Ev Idx\": {}\n    }}", EvIdx++);
        });
  }
  void closeOp(size_t Idx) {
    advance(1200);
    Pend[Idx].Dur = cpu() - Pend[Idx].Ts;
    ExtStack.pop_back();
    --OpenCpuScopes;
    maybeFlushTop();
  }

  /// python_function / user_annotation frames are written when they close
  /// (Kineto also writes python frames after the ops). Their start is
  /// strictly before every child so time containment is unambiguous.
  struct Frame {
    int64_t Ts;
    int64_t Id;
    int64_t Parent;
    std::string Name;
    bool Python;
  };
  Frame openPython(std::string Name) {
    advance(800);
    Frame F{cpu(), PythonId++, PyStack.empty() ? -1 : PyStack.back(),
            std::move(Name), true};
    PyStack.push_back(F.Id);
    return F;
  }
  Frame openModule(const char *Class, unsigned ClassIdx) {
    unsigned N = ModuleCounter[ClassIdx]++;
    return openPython(fmt::format("nn.Module: {}_{}", Class, N));
  }
  void closePython(const Frame &F) {
    advance(700);
    PyStack.pop_back();
    int64_t Dur = cpu() - F.Ts;
    add(
        F.Ts, Dur, false,
        [&](Buf &B) { putHead(B, "python_function", F.Name, CpuPid, tid()); },
        [&](Buf &B) {
          putStr(B, "\"args\": {\n      \"Python parent id\": ");
          if (F.Parent < 0)
            putStr(B, "null");
          else
            put(B, "{}", F.Parent);
          put(B, ", \"Python id\": {}, \"Python module id\": 0, \"Ev Idx\": "
                 "{}\n    }}",
              F.Id, EvIdx++);
        });
    maybeFlushTop();
  }
  Frame openAnnotation(std::string Name) {
    advance(900);
    Frame F{cpu(), ExternalId++, 0, std::move(Name), false};
    return F;
  }
  void closeAnnotation(const Frame &F, bool AlsoGpu = false,
                       int64_t GpuStart = 0, int64_t GpuEnd = 0) {
    advance(600);
    int64_t Dur = cpu() - F.Ts;
    add(
        F.Ts, Dur, false,
        [&](Buf &B) { putHead(B, "user_annotation", F.Name, CpuPid, tid()); },
        [&](Buf &B) {
          put(B, "\"args\": {{\n      \"External id\": {}, \"Record function "
                 "id\": 0, \"Ev Idx\": {}\n    }}",
              F.Id, EvIdx++);
        });
    if (AlsoGpu && GpuEnd > GpuStart)
      add(
          GpuStart, GpuEnd - GpuStart, false,
          [&](Buf &B) {
            putHead(B, "gpu_user_annotation", F.Name, GpuPid, ComputeStream);
          },
          [&](Buf &B) {
            put(B, "\"args\": {{\n      \"External id\": {}\n    }}", F.Id);
          });
    maybeFlushTop();
  }

  // --- runtime + GPU --------------------------------------------------------
  struct Launch {
    const char *Api;        // runtime API name
    bool Driver = false;    // cat cuda_driver
    int Cbid = 211;         // CUDA cbid / ROCm cid
    std::string_view Kernel;
    const char *GpuCat = "kernel"; // kernel, gpu_memcpy, gpu_memset
    int64_t GpuDurNs = 0;
    unsigned Stream = 0;    // 0 compute, 1 comm
    int64_t Grid[3] = {1, 1, 1};
    int64_t Block[3] = {256, 1, 1};
    int Regs = 32;
    int64_t Smem = 0;
    int64_t Bytes = -1;     // memcpy / memset
    const char *CopyKind = nullptr; // ROCm memcpy kind
    std::string_view NcclArgs;      // extra kernel args for collectives
  };

  /// Emits runtime event + ac2g s/f + GPU event. Returns the GPU end time.
  int64_t launch(const Launch &L) {
    advance(900);
    int64_t Corr = Correlation++;
    int64_t Ext = ExtStack.empty() ? 0 : ExtStack.back();
    int64_t RtTs = cpu();
    int64_t RtDur = R.jitter(L.Driver ? 7000 : 5200, 0.4);
    cpu() += RtDur;
    ++NumRuntime;
    add(
        RtTs, RtDur, false,
        [&](Buf &B) {
          putHead(B, L.Driver ? "cuda_driver" : "cuda_runtime", L.Api, CpuPid,
                  tid());
        },
        [&](Buf &B) {
          putStr(B, "\"args\": {\n      ");
          if (Ext)
            put(B, "\"External id\": {}, ", Ext);
          if (Cuda) {
            put(B, "\"cbid\": {}, \"correlation\": {}", L.Cbid, Corr);
          } else if (std::string_view(L.GpuCat) == "kernel") {
            put(B,
                "\"kernel\": \"{}\", \"cid\": {}, \"correlation\": {}, "
                "\"grid\": [{}, {}, {}], \"block\": [{}, {}, {}], \"shared "
                "memory\": {}",
                L.Kernel, L.Cbid, Corr, L.Grid[0], L.Grid[1], L.Grid[2],
                L.Block[0], L.Block[1], L.Block[2], L.Smem);
          } else {
            put(B, "\"cid\": {}, \"correlation\": {}", L.Cbid, Corr);
            if (L.Bytes >= 0)
              put(B, ", \"bytes\": \"{}\"", L.Bytes);
          }
          putStr(B, "\n    }");
        });
    add(
        RtTs, -1, true,
        [&](Buf &B) {
          put(B, "\"ph\": \"s\", \"id\": {}, \"pid\": {}, \"tid\": {}", Corr,
              CpuPid, tid());
        },
        [&](Buf &B) { putStr(B, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\""); });

    // GPU side: the kernel starts once the launch returned and the stream
    // is free.
    int64_t &St = GpuT[L.Stream];
    int64_t Ready = RtTs + RtDur + R.jitter(1500, 0.5);
    int64_t Start = St > Ready ? St + R.jitter(1200, 0.5) : Ready;
    int64_t Dur = L.GpuDurNs;
    St = Start + Dur;
    int64_t StreamId = L.Stream ? CommStream : ComputeStream;
    std::string_view Cat = L.GpuCat;
    if (Cat == "kernel")
      ++NumKernels;
    else if (Cat == "gpu_memcpy")
      ++NumMemcpy;
    else
      ++NumMemset;
    add(
        Start, Dur, false,
        [&](Buf &B) { putHead(B, L.GpuCat, L.Kernel, GpuPid, StreamId); },
        [&](Buf &B) {
          putStr(B, "\"args\": {\n      ");
          if (Cuda) {
            if (Ext)
              put(B, "\"External id\": {}, ", Ext);
            if (Cat == "kernel") {
              int64_t Blocks = L.Grid[0] * L.Grid[1] * L.Grid[2];
              int64_t Threads = L.Block[0] * L.Block[1] * L.Block[2];
              double BlocksPerSm = double(Blocks) / device().NumSms;
              double WarpsPerSm = BlocksPerSm * double((Threads + 31) / 32);
              int Occ = int(std::min(100.0, WarpsPerSm / 64.0 * 100.0));
              put(B,
                  "\"queued\": 0, \"device\": {}, \"context\": 1, \"stream\": "
                  "{}, \"correlation\": {}, \"registers per thread\": {}, "
                  "\"shared memory\": {}, \"blocks per SM\": {:.6f}, \"warps "
                  "per SM\": {:.6f}, \"grid\": [{}, {}, {}], \"block\": [{}, "
                  "{}, {}], \"est. achieved occupancy %\": {}",
                  GpuPid, StreamId, Corr, L.Regs, L.Smem, BlocksPerSm,
                  WarpsPerSm, L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0],
                  L.Block[1], L.Block[2], Occ);
            } else {
              put(B,
                  "\"device\": {}, \"context\": 1, \"stream\": {}, "
                  "\"correlation\": {}, \"bytes\": {}, \"memory bandwidth "
                  "(GB/s)\": {}",
                  GpuPid, StreamId, Corr, L.Bytes,
                  double(L.Bytes) / double(Dur));
            }
          } else {
            put(B, "\"device\": {}, \"stream\": {}, \"correlation\": {}, "
                   "\"kind\": \"{}\"",
                GpuPid, StreamId, Corr,
                Cat == "kernel" ? "Dispatch Kernel"
                : L.CopyKind   ? L.CopyKind
                               : "Device");
            if (Cat != "kernel" && L.Bytes >= 0)
              put(B, ", \"bytes\": {}", L.Bytes);
          }
          if (!L.NcclArgs.empty()) {
            putStr(B, ", ");
            putStr(B, L.NcclArgs);
          }
          putStr(B, "\n    }");
        });
    add(
        Start, -1, true,
        [&](Buf &B) {
          put(B, "\"ph\": \"f\", \"id\": {}, \"pid\": {}, \"tid\": {}", Corr,
              GpuPid, StreamId);
        },
        [&](Buf &B) {
          putStr(B, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"");
        });
    return St;
  }

  /// A non-launch runtime call (sync, attribute query).
  void runtimeCall(const char *Api, int Cbid, int64_t DurNs) {
    advance(500);
    int64_t Corr = Correlation++;
    int64_t Ext = ExtStack.empty() ? 0 : ExtStack.back();
    int64_t Ts = cpu();
    cpu() += DurNs;
    ++NumRuntime;
    add(
        Ts, DurNs, false,
        [&](Buf &B) { putHead(B, "cuda_runtime", Api, CpuPid, tid()); },
        [&](Buf &B) {
          putStr(B, "\"args\": {\n      ");
          if (Ext)
            put(B, "\"External id\": {}, ", Ext);
          put(B, "\"{}\": {}, \"correlation\": {}\n    }}",
              Cuda ? "cbid" : "cid", Cbid, Corr);
        });
  }

  /// Host waits for the compute stream (cudaStreamSynchronize).
  void syncStream() {
    int64_t Wait = GpuT[0] > cpu() ? GpuT[0] - cpu() : 0;
    runtimeCall(Cuda ? "cudaStreamSynchronize" : "hipStreamSynchronize",
                Cuda ? 131 : 150, Wait + R.jitter(3000));
  }

  // --- durations from work -------------------------------------------------
  int64_t gemmNs(int64_t M, int64_t N, int64_t K) {
    double Flops = 2.0 * double(M) * double(N) * double(K);
    double Peak = DTypeOpt == DType::FP32 ? device().PeakMatrixTflops / 2
                                          : device().PeakMatrixTflops;
    double Eff = 0.35 + 0.35 * std::min(1.0, Flops / 5e10);
    return R.jitter(3000 + Flops / (Peak * Eff * 1e3), 0.08);
  }
  int64_t memNs(double Bytes) {
    return R.jitter(2000 + Bytes / (device().HbmTBs * 0.75 * 1e3), 0.08);
  }

  // --- kernel names -----------------------------------------------------------
  std::string gemmKernel(bool TransB) {
    if (Cuda)
      return fmt::format(
          "sm90_xmma_gemm_{0}{0}_{0}f32_f32_{1}n_n_tilesize128x128x64_"
          "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
          ShortTy, TransB ? "t" : "n");
    return fmt::format(
        "Cijk_Alik_Bljk_{}_MT128x128x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_ASEM1_"
        "CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSU1_ISA942_IU1_K1_LBSPPA512_LBSPPB512_"
        "LPA16_LPB16_MIAV0_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_SU32_SUM0_SUS256_"
        "SVW4_TLDS1_WG32_8_1_WGM8",
        DTypeOpt == DType::FP32 ? "SB" : (DTypeOpt == DType::BF16 ? "BBS_BH"
                                                                  : "HHS_BH"));
  }
  /// The launch of an M x N x K GEMM kernel; Kernel must outlive it.
  Launch gemmLaunch(std::string_view Kernel, int64_t M, int64_t N, int64_t K) {
    Launch L;
    L.Api = Cuda ? "cudaLaunchKernelExC" : "hipExtModuleLaunchKernel";
    L.Cbid = Cuda ? 430 : 65;
    L.Kernel = Kernel;
    L.GpuDurNs = gemmNs(M, N, K);
    L.Grid[0] = Cuda ? device().NumSms : (M + 127) / 128 * ((N + 127) / 128);
    L.Block[0] = Cuda ? 384 : 256;
    L.Regs = 168;
    return L;
  }
  std::string elemKernel(const char *Functor, int Arity) {
    std::string_view T = Ty;
    return fmt::format("void at::native::vectorized_elementwise_kernel<4, "
                       "at::native::{}<{}>, std::array<char*, {}ul> >(int, "
                       "at::native::{}<{}>, std::array<char*, {}ul>)",
                       Functor, T, Arity, Functor, T, Arity);
  }

  // --- ops ----------------------------------------------------------------------
  Launch kernelLaunch(std::string_view Name, int64_t Ns, int64_t Elems) {
    Launch L;
    L.Api = Cuda ? "cudaLaunchKernel" : "hipLaunchKernel";
    L.Cbid = Cuda ? 211 : 107;
    L.Kernel = Name;
    L.GpuDurNs = Ns;
    L.Grid[0] = std::max<int64_t>(1, std::min<int64_t>(65535, Elems / 1024));
    L.Block[0] = Cuda ? 128 : 256;
    return L;
  }

  /// aten::linear (x[B,S,in] · W[out,in]^T (+ b)) with consistent M,N,K.
  void linear(int64_t In, int64_t OutF, bool Bias, bool Training) {
    Frame Mod = openModule("Linear", 3);
    int64_t M = int64_t(Batch) * Seq;
    Dims X{Batch, Seq, In}, W{OutF, In};
    std::vector<Input> LinIn{Input::tensor(X, Ty), Input::tensor(W, Ty),
                             Bias ? Input::tensor({OutF}, Ty) : Input::none()};
    size_t Lin = openOp("aten::linear", LinIn);
    {
      size_t T = openOp("aten::t", {Input::tensor(W, Ty)});
      size_t Tr = openOp("aten::transpose",
                         {Input::tensor(W, Ty), Input::scalar("0"),
                          Input::scalar("1")});
      closeOp(Tr);
      closeOp(T);
    }
    int64_t SeqN = Training ? SeqNr++ : -1;
    if (Training)
      FwdOps.push_back({SeqN, Bias ? 6 : 0, M, OutF, In});
    std::string K = gemmKernel(true);
    Launch L = gemmLaunch(K, M, OutF, In);
    L.Smem = Cuda ? 231424 : 0;
    if (Bias) {
      size_t Op = openOp("aten::addmm",
                         {Input::tensor({OutF}, Ty), Input::tensor({M, In}, Ty),
                          Input::tensorStrided({In, OutF}, {1, In}, Ty),
                          Input::scalar("1"), Input::scalar("1")},
                         SeqN);
      launch(L);
      closeOp(Op);
    } else {
      size_t Mm = openOp("aten::matmul",
                         {Input::tensor(X, Ty),
                          Input::tensorStrided({In, OutF}, {1, In}, Ty)});
      size_t Op = openOp("aten::mm",
                         {Input::tensor({M, In}, Ty),
                          Input::tensorStrided({In, OutF}, {1, In}, Ty)},
                         SeqN);
      launch(L);
      closeOp(Op);
      size_t V = openOp("aten::_unsafe_view",
                        {Input::tensor({M, OutF}, Ty),
                         Input::scalar(fmt::format("[{}, {}, {}]", Batch,
                                                   Seq, OutF),
                                       "ScalarList")});
      closeOp(V);
      closeOp(Mm);
    }
    closeOp(Lin);
    closePython(Mod);
  }

  void layerNorm(bool Training) {
    Frame Mod = openModule("LayerNorm", 4);
    Dims X{Batch, Seq, Hidden};
    std::string Shape = fmt::format("[{}]", Hidden);
    std::vector<Input> In{Input::tensor(X, Ty), Input::scalar(Shape, "ScalarList"),
                          Input::tensor({Hidden}, Ty), Input::tensor({Hidden}, Ty),
                          Input::scalar("1.0000000000000001e-05")};
    std::vector<Input> Outer = In;
    Outer.push_back(Input::scalar("True"));
    size_t Ln = openOp("aten::layer_norm", Outer);
    int64_t SeqN = Training ? SeqNr++ : -1;
    if (Training)
      FwdOps.push_back({SeqN, 2, numel(X) / Hidden, Hidden, 0});
    size_t Nat = openOp("aten::native_layer_norm", In, SeqN);
    std::string K = Cuda
        ? fmt::format("void at::native::(anonymous namespace)::vectorized_"
                      "layer_norm_kernel<{0}, float>(int, float, {0} const*, "
                      "{0} const*, {0} const*, float*, float*, {0}*)",
                      std::string_view(Ty))
        : fmt::format("void at::native::(anonymous namespace)::vectorized_"
                      "layer_norm_kernel<{0}, float, true>(int, float, {0} "
                      "const*, {0} const*, {0} const*, float*, float*, {0}*)",
                      std::string_view(Ty));
    Launch L = kernelLaunch(K, memNs(2.0 * numel(X) * Elt), numel(X) / Hidden);
    L.Grid[0] = numel(X) / Hidden;
    launch(L);
    closeOp(Nat);
    closeOp(Ln);
    closePython(Mod);
  }

  void elementwise(const char *Op, const char *Functor, int Arity, int Kind,
                   int64_t Cols, bool Training) {
    Dims X{Batch, Seq, Cols};
    std::vector<Input> In{Input::tensor(X, Ty)};
    if (Arity == 3)
      In.push_back(Input::tensor(X, Ty));
    if (std::string_view(Op) == "aten::add")
      In.push_back(Input::scalar("1"));
    int64_t SeqN = Training ? SeqNr++ : -1;
    if (Training)
      FwdOps.push_back({SeqN, Kind, numel(X), 0, 0});
    size_t O = openOp(Op, In, SeqN);
    std::string K = elemKernel(Functor, Arity);
    launch(kernelLaunch(K, memNs(double(numel(X)) * Elt * Arity), numel(X)));
    closeOp(O);
  }

  void attention(bool Training) {
    Frame Mod = openModule("LlamaAttention", 1);
    int64_t H = Hidden, Hd = H / Heads;
    linear(H, H, true, Training); // q
    linear(H, H, true, Training); // k
    linear(H, H, true, Training); // v
    Dims Q{Batch, Heads, Seq, Hd};
    Dims QS{int64_t(Seq) * H, Hd, H, 1}; // view of [B,S,H,D] transposed
    for (int I = 0; I < 3; ++I) {
      size_t V = openOp("aten::view",
                        {Input::tensor({Batch, Seq, H}, Ty),
                         Input::scalar(fmt::format("[{}, {}, {}, {}]", Batch,
                                                   Seq, Heads, Hd),
                                       "ScalarList")});
      closeOp(V);
      size_t T = openOp("aten::transpose",
                        {Input::tensor({Batch, Seq, Heads, Hd}, Ty),
                         Input::scalar("1"), Input::scalar("2")});
      closeOp(T);
    }
    std::string Scale = fmt::format("{}", 1.0 / std::sqrt(double(Hd)));
    std::vector<Input> Outer{Input::tensorStrided(Q, QS, Ty),
                             Input::tensorStrided(Q, QS, Ty),
                             Input::tensorStrided(Q, QS, Ty),
                             Input::none(),
                             Input::scalar("0."),
                             Input::scalar("True"),
                             Input::scalar(Scale),
                             Input::scalar("False")};
    size_t Sdpa = openOp("aten::scaled_dot_product_attention", Outer);
    int64_t SeqN = Training ? SeqNr++ : -1;
    if (Training)
      FwdOps.push_back({SeqN, 1, Seq, Seq, Hd});
    std::vector<Input> Inner{Input::tensorStrided(Q, QS, Ty),
                             Input::tensorStrided(Q, QS, Ty),
                             Input::tensorStrided(Q, QS, Ty),
                             Input::scalar("0."),
                             Input::scalar("True"),
                             Input::scalar("False"),
                             Input::scalar(Scale)};
    size_t Flash =
        openOp("aten::_scaled_dot_product_flash_attention", Inner, SeqN);
    // Causal: half of 4*B*H*S*S*D flops.
    double Flops = 2.0 * double(Batch) * Heads * double(Seq) * Seq * Hd;
    std::string K =
        Cuda ? fmt::format(
                   "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_"
                   "fwd_kernel_traits<{0}, 128, 64, 4, false, false, "
                   "cutlass::{1}, pytorch_flash::Flash_kernel_traits<{0}, 128, "
                   "64, 4, cutlass::{1}> >, false, true, false, false, false, "
                   "true, false>(pytorch_flash::Flash_fwd_params)",
                   Hd, DTypeOpt == DType::FP16 ? "half_t" : "bfloat16_t")
             : fmt::format("void ck_tile::kentry<256, 2, ck_tile::FmhaFwdKernel<"
                           "ck_tile::BlockFmhaPipelineQRKSVSAsync<hdim{}, {}, "
                           "causal> > >(ck_tile::FmhaFwdKernelArgs)",
                           Hd, ShortTy);
    Launch L = kernelLaunch(K, R.jitter(4000 + Flops / (device().PeakMatrixTflops * 0.4e3), 0.08), 0);
    L.Grid[0] = (Seq + 127) / 128;
    L.Grid[1] = Heads;
    L.Grid[2] = Batch;
    L.Block[0] = 128;
    L.Regs = 255;
    L.Smem = 49152;
    launch(L);
    closeOp(Flash);
    closeOp(Sdpa);
    size_t T = openOp("aten::transpose",
                      {Input::tensorStrided(Q, QS, Ty), Input::scalar("1"),
                       Input::scalar("2")});
    closeOp(T);
    linear(H, H, false, Training); // o_proj
    if (Ranks > 1 && !Training) // tensor-parallel output reduction
      collective("allreduce", int64_t(Batch) * Seq * H, Training);
    closePython(Mod);
  }

  void mlp(bool Training) {
    Frame Mod = openModule("LlamaMLP", 2);
    int64_t H = Hidden, F = 4 * int64_t(Hidden);
    linear(H, F, false, Training); // gate
    linear(H, F, false, Training); // up
    {
      Frame Act = openModule("SiLU", 5);
      elementwise("aten::silu", "silu_kernel_functor", 2, 5, F, Training);
      closePython(Act);
    }
    elementwise("aten::mul", "MulFunctor", 3, 4, F, Training);
    linear(F, H, false, Training); // down
    if (Ranks > 1 && !Training) // tensor-parallel output reduction
      collective("allreduce", int64_t(Batch) * Seq * H, Training);
    closePython(Mod);
  }

  std::string ranksList() {
    std::string S = "[";
    for (unsigned I = 0; I < Ranks; ++I)
      S += fmt::format("{}{}", I ? ", " : "", I);
    return S + "]";
  }

  /// c10d collective: record_param_comms + launch on the comm stream.
  void collective(const char *Coll, int64_t Elems, bool Training) {
    ++NumColl;
    std::string Ranks_ = ranksList();
    std::string Nccl = fmt::format(
        "\"Collective name\": \"{}\", \"In msg nelems\": {}, \"Out msg "
        "nelems\": {}, \"Group size\": {}, \"dtype\": \"{}\", \"In split "
        "size\": \"[]\", \"Out split size\": \"[]\", \"Process Group Name\": "
        "\"0\", \"Process Group Description\": \"default_pg\", \"Process "
        "Group Ranks\": \"{}\"",
        Coll, Elems, Elems, Ranks, NcclTy, Ranks_);
    Dims T{Elems};
    size_t C = openOp(fmt::format("c10d::{}_", Coll),
                      {Input::tensor(T, Ty), Input::none(), Input::none(),
                       Input::scalar("False"), Input::scalar("-1")});
    size_t P = openOp("record_param_comms", {Input::tensor(T, Ty)}, -1,
                      std::string_view(Nccl));
    Frame Ann = openAnnotation(fmt::format("nccl:all_reduce"));
    runtimeCall(Cuda ? "cudaEventRecord" : "hipEventRecord", Cuda ? 135 : 43,
                R.jitter(2000));
    runtimeCall(Cuda ? "cudaStreamWaitEvent" : "hipStreamWaitEvent",
                Cuda ? 147 : 48, R.jitter(1500));
    // The comm stream waits for the producer kernels.
    if (GpuT[1] < GpuT[0])
      GpuT[1] = GpuT[0];
    double Bytes = double(Elems) * Elt * 2.0 * (Ranks - 1) / Ranks;
    int64_t Dur = R.jitter(12000 + Bytes / (Cuda ? 180.0 : 150.0), 0.1);
    std::string K =
        Cuda ? fmt::format("ncclDevKernel_AllReduce_Sum_{}_RING_LL("
                           "ncclDevKernelArgsStorage<4096ul>)",
                           ShortTy)
             : std::string("ncclDevKernel_Generic(ncclDevKernelArgsStorage<"
                           "4096ul>)");
    Launch L;
    L.Api = Cuda ? "cuLaunchKernelEx" : "hipExtLaunchKernel";
    L.Driver = Cuda;
    L.Cbid = Cuda ? 652 : 72;
    L.Kernel = K;
    L.GpuDurNs = Dur;
    L.Stream = 1;
    L.Grid[0] = 16;
    L.Block[0] = 512;
    L.Regs = 96;
    L.Smem = 103808;
    L.NcclArgs = Nccl;
    int64_t End = launch(L);
    // Whoever consumes the result waits for part of the collective.
    int64_t Start = End - Dur;
    int64_t Need = Start + int64_t((1.0 - CommOverlap) * double(Dur));
    if (GpuT[0] < Need)
      GpuT[0] = Need;
    closeAnnotation(Ann);
    closeOp(P);
    closeOp(C);
    (void)Training;
  }

  /// One decoder layer; returns false when the size target stopped it.
  void layer(unsigned Idx, bool Training) {
    Frame Mod = openModule("LlamaDecoderLayer", 0);
    layerNorm(Training);
    attention(Training);
    elementwise("aten::add", "CUDAFunctor_add", 3, 3, Hidden, Training);
    layerNorm(Training);
    mlp(Training);
    elementwise("aten::add", "CUDAFunctor_add", 3, 3, Hidden, Training);
    closePython(Mod);
    (void)Idx;
  }

  void memcpy(const char *Name, const char *Kind, int64_t Bytes, int Dir) {
    Launch L;
    L.Api = Cuda ? "cudaMemcpyAsync" : "hipMemcpyAsync";
    L.Cbid = Cuda ? 41 : 134;
    L.Kernel = Name;
    L.GpuCat = "gpu_memcpy";
    L.GpuDurNs = R.jitter(1800 + double(Bytes) / (Dir == 2 ? 1500.0 : 25.0));
    L.Bytes = Bytes;
    L.CopyKind = Kind;
    launch(L);
  }

  void stepPrologue() {
    // Input ids to the device: aten::to -> _to_copy -> copy_ -> HtoD.
    Dims Ids{Batch, Seq};
    size_t To = openOp("aten::to", {Input::tensor(Ids, "long int"), Input::none(),
                                    Input::scalar("4"), Input::none(),
                                    Input::none(), Input::scalar("True"),
                                    Input::scalar("False"), Input::none()});
    size_t Tc = openOp("aten::_to_copy", {Input::tensor(Ids, "long int"),
                                          Input::scalar("4"), Input::none(),
                                          Input::none(), Input::none(),
                                          Input::scalar("True"), Input::none()});
    size_t Cp = openOp("aten::copy_", {Input::tensor(Ids, "long int"),
                                       Input::tensor(Ids, "long int"),
                                       Input::scalar("True")});
    memcpy("Memcpy HtoD (Pageable -> Device)", "HtoD", numel(Ids) * 8, 0);
    closeOp(Cp);
    closeOp(Tc);
    closeOp(To);
    // A zero-initialised buffer: memset.
    Dims Z{Batch, Seq, Hidden};
    size_t Zs = openOp("aten::zeros", {Input::scalar(fmt::format("[{}, {}, {}]",
                                                                 Batch,
                                                                 Seq,
                                                                 Hidden),
                                                     "ScalarList"),
                                       Input::scalar("15"), Input::scalar("0"),
                                       Input::none(), Input::scalar("False")});
    size_t Zr = openOp("aten::zero_", {Input::tensor(Z, Ty)});
    Launch L;
    L.Api = Cuda ? "cudaMemsetAsync" : "hipMemsetAsync";
    L.Cbid = Cuda ? 51 : 159;
    L.Kernel = "Memset (Device)";
    L.GpuCat = "gpu_memset";
    L.Bytes = numel(Z) * Elt;
    L.GpuDurNs = memNs(double(L.Bytes));
    launch(L);
    closeOp(Zr);
    closeOp(Zs);
    // A device-to-device copy (KV cache style).
    size_t Cp2 = openOp("aten::copy_", {Input::tensor(Z, Ty), Input::tensor(Z, Ty),
                                        Input::scalar("False")});
    memcpy("Memcpy DtoD (Device -> Device)", "DtoD", numel(Z) * Elt, 2);
    closeOp(Cp2);
  }

  /// Loss-like reduction and a `.item()` that copies one scalar to the host
  /// and synchronises.
  void stepEpilogue(bool Training) {
    Dims X{Batch, Seq, Hidden};
    int64_t SeqN = Training ? SeqNr++ : -1;
    size_t S = openOp("aten::sum", {Input::tensor(X, Ty), Input::none()}, SeqN);
    std::string K = fmt::format(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<{0}, "
        "at::native::func_wrapper_t<{0}, at::native::sum_functor<{0}, float, "
        "{0}>::operator()(at::TensorIterator&)::{{lambda(float, float)#1}}>, "
        "unsigned int, {0}, 4, 4> >(at::native::ReduceOp<{0}, "
        "at::native::func_wrapper_t<{0}, at::native::sum_functor<{0}, float, "
        "{0}>::operator()(at::TensorIterator&)::{{lambda(float, float)#1}}>, "
        "unsigned int, {0}, 4, 4>)",
        std::string_view(Ty));
    launch(kernelLaunch(K, memNs(double(numel(X)) * Elt), numel(X)));
    closeOp(S);
    size_t It = openOp("aten::item", {Input::tensor({}, Ty)});
    size_t Ld = openOp("aten::_local_scalar_dense", {Input::tensor({}, Ty)});
    memcpy("Memcpy DtoH (Device -> Pinned)", "DtoH", Elt, 1);
    syncStream();
    closeOp(Ld);
    closeOp(It);
  }

  void backward() {
    unsigned Saved = Thread;
    Thread = 1;
    if (cpu() < CpuT[0])
      cpu() = CpuT[0];
    int64_t Pending = 0; // grads since the last allreduce bucket
    for (size_t I = FwdOps.size(); I-- > 0;) {
      const FwdRecord &F = FwdOps[I];
      static const char *Names[] = {"MmBackward0",      "ScaledDotProductFlashAttentionBackward0",
                                    "NativeLayerNormBackward0", "AddBackward0",
                                    "MulBackward0",     "SiluBackward0",
                                    "AddmmBackward0"};
      const char *N = Names[F.Kind];
      std::string Eval =
          fmt::format("autograd::engine::evaluate_function: {}", N);
      size_t E = openOp(Eval, {}, F.Seq);
      size_t B = openOp(N, {Input::tensor({Batch, Seq, F.N ? F.N : int64_t(Hidden)}, Ty)},
                        F.Seq);
      switch (F.Kind) {
      case 0:
      case 6: { // dX = dY W, dW = dY^T X
        for (int J = 0; J < 2; ++J) {
          int64_t M = J ? F.N : F.M, Nn = J ? F.K : F.K, Kk = J ? F.M : F.N;
          size_t Op = openOp("aten::mm", {Input::tensor({M, Kk}, Ty),
                                          Input::tensor({Kk, Nn}, Ty)});
          std::string K = gemmKernel(J == 0);
          launch(gemmLaunch(K, M, Nn, Kk));
          closeOp(Op);
        }
        Pending += F.N * F.K;
        break;
      }
      case 1: {
        size_t Op = openOp("aten::_scaled_dot_product_flash_attention_backward",
                           {Input::tensor({Batch, Heads, Seq, F.K}, Ty)});
        double Flops = 5.0 * double(Batch) * Heads * double(F.M) * F.N * F.K;
        std::string K = Cuda ? "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 4, 4, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, cutlass::bfloat16_t> >, true, false, false, false, false, false, true>(pytorch_flash::Flash_bwd_params)"
                             : "void ck_tile::kentry<256, 2, ck_tile::FmhaBwdDQDKDVKernel<ck_tile::BlockFmhaBwdPipeline<causal> > >(ck_tile::FmhaBwdKernelArgs)";
        Launch L = kernelLaunch(K, R.jitter(6000 + Flops / (device().PeakMatrixTflops * 0.3e3)), 0);
        L.Grid[0] = 8;
        L.Grid[1] = Heads;
        launch(L);
        closeOp(Op);
        break;
      }
      default: {
        size_t Op = openOp(F.Kind == 2 ? "aten::native_layer_norm_backward" : "aten::mul",
                           {Input::tensor({Batch, Seq, F.N ? F.N : int64_t(Hidden)}, Ty)});
        std::string K = F.Kind == 2
            ? fmt::format("void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<{}, float>(...)", std::string_view(Ty))
            : elemKernel("MulFunctor", 3);
        launch(kernelLaunch(K, memNs(3.0 * double(F.M) * Elt), F.M));
        closeOp(Op);
        break;
      }
      }
      closeOp(B);
      closeOp(E);
      // DDP gradient bucket (25M elements) on the comm stream.
      if (Ranks > 1 && (Pending >= 25000000 || I == 0) && Pending > 0) {
        collective("allreduce", Pending, true);
        Pending = 0;
      }
    }
    CpuT[0] = std::max(CpuT[0], cpu());
    Thread = Saved;
  }

  void optimizer() {
    Frame Ann = openAnnotation("Optimizer.step#AdamW.step");
    static const char *Ops[] = {"aten::_foreach_mul_", "aten::_foreach_add_",
                                "aten::_foreach_addcmul_", "aten::_foreach_sqrt",
                                "aten::_foreach_addcdiv_"};
    int64_t Params = int64_t(Layers) * 12 * int64_t(Hidden) * Hidden;
    for (const char *O : Ops) {
      size_t Op = openOp(O, {Input::scalar("", "TensorList"),
                             Input::scalar("", "TensorList"),
                             Input::scalar("0.9")});
      std::string K = fmt::format(
          "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<"
          "at::native::(anonymous namespace)::TensorListMetadata<2>, "
          "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
          "2, 2, 0>, std::plus<float>, float>(at::native::(anonymous "
          "namespace)::TensorListMetadata<2>, at::native::(anonymous "
          "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
          "std::plus<float>, float)");
      launch(kernelLaunch(K, memNs(double(Params) * 4 * 3), Params / 4096));
      closeOp(Op);
    }
    closeAnnotation(Ann);
  }

  bool balancedStep() {
    bool Training = ModeOpt == Mode::Training;
    int64_t GpuStart = GpuT[0];
    Frame Step = openAnnotation(fmt::format("ProfilerStep#{}", StepNr++));
    FwdOps.clear();
    stepPrologue();
    Frame Model = openModule("LlamaModel", 6);
    bool Stop = false;
    for (unsigned L = 0; L < Layers; ++L) {
      layer(L, Training);
      if (sized() && sizeReached()) {
        Stop = true;
        break;
      }
    }
    layerNorm(Training);
    closePython(Model);
    stepEpilogue(Training);
    if (Training) {
      backward();
      optimizer();
      syncStream();
    }
    closeAnnotation(Step, true, GpuStart + 500, std::max(GpuT[0], GpuT[1]));
    return !Stop;
  }

  /// --shape=deep: one chain of Depth nested ops, each launching a kernel.
  void deepChain() {
    std::vector<size_t> Open;
    Open.reserve(Depth);
    Dims X{1024, 1024};
    std::string K = elemKernel("CUDAFunctor_add", 3);
    for (unsigned D = 0; D < Depth; ++D) {
      Open.push_back(openOp("aten::add", {Input::tensor(X, Ty), Input::tensor(X, Ty),
                                          Input::scalar("1")}));
      launch(kernelLaunch(K, R.jitter(3000), numel(X)));
    }
    for (size_t I = Open.size(); I-- > 0;)
      closeOp(Open[I]);
  }

  // --- --shape=critical-path ------------------------------------------------
  // Each step has a known critical path (docs/CriticalPath.md, tl-gen):
  //   op1 aten::mm launches K1 (long) on an idle stream: launch latency, K1;
  //   op2 aten::relu launches K2, which queues behind K1: gap, K2;
  //   cudaDeviceSynchronize returns a few µs after K2 ends: sync return;
  //   op3 aten::add launches a short K3 that ends before the step does.
  // The path from the step's end walks back through op3 (cpu_op, its launch
  // call as cpu_runtime), the host gaps between top-level events
  // (host_untraced), the sync, K2, the gap, K1 and K1's launch. The truth
  // below is what was emitted, summed per category in integer ns.
  struct StepTruth {
    int64_t Step, Start, End;
    int64_t GpuCompute = 0, CpuOp = 0, CpuRuntime = 0, HostUntraced = 0,
            LaunchLatency = 0, GpuGap = 0, SyncReturn = 0;
  };
  std::vector<StepTruth> Truth;
  int64_t MemAllocated = 0, MemReserved = 0, MemPeak = -1, MemPeakTs = 0,
          MemPeakReserved = 0, MemBaseline = 0, NextAddr = 0;
  std::string MemPeakOp;

  /// (Ts, Dur) of the pending event N from the end.
  std::pair<int64_t, int64_t> pendingBack(size_t N) const {
    const Pending &P = Pend[Pend.size() - N];
    return {P.Ts, P.Dur};
  }

  /// One `[memory]` instant at the current CPU time; Display is the owner
  /// tl must name when this event is the peak.
  void memEvent(int64_t Bytes, int64_t Addr, const std::string &Display) {
    MemAllocated += Bytes;
    const int64_t Chunk = 32ll << 20; // reserve in 32 MiB segments
    MemReserved = std::max(MemReserved,
                           (MemAllocated + Chunk - 1) / Chunk * Chunk);
    if (MemAllocated > MemPeak) {
      MemPeak = MemAllocated;
      MemPeakTs = cpu();
      MemPeakOp = Display;
    }
    MemPeakReserved = std::max(MemPeakReserved, MemReserved);
    add(
        cpu(), -1, false,
        [&](Buf &B) {
          put(B, "\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
                 "\"name\": \"[memory]\", \"pid\": {}, \"tid\": {}",
              CpuPid, tid());
        },
        [&](Buf &B) {
          put(B, "\"args\": {{\n      \"Total Reserved\": {}, \"Total "
                 "Allocated\": {}, \"Bytes\": {}, \"Addr\": {}, \"Device Id\": "
                 "0, \"Device Type\": {}, \"Ev Idx\": {}\n    }}",
              MemReserved, MemAllocated, Bytes, Addr, Cuda ? 1 : 6, EvIdx++);
        });
  }
  /// An aten::empty under the open op allocating Bytes; returns the address.
  int64_t allocIn(const char *Parent) {
    int64_t Bytes = int64_t(1 + R.next() % 64) << 20;
    int64_t Addr = NextAddr;
    NextAddr += Bytes;
    size_t E = openOp("aten::empty", {});
    advance(300);
    memEvent(Bytes, Addr, fmt::format("{} (aten::empty)", Parent));
    closeOp(E);
    AllocBytes[Addr] = Bytes;
    return Addr;
  }
  void freeAt(int64_t Addr, const std::string &Display) {
    advance(400);
    memEvent(-AllocBytes[Addr], Addr, Display);
  }
  struct AddrMap {
    std::vector<std::pair<int64_t, int64_t>> V;
    int64_t &operator[](int64_t A) {
      for (auto &P : V)
        if (P.first == A)
          return P.second;
      V.push_back({A, 0});
      return V.back().second;
    }
  } AllocBytes;

  void criticalPathStep() {
    if (MemoryEvents && NextAddr == 0) {
      MemBaseline = (512 + int64_t(Seed % 7)) << 20;
      MemAllocated = MemBaseline;
      NextAddr = 140000000000000;
    }
    StepTruth St;
    St.Step = StepNr;
    Frame Step = openAnnotation(fmt::format("ProfilerStep#{}", StepNr++));
    St.Start = Step.Ts;
    std::string Gemm = gemmKernel(false);
    std::string Relu = elemKernel("clamp_min_scalar_kernel_cuda", 2);
    std::string Add = elemKernel("CUDAFunctor_add", 3);

    size_t Op1 = openOp("aten::mm", {});
    int64_t Op1Ts = cpu();
    int64_t A1 = MemoryEvents ? allocIn("aten::mm") : 0;
    launch(kernelLaunch(Gemm, R.jitter(200000, 0.3), 1 << 20));
    auto [Rt1, Rt1Dur] = pendingBack(4);
    auto [K1, K1Dur] = pendingBack(2);
    closeOp(Op1);

    size_t Op2 = openOp("aten::relu", {});
    int64_t A2 = MemoryEvents ? allocIn("aten::relu") : 0;
    launch(kernelLaunch(Relu, R.jitter(50000, 0.3), 1 << 20));
    auto [K2, K2Dur] = pendingBack(2);
    closeOp(Op2);

    // cudaDeviceSynchronize: returns a few µs after the stream drains.
    advance(500);
    int64_t Corr = Correlation++;
    int64_t SyncTs = cpu();
    int64_t SyncEnd = std::max(GpuT[0], SyncTs) + R.jitter(3000, 0.3);
    cpu() = SyncEnd;
    ++NumRuntime;
    const char *SyncApi = Cuda ? "cudaDeviceSynchronize" : "hipDeviceSynchronize";
    add(
        SyncTs, SyncEnd - SyncTs, false,
        [&](Buf &B) { putHead(B, "cuda_runtime", SyncApi, CpuPid, tid()); },
        [&](Buf &B) {
          put(B, "\"args\": {{\n      \"{}\": {}, \"correlation\": {}\n    }}",
              Cuda ? "cbid" : "cid", Cuda ? 165 : 150, Corr);
        });
    if (Cuda)
      add(
          SyncTs, SyncEnd - SyncTs, false,
          [&](Buf &B) {
            putHead(B, "cuda_sync", "Context Sync", GpuPid, -1);
          },
          [&](Buf &B) {
            put(B, "\"args\": {{\n      \"cuda_sync_kind\": \"Context Sync\", "
                   "\"stream\": -1, \"correlation\": {}, \"device\": {}, "
                   "\"context\": 1\n    }}",
                Corr, GpuPid);
          });
    if (MemoryEvents)
      freeAt(A1, "(no op)");

    advance(8000);
    size_t Op3 = openOp("aten::add", {});
    int64_t Op3Ts = cpu();
    int64_t A3 = MemoryEvents ? allocIn("aten::add") : 0;
    launch(kernelLaunch(Add, R.jitter(3000, 0.1), 1 << 10));
    auto [Rt3, Rt3Dur] = pendingBack(4);
    if (MemoryEvents)
      freeAt(A3, "aten::add");
    closeOp(Op3);
    int64_t Op3End = cpu();
    advance(20000); // host work after the last op: K3 ends meanwhile
    if (MemoryEvents)
      freeAt(A2, "(no op)");
    closeAnnotation(Step);
    St.End = cpu();

    St.HostUntraced = (Op1Ts - St.Start) + (Op3Ts - SyncEnd) + (St.End - Op3End);
    St.CpuOp = (Rt1 - Op1Ts) + (Rt3 - Op3Ts) + (Op3End - (Rt3 + Rt3Dur));
    St.CpuRuntime = Rt3Dur;
    St.LaunchLatency = K1 - Rt1;
    St.GpuCompute = K1Dur + K2Dur;
    St.GpuGap = K2 - (K1 + K1Dur);
    St.SyncReturn = SyncEnd - (K2 + K2Dur);
    (void)Rt1Dur;
    Truth.push_back(St);
  }

public:
  /// The injected truth as JSON (µs with three decimals, bytes).
  std::string truthJson() const {
    auto Us = [](int64_t Ns) {
      return fmt::format("{}{}.{:03}", Ns < 0 ? "-" : "", std::abs(Ns) / 1000,
                         std::abs(Ns) % 1000);
    };
    std::string S = "{\"critical_path\": [\n";
    for (size_t I = 0; I < Truth.size(); ++I) {
      const StepTruth &T = Truth[I];
      S += fmt::format(
          "  {{\"step\": {}, \"start_us\": {}, \"end_us\": {}, "
          "\"gpu_compute\": {}, \"cpu_op\": {}, \"cpu_runtime\": {}, "
          "\"host_untraced\": {}, \"launch_latency\": {}, \"gpu_gap\": {}, "
          "\"sync_return\": {}}}{}\n",
          T.Step, Us(T.Start), Us(T.End), Us(T.GpuCompute), Us(T.CpuOp),
          Us(T.CpuRuntime), Us(T.HostUntraced), Us(T.LaunchLatency),
          Us(T.GpuGap), Us(T.SyncReturn), I + 1 < Truth.size() ? "," : "");
    }
    S += "],\n\"memory\": ";
    if (MemPeak < 0)
      S += "null";
    else
      S += fmt::format(
          "{{\"device\": \"{}\", \"baseline_bytes\": {}, "
          "\"peak_allocated_bytes\": {}, \"peak_ts_us\": {}, \"peak_op\": "
          "\"{}\", \"peak_reserved_bytes\": {}, \"final_allocated_bytes\": {}}}",
          Cuda ? "cuda:0" : "hip:0", MemBaseline, MemPeak, Us(MemPeakTs),
          MemPeakOp, MemPeakReserved, MemAllocated);
    S += "}\n";
    return S;
  }

private:
  /// --shape=one-stream: flat ops, kernels back to back on one stream.
  void flatBatch(unsigned N) {
    Dims X{4096, 1024};
    std::string K = elemKernel("CUDAFunctor_add", 3);
    for (unsigned I = 0; I < N; ++I) {
      size_t Op = openOp("aten::add", {Input::tensor(X, Ty), Input::tensor(X, Ty),
                                       Input::scalar("1")});
      // Longer than the launch cadence so the stream never idles.
      launch(kernelLaunch(K, R.jitter(20000), numel(X)));
      closeOp(Op);
    }
  }

  void writeHeader();
  void writeMetadata();
  void writeFooter();
};

void Generator::writeHeader() {
  Buf &B = Out.buf();
  const Device &D = device();
  putStr(B, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
  unsigned NDev = std::max(1u, Ranks);
  for (unsigned I = 0; I < NDev; ++I) {
    if (Cuda)
      put(B,
          "{}\n    {{\n      \"id\": {}, \"name\": \"{}\", \"totalGlobalMem\": "
          "85018279936,\n      \"computeMajor\": 9, \"computeMinor\": 0,\n      "
          "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": "
          "2048,\n      \"regsPerBlock\": 65536, \"warpSize\": 32,\n      "
          "\"sharedMemPerBlock\": 49152, \"numSms\": 132,\n      "
          "\"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": "
          "232448, \"sharedMemPerMultiprocessor\": 233472\n    }}",
          I ? "," : "", I, D.Name);
    else
      put(B,
          "{}\n    {{\n      \"id\": {}, \"name\": \"{}\", \"totalGlobalMem\": "
          "206141652992,\n      \"computeMajor\": 9, \"computeMinor\": 4,\n      "
          "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": "
          "2048,\n      \"regsPerBlock\": 65536, \"warpSize\": 64,\n      "
          "\"sharedMemPerBlock\": 65536, \"numSms\": 304\n    , "
          "\"maxSharedMemoryPerMultiProcessor\": 65536\n    }}",
          I ? "," : "", I, D.Name);
  }
  putStr(B, "\n  ],\n");
  if (Cuda)
    putStr(B, "  \"cupti_version\": 24,\n  \"cuda_runtime_version\": 12060,\n"
              "  \"cuda_driver_version\": 12080,\n");
  else
    putStr(B, "  \"roctracer_version\": 4.1,\n  \"hip_runtime_version\": "
              "60443483,\n  \"hip_driver_version\": 60443483,\n");
  if (Ranks > 1)
    put(B,
        "  \"distributedInfo\": {{\"backend\": \"nccl\", \"rank\": 0, "
        "\"world_size\": {0}, \"pg_count\": 1, \"pg_config\": [{{\"pg_name\": "
        "\"0\", \"pg_desc\": \"default_pg\", \"backend_config\": "
        "\"cuda:nccl\", \"pg_size\": {0}, \"ranks\": {1}}}], "
        "\"nccl_version\": \"2.21.5\"}},\n",
        Ranks, ranksList());
  put(B, "  \"record_shapes\": 1,\n  \"with_stack\": 1,\n  \"trace_id\": "
         "\"{:016X}{:016X}\",\n  \"traceEvents\": [",
      Rng(Seed + 77).next(), Rng(Seed + 78).next());
}

void Generator::writeMetadata() {
  auto Meta = [&](const char *Name, int64_t Pid, int64_t Tid,
                  std::string_view ArgKey, std::string_view Value, bool Quote) {
    beginEvent();
    Buf &B = Out.buf();
    put(B, "\"name\": \"{}\", \"ph\": \"M\", \"ts\": ", Name);
    putUs(B, T0);
    put(B, ", \"pid\": {}, \"tid\": {},\n    \"args\": {{\n      \"{}\": {}{}{}\n    }}\n  }}",
        Pid, Tid, ArgKey, Quote ? "\"" : "", Value, Quote ? "\"" : "");
  };
  Meta("process_name", CpuPid, 0, "name", "python3", true);
  Meta("process_labels", CpuPid, 0, "labels", "CPU", true);
  Meta("process_sort_index", CpuPid, 0, "sort_index", fmt::format("{}", CpuPid), false);
  Meta("process_name", GpuPid, 0, "name", "python3", true);
  Meta("process_labels", GpuPid, 0, "labels", fmt::format("GPU {}", GpuPid), true);
  Meta("process_sort_index", GpuPid, 0, "sort_index", fmt::format("{}", 5000000 + GpuPid), false);
  Meta("thread_name", CpuPid, MainTid, "name", fmt::format("thread {} (python3)", MainTid), true);
  Meta("thread_sort_index", CpuPid, MainTid, "sort_index", fmt::format("{}", MainTid), false);
  if (ModeOpt == Mode::Training && ShapeOpt == Shape::Balanced) {
    Meta("thread_name", CpuPid, BwdTid, "name", fmt::format("thread {} (python3)", BwdTid), true);
    Meta("thread_sort_index", CpuPid, BwdTid, "sort_index", fmt::format("{}", BwdTid), false);
  }
  Meta("thread_name", GpuPid, ComputeStream, "name", fmt::format("stream {} ", ComputeStream), true);
  Meta("thread_sort_index", GpuPid, ComputeStream, "sort_index", fmt::format("{}", ComputeStream), false);
  if (Ranks > 1) {
    Meta("thread_name", GpuPid, CommStream, "name", fmt::format("stream {} ", CommStream), true);
    Meta("thread_sort_index", GpuPid, CommStream, "sort_index", fmt::format("{}", CommStream), false);
  }
}

void Generator::writeFooter() {
  int64_t End = std::max({CpuT[0], CpuT[1], GpuT[0], GpuT[1]}) + 1000;
  Buf &B = Out.buf();
  beginEvent();
  putStr(B, "\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
  putUs(B, T0);
  putStr(B, ", \"dur\": ");
  putUs(B, End - T0);
  putStr(B, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    "
            "\"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      "
            "\"Op count\": 0\n    }\n  }");
  beginEvent();
  putStr(B, "\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n    "
            "\"pid\": \"\", \"tid\": \"\",\n    \"ts\": ");
  putUs(B, End);
  putStr(B, "\n  }");
  put(B, "\n  ],\n  \"traceName\": \"tl-gen-seed{}.json\",\n  "
         "\"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": "
         "1700000000000000000\n}}\n",
      Seed);
}

bool Generator::run() {
  writeHeader();
  writeMetadata();
  switch (ShapeOpt) {
  case Shape::Balanced: {
    unsigned Done = 0;
    while (sized() ? !sizeReached() : Done < Steps) {
      bool More = balancedStep();
      ++Done;
      if (!More)
        break;
    }
    break;
  }
  case Shape::Deep: {
    unsigned Done = 0;
    while (sized() ? !sizeReached() : Done < Steps) {
      deepChain();
      ++Done;
    }
    break;
  }
  case Shape::CriticalPath: {
    unsigned Done = 0;
    while (sized() ? !sizeReached() : Done < Steps) {
      criticalPathStep();
      ++Done;
    }
    break;
  }
  case Shape::OneStream: {
    unsigned Done = 0;
    while (sized() ? !sizeReached() : Done < Steps) {
      flatBatch(100);
      ++Done;
    }
    break;
  }
  }
  flushPending();
  writeFooter();
  return true;
}

} // namespace

int main(int argc, char **argv) {
  cl::OptionCategory GenCat("tl-gen options");

  cl::opt<std::string> OutFile("o", cl::desc("Output file (.json or .json.gz; "
                                             "'-' writes JSON to stdout)"),
                               cl::value_desc("file"), cl::Required,
                               cl::cat(GenCat));
  cl::opt<Flavor> FlavorOpt(
      "flavor", cl::desc("Vendor flavour of names, args and top-level keys"),
      cl::values(clEnumValN(Flavor::Cuda, "cuda", "NVIDIA H100 / CUPTI (default)"),
                 clEnumValN(Flavor::Rocm, "rocm", "AMD MI300X / roctracer")),
      cl::init(Flavor::Cuda), cl::cat(GenCat));
  cl::opt<Mode> ModeOpt(
      "mode", cl::desc("Workload"),
      cl::values(clEnumValN(Mode::Inference, "inference",
                            "forward passes only (default)"),
                 clEnumValN(Mode::Training, "training",
                            "forward, backward on the autograd thread "
                            "(matching Sequence numbers) and an optimizer step")),
      cl::init(Mode::Inference), cl::cat(GenCat));
  cl::opt<Shape> ShapeOpt(
      "shape", cl::desc("Trace shape (the stress shapes ignore the model options)"),
      cl::values(
          clEnumValN(Shape::Balanced, "balanced",
                     "transformer-like model (default)"),
          clEnumValN(Shape::Deep, "deep",
                     "chains of --depth nested cpu_ops on one thread, each op "
                     "launching one kernel"),
          clEnumValN(Shape::OneStream, "one-stream",
                     "flat cpu_ops each launching one kernel, all kernels "
                     "back to back on one stream"),
          clEnumValN(Shape::CriticalPath, "critical-path",
                     "steps with a known critical path (launch latency, "
                     "queued kernels, a device sync); see --truth")),
      cl::init(Shape::Balanced), cl::cat(GenCat));
  cl::opt<unsigned> Steps("steps",
                          cl::desc("ProfilerStep#N iterations (ignored when "
                                   "--target-mb or --events is given; default 2)"),
                          cl::init(2), cl::cat(GenCat));
  cl::opt<unsigned> JobFill(
      "job-fill-kernels",
      cl::desc("With -o DIR/: elementwise kernels before each GEMM of a "
               "job's layer (fewer collectives per MB, as in real training "
               "traces; default 0)"),
      cl::init(0), cl::cat(GenCat));
  cl::opt<unsigned> Layers("layers", cl::desc("Decoder layers per step (default 2)"),
                           cl::init(2), cl::cat(GenCat));
  cl::opt<unsigned> Hidden("hidden", cl::desc("Hidden size; the MLP is 4x wider (default 1024)"), cl::init(1024),
                           cl::cat(GenCat));
  cl::opt<unsigned> Heads("heads", cl::desc("Attention heads; must divide --hidden (default 16)"), cl::init(16),
                          cl::cat(GenCat));
  cl::opt<unsigned> Seq("seq", cl::desc("Sequence length (default 512)"), cl::init(512),
                        cl::cat(GenCat));
  cl::opt<unsigned> Batch("batch", cl::desc("Batch size (default 1)"), cl::init(1),
                          cl::cat(GenCat));
  cl::opt<DType> DTypeOpt(
      "dtype", cl::desc("Activation and weight dtype"),
      cl::values(clEnumValN(DType::BF16, "bf16", "c10::BFloat16 (default)"),
                 clEnumValN(DType::FP16, "fp16", "c10::Half"),
                 clEnumValN(DType::FP32, "fp32", "float")),
      cl::init(DType::BF16), cl::cat(GenCat));
  cl::opt<unsigned> Ranks("ranks",
                          cl::desc("World size; > 1 adds NCCL/RCCL collectives "
                                   "on their own stream and distributedInfo: "
                                   "tensor-parallel all-reduces in inference, "
                                   "DDP gradient buckets in training (default 1)"),
                          cl::init(1), cl::cat(GenCat));
  cl::opt<double> CommOverlap(
      "comm-overlap",
      cl::desc("Fraction (0..1) of each collective that overlaps compute; "
               "0 makes the compute stream wait for it (default 0.5)"),
      cl::init(0.5), cl::cat(GenCat));
  cl::opt<uint64_t> Seed("seed", cl::desc("Seed of the deterministic jitter and ids (default 1)"),
                         cl::init(1), cl::cat(GenCat));
  cl::opt<double> TargetMB("target-mb",
                           cl::desc("Keep adding layers/steps until the "
                                    "uncompressed JSON reaches N MB (1e6 bytes); stops at a "
                                    "layer boundary"),
                           cl::init(0), cl::cat(GenCat));
  cl::opt<uint64_t> TargetEvents("events",
                                 cl::desc("Keep adding layers/steps until "
                                          "traceEvents has at least N entries "
                                          "(stops at a layer boundary)"),
                                 cl::init(0), cl::cat(GenCat));
  cl::opt<unsigned> Depth("depth",
                          cl::desc("Nesting depth of one chain for --shape=deep "
                                   "(default 10000)"),
                          cl::init(10000), cl::cat(GenCat));
  cl::opt<int> GzipLevel("gzip-level", cl::desc("zlib level for .gz output (1-9, default 6)"),
                         cl::init(6), cl::cat(GenCat));
  cl::opt<bool> Stats("print-stats",
                      cl::desc("Print event counts and bytes to stderr at the end"),
                      cl::init(false), cl::cat(GenCat));
  cl::opt<bool> MemoryEvents(
      "memory",
      cl::desc("With --shape=critical-path: allocator [memory] events with a "
               "known peak"),
      cl::init(false), cl::cat(GenCat));
  cl::opt<std::string> TruthFile(
      "truth",
      cl::desc("With --shape=critical-path: write the injected critical path "
               "per step and the memory peak as JSON to this file"),
      cl::value_desc("file"), cl::cat(GenCat));
  cl::list<std::string> Stragglers(
      "straggler",
      cl::desc("With -o DIR/: rank RANK is DELAY_US later than the others "
               "at each collective (more GPU work before it); repeatable"),
      cl::value_desc("RANK:DELAY_US"), cl::cat(GenCat));
  cl::opt<double> SkewUs(
      "skew",
      cl::desc("With -o DIR/: every rank arrives up to US later at each "
               "collective (uniform, deterministic; default 0)"),
      cl::value_desc("US"), cl::init(0), cl::cat(GenCat));
  cl::list<std::string> ClockOffsets(
      "clock-offset",
      cl::desc("With -o DIR/: node NODE's clock reads US later than node "
               "0's (every time of its ranks' traces shifted; the truth "
               "gets the offset); repeatable"),
      cl::value_desc("NODE:US"), cl::cat(GenCat));
  cl::opt<unsigned> JobGpusPerNode(
      "job-gpus-per-node",
      cl::desc("With -o DIR/: GPUs per node, the length of deviceProperties "
               "(default: min(8, --ranks))"),
      cl::value_desc("N"), cl::init(0), cl::cat(GenCat));
  cl::opt<uint64_t> BaseStepNs(
      "job-base-step-ns",
      cl::desc("With -o DIR/: node k's traces get baseTimeNanoseconds "
               "1.7e18 + k x NS and times k x NS/1000 us earlier (the same "
               "instants; k x NS at most 900000)"),
      cl::value_desc("NS"), cl::init(0), cl::cat(GenCat));
  cl::opt<bool> NoSeq("no-seq",
                      cl::desc("With -o DIR/: no Seq on collectives (older "
                               "PyTorch), so they match by order"),
                      cl::init(false), cl::cat(GenCat));
  cl::opt<bool> CommsIdOpt(
      "comms-id",
      cl::desc("With -o DIR/: a Comms Id (c10d's uint64 hash) on every "
               "collective, so they match by it"),
      cl::init(false), cl::cat(GenCat));
  cl::opt<bool> P2POpt(
      "p2p",
      cl::desc("With -o DIR/ and an even --ranks: per step a send/recv pair "
               "each way in every pair group {2k, 2k+1}"),
      cl::init(false), cl::cat(GenCat));
  cl::opt<bool> AllToAllvOpt(
      "alltoallv",
      cl::desc("With -o DIR/: per step an all_to_allv on the world group "
               "with uneven In/Out split sizes"),
      cl::init(false), cl::cat(GenCat));
  cl::HideUnrelatedOptions(GenCat);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tl-gen - synthetic PyTorch-profiler (Kineto) trace generator\n\n"
      "Writes a realistic CUDA or ROCm flavoured Chrome trace: nn.Module\n"
      "python frames, cpu_ops with Input Dims/type/Strides/Concrete Inputs,\n"
      "runtime launches with correlation + External id, ac2g flows, kernels,\n"
      "memcpys and a memset, ProfilerStep#N annotations and metadata events.\n"
      "The same arguments always give a byte-identical file. Output ending\n"
      "in .gz is gzip-compressed. Examples:\n"
      "  tl-gen -o t.json.gz --steps=3 --layers=2\n"
      "  tl-gen -o big.json --target-mb=1000 --layers=8 --hidden=2048\n"
      "  tl-gen -o t.json --flavor=rocm --mode=training --ranks=8\n"
      "  tl-gen -o deep.json --shape=deep --events=5000000\n"
      "  tl-gen -o job/ --ranks=8 --straggler=5:300 --skew=20 --truth=t.json\n"
      "    (a directory: one trace per rank, rank<R>.json, collectives with\n"
      "    PyTorch's record_param_comms metadata; --truth gets each\n"
      "    collective's late rank and arrival skew)\n");
  std::string OutPath = OutFile;
  bool JobMode = (!OutPath.empty() && OutPath.back() == '/') ||
                 llvm::sys::fs::is_directory(OutPath);
  if (!JobMode && (!Stragglers.empty() || SkewUs != 0 || NoSeq ||
                   CommsIdOpt || P2POpt || AllToAllvOpt ||
                   !ClockOffsets.empty() || JobGpusPerNode || BaseStepNs)) {
    llvm::errs() << "tl-gen: error: --straggler, --skew, --no-seq, "
                    "--comms-id, --p2p, --alltoallv, --clock-offset, "
                    "--job-gpus-per-node and --job-base-step-ns need -o "
                    "DIR/ (one trace per rank)\n";
    return 1;
  }
  if (JobMode) {
    tlgen::JobOptions J;
    while (OutPath.size() > 1 && OutPath.back() == '/')
      OutPath.pop_back();
    J.Dir = OutPath;
    J.Ranks = Ranks;
    J.Steps = Steps;
    J.Layers = Layers;
    J.Hidden = Hidden;
    J.Seed = Seed;
    J.SkewUs = SkewUs;
    J.NoSeq = NoSeq;
    J.CommsId = CommsIdOpt;
    J.P2P = P2POpt;
    J.AllToAllv = AllToAllvOpt;
    J.TruthFile = TruthFile;
    J.TargetMb = TargetMB;
    J.FillKernels = JobFill;
    if (Ranks == 0 || Steps == 0 || Layers == 0 || Hidden == 0 ||
        !(SkewUs >= 0)) {
      llvm::errs() << "tl-gen: error: a job needs ranks, steps, layers, "
                      "hidden > 0 and --skew >= 0\n";
      return 1;
    }
    if (P2POpt && Ranks % 2) {
      llvm::errs() << "tl-gen: error: --p2p needs an even --ranks (the "
                      "pairs {2k, 2k+1})\n";
      return 1;
    }
    for (const std::string &S : Stragglers) {
      unsigned R;
      double D;
      if (!tlgen::parseStraggler(S, R, D) || R >= Ranks) {
        llvm::errs() << "tl-gen: error: --straggler=" << S
                     << ": expected RANK:DELAY_US with RANK < --ranks\n";
        return 1;
      }
      J.Stragglers.push_back({R, D});
    }
    J.GpusPerNode = JobGpusPerNode;
    unsigned Gpn = JobGpusPerNode ? unsigned(JobGpusPerNode)
                                  : std::min(8u, unsigned(Ranks));
    unsigned NumNodes = (Ranks + Gpn - 1) / Gpn;
    for (const std::string &S : ClockOffsets) {
      unsigned Node;
      double Us;
      if (!tlgen::parseStraggler(S, Node, Us) || Node == 0 ||
          Node >= NumNodes || Us > 500) {
        llvm::errs() << "tl-gen: error: --clock-offset=" << S
                     << ": expected NODE:US with 0 < NODE < the number of "
                        "nodes and 0 <= US <= 500\n";
        return 1;
      }
      J.ClockOffsets.push_back({Node, Us});
    }
    if (BaseStepNs * (NumNodes - 1) > 900000) {
      llvm::errs() << "tl-gen: error: --job-base-step-ns=" << BaseStepNs
                   << ": the last node's times would start before 0.1 ms "
                      "(at most 900000 ns over all nodes)\n";
      return 1;
    }
    J.BaseStepNs = int64_t(BaseStepNs);
    if (std::error_code EC = llvm::sys::fs::create_directories(J.Dir)) {
      llvm::errs() << "tl-gen: error: " << J.Dir
                   << ": cannot create directory: " << EC.message() << "\n";
      return 1;
    }
    std::string Err;
    if (!tlgen::generateJob(J, Err)) {
      llvm::errs() << "tl-gen: error: " << Err << "\n";
      return 1;
    }
    return 0;
  }
  GenOptions O;
  O.OutFile = OutFile;
  O.FlavorOpt = FlavorOpt;
  O.ModeOpt = ModeOpt;
  O.ShapeOpt = ShapeOpt;
  O.Steps = Steps;
  O.Layers = Layers;
  O.Hidden = Hidden;
  O.Heads = Heads;
  O.Seq = Seq;
  O.Batch = Batch;
  O.DTypeOpt = DTypeOpt;
  O.Ranks = Ranks;
  O.CommOverlap = CommOverlap;
  O.Seed = Seed;
  O.TargetMB = TargetMB;
  O.TargetEvents = TargetEvents;
  O.Depth = Depth;
  O.GzipLevel = GzipLevel;
  O.Stats = Stats;
  O.MemoryEvents = MemoryEvents;
  O.TruthFile = TruthFile;
  if (Ranks == 0 || Heads == 0 || Hidden % Heads != 0 || Seq == 0 ||
      Batch == 0 || Layers == 0 || Depth == 0) {
    llvm::errs() << "tl-gen: error: need ranks, heads, seq, batch, layers, "
                    "depth > 0 and hidden divisible by heads\n";
    return 1;
  }
  if (CommOverlap < 0 || CommOverlap > 1) {
    llvm::errs() << "tl-gen: error: --comm-overlap must be within 0..1\n";
    return 1;
  }
  Sink S;
  if (!S.open(O.OutFile, std::min(9, std::max(1, O.GzipLevel)))) {
    llvm::errs() << "tl-gen: error: " << OutFile << ": cannot open for writing\n";
    return 1;
  }
  Generator G(S, O);
  G.run();
  if (!O.TruthFile.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream TOS(O.TruthFile, EC);
    if (EC) {
      llvm::errs() << "tl-gen: error: " << O.TruthFile
                   << ": cannot open for writing\n";
      return 1;
    }
    TOS << G.truthJson();
  }
  uint64_t Bytes = S.bytes();
  if (!S.close()) {
    llvm::errs() << "tl-gen: error: " << OutFile << ": write failed\n";
    return 1;
  }
  if (Stats)
    llvm::errs() << fmt::format(
        "tl-gen: {} events, {} bytes, {} cpu_ops, {} runtime, {} kernels, {} "
        "memcpy, {} memset, {} collectives\n",
        G.NumEvents, Bytes, G.NumCpuOps, G.NumRuntime, G.NumKernels,
        G.NumMemcpy, G.NumMemset, G.NumColl);
  return 0;
}
