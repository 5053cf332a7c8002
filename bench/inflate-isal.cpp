//===- inflate-isal.cpp - tl's gzip decoder against ISA-L's igzip ---------===//
//
// tl-inflate-bench FILE.gz... [--runs=N]: decodes each gzip file whole, into
// one buffer (the import's design for gzip input of moderate size), with
// tl's decoder (lib/Input/Inflate.cpp) and with ISA-L's isal_inflate
// (Debian libisal-dev), and prints the median wall time of N runs of each.
// "2 threads" decodes two copies at once, one per core, as the import's
// inflater shares the machine with the parser thread. Both decoders check
// the CRC-32 and size; the outputs are compared byte for byte once.
// Numbers: docs/performance.md ("ISA-L igzip").
//
//===----------------------------------------------------------------------===//
#include "tl/Input/Inflate.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

std::vector<uint8_t> readFile(const char *Path) {
  std::ifstream F(Path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(F), {});
}

/// ISIZE of the (last) member: the output size mod 2^32.
size_t outputSize(const std::vector<uint8_t> &In) {
  const uint8_t *P = In.data() + In.size() - 4;
  return size_t(P[0]) | size_t(P[1]) << 8 | size_t(P[2]) << 16 |
         size_t(P[3]) << 24;
}

bool tlDecode(const std::vector<uint8_t> &In, std::vector<uint8_t> &Out) {
  size_t N = 0;
  tl::InflateStatus S = tl::gunzipBuffer(
      In.data(), In.size(), Out.data(), Out.size(), N,
      [](size_t) { return true; }, size_t(1) << 30);
  return S == tl::InflateStatus::Done && N == Out.size();
}

bool isalDecode(const std::vector<uint8_t> &In, std::vector<uint8_t> &Out) {
  inflate_state St;
  isal_inflate_init(&St);
  St.crc_flag = ISAL_GZIP; // parse the header, check CRC-32 and ISIZE
  St.next_in = const_cast<uint8_t *>(In.data());
  St.avail_in = uint32_t(In.size());
  St.next_out = Out.data();
  St.avail_out = uint32_t(Out.size());
  int R = isal_inflate(&St);
  return R == ISAL_DECOMP_OK && St.block_state == ISAL_BLOCK_FINISH &&
         St.total_out == Out.size();
}

double cpuSeconds() {
  timespec TS;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &TS);
  return double(TS.tv_sec) + double(TS.tv_nsec) * 1e-9;
}

double median(std::vector<double> V) {
  std::nth_element(V.begin(), V.begin() + V.size() / 2, V.end());
  return V[V.size() / 2];
}

/// Median wall and CPU seconds (all threads) of Runs runs.
template <typename Fn>
std::pair<double, double> medianSeconds(unsigned Runs, unsigned Threads,
                                        Fn Decode) {
  std::vector<double> Wall, Cpu;
  for (unsigned R = 0; R < Runs; ++R) {
    double Cpu0 = cpuSeconds();
    auto Start = std::chrono::steady_clock::now();
    std::vector<std::thread> Workers;
    for (unsigned I = 1; I < Threads; ++I)
      Workers.emplace_back([&Decode, I] { Decode(I); });
    Decode(0);
    for (std::thread &W : Workers)
      W.join();
    Wall.push_back(std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count());
    Cpu.push_back(cpuSeconds() - Cpu0);
  }
  return {median(Wall), median(Cpu)};
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Runs = 7;
  std::vector<const char *> Files;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strncmp(Argv[I], "--runs=", 7))
      Runs = unsigned(std::atoi(Argv[I] + 7));
    else
      Files.push_back(Argv[I]);
  }
  if (Files.empty() || Runs == 0) {
    std::fprintf(stderr, "usage: tl-inflate-bench FILE.gz... [--runs=N]\n");
    return 1;
  }
  std::printf("| input | gz MB | JSON MB | threads | tl wall s | ISA-L wall s "
              "| tl CPU s | ISA-L CPU s | ISA-L / tl (CPU) |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const char *Path : Files) {
    std::vector<uint8_t> In = readFile(Path);
    if (In.size() < 18) {
      std::fprintf(stderr, "tl-inflate-bench: %s: not a gzip file\n", Path);
      return 1;
    }
    size_t N = outputSize(In);
    std::vector<std::vector<uint8_t>> Out(2, std::vector<uint8_t>(N));
    std::vector<uint8_t> Check(N);
    if (!tlDecode(In, Out[0]) || !isalDecode(In, Check) || Out[0] != Check) {
      std::fprintf(stderr, "tl-inflate-bench: %s: decoders disagree\n", Path);
      return 1;
    }
    for (unsigned Threads : {1u, 2u}) {
      auto Tl = medianSeconds(Runs, Threads,
                              [&](unsigned I) { tlDecode(In, Out[I]); });
      auto Isal = medianSeconds(Runs, Threads,
                                [&](unsigned I) { isalDecode(In, Out[I]); });
      const char *Base = std::strrchr(Path, '/');
      std::printf("| %s | %.1f | %.1f | %u | %.4f | %.4f | %.4f | %.4f | "
                  "%.2f |\n",
                  Base ? Base + 1 : Path, In.size() / 1e6, N / 1e6, Threads,
                  Tl.first, Isal.first, Tl.second, Isal.second,
                  Isal.second / Tl.second);
    }
  }
  return 0;
}
