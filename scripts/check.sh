#!/usr/bin/env bash
# Runs every test suite of a configured build tree (unit tests, lit/FileCheck,
# conformance against ../shared/traces) and ends with one summary line:
#   check: N passed, N failed, N skipped
set -uo pipefail
BUILD=${1:-build}
LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
out=$(mktemp)
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
echo "check: ${passed} passed, ${failed} failed, ${unsup} skipped"
exit $rc
