#!/usr/bin/env bash
# The README's real-art scene (docs/img/real_art_3d.png): the AGP
# e2e/fixtures/real_art_airfield.agp.in with the corpus's art folder
# written in, placed at a point as a GLB.
#
#   e2e/real-art-scene.sh OUT.glb        (corpus: AGKIT_CORPUS or ../shared/corpus)
set -euo pipefail
out=${1:?usage: e2e/real-art-scene.sh OUT.glb}
cd "$(dirname "$0")/.."
art=$(cd "${AGKIT_CORPUS:-../shared/corpus}/art" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rel=$(realpath --relative-to="$tmp" "$art")
sed "s|@ART@|$rel|g" e2e/fixtures/real_art_airfield.agp.in > "$tmp/airfield.agp"
cargo build -q && "${CARGO_TARGET_DIR:-target}/debug/agkit" place "$tmp/airfield.agp" --at 44.0,-77.1,0 -o "$out"
