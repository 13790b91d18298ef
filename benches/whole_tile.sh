#!/bin/sh
# A whole real DSF tile placed (BENCHMARKS.md, "A whole tile"): the time
# and peak memory of `agkit place --dsf TILE --all` to JSON and to glb,
# against `agkit dsf totext` of the same tile (reading it and writing its
# text: the floor any tool that lists the tile pays). Each figure is the
# least of RUNS runs (default 3) of /usr/bin/time: wall and peak RSS.
#
# usage: benches/whole_tile.sh [TILE.dsf] [RUNS]
#
# TILE defaults to the corpus's busiest airport overlay (KIND,
# brokenbrainguy/KIND-Indianapolis-International-Airport, under
# AGKIT_CORPUS, default ../shared/corpus); its package has no art of its own in the corpus, so
# the run resolves every definition and places each item from the DSF's
# geometry (art states `missing`), which is the layout's own cost. AGKIT
# names the binary (default: a release build).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${AGKIT_CORPUS:-$ROOT/../shared/corpus}
TILE=${1:-$CORPUS/brokenbrainguy__KIND-Indianapolis-International-Airport/Earth nav data/+30-090/+39-087.dsf}
RUNS=${2:-3}
if [ -z "${AGKIT:-}" ]; then
    (cd "$ROOT" && cargo build --release --bin agkit)
    AGKIT=${CARGO_TARGET_DIR:-$ROOT/target}/release/agkit
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# least LABEL CMD...: runs CMD RUNS times; prints "LABEL wall_s peak_MB".
least() {
    label=$1
    shift
    best=""
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %M" -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err" || {
            cat "$WORK/err" >&2
            exit 1
        }
        best=$(printf '%s\n%s\n' "$best" "$(cat "$WORK/t")" | awk 'NF' | sort -n | head -1)
        i=$((i + 1))
    done
    echo "$best" | awk -v l="$label" '{ printf "%-28s %7.2f s %7.0f MB\n", l, $1, $2 / 1024 }'
}

"$AGKIT" place --dsf "$TILE" --all -o "$WORK/count.json" 2>"$WORK/summary" || true
grep -E "^whole tile|^  [a-z]+ +[0-9,]+ in the DSF" "$WORK/summary" || true
least "dsf totext" "$AGKIT" dsf totext "$TILE" -o "$WORK/tile.txt"
least "place --dsf --all -o json" "$AGKIT" place --dsf "$TILE" --all -o "$WORK/tile.json"
least "place --dsf --all -o glb" "$AGKIT" place --dsf "$TILE" --all -o "$WORK/tile.glb"
ls -l "$WORK/tile.txt" "$WORK/tile.json" "$WORK/tile.glb" | awk '{ printf "%-12s %12d bytes\n", $NF, $5 }' | sed "s|$WORK/||"
