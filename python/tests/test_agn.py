"""agkit.agn: read, write, the Agn views and LOD13 cells."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import agkit

from conftest import EXAMPLES, run_cli

AGN = EXAMPLES / "agn" / "001332223121112an.agn"
CELL = "001332223121112an.agn"


def plain(d: object) -> object:
    return json.loads(json.dumps(d))


def test_read_write_is_byte_for_byte() -> None:
    data = AGN.read_bytes()
    a = agkit.agn.read(AGN)
    assert a.cell == CELL and a.name == str(AGN)
    assert a.write() == data
    assert agkit.agn.write(a) == data
    assert agkit.agn.read(data).write() == data


def test_json_and_geojson_views_build_the_same_file() -> None:
    data = AGN.read_bytes()
    a = agkit.agn.read(AGN)
    doc = a.to_dict()
    assert doc["format"] == "agkit-agn" and doc["version"] == 1
    assert doc["chunks"] == a.chunks
    assert agkit.agn.write(doc) == data
    fc = a.to_geojson()
    assert fc["type"] == "FeatureCollection" and fc["agn_cell"] == CELL
    assert len(fc["features"]) > 0
    assert agkit.agn.write(fc) == data
    assert a.__geo_interface__ == fc
    assert a.to_text().startswith("# agkit agn text v1\n")


def test_views_match_the_cli(cli: Path) -> None:
    a = agkit.agn.read(AGN)
    for fmt, mine in [("json", a.to_dict()), ("geojson", a.to_geojson())]:
        out = run_cli(cli, "agn", "dump", "--format", fmt, str(AGN))
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == plain(mine)
    assert run_cli(cli, "agn", "dump", "--format", "text", str(AGN)).stdout == a.to_text()


def test_write_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / CELL
    data = agkit.agn.write(agkit.agn.read(AGN), out)
    assert out.read_bytes() == data == AGN.read_bytes()
    assert agkit.agn.read(out).cell == CELL
    assert sorted(tmp_path.iterdir()) == [out]


def test_geopandas_takes_the_geojson_view() -> None:
    gpd = pytest.importorskip("geopandas")
    a = agkit.agn.read(AGN)
    gdf = gpd.GeoDataFrame.from_features(a, crs="EPSG:4326")
    assert len(gdf) == len(a.to_geojson()["features"])
    west, south, east, north = agkit.agn.cell_bounds(CELL)
    minx, miny, maxx, maxy = gdf.total_bounds
    assert west - 0.01 < minx and maxx < east + 0.01 and south - 0.01 < miny and maxy < north + 0.01


def test_without_a_cell_name_the_geojson_needs_one() -> None:
    a = agkit.agn.read(AGN.read_bytes())
    assert a.cell is None and a.name == "<bytes>"
    assert not hasattr(a, "__geo_interface__")
    with pytest.raises(ValueError):
        a.to_geojson()
    assert a.to_geojson(cell=CELL) == agkit.agn.read(AGN).to_geojson()
    with pytest.raises(agkit.CellError):
        a.to_geojson(cell="nope.agn")


def test_bad_inputs() -> None:
    data = AGN.read_bytes()
    with pytest.raises(agkit.ParseError) as e:
        agkit.agn.read(b"NOT RIFF")
    assert e.value.code == "AGN002" and e.value.offset == 0
    with pytest.raises(agkit.ParseError) as e:
        agkit.agn.read(data[:-3])
    assert e.value.code.startswith("AGN") and isinstance(e.value.offset, int)
    with pytest.raises(ValueError):
        agkit.agn.read(AGN, a2ge_record_size=20)  # type: ignore[arg-type]
    assert agkit.agn.read(AGN, a2ge_record_size=24).write() == data
    with pytest.raises(agkit.ParseError):
        agkit.agn.write({"format": "something else", "version": 1, "chunks": []})
    with pytest.raises(agkit.ParseError):
        agkit.agn.write({"type": "FeatureCollection", "features": []})
    doc = agkit.agn.read(AGN).to_dict()
    gbte = next(c for c in doc["chunks"] if c["chunk"] == "GBTE")
    gbte["name"] = "nul\0inside"
    with pytest.raises(agkit.BuildError) as e:
        agkit.agn.write(doc)
    assert e.value.code == "AGN020" and isinstance(e.value.offset, int)


def test_cell_names_and_bounds_agree() -> None:
    r = random.Random(7)
    for _ in range(500):
        lat, lon = r.uniform(-90, 90), r.uniform(-180, 180)
        name = agkit.agn.cell_name(lat, lon)
        west, south, east, north = agkit.agn.cell_bounds(name)
        assert west <= lon < east and south < lat <= north
        assert east - west == 360 / 24576 and north - south == 180 / 16384
        assert agkit.agn.cell_name((south + north) / 2, (west + east) / 2) == name
        # The west and north edges belong to the cell.
        assert agkit.agn.cell_name(north, west) == name


def test_cell_edges_and_names() -> None:
    west, south, east, north = agkit.agn.cell_bounds(CELL)
    assert agkit.agn.cell_name(north, west) == CELL
    assert agkit.agn.cell_name(north, east) != CELL
    assert agkit.agn.cell_name(0.0, 180.0) == agkit.agn.cell_name(0.0, -180.0)
    agkit.agn.cell_name(-90.0, 0.0)
    agkit.agn.cell_name(90.0, 0.0)
    assert agkit.agn.cell_bounds("some/folder/" + CELL.upper().replace("AN.AGN", "an.agn")) == (
        west,
        south,
        east,
        north,
    )
    assert agkit.agn.cell_bounds(CELL.upper()) == (west, south, east, north)


@pytest.mark.parametrize(
    "lat,lon", [(91.0, 0.0), (-90.5, 0.0), (math.nan, 0.0), (0.0, math.inf), (0.0, math.nan)]
)
def test_positions_outside_the_world(lat: float, lon: float) -> None:
    with pytest.raises(agkit.CellError) as e:
        agkit.agn.cell_name(lat, lon)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "name", ["", "x.agn", "001332223121112an.bgl", "00133222312111an.agn", "001332223121114an.agn", "0013322231211120an.agn", "é" * 15 + "an.agn"]
)
def test_names_that_are_not_cells(name: str) -> None:
    with pytest.raises(agkit.CellError):
        agkit.agn.cell_bounds(name)


def test_cells_match_the_cli(cli: Path) -> None:
    for lat, lon in [(47.5, 13.0), (-33.9, 151.2), (0.0, 0.0), (45.51, -73.38)]:
        out = run_cli(cli, "agn", "name", f"--lat={lat}", f"--lon={lon}")
        assert out.stdout.strip() == agkit.agn.cell_name(lat, lon)
