#!/usr/bin/env bash
# Byte-for-byte comparison of tl's reports over every shared trace, for
# refactors that must not change any output (issue 20).
#
#   scripts/compare-reports.sh snapshot TL_OPT DEST   run TL_OPT over every
#       shared trace (and the comparative pairs) and keep the reports in DEST
#   scripts/compare-reports.sh diff A B                diff -r two snapshots;
#       exit 0 when identical
#
# Every run writes into the same scratch path first (reports record their -o
# directory), so two snapshots of identical behaviour are byte-identical.
# TL_SHARED_TRACES points at the traces (default ../shared/traces from the
# repo). TL_COMPARE_ARGS adds tl-opt flags to every run; TL_COMPARE_WORK moves
# the scratch path (the same for both snapshots), for concurrent comparisons.
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${TL_SHARED_TRACES:-$SRC/../shared/traces}
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 1; }
[[ $# -ge 1 ]] || usage
case "$1" in
snapshot)
  [[ $# -eq 3 ]] || usage
  TLOPT=$(realpath "$2"); DEST=$3
  [[ -x $TLOPT ]] || { echo "compare-reports: $2: not an executable" >&2; exit 1; }
  [[ -d $SHARED ]] || { echo "compare-reports: $SHARED: no shared traces" >&2; exit 1; }
  rm -rf "$DEST"; mkdir -p "$DEST"
  WORK=${TL_COMPARE_WORK:-/tmp/tl-compare-reports.work}
  run() { # name, tl-opt args...
    local name=$1; shift
    rm -rf "$WORK"
    "$TLOPT" --quiet ${TL_COMPARE_ARGS:-} "$@" -o "$WORK" >"$DEST/$name.stdout" 2>"$DEST/$name.stderr"
    echo "exit $?" >>"$DEST/$name.stdout"
    [[ -d $WORK ]] && mv "$WORK" "$DEST/$name"
  }
  n=0
  while IFS= read -r t; do
    rel=${t#"$SHARED/"}
    case "$rel" in */capture_traces/*) continue ;; esac
    name=$(tr '/' '_' <<<"${rel%.json.gz}")
    run "$name" --pass-pipeline=system,compute "$t"
    n=$((n + 1))
  done < <(find "$SHARED" -name '*.json.gz' | sort)
  run compare_bert --compare="$SHARED/mi300/gaunernst_bert-small-uncased__1016001.json.gz" \
    "$SHARED/h100/gaunernst_bert-small-uncased__1016001.json.gz"
  run compare_falconsai --compare="$SHARED/mi300/Falconsai_nsfw_image_detection__1016002.json.gz" \
    "$SHARED/h100/Falconsai_nsfw_image_detection__1016002.json.gz"
  echo "compare-reports: $((n + 2)) runs in $DEST"
  ;;
diff)
  [[ $# -eq 3 ]] || usage
  if diff -r "$2" "$3"; then echo "compare-reports: identical"; else echo "compare-reports: DIFFERENT"; exit 1; fi
  ;;
*) usage ;;
esac
