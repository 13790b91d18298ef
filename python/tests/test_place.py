"""agkit.place and agkit.Placement: the three engines on the bundled
examples, the forms a polygon may take, the outputs, and bad arguments."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import EXAMPLES, run_cli

DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
PLAZA = EXAMPLES / "point" / "plaza.agp"
BLOCK = EXAMPLES / "block" / "city_block.agb"
STRING = EXAMPLES / "string" / "town_edge.ags"


def demo_uses() -> list[dict[str, Any]]:
    return agkit.dsf.autogen(DEMO)["features"]


def place_use(feature: dict[str, Any], **kw: Any) -> agkit.Placement:
    """Places one autogen use of the demo tile as `agkit place --dsf` does."""
    props, geom = feature["properties"], feature["geometry"]
    asset = EXAMPLES / props["asset"]
    if props["kind"] == "agp":
        lon, lat = geom["coordinates"]
        return agkit.place(asset, at=(lat, lon, props["heading"]), **kw)
    return agkit.place(asset, polygon=geom, param=props["param"], **kw)


def plain(d: Any) -> Any:
    """`d` as JSON gives it back (pairs are tuples in agkit's dicts)."""
    return json.loads(json.dumps(d))


def without_asset(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in plain(d).items() if k != "asset"}


def test_the_demo_tile_places_as_the_cli_does(cli: Path) -> None:
    out = run_cli(cli, "place", "--dsf", str(DEMO), "--scenery", str(EXAMPLES), "--format", "json")
    assert out.returncode == 0, out.stderr
    theirs = json.loads(out.stdout)
    # Use i of a tile is placed with the seed `seed XOR i` (0 XOR i here).
    mine = [place_use(f, seed=i).to_dict() for i, f in enumerate(demo_uses())]
    assert [p["kind"] for p in mine] == ["agp", "agb", "ags"]
    assert [without_asset(p) for p in mine] == [without_asset(p) for p in theirs]


def test_each_engine_places_something() -> None:
    for f in demo_uses():
        p = place_use(f)
        assert p.kind == f["properties"]["kind"]
        assert len(p.tiles) >= 1 and len(p.objects) >= 1
        assert p.seed == 0
        for o in p.objects:
            assert math.isfinite(o["lon"]) and math.isfinite(o["lat"])
            assert 0 <= o["heading"] < 360


def test_agp_position_and_heading() -> None:
    a = agkit.read_asset(PLAZA)
    p = agkit.place(a, at=(47.5, 13.0, 30.0))
    assert p.origin == (13.0, 47.5)
    assert p.polygon == []
    # Two-value `at` is heading 0.
    assert agkit.place(a, at=(47.5, 13.0)).to_dict() == agkit.place(a, at=(47.5, 13.0, 0)).to_dict()
    # Turning the use by 90 degrees turns every object's heading by 90.
    q = agkit.place(a, at=(47.5, 13.0, 120.0))
    for o, r in zip(p.objects, q.objects):
        assert (r["heading"] - o["heading"]) % 360 == pytest.approx(90)
        assert math.hypot(o["x"], o["y"]) == pytest.approx(math.hypot(r["x"], r["y"]))
    # The same use elsewhere has the same local layout.
    far = agkit.place(a, at=(-33.9, 151.2, 30.0))
    for o, r in zip(p.objects, far.objects):
        assert (r["x"], r["y"]) == (pytest.approx(o["x"]), pytest.approx(o["y"]))


def test_same_seed_same_result_and_seeds_matter() -> None:
    ags = agkit.read_asset(STRING)
    geom = demo_uses()[2]["geometry"]
    runs = [agkit.place(ags, polygon=geom, param=769, seed=s).to_dict() for s in range(4)]
    assert agkit.place(ags, polygon=geom, param=769, seed=2).to_dict() == runs[2]
    assert len({json.dumps(r) for r in runs}) > 1


def test_polygon_forms_give_one_placement() -> None:
    ags = agkit.read_asset(STRING)
    feature = demo_uses()[2]
    geom = feature["geometry"]
    want = agkit.place(ags, polygon=geom, param=769).to_dict()
    rings = geom["coordinates"]
    forms: list[Any] = [
        feature,
        {"type": "FeatureCollection", "features": [feature]},
        {"type": "MultiPolygon", "coordinates": [rings]},
        rings,
        [ring[:-1] for ring in rings],  # not closed
        [[tuple(p) for p in ring] for ring in rings],
    ]
    for form in forms:
        assert agkit.place(ags, polygon=form, param=769).to_dict() == want


def test_a_geojson_path_is_a_polygon_as_the_cli_reads_it(cli: Path, tmp_path: Path) -> None:
    rect = EXAMPLES / "polygons" / "rectangle.geojson"
    want = agkit.place(BLOCK, polygon=json.loads(rect.read_text()), height=12).to_dict()
    for form in (rect, str(rect)):
        assert agkit.place(BLOCK, polygon=form, height=12).to_dict() == want
    out = run_cli(cli, "place", str(BLOCK), "--polygon", str(rect), "--height", "12", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert without_asset(want) == without_asset(json.loads(out.stdout))
    with pytest.raises(FileNotFoundError) as e:
        agkit.place(BLOCK, polygon=tmp_path / "nope.geojson", height=12)
    assert e.value.filename == str(tmp_path / "nope.geojson")
    bad = tmp_path / "bad.geojson"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="bad.geojson"):
        agkit.place(BLOCK, polygon=bad, height=12)


def test_shapely_polygons_are_taken_through_the_geo_interface() -> None:
    shapely = pytest.importorskip("shapely.geometry")
    ags = agkit.read_asset(STRING)
    geom = demo_uses()[2]["geometry"]
    poly = shapely.shape(geom)
    assert agkit.place(ags, polygon=poly, param=769).to_dict() == agkit.place(
        ags, polygon=geom, param=769
    ).to_dict()


def test_param_is_height_and_low_byte() -> None:
    ags = agkit.read_asset(STRING)
    geom = demo_uses()[2]["geometry"]
    by_param = agkit.place(ags, polygon=geom, param=(3 << 8) | 1).to_dict()
    assert agkit.place(ags, polygon=geom, height=12.0, spawning=1).to_dict() == by_param
    agb = agkit.read_asset(BLOCK)
    bgeom = demo_uses()[1]["geometry"]
    assert (
        agkit.place(agb, polygon=bgeom, param=768).to_dict()
        == agkit.place(agb, polygon=bgeom, height=12.0, spelling_set=0).to_dict()
    )


def test_density_only_removes_objects() -> None:
    for f in demo_uses():
        full = place_use(f, density=6)
        for d in range(1, 6):
            fewer = place_use(f, density=d)
            assert len(fewer.objects) <= len(full.objects)
            assert len(fewer.tiles) == len(full.tiles)


def test_frame_and_explain() -> None:
    a = agkit.read_asset(PLAZA)
    spec = agkit.place(a, at=(47.5, 13.0), frame="spec")
    wed = agkit.place(a, at=(47.5, 13.0), frame="wed")
    assert spec.tiles[0]["lonlat"] != wed.tiles[0]["lonlat"]
    # The default is one of the two: the one `agkit place` uses.
    assert agkit.place(a, at=(47.5, 13.0)).to_dict() in (spec.to_dict(), wed.to_dict())
    assert spec.explain == []
    assert agkit.place(a, at=(47.5, 13.0), explain=True).explain


def test_records_geojson_and_arrays_agree() -> None:
    p = place_use(demo_uses()[2])
    n = len(p.tiles) + len(p.objects) + len(p.facades) + len(p.trees)
    records = p.to_records()
    assert len(records) == n
    assert {r["kind"] for r in records} == {"tile", "object", "facade", "tree"}
    assert [r for r in records if r["kind"] == "object"] == [
        {**o, "kind": "object"} for o in p.objects
    ]
    fc = p.__geo_interface__
    assert fc == p.to_geojson()
    # One feature per item, and one for the use.
    assert fc["type"] == "FeatureCollection" and len(fc["features"]) == n + 1
    objects = [f for f in fc["features"] if f["properties"]["kind"] == "object"]
    # An object is its footprint (a Polygon, its position kept as lon/lat)
    # where its OBJ was read, else its point.
    def position(f: dict) -> tuple:
        g = f["geometry"]
        return tuple(g["coordinates"]) if g["type"] == "Point" else (f["properties"]["lon"], f["properties"]["lat"])

    # GeoJSON positions have 7 decimals.
    assert len(objects) == len(p.objects)
    for f, o in zip(objects, p.objects):
        assert position(f) == pytest.approx((o["lon"], o["lat"]), abs=1e-7)
    assert {f["geometry"]["type"] for f in objects} == {"Polygon"}
    np = pytest.importorskip("numpy")
    arr = p.array()
    assert arr.shape == (len(p.objects), 3) and arr.dtype == np.float64
    assert arr.tolist() == [[o["lon"], o["lat"], o["heading"]] for o in p.objects]
    local = p.array("trees", local=True)
    assert local.tolist() == [[t["x"], t["y"], t["heading"]] for t in p.trees]
    with pytest.raises(ValueError):
        p.array("facades")


def test_geopandas_reads_a_placement() -> None:
    gpd = pytest.importorskip("geopandas")
    p = place_use(demo_uses()[1])
    gdf = gpd.GeoDataFrame.from_features(p, crs="EPSG:4326")
    # One feature per item, and one for the use itself (layer "uses").
    assert len(gdf) == len(p.tiles) + len(p.objects) + len(p.facades) + len(p.trees) + 1
    assert set(gdf.geom_type) == {"Polygon", "Point"}


def test_render_every_format() -> None:
    p = place_use(demo_uses()[0])
    assert json.loads(p.render("json")) == plain(p.to_dict())
    assert json.loads(p.render("geojson")) == plain(p.to_geojson())
    text = p.render("dsf-text").decode()
    assert text.splitlines()[2] == "DSF2TEXT"
    tile = agkit.dsf.read(agkit.dsf.build(text))
    assert tile.counts["objects"] == len(p.objects)
    assert b"<svg" in p.render("svg")[:200]
    assert p.render("png").startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(ValueError):
        p.render("gif")  # type: ignore[arg-type]


def test_to_gltf_is_the_glb_the_cli_writes(cli: Path, tmp_path: Path) -> None:
    import struct

    p = agkit.place(EXAMPLES / "point" / "plaza.agp", at=(47.0, 13.0, 20.0))
    glb = p.to_gltf()
    magic, version, length, json_len, kind = struct.unpack_from("<4sIII4s", glb)
    assert (magic, version, length, kind) == (b"glTF", 2, len(glb), b"JSON")
    doc = json.loads(glb[20 : 20 + json_len])
    assert doc["asset"]["version"] == "2.0"
    origin = doc["scenes"][0]["extras"]["origin"]
    assert (origin["lon"], origin["lat"]) == p.origin
    out = tmp_path / "plaza.glb"
    r = run_cli(cli, "place", str(EXAMPLES / "point" / "plaza.agp"), "--at", "47.0,13.0,20", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == glb


def test_render_styles() -> None:
    # The plaza's tiles are drawn with their texture; the schematic
    # picture has symbols only.
    p = place_use(demo_uses()[0])
    textured = p.render("svg").decode()
    assert "<image" in textured and 'id="ground"' in textured
    assert p.render("svg", style="textured").decode() == textured
    schematic = p.render("svg", style="schematic").decode()
    assert "<image" not in schematic and 'id="tiles"' in schematic
    assert p.render("png", style="schematic").startswith(b"\x89PNG")
    with pytest.raises(ValueError):
        p.render("svg", style="photo")  # type: ignore[arg-type]


def test_a_use_of_the_wrong_kind_is_a_place_error() -> None:
    ring = [(13.0, 47.0), (13.001, 47.0), (13.001, 47.001), (13.0, 47.001)]
    with pytest.raises(agkit.PlaceError) as e:
        agkit.place(PLAZA, polygon=[ring])
    assert isinstance(e.value, ValueError) and isinstance(e.value, agkit.Error)
    assert e.value.file == str(PLAZA)
    with pytest.raises(agkit.PlaceError):
        agkit.place(STRING, at=(47.0, 13.0))


NAN = float("nan")
RING = [(13.0, 47.0), (13.001, 47.0), (13.001, 47.001), (13.0, 47.001)]


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"at": (47.0, 13.0), "polygon": [RING]},
        {"at": (91.0, 13.0)},
        {"at": (-91.0, 13.0)},
        {"at": (47.0, 181.0)},
        {"at": (NAN, 13.0)},
        {"at": (47.0, 13.0, NAN)},
        {"at": (47.0, 13.0, float("inf"))},
        {"at": (47.0,)},
        {"at": (1, 2, 3, 4)},
        {"at": "47,13"},
        {"at": (47.0, 13.0), "density": 0},
        {"at": (47.0, 13.0), "density": 7},
        {"at": (47.0, 13.0), "frame": "north"},
        {"at": (47.0, 13.0), "height": -1.0},
        {"at": (47.0, 13.0), "height": NAN},
        {"at": (47.0, 13.0), "height": 1021.0},
        {"at": (47.0, 13.0), "param": 768, "height": 12.0},
        {"at": (47.0, 13.0), "param": 768, "spawning": 1},
        {"polygon": []},
        {"polygon": [[]]},
        {"polygon": [[(13.0, NAN), (13.1, 47.0), (13.1, 47.1)]]},
        {"polygon": [[(13.0, 95.0), (13.1, 47.0), (13.1, 47.1)]]},
        {"polygon": [[(1e300, 47.0), (13.1, 47.0), (13.1, 47.1)]]},
        {"polygon": {"type": "Point", "coordinates": [13.0, 47.0]}},
        {"polygon": {"type": "Polygon"}},
        {"polygon": {"type": "MultiPolygon", "coordinates": [[RING], [RING]]}},
        {"polygon": 42},  # (a str is a .geojson path: test_a_geojson_path_...)
    ],
)
def test_bad_arguments_are_value_errors(kw: dict[str, Any]) -> None:
    asset = STRING if "polygon" in kw else PLAZA
    with pytest.raises(ValueError):
        agkit.place(asset, **kw)


def test_out_of_range_integers_are_refused() -> None:
    with pytest.raises(OverflowError):
        agkit.place(PLAZA, at=(47.0, 13.0), seed=-1)
    with pytest.raises(OverflowError):
        agkit.place(PLAZA, at=(47.0, 13.0), seed=1 << 64)
    with pytest.raises(OverflowError):
        agkit.place(STRING, polygon=[RING], param=1 << 16)
    agkit.place(PLAZA, at=(47.0, 13.0), seed=(1 << 64) - 1)


def test_extreme_but_valid_positions_place_finite_results() -> None:
    a = agkit.read_asset(PLAZA)
    for at in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0, -720.0), (89.9999, 179.9999, 1e6)]:
        p = agkit.place(a, at=at)
        assert all(math.isfinite(v) for o in p.objects for v in (o["x"], o["y"], o["heading"]))


def test_a_gis_polygon_in_either_orientation_places_with_notes() -> None:
    """A GeoJSON outer ring wound clockwise (and hole counter-clockwise) is
    taken reversed, as `agkit place --polygon` takes it: the same tiles,
    with a note per ring reversed in `notes`, the JSON and `explain`."""
    lake = json.loads((EXAMPLES / "polygons" / "lake.geojson").read_text())
    geometry = lake["features"][0]["geometry"]
    plain = agkit.place(STRING, polygon=geometry, height=10)
    assert plain.notes == []
    assert "notes" not in plain.to_dict()
    reversed_rings = {
        "type": "Polygon",
        "coordinates": [list(reversed(r)) for r in geometry["coordinates"]],
    }
    p = agkit.place(STRING, polygon=reversed_rings, height=10, explain=True)
    assert len(p.tiles) == len(plain.tiles)
    assert len(p.objects) == len(plain.objects)
    assert len(p.notes) == 2
    assert p.notes[0].startswith("the outer ring runs clockwise")
    assert "were its numbers lat,lon it would lie at lat 13, lon 47.5" in p.notes[0]
    assert p.notes[1].startswith("hole 1 runs counter-clockwise")
    assert p.to_dict()["notes"] == p.notes
    assert p.explain[:2] == p.notes


def test_warning_details_hold_each_warnings_message_and_codes(tmp_path: Path) -> None:
    # The plaza alone: the art it names is not beside it.
    agp = tmp_path / "plaza.agp"
    agp.write_bytes(PLAZA.read_bytes())
    p = agkit.place(agp, at=(47.0, 13.0, 0.0))
    details = p.warning_details
    assert len(details) == len(p.warnings) > 0
    assert any(d["codes"] == ["AG0085"] for d in details), details
    for text, d in zip(p.warnings, details):
        assert set(d) == {"message", "codes"}
        codes = f" [{', '.join(d['codes'])}]" if d["codes"] else ""
        assert text == d["message"] + codes
    # Beside its art, nothing is missing.
    assert not any("AG0085" in d["codes"] for d in agkit.place(PLAZA, at=(47.0, 13.0, 0.0)).warning_details)
