"""agkit.dsf: read, to_text, build, autogen and the Dsf class on the bundled
demo tile and every DSF of the real corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import agkit

from conftest import CORPUS, DAMAGED_DSF, EXAMPLES, REPO, corpus_files, corpus_ids, run_cli

DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
CORPUS_DSF = corpus_files("dsf")
READABLE = [p for p in CORPUS_DSF if p != DAMAGED_DSF]
DSFTOOL_TEXT = CORPUS / "X-Plane__xptools/test/dsftool_elevations/+47+012.txt"


def plain(d: object) -> object:
    return json.loads(json.dumps(d))


@pytest.mark.corpus
@pytest.mark.parametrize("path", READABLE, ids=corpus_ids(READABLE))
def test_corpus_tiles_read_and_their_views_agree(path: Path) -> None:
    t = agkit.dsf.read(path)
    assert t.name == str(path)
    assert t.md5 == "valid" and not t.compressed
    for k in ("sim/west", "sim/east", "sim/south", "sim/north"):
        assert t.property(k) is not None
    west, south = float(t.property("sim/west")), float(t.property("sim/south"))
    counts = t.counts
    objects = list(t.objects())
    polygons = list(t.polygons())
    assert len(objects) == counts["objects"]
    assert len(polygons) == counts["polygons"]
    assert len(list(t.patches())) == counts["patches"]
    assert len(list(t.chains())) == counts["chains"]
    assert len(t.pools) == counts["pools"] + counts["pools32"]
    for o in objects:
        assert o["asset"] == t.object_defs[o["def"]]
        assert west <= o["lon"] <= west + 1 and south <= o["lat"] <= south + 1
        assert o["mode"] in ("draped", "msl", "agl")
    for p in polygons:
        assert p["asset"] == t.polygon_defs[p["def"]]
        assert all(len(pt) == p["depth"] for ring in p["windings"] for pt in ring)


REBUILD = """
import json, sys, agkit
t = agkit.dsf.read(sys.argv[1])
again = agkit.dsf.read(agkit.dsf.build(t.to_text()))
print(json.dumps([t.counts, again.counts, list(t.objects()), list(again.objects())]))
"""


@pytest.mark.corpus
@pytest.mark.parametrize("path", READABLE, ids=corpus_ids(READABLE))
def test_corpus_tiles_rebuild_from_their_text(path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", REBUILD, str(path)],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    counts, again, objects, again_objects = json.loads(out.stdout)
    # The same entities; pools are rebuilt.
    for k in ("objects", "polygons", "patches", "chains", "rasters"):
        assert again[k] == counts[k]
    # Built from text, the objects come back grouped by definition and pool
    # cell: per definition and mode, the sorted longitudes and latitudes
    # match within 1e-6° (quantising keeps order).
    def by_kind(objs: list[dict]) -> dict:
        kinds: dict = {}
        for o in objs:
            lons, lats = kinds.setdefault((o["def"], o["mode"]), ([], []))
            lons.append(o["lon"])
            lats.append(o["lat"])
        return {k: (sorted(lons), sorted(lats)) for k, (lons, lats) in kinds.items()}

    want, got = by_kind(objects), by_kind(again_objects)
    assert want.keys() == got.keys()
    for k, (lons, lats) in want.items():
        assert all(abs(a - b) < 1e-6 for a, b in zip(lons, got[k][0])), k
        assert all(abs(a - b) < 1e-6 for a, b in zip(lats, got[k][1])), k


@pytest.mark.parametrize("path", READABLE + [DEMO], ids=corpus_ids(READABLE) + ["demo"])
def test_to_text_and_autogen_match_the_cli(cli: Path, path: Path) -> None:
    out = run_cli(cli, "dsf", "totext", str(path))
    assert out.returncode == 0, out.stderr
    assert agkit.dsf.to_text(path) == out.stdout
    uses = json.loads(run_cli(cli, "dsf", "autogen", "--format", "json", str(path)).stdout)
    features = agkit.dsf.autogen(path)["features"]
    assert len(features) == len(uses)
    for f, u in zip(features, uses):
        props = f["properties"]
        for k in ("kind", "asset", "def", "heading", "param", "height", "low"):
            assert props[k] == u[k]
        if u["point"] is not None:
            assert f["geometry"] == {"type": "Point", "coordinates": u["point"]}
        else:
            rings = plain(f["geometry"]["coordinates"])
            assert [r[:-1] if r[0] == r[-1] else r for r in rings] == u["windings"]


@pytest.mark.corpus
def test_the_damaged_corpus_tile_is_reported_at_its_byte() -> None:
    # MANIFEST: an atom length runs past the end of the file at byte 312.
    for call in (agkit.dsf.read, agkit.dsf.to_text, agkit.dsf.autogen):
        with pytest.raises(agkit.ParseError) as e:
            call(DAMAGED_DSF)
        err = e.value
        assert (err.file, err.offset, err.code) == (str(DAMAGED_DSF), 312, "DSF004")
        assert err.line is None and "@ byte 312" in str(err)
    [d] = agkit.check(DAMAGED_DSF)
    assert (d.offset, d.code, d.severity) == (312, "DSF004", "error")


def test_demo_tile_autogen_is_geojson() -> None:
    fc = agkit.dsf.autogen(DEMO)
    assert fc["type"] == "FeatureCollection"
    kinds = [f["properties"]["kind"] for f in fc["features"]]
    assert kinds == ["agp", "agb", "ags"]
    point, block, string = fc["features"]
    assert point["geometry"]["type"] == "Point" and point["properties"]["heading"] == pytest.approx(30, abs=0.01)
    assert block["properties"]["param"] == 768 and block["properties"]["height"] == 12.0
    assert string["properties"]["low"] == 1
    assert len(string["geometry"]["coordinates"]) == 2  # outline and lake
    for ring in string["geometry"]["coordinates"]:
        assert ring[0] == ring[-1]
    t = agkit.dsf.read(DEMO)
    assert t.autogen() == fc == agkit.dsf.autogen(t) == agkit.dsf.autogen(DEMO.read_bytes())


def test_geopandas_one_liner() -> None:
    gpd = pytest.importorskip("geopandas")
    gdf = gpd.GeoDataFrame.from_features(agkit.dsf.autogen(DEMO), crs="EPSG:4326")
    assert list(gdf["kind"]) == ["agp", "agb", "ags"]
    assert list(gdf.geom_type) == ["Point", "Polygon", "Polygon"]
    assert len(gdf.geometry[2].interiors) == 1


def test_sources_and_dsf_objects_are_interchangeable() -> None:
    data = DEMO.read_bytes()
    by_path = agkit.dsf.to_text(DEMO)
    t = agkit.dsf.read(data)
    assert t.name == "<bytes>"
    assert agkit.dsf.read(bytearray(data)).counts == t.counts
    assert agkit.dsf.read(str(DEMO)).counts == t.counts
    # The header names the source; the rest is the same.
    strip = lambda s: [ln for ln in s.splitlines() if not ln.startswith("# file:")]  # noqa: E731
    assert strip(agkit.dsf.to_text(t)) == strip(by_path) == strip(t.to_text(source_name="x"))
    assert "# file: x" in t.to_text(source_name="x")
    assert agkit.dsf.build(t) == t.build()


def test_build_from_text_path_and_bytes(tmp_path: Path, cli: Path) -> None:
    text_file = EXAMPLES / "dsf" / "autogen_demo.txt"
    out = tmp_path / "sub.dsf"
    built = agkit.dsf.build(text_file, out)
    assert out.read_bytes() == built
    assert agkit.dsf.build(text_file.read_text()) == built
    assert agkit.dsf.build(text_file.read_bytes()) == built
    # The same bytes as `agkit dsf build` writes.
    by_cli = tmp_path / "cli" / "x.dsf"
    by_cli.parent.mkdir()
    run_cli(cli, "dsf", "build", str(text_file), "-o", str(by_cli))
    assert by_cli.read_bytes() == built
    by_cli.unlink()
    by_cli.parent.rmdir()
    t = agkit.dsf.read(built)
    assert t.md5 == "valid"
    assert t.counts == agkit.dsf.read(DEMO).counts
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind


@pytest.mark.corpus
def test_build_of_dsftools_own_text() -> None:
    tile = agkit.dsf.read(agkit.dsf.build(DSFTOOL_TEXT))
    assert tile.counts["objects"] == 3
    assert [o["mode"] for o in tile.objects()] == ["msl"] * 3
    assert [o["elevation"] for o in tile.objects()] == pytest.approx([432.0, 431.494163424, 430.994277867], abs=0.01)


def test_build_errors_name_the_line_or_the_entity(tmp_path: Path) -> None:
    head = "I\n800\nDSF2TEXT\nPROPERTY sim/west 13\nPROPERTY sim/east 14\nPROPERTY sim/south 47\nPROPERTY sim/north 48\n"
    with pytest.raises(agkit.ParseError) as e:
        agkit.dsf.build(head + "OBJECT_DEF a.obj\nOBJECT 3 13.5 47.5 0\n")
    assert (e.value.code, e.value.line, e.value.file) == ("DSF030", 9, "<text>")
    windings = "BEGIN_WINDING\nPOLYGON_POINT 13.5 47.5\nEND_WINDING\n" * 256
    with pytest.raises(agkit.BuildError) as e:
        agkit.dsf.build(head + "POLYGON_DEF a.fac\nBEGIN_POLYGON 0 0 2\n" + windings + "END_POLYGON\n")
    assert e.value.code == "DSF031" and "255 windings" in str(e.value)
    # At the line where the refused polygon begins, as the CLI reports it.
    assert (e.value.line, e.value.file) == (9, "<text>")
    raster = "RASTER_DATA version=1 bpp=2 flags=1 width=2 height=2 scale=1 offset=0 missing.raw\n"
    with pytest.raises(agkit.ParseError) as e:
        agkit.dsf.build(head + "RASTER_DEF elevation\n" + raster)
    assert e.value.line == 9 and "missing.raw" in str(e.value)
    with pytest.raises(FileNotFoundError):
        agkit.dsf.build(tmp_path / "missing.txt")
    # An output that cannot be written leaves nothing half-written.
    with pytest.raises(OSError):
        agkit.dsf.build(DEMO.with_suffix(".txt"), tmp_path / "no" / "dir" / "x.dsf")


def test_arrays_of_points() -> None:
    np = pytest.importorskip("numpy")
    t = agkit.dsf.read(DEMO)
    objects = list(t.objects())
    arr = t.object_array()
    assert arr.shape == (len(objects), 4) and arr.dtype == np.float64
    assert arr.tolist() == [[o["def"], o["lon"], o["lat"], o["heading"]] for o in objects]
    pools = t.pools
    for p in pools:
        pts = t.pool_points(p["index"], wide=p["wide"])
        assert pts.shape == (p["count"], p["depth"])
        assert np.isfinite(pts).all()
    # Every polygon vertex is a point of some pool.
    ring = next(t.polygons())["windings"][0]
    pool_rows = {tuple(r) for p in pools for r in t.pool_points(p["index"]).tolist()}
    assert all(tuple(v) in pool_rows for v in ring)
    with pytest.raises(IndexError):
        t.pool_points(len(pools))
    with pytest.raises(IndexError):
        t.pool_points(0, wide=True)


@pytest.mark.corpus
def test_rasters_and_patches_of_the_corpus_tiles() -> None:
    for path in READABLE:
        t = agkit.dsf.read(path)
        for r in t.rasters:
            assert len(r["data"]) == r["width"] * r["height"] * r["bpp"]
            assert r["name"] in t.raster_defs
        for p in t.patches():
            assert p["terrain"] == t.terrain_defs[p["def"]]
            for prim in p["primitives"]:
                assert prim["kind"] in ("triangles", "strip", "fan")
                assert all(len(v) == p["depth"] for v in prim["vertices"])


def test_definitions_of_the_demo_tile() -> None:
    demo = agkit.dsf.read(DEMO)
    assert demo.object_defs == ["point/plaza.agp"]
    assert demo.polygon_defs == ["block/city_block.agb", "string/town_edge.ags"]
    assert demo.terrain_defs == [] and demo.network_defs == [] and demo.raster_defs == []
    assert ("sim/overlay", "1") in demo.properties


def test_not_a_dsf() -> None:
    for data in (b"", b"XPLNEDSF", b"hello world\n", b"7z\xbc\xaf\x27\x1c" + b"\0" * 40):
        with pytest.raises(agkit.ParseError) as e:
            agkit.dsf.read(data)
        assert e.value.code is not None and e.value.code.startswith("DSF")
        assert isinstance(e.value.offset, int)


def test_build_refuses_a_file_of_another_kind() -> None:
    # Read as text, these hold no DSF2Text command and once built an empty
    # tile without a word.
    png = REPO / "docs" / "img" / "demo.png"
    for source, what in ((DEMO, "a DSF tile"), (png.read_bytes(), "a PNG image"), (EXAMPLES / "point" / "plaza.agp", "an autogen text file")):
        with pytest.raises(agkit.ParseError) as e:
            agkit.dsf.build(source)
        assert f"not DSF2Text: it is {what}" in str(e.value)
        assert e.value.file is not None
