#!/usr/bin/env bash
# Installs what tl needs from Debian packages, and only what is missing.
# Idempotent: a second run prints "all dependencies present" and does nothing.
set -euo pipefail

PKGS=(cmake ninja-build g++ make python3 git
      llvm-19-dev llvm-19-tools
      libyaml-cpp-dev rapidjson-dev libfmt-dev zlib1g-dev
      libgtest-dev libgmock-dev
      libxxhash-dev pkg-config
      # The Python module tl (python/), built for Debian's python3.
      pybind11-dev python3-dev
      # --validate-report renders analysis.md with it to check that kernel
      # and op names show verbatim (make check needs it).
      cmark-gfm
      # Optional for the build (perf_report.xlsx is written only with it),
      # and openpyxl reads it back in the tests.
      libxlsxwriter-dev python3-openpyxl
      # Optional: tl.Analysis.tables are DataFrames with it (test/Python
      # checks them; without it they are lists of dicts).
      python3-pandas
      # Optional for the build: tl-opt --mpi (Open MPI); make check runs
      # test/Distributed/mpi.test with mpirun when both are present.
      libopenmpi-dev openmpi-bin)
# Optional extras for `make fuzz` / sanitizer builds / benchmarks / chart tests.
if [[ "${TL_DEPS_EXTRA:-}" == 1 ]]; then
  PKGS+=(clang-19 libclang-rt-19-dev libbenchmark-dev chromium)
fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all dependencies present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; then
  echo "install-deps: package lists look stale; running apt-get update once"
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "install-deps: done"
