#!/bin/sh
# agkit's binary DSF edits against the DSFTool text route they replace
# (BENCHMARKS.md, "DSF edits against the DSFTool route"): wall time and
# peak RSS of
#   overlay: DSFTool --dsf2text, Ortho4XP's line filter (src/O4_Overlay_Utils.py,
#            written here in awk), DSFTool --text2dsf   vs   agkit dsf extract-overlay
#   seasons: DSFTool --dsf2text of both tiles, the RASTER_ lines AutoOrtho
#            copies appended, DSFTool --text2dsf        vs   agkit dsf rasters --from
#
# usage: benches/dsf_edit_vs_dsftool.sh PATH/TO/DSFTool TILE.dsf... 
#
# Each TILE is edited as it is (an overlay needs polygons or roads in it;
# the season step takes the tile's own rasters as the source). DSFTool is
# not part of agkit: build it from X-Plane/xptools (makerules/DSFTool).
# Each timing is the better of two runs of /usr/bin/time.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 PATH/TO/DSFTool TILE.dsf..." >&2
    exit 2
fi
DSFTOOL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
(cd "$ROOT" && cargo build --release --bin agkit >/dev/null)
AGKIT=${CARGO_TARGET_DIR:-$ROOT/target}/release/agkit
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# one CMD...: "wall peak_MB" of one run.
one() {
    /usr/bin/time -f "%e %M" -o "$WORK/t" "$@" >/dev/null 2>&1 || true
    tail -1 "$WORK/t" | awk '{printf "%s %.1f", $1, $2 / 1024}'
}
# best CMD...: the run of two with the lower wall time.
best() {
    a=$(one "$@")
    b=$(one "$@")
    printf '%s\n%s\n' "$a" "$b" | sort -n | head -1
}
# The DSFTool routes, as scripts timed as one process each. The overlay
# route's filter is Ortho4XP's loop (default ovl_exclude_pol = [0]).
cat > "$WORK/overlay.sh" <<SH
"$DSFTOOL" --dsf2text "\$1" "$WORK/src.txt"
awk 'BEGIN { print "PROPERTY sim/overlay 1" }
     /PROPERTY|POLYGON_DEF|NETWORK_DEF/ { print; next }
     /BEGIN_POLYGON/ { keep = (\$2 != 0); inpoly = 1 }
     inpoly { if (keep) print; if (/END_POLYGON/) inpoly = 0; next }
     /BEGIN_SEGMENT/ { inseg = 1 }
     inseg { print; if (/END_SEGMENT/) inseg = 0 }' "$WORK/src.txt" > "$WORK/ovl.txt"
"$DSFTOOL" --text2dsf "$WORK/ovl.txt" "$WORK/ovl_dt.dsf"
SH
cat > "$WORK/season.sh" <<SH
"$DSFTOOL" --dsf2text "\$1" "$WORK/a.txt"
"$DSFTOOL" --dsf2text "\$1" "$WORK/g.txt"
grep -v '^RASTER_' "$WORK/a.txt" > "$WORK/b.txt"
grep '^RASTER_' "$WORK/g.txt" | grep -E 'spr|win|fal|sum|soundscape|elevation' >> "$WORK/b.txt"
"$DSFTOOL" --text2dsf "$WORK/b.txt" "$WORK/season_dt.dsf"
SH
echo "tile bytes | step | DSFTool route wall s / peak MB | agkit wall s / peak MB | ratio"
for TILE in "$@"; do
    size=$(wc -c < "$TILE")
    dt=$(best sh "$WORK/overlay.sh" "$TILE")
    ag=$(best "$AGKIT" dsf extract-overlay "$TILE" -o "$WORK/ovl_ag.dsf")
    echo "$size overlay $dt $ag" | awk '{printf "%s | overlay | %s / %s | %s / %s | %.3f×\n", $1, $3, $4, $5, $6, ($3 > 0 ? $5 / $3 : 0)}'
    dt=$(best sh "$WORK/season.sh" "$TILE")
    ag=$(best "$AGKIT" dsf rasters "$TILE" --from "$TILE" -o "$WORK/season_ag.dsf")
    echo "$size seasons $dt $ag" | awk '{printf "%s | seasons | %s / %s | %s / %s | %.3f×\n", $1, $3, $4, $5, $6, ($3 > 0 ? $5 / $3 : 0)}'
done
