#!/usr/bin/env bash
# bench/run.sh - tl's end-to-end benchmark (see docs/performance.md).
#
# From a clean checkout: builds Release in build-bench (if needed), generates
# tl-gen traces of ~1 GB and ~4 GB uncompressed JSON in a temporary directory,
# adds the shared owlv2 and timesformer traces when /work/shared/traces (or
# $TL_SHARED_TRACES) exists, and prints a markdown table with, per input and
# stage, the median wall time of N runs, MB/s, events/s and peak RSS, next to
# the gunzip+parse floor (bench/tl-floor).
#
# Options (all optional):
#   --sizes=1,4        tl-gen input sizes in GB of uncompressed JSON
#   --quick            small inputs (0.05,0.2 GB), 3 runs, small stress traces
#   --runs=N           runs per measurement (default 5; the median is shown)
#   --stress           also run the no-quadratic-stage check (balanced vs deep
#                      vs one-stream traces with the same number of events)
#   --stress-events=N  events per stress trace (default 5000000)
#   --no-shared        skip the shared real traces
#   --build-dir=DIR    build in (or reuse) DIR instead of build-bench
#   --no-build         do not (re)build; use the binaries in the build dir
#   --keep             keep the generated traces (printed at the end)
#   --work=DIR         generate traces into DIR and keep them; traces already
#                      there (from an earlier --work=DIR run) are reused
#   --job=RxMB         instead: a tl-gen job of R ranks of MB each (e.g.
#                      64x100), analysed one trace per run, as one job with
#                      --threads workers and under mpirun -n 2 --mpi
#                      (bench/job.py; docs/performance.md, "Jobs")
#   --mpi=LIST         with --job: mpirun process counts (default 2; '' none)
#
# One command from a clean checkout: `make bench` (= bench/run.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build-bench"
SIZES="1,4"
RUNS=5
QUICK=0
STRESS=0
STRESS_EVENTS=5000000
SHARED=1
KEEP=0
BUILD_IT=1
WORK=""
JOB=""
MPI_NP="2"
for A in "$@"; do
  case "$A" in
    --sizes=*) SIZES="${A#*=}" ;;
    --runs=*) RUNS="${A#*=}" ;;
    --quick) QUICK=1 ;;
    --stress) STRESS=1 ;;
    --stress-events=*) STRESS_EVENTS="${A#*=}" ;;
    --no-shared) SHARED=0 ;;
    --build-dir=*) BUILD="${A#*=}" ;;
    --keep) KEEP=1 ;;
    --no-build) BUILD_IT=0 ;;
    --work=*) WORK="${A#*=}"; KEEP=1 ;;
    --job=*) JOB="${A#*=}" ;;
    --mpi=*) MPI_NP="${A#*=}" ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: error: unknown option $A" >&2; exit 1 ;;
  esac
done
if [[ $QUICK == 1 ]]; then
  [[ "$*" == *--sizes=* ]] || SIZES="0.05,0.2"
  [[ "$*" == *--runs=* ]] || RUNS=3
  [[ "$*" == *--stress-events=* ]] || STRESS_EVENTS=300000
fi

# Always (re)build: a no-op when up to date, and never a stale binary.
if [[ $BUILD_IT == 1 && ! -f "$BUILD/build.ninja" && ! -f "$BUILD/Makefile" ]]; then
  echo "bench: configuring Release in $BUILD" >&2
  GEN=()
  command -v ninja > /dev/null && GEN=(-G Ninja)
  cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DTL_BUILD_TESTS=OFF >&2
fi
if [[ $BUILD_IT == 1 ]]; then
  echo "bench: building tl-opt, tl-gen, tl-floor and the passes in $BUILD" >&2
  # Everything (built-in pass plugins live next to tl-opt); tests are off.
  cmake --build "$BUILD" -j "$(nproc)" >&2
fi
for T in tl-opt tl-gen tl-floor; do
  [[ -x "$BUILD/bin/$T" ]] || { echo "bench/run.sh: error: $BUILD/bin/$T missing" >&2; exit 1; }
done

if [[ -n "$WORK" ]]; then
  mkdir -p "$WORK"
else
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/tl-bench.XXXXXX")"
fi
cleanup() { [[ $KEEP == 1 ]] && echo "bench: traces kept in $WORK" >&2 || rm -rf "$WORK"; }
trap cleanup EXIT

if [[ -n "$JOB" ]]; then
  if ! [[ "$JOB" =~ ^([0-9]+)x([0-9.]+)$ ]]; then
    echo "bench/run.sh: error: --job=$JOB: expected RANKSxMB, e.g. 64x100" >&2
    exit 1
  fi
  R="${BASH_REMATCH[1]}"
  MB="${BASH_REMATCH[2]}"
  D="$WORK/job_${R}x${MB}"
  if [[ -s "$D/rank$((R - 1)).json" ]]; then
    echo "bench: reusing $D" >&2
  else
    echo "bench: generating $D ($R ranks of $MB MB)" >&2
    # 16 elementwise kernels before each GEMM: a collective every ~20
    # kernels, not every second one (tl-gen's bare job).
    "$BUILD/bin/tl-gen" -o "$D/" --ranks="$R" --target-mb="$MB" \
      --job-fill-kernels=16 --straggler=$((R / 2)):200 --skew=20 --seed=1
  fi
  [[ "$*" == *--runs=* ]] || RUNS=3
  python3 "$ROOT/bench/job.py" --bin="$BUILD/bin" --runs="$RUNS" \
    --work="$WORK" --job="$D" --mpi="$MPI_NP"
  exit 0
fi

SHARED_DIR="${TL_SHARED_TRACES:-/work/shared/traces}"
INPUTS=()
if [[ $SHARED == 1 && -d "$SHARED_DIR" ]]; then
  for T in h100/google_owlv2-large-patch14-ensemble__1016001.json.gz \
           h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz; do
    [[ -f "$SHARED_DIR/$T" ]] && INPUTS+=("$SHARED_DIR/$T")
  done
fi
IFS=',' read -r -a SZ <<< "$SIZES"
for S in "${SZ[@]}"; do
  MB=$(python3 -c "print(int(float('$S') * 1000))")
  F="$WORK/tlgen_${S}GB.json"
  if [[ -s "$F" && -s "$F.stats" ]]; then
    echo "bench: reusing $F" >&2
  else
    echo "bench: generating $F ($MB MB)" >&2
    # 8 layers of a 2048-wide model with 2 ranks: GEMM, attention, norms,
    # elementwise, memcpys and collectives in realistic proportions.
    "$BUILD/bin/tl-gen" -o "$F" --target-mb="$MB" --layers=8 --hidden=2048 \
      --heads=16 --seq=1024 --ranks=2 --seed=1 --print-stats 2> "$F.stats"
  fi
  INPUTS+=("$F")
done

STRESS_ARGS=()
if [[ $STRESS == 1 ]]; then
  for SH in balanced deep one-stream; do
    F="$WORK/stress_${SH}.json"
    echo "bench: generating $F ($STRESS_EVENTS events, --shape=$SH)" >&2
    "$BUILD/bin/tl-gen" -o "$F" --shape="$SH" --events="$STRESS_EVENTS" \
      --seed=1 --print-stats 2> "$F.stats"
    STRESS_ARGS+=("$F")
  done
fi

python3 "$ROOT/bench/bench.py" --bin="$BUILD/bin" --runs="$RUNS" --work="$WORK" \
  "${INPUTS[@]}" ${STRESS_ARGS:+--stress "${STRESS_ARGS[@]}"}
