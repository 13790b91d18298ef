#!/bin/sh
# agkit against Laminar's DSFTool (BENCHMARKS.md, "DSF against DSFTool"):
# size, wall time, user CPU and peak RSS of text -> DSF (`agkit dsf build` / `DSFTool --text2dsf`) and DSF -> text
# (`agkit dsf totext` / `DSFTool --dsf2text`), then the precision of both
# rebuilds plane kind by plane kind (`cargo bench --bench dsf_precision`).
#
# usage: benches/dsf_vs_dsftool.sh PATH/TO/DSFTool [WORK_DIR]
#
# The inputs are agkit's text of two generated tiles, what a user
# converting a tile would have: `agkit gen --seed 1 --scale full` writes
# them (once, into WORK_DIR/gen; default WORK_DIR /tmp/agkit-dsf-bench).
# DSFTool is not part of agkit: build it from X-Plane/xptools yourself
# (makerules/DSFTool lists its sources). Each timing is the better of two
# runs of /usr/bin/time; run on an otherwise idle machine for steady
# figures.
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 PATH/TO/DSFTool [WORK_DIR]" >&2
    exit 2
fi
DSFTOOL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WORK=${2:-/tmp/agkit-dsf-bench}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cargo build --release --bin agkit
AGKIT=${CARGO_TARGET_DIR:-$ROOT/target}/release/agkit
mkdir -p "$WORK"
BM_TILE=$WORK/gen/basemesh/-34-058.dsf
OV_TILE=$WORK/gen/dense/+47+008.dsf
[ -f "$BM_TILE" ] || "$AGKIT" gen --seed 1 --scale full -o "$WORK/gen" >/dev/null
"$AGKIT" dsf totext "$BM_TILE" -o "$WORK/bm.txt"
"$AGKIT" dsf totext "$OV_TILE" -o "$WORK/ov.txt"

# best LABEL CMD...: runs CMD twice, prints "LABEL wall user peak_MB" of the
# run with the lower wall time.
best() {
    label=$1
    shift
    b=""
    for _ in 1 2; do
        /usr/bin/time -f "%e %U %M" -o "$WORK/time" "$@" >/dev/null 2>&1
        r=$(cat "$WORK/time")
        if [ -z "$b" ] || [ "$(echo "$r $b" | awk '{print ($1 < $4)}')" = 1 ]; then
            b=$r
        fi
    done
    echo "$b" | awk -v l="$label" '{printf "%-34s %7.2f s %7.2f s %8.1f MB\n", l, $1, $2, $3 / 1024}'
}

size() { wc -c <"$1" | tr -d ' '; }

echo "load before: $(uptime)"
echo "== build (text -> DSF): wall, user, peak RSS"
for x in bm ov; do
    echo "$x.txt: $(size "$WORK/$x.txt") bytes"
    best "DSFTool --text2dsf $x.txt" "$DSFTOOL" --text2dsf "$WORK/$x.txt" "$WORK/${x}_dt.dsf"
    best "agkit dsf build $x.txt" "$AGKIT" dsf build "$WORK/$x.txt" -o "$WORK/${x}_ag.dsf"
    dt=$(size "$WORK/${x}_dt.dsf")
    ag=$(size "$WORK/${x}_ag.dsf")
    echo "size: DSFTool $dt B, agkit $ag B ($(echo "$ag $dt" | awk '{printf "%.2f", $1 / $2}')x)"
done
echo "== totext (DSF -> text): wall, user, peak RSS"
for f in bm_dt bm_ag ov_dt ov_ag; do
    best "DSFTool --dsf2text $f.dsf" "$DSFTOOL" --dsf2text "$WORK/$f.dsf" "$WORK/${f}_dt.txt"
    best "agkit dsf totext $f.dsf" "$AGKIT" dsf totext "$WORK/$f.dsf" -o "$WORK/${f}_ag.txt"
done
echo "load after: $(uptime)"
echo "== precision of the rebuilds (largest error per plane kind, agkit / DSFTool)"
cargo bench --bench dsf_precision -- --dsftool "$DSFTOOL" "$BM_TILE" "$OV_TILE"
