#!/bin/sh
# agkit in DSFTool's place against Laminar's DSFTool, as a pipeline sees
# them (BENCHMARKS.md, "agkit as DSFTool"): the whole process of
# `DSFTool --text2dsf IN.txt OUT.dsf` and `DSFTool --dsf2text IN.dsf OUT.txt`
# for each tool, agkit started through a link named DSFTool, on the same
# inputs. Each figure is the least of RUNS runs (default 5) of
# /usr/bin/time: wall, user CPU and peak RSS.
#
# usage: benches/dsftool_face.sh PATH/TO/DSFTool [WORK_DIR] [RUNS]
#
# The inputs are the texts benches/dsf_vs_dsftool.sh uses: agkit's text of
# two generated tiles (`agkit gen --seed 1 --scale full`, written once into
# WORK_DIR/gen; default WORK_DIR /tmp/agkit-dsf-bench). --dsf2text reads
# the DSFs that DSFTool built from them, so both tools read the same file.
# DSFTool is not part of agkit: build it from X-Plane/xptools yourself
# (makerules/DSFTool lists its sources).
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 PATH/TO/DSFTool [WORK_DIR] [RUNS]" >&2
    exit 2
fi
DSFTOOL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
WORK=${2:-/tmp/agkit-dsf-bench}
RUNS=${3:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cargo build --release --bin agkit
AGKIT=${CARGO_TARGET_DIR:-$ROOT/target}/release/agkit
mkdir -p "$WORK/face/bin"
ln -sf "$AGKIT" "$WORK/face/bin/DSFTool"
AS_DSFTOOL=$WORK/face/bin/DSFTool
BM_TILE=$WORK/gen/basemesh/-34-058.dsf
OV_TILE=$WORK/gen/dense/+47+008.dsf
[ -f "$BM_TILE" ] || "$AGKIT" gen --seed 1 --scale full -o "$WORK/gen" >/dev/null
[ -f "$WORK/bm.txt" ] || "$AGKIT" dsf totext "$BM_TILE" -o "$WORK/bm.txt"
[ -f "$WORK/ov.txt" ] || "$AGKIT" dsf totext "$OV_TILE" -o "$WORK/ov.txt"
cd "$WORK/face"

# least LABEL CMD...: runs CMD RUNS times; prints "LABEL wall user peak_MB"
# with the least of each.
least() {
    label=$1
    shift
    : >times
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %U %M" -a -o times "$@" >/dev/null 2>&1
        i=$((i + 1))
    done
    sort -n -k1 times | awk -v l="$label" -v n="$RUNS" '
        NR == 1 { w = $1 } { if (u == "" || $2 < u) u = $2; if (m == "" || $3 < m) m = $3 }
        END { printf "%-40s %7.2f s %7.2f s %8.1f MB  (least of %d)\n", l, w, u, m / 1024, n }'
}

echo "load before: $(uptime)"
for x in bm ov; do
    echo "== $x.txt: $(wc -c <"$WORK/$x.txt" | tr -d ' ') bytes"
    least "DSFTool --text2dsf $x.txt" "$DSFTOOL" --text2dsf "$WORK/$x.txt" "${x}_dt.dsf"
    least "agkit as DSFTool --text2dsf $x.txt" "$AS_DSFTOOL" --text2dsf "$WORK/$x.txt" "${x}_ag.dsf"
    least "DSFTool --dsf2text ${x}_dt.dsf" "$DSFTOOL" --dsf2text "${x}_dt.dsf" "${x}_dt.txt"
    least "agkit as DSFTool --dsf2text ${x}_dt.dsf" "$AS_DSFTOOL" --dsf2text "${x}_dt.dsf" "${x}_ag.txt"
    if cmp -s "${x}_dt.txt" "${x}_ag.txt"; then
        echo "the two texts of ${x}_dt.dsf are identical"
    else
        echo "the two texts of ${x}_dt.dsf differ"
    fi
done
echo "load after: $(uptime)"
