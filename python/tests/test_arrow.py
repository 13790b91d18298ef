"""Tables built in Rust and handed over as Arrow (agkit.ArrowTable): the
rows and columns of the GeoJSON the CLI writes, row for row and column for
column, geometry as WKB; GeoParquet written from Rust reads back equal in
GeoPandas; the schemas are the documented ones."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import EXAMPLES, corpus_files, corpus_ids, run_cli

pa = pytest.importorskip("pyarrow")
shapely = pytest.importorskip("shapely")

DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
LAYERS = [
    "tiles", "objects", "obj_points", "facades", "fences", "trees", "uses", "use_points", "draped", "lines",
]
DSF_TABLES = ["objects", "polygons", "lines", "facades", "forests", "chains"]


def by_layer(fc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in LAYERS}
    for f in fc["features"]:
        out[f["properties"]["layer"]].append(f)
    return out


def same(a: Any, b: Any) -> bool:
    """Equal values, NaN equal to NaN, a bool only equal to a bool."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


def wkb_of(geometry: Any) -> Any:
    """The ISO WKB of a GeoJSON geometry, as agkit writes it."""
    if geometry is None:
        return None
    return shapely.to_wkb(shapely.geometry.shape(geometry), byte_order=1, output_dimension=2, flavor="iso")


def assert_table_is_features(table: Any, features: list[dict[str, Any]]) -> None:
    """The Arrow table has one row per feature, in order: every property
    a column of the same value, the geometry the same WKB."""
    t = pa.table(table)
    assert t.num_rows == len(features)
    assert t.column_names[-1] == "geometry"
    columns = t.column_names[:-1]
    for f in features:
        assert set(f["properties"]) <= set(columns)
    for name in columns:
        got = t.column(name).to_pylist()
        want = [f["properties"].get(name) for f in features]
        bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not same(g, w)]
        assert not bad, f"{name}: first differences (row, arrow, geojson) {bad[:3]}"
    got_geom = t.column("geometry").to_pylist()
    assert got_geom == [wkb_of(f["geometry"]) for f in features]


def test_every_layer_of_a_placement_is_its_geojson() -> None:
    for asset, kw in [
        (EXAMPLES / "point" / "plaza.agp", {"at": (47.5, 13.5, 30.0)}),
        (EXAMPLES / "block" / "city_block.agb", {"polygon": [[(13.5, 47.5), (13.5012, 47.5), (13.5012, 47.5008), (13.5, 47.5008)]]}),
    ]:
        p = agkit.place(asset, seed=3, **kw)
        want = by_layer(p.__geo_interface__)
        tables = p.layers()
        assert list(tables) == LAYERS
        for name in LAYERS:
            assert_table_is_features(tables[name], want[name])
            assert tables[name].name == name
        assert p.to_arrow("objects").num_rows == len(want["objects"])


def test_the_demo_tiles_tables_are_the_clis_geojson(cli: Path) -> None:
    out = run_cli(cli, "place", "--dsf", str(DEMO), "--scenery", str(EXAMPLES), "--format", "geojson")
    assert out.returncode == 0, out.stderr
    want = by_layer(json.loads(out.stdout))
    tp = agkit.place_dsf(DEMO, scenery=EXAMPLES)
    for name in LAYERS:
        assert_table_is_features(tp.to_arrow(name), want[name])
    assert sum(len(v) for v in want.values()) > 10


def reference_placed(tp: Any, tile: str, dsf: str) -> list[dict[str, Any]]:
    """The rows of the Dask recipe's placed table as the Python recipe made
    them before the tables came from Rust: from the GeoJSON's features."""
    names = {"source_line": "src_line", "object_height": "obj_height"}
    rows = []
    for f in tp.__geo_interface__["features"]:
        props = f["properties"]
        if props["kind"] in ("tile", "use"):
            continue
        row = {k: props.get(names.get(k, k)) for k in agkit.distributed.PLACED_COLUMNS}
        row.update(tile=tile, dsf=dsf, autogen=props.get("asset_file"), geometry=wkb_of(f["geometry"]))
        rows.append(row)
    return rows


def test_the_recipes_placed_table_is_the_geojson_of_the_tile(tmp_path: Path) -> None:
    import agkit.distributed  # noqa: F401

    scenery = agkit.scenery.Scenery(EXAMPLES)
    t = scenery.placed_table(DEMO, 7, name="dsf/demo.dsf")
    assert t.column_names == [*agkit.distributed.PLACED_COLUMNS, "geometry"]
    got = pa.table(t).to_pylist()
    want = reference_placed(scenery.place_tile(DEMO, 7), DEMO.stem, "dsf/demo.dsf")
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        assert {k: v for k, v in g.items()} == w


def test_geoparquet_from_rust_reads_back_equal(tmp_path: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    pandas = pytest.importorskip("pandas")
    tp = agkit.place_dsf(DEMO, scenery=EXAMPLES)
    for name in ("objects", "trees", "uses", "use_points"):
        table = tp.to_arrow(name)
        path = tmp_path / f"{name}.parquet"
        table.write_parquet(path)
        back = geopandas.read_parquet(path)
        mine = table.to_geopandas()
        assert back.crs == "EPSG:4326" == mine.crs
        pandas.testing.assert_frame_equal(pandas.DataFrame(back.drop(columns="geometry")), pandas.DataFrame(mine.drop(columns="geometry")))
        assert list(back.geometry.to_wkb()) == list(mine.geometry.to_wkb())
        meta = json.loads(pa.parquet.read_schema(path).metadata[b"geo"])
        assert meta["version"] == "1.0.0" and meta["primary_column"] == "geometry"
        assert meta["columns"]["geometry"]["encoding"] == "WKB"
        assert set(meta["columns"]["geometry"]["geometry_types"]) == set(back.geom_type)
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir()), "no temporary file left"


def test_empty_tables_have_the_documented_schemas() -> None:
    import agkit.distributed

    assert agkit.empty_table("census").column_names == list(agkit.distributed.CENSUS_COLUMNS)
    assert agkit.empty_table("placed").column_names == [*agkit.distributed.PLACED_COLUMNS, "geometry"]
    for name in DSF_TABLES:
        assert agkit.empty_table(f"dsf.{name}").column_names == [*agkit.dsf.SCHEMAS[name], "geometry"]
    for name in LAYERS:
        t = agkit.empty_table(name)
        assert len(t) == 0 and t.column_names[:2] == ["layer", "item_id"]
    types = {f.name: str(f.type) for f in pa.schema(agkit.empty_table("census"))}
    assert types == {
        **{k: "string" for k in ("tile", "dsf", "kind", "asset", "package", "resolved_package", "resolved_file", "resolution")},
        **{k: "int64" for k in ("use", "param", "low")},
        **{k: "double" for k in ("height", "heading", "lon", "lat")},
    }
    with pytest.raises(ValueError, match="no table"):
        agkit.empty_table("nope")
    with pytest.raises(ValueError, match="the layers are"):
        agkit.place_dsf(DEMO, scenery=EXAMPLES).to_arrow("nope")


def test_a_census_table_has_no_geometry() -> None:
    t = agkit.scenery.Scenery(EXAMPLES).census_table(DEMO)
    assert t.num_rows == 3 and t.to_pandas()["kind"].tolist() == ["agp", "agb", "ags"]
    with pytest.raises(ValueError, match="no geometry"):
        t.to_geopandas()


def assert_dsf_table_is_the_python_table(tile: Any, name: str) -> None:
    arrow = pa.table(tile.to_arrow(name))
    py = tile.tables()[name]
    assert arrow.column_names == [*py.schema, "geometry"]
    for col in py.schema:
        got, want = arrow.column(col).to_pylist(), list(py.columns[col])
        assert all(same(g, w) for g, w in zip(got, want)) and len(got) == len(want), (name, col)
    assert arrow.column("geometry").to_pylist() == [wkb_of(g) for g in py.geometry]


def test_the_demo_tiles_dsf_tables_are_the_python_tables() -> None:
    tile = agkit.dsf.read(DEMO)
    for name in [*DSF_TABLES, "vertices"]:
        assert_dsf_table_is_the_python_table(tile, name)


def test_the_vertices_table_is_the_python_table_row_for_row(tmp_path: Path) -> None:
    """A tile whose facades, polygons, lines and chains carry planes past
    lon/lat (wall types, UV, bezier control points, chain elevation and
    junctions): `Dsf.to_arrow("vertices")` is `tables().vertices`, and an
    empty table has its schema."""
    from test_dsf_tables import MIXED

    path = tmp_path / "+47+013.dsf"
    path.write_bytes(agkit.dsf.build(MIXED))
    tile = agkit.dsf.read(path)
    assert len(tile.tables().vertices) > 0
    assert_dsf_table_is_the_python_table(tile, "vertices")
    layers = set(pa.table(tile.to_arrow("vertices")).column("layer").to_pylist())
    assert len(layers) >= 2, layers
    empty = pa.table(agkit.empty_table("dsf.vertices"))
    assert empty.num_rows == 0 and empty.column_names == [*agkit.dsf.SCHEMAS["vertices"], "geometry"]
    with pytest.raises(ValueError, match="vertices"):
        tile.to_arrow("nope")


DSFS = corpus_files("dsf")


@pytest.mark.corpus
@pytest.mark.parametrize("dsf", DSFS, ids=corpus_ids(DSFS))
def test_every_real_tiles_arrow_tables_are_its_geojson_and_tables(dsf: Path) -> None:
    try:
        tile = agkit.dsf.read(dsf)
    except agkit.ParseError:
        pytest.skip("a damaged tile (test_dsf checks its error)")
    for name in [*DSF_TABLES, "vertices"]:
        assert_dsf_table_is_the_python_table(tile, name)
    tp = agkit.place_dsf(dsf)
    want = by_layer(tp.__geo_interface__)
    for name in LAYERS:
        assert_table_is_features(tp.to_arrow(name), want[name])


# --- check findings --------------------------------------------------------------

FINDINGS = ["file", "line", "column", "offset", "severity", "code", "message"]


def flawed_files(tmp_path: Path) -> list[Path]:
    """Files `agkit check` has findings in: an AGP with an unknown
    directive and a bad number (text: line and column), a DSF that is no
    tile (binary: a byte offset), a clean AGP (no row)."""
    text = (EXAMPLES / "point" / "plaza.agp").read_text()
    lines = text.splitlines()
    lines.insert(4, "NOT_A_DIRECTIVE 1 2 3")
    lines.insert(6, "CROP_POLY x y")
    bad = tmp_path / "point" / "bad.agp"
    bad.parent.mkdir()
    bad.write_text("\n".join(lines) + "\n")
    dsf = tmp_path / "broken.dsf"
    dsf.write_bytes(b"XPLNEDSF\x01\x00\x00\x00 not a tile")
    return [bad, dsf, EXAMPLES / "point" / "plaza.agp"]


def test_check_table_is_the_clis_check_json_row_for_row(cli: Path, tmp_path: Path) -> None:
    files = flawed_files(tmp_path)
    seen = 0
    for f in files:
        table = agkit.check_table(str(f))
        assert table.name == "findings" and table.column_names == FINDINGS
        out = run_cli(cli, "check", "--format", "json", str(f))
        want = json.loads(out.stdout)
        got = pa.table(table).to_pylist()
        assert got == [{k: w.get(k) for k in FINDINGS} for w in want], f
        # The same as agkit.check's records.
        assert got == [d.to_dict() for d in agkit.check(str(f))]
        seen += len(got)
    assert seen >= 3


def test_check_table_types_and_empty() -> None:
    t = pa.table(agkit.check_table(EXAMPLES / "point" / "plaza.agp"))
    assert t.num_rows == 0
    assert [str(t.schema.field(c).type) for c in FINDINGS] == [
        "string", "int64", "int64", "int64", "string", "string", "string"
    ]
    df = agkit.check_table("A\n1000\nAG_POINT\nNOPE\n").to_pandas()
    assert list(df.columns) == FINDINGS and (df["file"] == "<text>").all() and len(df) > 0


# --- one Parquet file from many tables -----------------------------------------------


def test_parquet_writer_appends_tables_and_parts_in_order(tmp_path: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    scenery = agkit.scenery.Scenery(EXAMPLES, [])
    a = scenery.placed_table(DEMO, 1, name="a")
    b = scenery.placed_table(DEMO, 2, name="b")
    part = tmp_path / "b.parquet"
    b.write_parquet(part)
    out = tmp_path / "all.parquet"
    with agkit.ParquetWriter(out, "placed", {"note": "x"}) as w:
        # A first table of no rows (its `geo` entry lists no type) does not
        # decide the file's geometry types.
        w.write(agkit.empty_table("placed"))
        w.write(a)
        w.append_file(part)
        assert w.rows == len(a) + len(b)
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.parquet", "b.parquet"]
    import pyarrow.parquet as pq

    got = pq.read_table(out)
    want = pa.concat_tables([pa.table(a), pa.table(b)])
    assert got.column_names == want.column_names
    for name in want.column_names:
        assert got.column(name).to_pylist() == want.column(name).to_pylist(), name
    meta = pq.read_schema(out).metadata
    assert meta[b"note"] == b"x"
    geo = json.loads(meta[b"geo"])
    # The geometry types of every row written, not of the first table's.
    geoms = shapely.from_wkb(want.column("geometry").to_numpy(zero_copy_only=False))
    types = {g.geom_type for g in geoms if g is not None}
    assert len(types) >= 2 and set(geo["columns"]["geometry"]["geometry_types"]) == types
    gdf = geopandas.read_parquet(out)
    assert gdf.crs == "EPSG:4326" and len(gdf) == len(want)


def test_parquet_writer_copies_parts_as_stored_from_agkit_and_from_pyarrow(tmp_path: Path) -> None:
    # A part's row groups are copied as they are, after the rows written
    # before it (its own groups stay groups of the file); a part pyarrow
    # wrote from the same table is taken as well (its geometry as large
    # binary: the same Parquet column, seen for the `geo` entry), and a
    # part of other columns is refused, naming it, with the file going on.
    import pyarrow.parquet as pq

    scenery = agkit.scenery.Scenery(EXAMPLES, [])
    a = scenery.placed_table(DEMO, 1, name="a")
    b = scenery.placed_table(DEMO, 2, name="b")
    ours = tmp_path / "ours.parquet"
    with agkit.ParquetWriter(ours, "placed") as w:
        w.write(b)
        w.write(a)
    theirs = tmp_path / "theirs.parquet"
    tb = pa.table(b)
    k = tb.schema.get_field_index("geometry")
    tb = tb.set_column(k, pa.field("geometry", pa.large_binary()), tb.column(k).cast(pa.large_binary()))
    pq.write_table(tb, theirs, row_group_size=7)
    other = tmp_path / "census.parquet"
    scenery.census_table(DEMO).write_parquet(other)
    out = tmp_path / "all.parquet"
    with agkit.ParquetWriter(out, "placed") as w:
        w.write(a)
        w.append_file(ours)
        with pytest.raises(ValueError, match="census.parquet"):
            w.append_file(other)
        w.append_file(theirs)
        w.write(a)
    groups = [pq.ParquetFile(out).metadata.row_group(k).num_rows for k in range(pq.ParquetFile(out).metadata.num_row_groups)]
    assert groups == [len(a), len(b) + len(a)] + [min(7, len(b) - k) for k in range(0, len(b), 7)] + [len(a)]
    want = pa.concat_tables([pa.table(t) for t in (a, b, a, b, a)])
    got = pq.read_table(out)
    for name in want.column_names:
        assert got.column(name).to_pylist() == want.column(name).to_pylist(), name
    # The `geo` entry is the one of the rows written at once.
    once = tmp_path / "once.parquet"
    with agkit.ParquetWriter(once, "placed") as w:
        for t in (a, b, a, b, a):
            w.write(t)
    geo = json.loads(pq.read_schema(out).metadata[b"geo"])
    assert geo == json.loads(pq.read_schema(once).metadata[b"geo"])
    # ... and it counts the large-binary part's rows: `b` alone has a type
    # or a corner `a` has not.
    only_a = tmp_path / "a.parquet"
    a.write_parquet(only_a)
    with agkit.ParquetWriter(tmp_path / "ab.parquet", "placed") as w:
        w.append_file(only_a)
        w.append_file(theirs)
    with agkit.ParquetWriter(tmp_path / "ab2.parquet", "placed") as w:
        w.write(a)
        w.write(b)
    ab = json.loads(pq.read_schema(tmp_path / "ab.parquet").metadata[b"geo"])
    assert ab == json.loads(pq.read_schema(tmp_path / "ab2.parquet").metadata[b"geo"])
    assert ab != json.loads(pq.read_schema(only_a).metadata[b"geo"])


def test_parquet_writer_refuses_other_columns_and_leaves_nothing_when_aborted(tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    census = agkit.scenery.Scenery(EXAMPLES, []).census_table(DEMO)
    with pytest.raises(ValueError, match="other columns"):
        with agkit.ParquetWriter(out, "placed") as w:
            w.write(census)
    assert list(tmp_path.iterdir()) == []
    w = agkit.ParquetWriter(out, "census")
    w.write(census)
    w.abort()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="closed"):
        w.write(census)
    with pytest.raises(ValueError, match="is no table"):
        agkit.ParquetWriter(out, "nope")
    # No table written: the schema's empty file.
    assert agkit.ParquetWriter(out, "census").close() == 0
    import pyarrow.parquet as pq

    assert pq.read_table(out).column_names == census.column_names
