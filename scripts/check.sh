#!/usr/bin/env bash
# Runs every test suite of a configured build tree (unit tests, lit/FileCheck,
# conformance against ../shared/traces), then validates every report the
# tests wrote, and ends with one summary line:
#   check: N passed, N failed, N skipped
set -uo pipefail
BUILD=${1:-build}
SRC=$(cd "$(dirname "$0")/.." && pwd)
LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
out=$(mktemp)
stamp=$(mktemp)
python3 "$LIT" -sv --no-progress-bar "$BUILD/test" "$BUILD/test/Unit" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
num() { local v; v=$(grep -E "^ *$1 *: *[0-9]+" "$out" | tail -1 | sed -E 's/.*: *([0-9]+).*/\1/'); echo "${v:-0}"; }
passed=$(num Passed)
failed=$(num Failed)
xfail=$(num "Expectedly Failed")
unres=$(num Unresolved)
timeo=$(num "Timed Out")
xpass=$(num "Unexpectedly Passed")
unsup=$(num Unsupported)
failed=$(( failed + unres + timeo + xpass ))
passed=$(( passed + xfail ))
rm -f "$out"
if [[ $rc -ne 0 && $failed -eq 0 ]]; then failed=1; fi

# Report validation (issue 8): every analysis.md the tests wrote in this run
# must pass `tl-opt --validate-report`; each report directory counts as one
# test. A test that writes a deliberately broken report opts out with the
# line `VALIDATE-REPORT: skip <why>` in its source (counted as skipped).
vpass=0 vfail=0 vskip=0
while IFS= read -r md; do
  dir=${md%/analysis.md}
  rel=${dir#"$BUILD/test/"}
  # <suite>/Output/<test>.tmp[suffix][/sub] -> test/<suite>/<test>
  src=$(sed -E 's#^(.*)/Output/([^/]+)\.tmp.*$#\1/\2#' <<<"$rel")
  if [[ -f "$SRC/test/$src" ]] && grep -q "VALIDATE-REPORT: skip" "$SRC/test/$src"; then
    vskip=$((vskip + 1))
    continue
  fi
  if res=$("$BUILD/bin/tl-opt" --validate-report "$dir" 2>&1); then
    vpass=$((vpass + 1))
  else
    vfail=$((vfail + 1))
    echo "FAIL: report-validation :: $rel (test/$src)"
    printf '%s\n' "$res" | tail -20
  fi
done < <(find "$BUILD/test" -path '*/Output/*' -name analysis.md -newer "$stamp" | sort)
rm -f "$stamp"
echo "report-validation: ${vpass} valid, ${vfail} invalid, ${vskip} opted out"
passed=$(( passed + vpass ))
failed=$(( failed + vfail ))
unsup=$(( unsup + vskip ))
if [[ $vfail -ne 0 && $rc -eq 0 ]]; then rc=1; fi

echo "check: ${passed} passed, ${failed} failed, ${unsup} skipped"
exit $rc
