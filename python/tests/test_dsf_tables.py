"""agkit.dsf tables: a tile's objects, polygons, lines, facades, forests
and chains as typed tables of a fixed schema, valid geometry, GeoPandas
(EPSG:4326), GeoParquet and GeoPackage round trips; on the real corpus the
row counts are those of `agkit dsf totext`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import agkit
from agkit.dsf import LAYERS, SCHEMAS

from conftest import EXAMPLES, corpus_files, corpus_ids, run_cli

DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"

HEADER = """I
800 written by agkit
DSF2TEXT

PROPERTY sim/west 13
PROPERTY sim/south 47
PROPERTY sim/east 14
PROPERTY sim/north 48
PROPERTY sim/overlay 1
"""

# One of each kind: an object, a .lin open and closed, a .str, a facade
# with wall types, a forest (density 128/255) with a hole of two points,
# a draped polygon with UV, and a road.
MIXED = HEADER + """OBJECT_DEF lib/a.obj
POLYGON_DEF lib/road.lin
POLYGON_DEF lib/lights.str
POLYGON_DEF lib/house.fac
POLYGON_DEF lib/trees.for
POLYGON_DEF lib/grass.pol
NETWORK_DEF lib/roads.net
OBJECT_MSL 0 13.5 47.5 412.5 90
BEGIN_POLYGON 0 0 2
BEGIN_WINDING
POLYGON_POINT 13.1 47.1
POLYGON_POINT 13.2 47.1
POLYGON_POINT 13.2 47.2
END_WINDING
END_POLYGON
BEGIN_POLYGON 0 1 2
BEGIN_WINDING
POLYGON_POINT 13.1 47.3
POLYGON_POINT 13.2 47.3
POLYGON_POINT 13.2 47.4
END_WINDING
END_POLYGON
BEGIN_POLYGON 1 25 2
BEGIN_WINDING
POLYGON_POINT 13.3 47.1
POLYGON_POINT 13.4 47.1
END_WINDING
BEGIN_WINDING
POLYGON_POINT 13.3 47.2
POLYGON_POINT 13.4 47.2
END_WINDING
END_POLYGON
BEGIN_POLYGON 2 10 3
BEGIN_WINDING
POLYGON_POINT 13.6 47.6 1
POLYGON_POINT 13.61 47.6 2
POLYGON_POINT 13.61 47.61 3
POLYGON_POINT 13.6 47.61 4
END_WINDING
END_POLYGON
BEGIN_POLYGON 3 128 2
BEGIN_WINDING
POLYGON_POINT 13.7 47.7
POLYGON_POINT 13.8 47.7
POLYGON_POINT 13.8 47.8
POLYGON_POINT 13.7 47.8
END_WINDING
BEGIN_WINDING
POLYGON_POINT 13.72 47.72
POLYGON_POINT 13.73 47.73
END_WINDING
END_POLYGON
BEGIN_POLYGON 4 65535 4
BEGIN_WINDING
POLYGON_POINT 13.9 47.9 0 0
POLYGON_POINT 13.95 47.9 1 0
POLYGON_POINT 13.95 47.95 1 1
END_WINDING
END_POLYGON
BEGIN_SEGMENT 0 3 1 13.0 47.0 100
SHAPE_POINT 13.05 47.05 101
END_SEGMENT 2 13.1 47.0 102
"""


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tiles") / "+47+013.dsf"
    path.write_bytes(agkit.dsf.build(MIXED))
    return path


def test_the_demo_tile_is_an_object_and_two_polygons() -> None:
    t = agkit.dsf.read(DEMO).tables()
    assert (len(t.objects), len(t.polygons), len(t.lines), len(t.chains)) == (1, 2, 0, 0)
    o = next(t.objects.records())
    assert o["tile"] == "+47+013" and o["definition"] == "point/plaza.agp" and o["kind"] == "agp"
    assert o["geometry"]["type"] == "Point" and o["heading"] == pytest.approx(30.0, abs=0.01)
    assert o["mode"] == "draped" and o["elevation"] != o["elevation"]  # NaN when draped
    assert [r["height"] for r in t.polygons.records()] == [12.0, 12.0]
    ags = list(t.polygons.records())[1]["geometry"]["coordinates"]
    assert len(ags) == 2 and all(tuple(r[0]) == tuple(r[-1]) and len(r) == 5 for r in ags)
    assert t.notes == []


def test_every_kind_has_its_table_and_columns(mixed: Path) -> None:
    t = agkit.dsf.read(mixed).tables()
    assert {n: len(t[n]) for n in LAYERS} == {
        "objects": 1, "polygons": 1, "lines": 4, "facades": 1, "forests": 1, "chains": 1
    }
    for name, table in t.tables.items():
        assert list(table.columns) == list(SCHEMAS[name]), name
    obj = next(t.objects.records())
    assert (obj["mode"], obj["elevation"], obj["heading"]) == ("msl", pytest.approx(412.5, abs=0.1), pytest.approx(90, abs=0.01))
    lines = list(t.lines.records())
    assert [(r["kind"], r["closed"], r["winding"]) for r in lines] == [
        ("lin", False, 0), ("lin", True, 0), ("str", False, 0), ("str", False, 1)
    ]
    assert [g["type"] for g in t.lines.geometry] == ["LineString"] * 4
    closed = t.lines.geometry[1]["coordinates"]
    assert tuple(closed[0]) == tuple(closed[-1]) and len(closed) == 4
    assert lines[2]["spacing"] == 25.0
    fac = next(t.facades.records())
    assert fac["height"] == 10.0 and fac["geometry"]["type"] == "Polygon" and fac["closed"]
    forest = next(t.forests.records())
    assert forest["density"] == pytest.approx(128 / 255) and forest["fill_mode"] == 0
    assert len(forest["geometry"]["coordinates"]) == 1  # the 2-point hole dropped ...
    assert [n["entity"] for n in t.notes] == [forest["entity"]]  # ... with a note
    assert "hole 1 of 2 distinct point(s) dropped" in t.notes[0]["message"]
    chain = next(t.chains.records())
    assert (chain["kind"], chain["subtype"], chain["start_junction"], chain["end_junction"]) == ("net", 3, 1, 2)
    assert len(chain["geometry"]["coordinates"]) == 3
    # The extra planes: facade wall types, UV, chain elevations and junctions.
    v = t.vertices.to_pandas()
    assert list(v[v["layer"] == "facades"]["wall"]) == [1, 2, 3, 4]
    uv = v[v["layer"] == "polygons"]
    assert list(zip(uv["u"], uv["v"])) == [(0, 0), (1, 0), (1, 1)]
    net = v[v["layer"] == "chains"]
    assert list(net["junction"]) == [1, 0, 2] and list(net["elevation"]) == pytest.approx([100, 101, 102], abs=0.01)


def test_a_facade_of_two_points_is_a_wall_line(tmp_path: Path) -> None:
    """A facade of 2 distinct points is one wall: a LineString, closed
    false, its wall types kept; a facade of 3 stays a Polygon (whether its
    .fac is a ring the DSF does not say)."""
    text = HEADER + """POLYGON_DEF lib/fence.fac
BEGIN_POLYGON 0 3 3
BEGIN_WINDING
POLYGON_POINT 13.6 47.6 1
POLYGON_POINT 13.61 47.6 2
END_WINDING
END_POLYGON
BEGIN_POLYGON 0 4 2
BEGIN_WINDING
POLYGON_POINT 13.6 47.7
POLYGON_POINT 13.61 47.7
POLYGON_POINT 13.61 47.71
END_WINDING
END_POLYGON
"""
    path = tmp_path / "+47+013.dsf"
    path.write_bytes(agkit.dsf.build(text))
    tile = agkit.dsf.read(path)
    t = tile.tables()
    wall, building = list(t.facades.records())
    assert wall["geometry"]["type"] == "LineString"
    assert [tuple(p) for p in wall["geometry"]["coordinates"]] == [
        pytest.approx((13.6, 47.6), abs=1e-6), pytest.approx((13.61, 47.6), abs=1e-6)
    ]
    assert (wall["closed"], wall["height"]) == (False, 3.0) and t.notes == []
    assert building["geometry"]["type"] == "Polygon" and building["closed"] is True
    assert list(t.vertices.to_pandas()["wall"]) == [1, 2]
    pa = pytest.importorskip("pyarrow")
    shapely = pytest.importorskip("shapely")
    arrow = pa.table(tile.to_arrow("facades"))
    assert arrow.column("closed").to_pylist() == [False, True]
    geoms = shapely.from_wkb(arrow.column("geometry").to_numpy(zero_copy_only=False))
    assert [g.geom_type for g in geoms] == ["LineString", "Polygon"] and all(shapely.is_valid(geoms))


def test_geo_interface_and_geopandas(mixed: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    tile = agkit.dsf.read(mixed)
    fc = tile.__geo_interface__
    assert fc["type"] == "FeatureCollection" and len(fc["features"]) == len(tile.tables())
    assert {f["properties"]["layer"] for f in fc["features"]} == set(LAYERS)
    gdf = tile.to_geopandas()
    assert gdf.crs == "EPSG:4326" and len(gdf) == 9 and gdf.is_valid.all()
    for name, table in tile.tables().tables.items():
        g = table.to_geopandas()
        assert g.crs == "EPSG:4326" and list(g.columns) == [*SCHEMAS[name], "geometry"]
        assert {str(d) for d in g.dtypes.drop("geometry")} <= {"string", "int64", "float64", "bool"}
        assert geopandas.GeoDataFrame.from_features(table, crs="EPSG:4326").shape[0] == len(table)


def test_an_empty_table_has_its_schema() -> None:
    pytest.importorskip("geopandas")
    g = agkit.dsf.Table.empty("forests").to_geopandas()
    assert len(g) == 0 and list(g.columns) == [*SCHEMAS["forests"], "geometry"]
    assert str(g["density"].dtype) == "float64" and g.crs == "EPSG:4326"


def test_a_folder_and_a_glob_read_every_tile(mixed: Path, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").mkdir()
    (tmp_path / "a" / "+47+013.dsf").write_bytes(mixed.read_bytes())
    (tmp_path / "a" / "b" / "+47+013.DSF").write_bytes(DEMO.read_bytes())
    both = agkit.dsf.read_tables(tmp_path / "a")
    assert len(both.objects) == 2 and len(both.polygons) == 3
    assert sorted(set(both.objects.columns["file"])) == sorted(str(p) for p in agkit.dsf.dsf_paths(tmp_path / "a"))
    one = agkit.dsf.read_tables(str(tmp_path / "a" / "*.dsf"))
    assert len(one.objects) == 1
    assert len(agkit.dsf.read_tables([DEMO, DEMO], threads=1).objects) == 1  # each file once
    with pytest.raises(FileNotFoundError) as e:
        agkit.dsf.read_tables(str(tmp_path / "nothing*.dsf"))
    assert e.value.filename == str(tmp_path / "nothing*.dsf")
    with pytest.raises(KeyError, match="the tables are"):
        both["roads"]


def frames(t: agkit.dsf.Tables) -> dict[str, Any]:
    return {n: table.to_geopandas() for n, table in t.tables.items()}


def test_tables_write_to_geoparquet_and_geopackage_and_read_back_equal(mixed: Path, tmp_path: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    pytest.importorskip("pyogrio")
    # Two tiles concatenated: same schema, so pandas.concat keeps the dtypes.
    a, b = frames(agkit.dsf.read(mixed).tables()), frames(agkit.dsf.read(DEMO).tables())
    for name in SCHEMAS:
        both = pandas.concat([a[name], b[name]], ignore_index=True)
        assert dict(both.dtypes.drop("geometry").astype(str)) == SCHEMAS[name], name
        parquet = tmp_path / f"{name}.parquet"
        both.to_parquet(parquet)
        back = geopandas.read_parquet(parquet)
        pandas.testing.assert_frame_equal(back, both, check_dtype=True)
        if len(both) == 0:
            continue
        gpkg = tmp_path / "tables.gpkg"
        both.to_file(gpkg, layer=name, driver="GPKG", engine="pyogrio")
        back = geopandas.read_file(gpkg, layer=name, engine="pyogrio")
        back = back.astype(SCHEMAS[name])
        pandas.testing.assert_frame_equal(
            pandas.DataFrame(back.drop(columns="geometry")), pandas.DataFrame(both.drop(columns="geometry"))
        )
        assert back.crs == both.crs and list(back.geometry.to_wkb()) == list(both.geometry.to_wkb())


DSFS = corpus_files("dsf")


def text_counts(text: str) -> dict[str, int]:
    """Rows each table should have, counted in DSF2Text: an OBJECT* line
    an object, a polygon one row (a line one per winding)."""
    polys = [l.split(" ", 1)[1] for l in text.splitlines() if l.startswith("POLYGON_DEF ")]
    ext = [p.rsplit(".", 1)[-1].lower() if "." in p else "" for p in polys]
    out = {"objects": 0, "polygons": 0, "lines": 0, "facades": 0, "forests": 0}
    kind = ""
    for line in text.splitlines():
        if line.startswith(("OBJECT ", "OBJECT_MSL ", "OBJECT_AGL ")):
            out["objects"] += 1
        elif line.startswith("BEGIN_POLYGON "):
            kind = ext[int(line.split()[1])]
            if kind not in ("lin", "str"):
                out[{"fac": "facades", "for": "forests"}.get(kind, "polygons")] += 1
        elif line.startswith("BEGIN_WINDING") and kind in ("lin", "str"):
            out["lines"] += 1
    return out


INVALID_IN_THE_DATA = {"Self-intersection", "Ring Self-intersection", "Hole lies outside shell", "Nested holes",
                       "Interior is disconnected", "Nested shells", "Duplicate Rings"}


@pytest.mark.corpus
@pytest.mark.parametrize("dsf", DSFS, ids=corpus_ids(DSFS))
def test_every_real_tile_gives_totexts_rows_and_valid_geometry(dsf: Path, cli: Path) -> None:
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import shape

    try:
        tile = agkit.dsf.read(dsf)
    except agkit.ParseError:
        pytest.skip("damaged tile (its ParseError is tested in test_dsf.py)")
    t = tile.tables()
    out = run_cli(cli, "dsf", "totext", str(dsf))
    assert out.returncode == 0, out.stderr
    want = text_counts(out.stdout)
    # Left out for too few points: said in the notes, one by one.
    notes = [n["message"] for n in t.notes if "left out" in n["message"]]
    lines_out = sum(1 for m in notes if m.startswith("winding"))
    chains_out = sum(1 for m in notes if m.startswith("network"))
    areas_out = len(notes) - lines_out - chains_out
    assert len(t.objects) == want["objects"]
    assert len(t.lines) + lines_out == want["lines"], (want, t.notes)
    areas = sum(len(t[n]) for n in ("polygons", "facades", "forests"))
    assert areas + areas_out == sum(want[n] for n in ("polygons", "facades", "forests")), (want, t.notes)
    assert len(t.chains) + chains_out == tile.counts["chains"]
    # Every geometry valid, or invalid for what the data draws (a
    # self-crossing outline), never for how it was built.
    reasons = {(r["table"], r["row"]): r["reason"] for r in t.invalid()}
    built = {k: r for k, r in reasons.items() if r.split("[")[0] not in INVALID_IN_THE_DATA}
    assert not built, built
    for (name, row), reason in reasons.items():
        assert not shapely.is_valid(shape(t[name].geometry[row])) and re.match(r"^[A-Za-z -]+\[", reason)
