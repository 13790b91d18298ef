"""Load a DSF tile's autogen uses into a GeoDataFrame: the one line is
`geopandas.GeoDataFrame.from_features(agkit.dsf.autogen(tile), crs="EPSG:4326")`.

    pip install "./python[geo]"     # agkit with geopandas and shapely
    python geopandas_autogen.py [TILE.dsf]

prints the tile's AGB/AGS polygons with their asset, height and spelling
set (AGB) or spawning-contour count (AGS), and their area in square metres.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import geopandas
except ImportError as e:  # pragma: no cover - what a user without the extra sees
    raise SystemExit(f'this example needs geopandas: pip install "./python[geo]" ({e})') from e

import agkit

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dsf" / "autogen_demo.dsf"


def autogen_polygons(tile: str) -> geopandas.GeoDataFrame:
    """The AGB and AGS polygons of a DSF tile, one row each."""
    uses = geopandas.GeoDataFrame.from_features(agkit.dsf.autogen(tile), crs="EPSG:4326")
    return uses[uses.geom_type == "Polygon"]


def main() -> None:
    tile = sys.argv[1] if len(sys.argv) > 1 else str(EXAMPLE)
    polygons = autogen_polygons(tile)
    area = polygons.to_crs(polygons.estimate_utm_crs()).area
    table = polygons[["kind", "asset", "height", "low"]].astype({"low": int})
    table = table.assign(area_m2=area.round(1))
    print(table.to_string())


if __name__ == "__main__":
    main()
