"""agkit.scenery.Installation and agkit.place_dsf held to the command line:
`Installation.at` answers as `agkit scenery at --format json`, `check` and
`resolve` as `agkit scenery check/resolve --format json`, and `place_dsf` /
`Installation.place_tile` place as `agkit place --dsf --format json`, on
the fixture installation (tests/fixtures/xplane), on a copy of it with the
demo tile as an autogen package, and on the demo tile with
`scenery=examples`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import EXAMPLES, FIXTURES, run_cli

XPLANE = FIXTURES / "xplane"
DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
TOWN_DSF = XPLANE / "Custom Scenery" / "Town" / "Earth nav data" / "+40+010" / "+47+013.dsf"


def plain(d: Any) -> Any:
    """`d` as JSON gives it back (pairs are tuples in agkit's dicts)."""
    return json.loads(json.dumps(d))


def cli_json(cli: Path, *args: str, status: int = 0) -> Any:
    out = run_cli(cli, *args)
    assert out.returncode == status, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def autogen_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture installation with one more package, `Demo`: the bundled
    autogen examples and the demo tile in its `Earth nav data`, ranked
    first."""
    root = tmp_path_factory.mktemp("xp") / "X-Plane"
    shutil.copytree(XPLANE, root)
    demo = root / "Custom Scenery" / "Demo"
    for sub in ("point", "block", "string"):
        shutil.copytree(EXAMPLES / sub, demo / sub)
    tile = demo / "Earth nav data" / "+40+010" / "+47+013.dsf"
    tile.parent.mkdir(parents=True)
    shutil.copy(DEMO, tile)
    ini = root / "Custom Scenery" / "scenery_packs.ini"
    text = ini.read_text().replace("SCENERY\n\n", "SCENERY\n\nSCENERY_PACK Custom Scenery/Demo/\n", 1)
    ini.write_text(text)
    return root


# --- Installation -----------------------------------------------------------


def test_packages_in_the_simulators_order() -> None:
    xp = agkit.scenery.Installation(XPLANE)
    names = [p["name"] for p in xp.packages]
    assert names == ["Airport", "Town", "Library"]
    assert [p["priority"] for p in xp.packages] == [0, 1, 2]
    assert [p["library"] for p in xp.packages] == [False, False, True]
    assert all(p["enabled"] and p["exists"] for p in xp.packages)
    assert xp.packages[0]["origin"] == {"ini": {"line": 5}}
    assert xp.warnings == []
    # The same packages, in the same order, as `at` lists them.
    assert [p["name"] for p in xp.at(47.5, 13.5).packages] == names


@pytest.mark.parametrize(
    "lat,lon,radius,autogen",
    [(47.5, 13.5, 200.0, True), (47.5, 13.5, 5.0, True), (47.5011, 13.5011, 50.0, False), (10.0, 10.0, 100.0, True)],
)
def test_at_answers_as_the_cli(cli: Path, lat: float, lon: float, radius: float, autogen: bool) -> None:
    xp = agkit.scenery.Installation(XPLANE)
    mine = xp.at(lat, lon, radius, autogen=autogen)
    args = ["scenery", "at", f"{lat},{lon}", "--xplane", str(XPLANE), "--radius", str(radius)]
    args += [] if autogen else ["--no-autogen"]
    assert plain(mine.to_dict()) == cli_json(cli, *args, "--format", "json")
    assert plain(mine.__geo_interface__) == cli_json(cli, *args, "--format", "geojson")
    assert len(mine) == len(mine.items)


def test_at_records_the_exclusion_and_the_resolved_file() -> None:
    items = agkit.scenery.Installation(XPLANE).at(47.501, 13.501, 30).items
    shed = [i for i in items if i["definition"] == "lib/fixture/shed.obj"]
    assert [s["excluded_by"] for s in shed] == ["Airport"]
    assert shed[0]["resolved"] == {"package": "Library", "file": "Custom Scenery/Library/objects/tower.obj"}
    assert "EXPORT_BACKUP" in shed[0]["rule"]


def test_at_places_the_autogen_of_a_package_as_the_cli(cli: Path, autogen_install: Path) -> None:
    xp = agkit.scenery.Installation(autogen_install)
    for seed in (0, 5):
        mine = xp.at(47.8003, 13.0427, 300, seed=seed)
        kinds = {i["kind"] for i in mine.items}
        assert {"autogen_point", "autogen_block", "autogen_string", "object"} <= kinds, kinds
        theirs = cli_json(
            cli, "scenery", "at", "47.8003,13.0427", "--xplane", str(autogen_install),
            "--radius", "300", "--seed", str(seed), "--format", "json",
        )
        assert plain(mine.to_dict()) == theirs
    geo = agkit.scenery.Installation(autogen_install).at(47.8003, 13.0427, 300).__geo_interface__
    assert {f["geometry"]["type"] for f in geo["features"]} >= {"Point", "Polygon"}


def test_at_takes_geopandas() -> None:
    geopandas = pytest.importorskip("geopandas")
    r = agkit.scenery.Installation(XPLANE).at(47.5, 13.5)
    df = geopandas.GeoDataFrame.from_features(r, crs="EPSG:4326")
    assert list(df["definition"]) == [i["definition"] for i in r.items]


def test_check_answers_as_the_cli(cli: Path, autogen_install: Path) -> None:
    for root in (XPLANE, autogen_install):
        r = agkit.scenery.Installation(root).check()
        assert plain(r.to_dict()) == cli_json(cli, "scenery", "check", "--xplane", str(root), "--format", "json")
        assert r.has_errors is False
        assert r.stats["packages"] == len(agkit.scenery.Installation(root).packages)


def test_check_finds_what_does_not_resolve(tmp_path: Path, cli: Path) -> None:
    root = tmp_path / "X-Plane"
    shutil.copytree(XPLANE, root)
    (root / "Custom Scenery" / "Library" / "library.txt").write_text("A\n800\nLIBRARY\n")
    r = agkit.scenery.Installation(root).check()
    assert r.has_errors
    codes = {f["code"] for f in r.findings}
    assert codes and all(c.startswith("SCN") for c in codes)
    theirs = cli_json(cli, "scenery", "check", "--xplane", str(root), "--format", "json", status=1)
    assert plain(r.to_dict()) == theirs


def test_check_findings_as_arrow_are_the_clis_json_row_for_row(tmp_path: Path, cli: Path) -> None:
    """CheckReport.to_arrow(): one row per finding of `agkit scenery check
    --format json`, in order, its keys as columns (`details` a list)."""
    pa = pytest.importorskip("pyarrow")
    root = tmp_path / "X-Plane"
    shutil.copytree(XPLANE, root)
    (root / "Custom Scenery" / "Library" / "library.txt").write_text("A\n800\nLIBRARY\n")
    for where, status in ((root, 1), (XPLANE, 0)):
        table = agkit.scenery.Installation(where).check().to_arrow()
        assert table.name == "scenery_findings"
        columns = ["severity", "code", "package", "message", "details"]
        assert table.column_names == columns
        theirs = cli_json(cli, "scenery", "check", "--xplane", str(where), "--format", "json", status=status)
        got = pa.table(table).to_pylist()
        assert got == [{k: f.get(k) for k in columns} for f in theirs["findings"]]
        assert (len(got) > 0) == (status == 1)
    t = pa.table(agkit.empty_table("scenery_findings"))
    assert t.num_rows == 0 and str(t.schema.field("details").type) == "list<item: string>"
    assert [str(t.schema.field(c).type) for c in columns[:4]] == ["string"] * 4


@pytest.mark.parametrize(
    "path,status", [("lib/fixture/tower.obj", 0), ("lib/fixture/shed.obj", 0), ("lib/nothing.obj", 1)]
)
def test_resolve_answers_as_the_cli(cli: Path, path: str, status: int) -> None:
    r = agkit.scenery.Installation(XPLANE).resolve(path, tile=(47.5, 13.5))
    theirs = cli_json(
        cli, "scenery", "resolve", path, "--tile", "47.5,13.5", "--xplane", str(XPLANE), "--format", "json",
        status=status,
    )
    assert plain(r.to_dict()) == theirs
    assert r.is_resolved == (status == 0)
    assert r.tile == (47, 13) and r.path == path
    if r.is_resolved:
        assert [Path(f).name for f in r.files] == ["tower.obj"]
        assert r.source in ("library", "backup")
    else:
        assert r.files == [] and r.source == "nothing"


def test_datarefs_and_season_choose_the_exports(tmp_path: Path, cli: Path) -> None:
    root = tmp_path / "X-Plane"
    shutil.copytree(XPLANE, root)
    lib = root / "Custom Scenery" / "Library"
    for name in ("winter.obj", "summer.obj", "wet.obj"):
        shutil.copy(lib / "objects" / "tower.obj", lib / "objects" / name)
    (lib / "library.txt").write_text(
        "A\n800\nLIBRARY\n"
        "EXPORT_SEASON win lib/s.obj objects/winter.obj\n"
        "EXPORT_SEASON sum lib/s.obj objects/summer.obj\n"
        "REGION_DEFINE rain\nREGION_RECT -180 -90 179 89\nREGION_DREF sim/weather/rain > 0.5\n"
        "REGION rain\nEXPORT lib/r.obj objects/wet.obj\n"
    )
    files = lambda r: [Path(f).name for f in r.files]  # noqa: E731
    win = agkit.scenery.Installation(root, season="win")
    assert files(win.resolve("lib/s.obj", tile=(47.5, 13.5))) == ["winter.obj"]
    assert files(agkit.scenery.Installation(root, season="sum").resolve("lib/s.obj", tile=(47.5, 13.5))) == [
        "summer.obj"
    ]
    dry = agkit.scenery.Installation(root, drefs={"sim/weather/rain": 0})
    wet = agkit.scenery.Installation(root, drefs={"sim/weather/rain": 1})
    assert files(dry.resolve("lib/r.obj", tile=(47.5, 13.5))) == []
    assert files(wet.resolve("lib/r.obj", tile=(47.5, 13.5))) == ["wet.obj"]
    theirs = cli_json(
        cli, "scenery", "resolve", "lib/r.obj", "--tile", "47.5,13.5", "--xplane", str(root),
        "--dref", "sim/weather/rain=1", "--format", "json",
    )
    assert plain(wet.resolve("lib/r.obj", tile=(47.5, 13.5)).to_dict()) == theirs
    # A season no library names is a warning, as the CLI prints it.
    spring = agkit.scenery.Installation(root, season="spring")
    assert any("no library names that season" in w for w in spring.warnings), spring.warnings
    assert win.warnings == []


def test_conditions_are_checked() -> None:
    with pytest.raises(ValueError, match="drefs"):
        agkit.scenery.Installation(XPLANE, drefs=["a=1"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not finite"):
        agkit.scenery.Installation(XPLANE, drefs={"a": float("nan")})


def test_installation_errors_name_the_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as e:
        agkit.scenery.Installation(tmp_path / "nope")
    assert e.value.filename == str(tmp_path / "nope")
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(agkit.SceneryError) as s:
        agkit.scenery.Installation(f)
    assert s.value.file == str(f) and "folder" in str(s.value)
    xp = agkit.scenery.Installation(XPLANE)
    with pytest.raises(ValueError, match="latitude"):
        xp.at(130.0, 13.0)
    with pytest.raises(ValueError, match="radius"):
        xp.at(47.5, 13.5, -1)
    with pytest.raises(ValueError, match="density"):
        xp.at(47.5, 13.5, density=9)


# --- place_dsf and place_tile -------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7])
def test_place_dsf_places_as_the_cli(cli: Path, seed: int) -> None:
    t = agkit.place_dsf(DEMO, scenery=EXAMPLES, seed=seed)
    args = ["place", "--dsf", str(DEMO), "--scenery", str(EXAMPLES), "--seed", str(seed)]
    assert plain([p.to_dict() for p in t.placements]) == cli_json(cli, *args, "--format", "json")
    assert plain(t.__geo_interface__) == cli_json(cli, *args, "--format", "geojson")
    assert (t.uses, len(t), t.tile, t.package) == (3, 3, (47, 13), "examples")
    assert [p.seed for p in t] == [seed ^ i for i in range(3)]
    assert t.unresolved == {} and t.warnings == [] and t.assets == [] and not t.has_errors


def test_a_placement_of_a_tile_is_a_placement() -> None:
    t = agkit.place_dsf(DEMO, scenery=EXAMPLES)
    p = t.placements[1]
    assert isinstance(p, agkit.Placement) and p.kind == "agb"
    assert p.array().shape == (len(p.objects), 3)
    records = t.to_records()
    assert len(records) == sum(len(p.to_records()) for p in t)
    assert {r["use"] for r in records} == {0, 1, 2}
    assert {r["autogen"] for r in records} == {"point/plaza.agp", "block/city_block.agb", "string/town_edge.ags"}


def test_place_tile_places_as_the_cli(cli: Path, autogen_install: Path) -> None:
    xp = agkit.scenery.Installation(autogen_install)
    tile = autogen_install / "Custom Scenery" / "Demo" / "Earth nav data" / "+40+010" / "+47+013.dsf"
    for seed in (0, 3):
        t = xp.place_tile(tile, seed)
        theirs = cli_json(
            cli, "place", "--dsf", str(tile), "--xplane", str(autogen_install), "--seed", str(seed), "--format", "json"
        )
        assert plain([p.to_dict() for p in t]) == theirs
        assert t.package == "Demo" and len(t) == 3
    # The same through place_dsf, given the installation or its folder.
    for inst in (xp, autogen_install):
        again = agkit.place_dsf(tile, installation=inst, seed=3)
        assert [p.to_dict() for p in again] == [p.to_dict() for p in xp.place_tile(tile, 3)]
    # A tile without autogen places nothing.
    none = agkit.scenery.Installation(XPLANE).place_tile(TOWN_DSF)
    assert (none.uses, len(none), none.package) == (0, 0, "Town")


def test_unresolved_assets_are_data(cli: Path) -> None:
    # Without scenery=, the package is the DSF's own folder: nothing resolves.
    t = agkit.place_dsf(DEMO)
    assert len(t) == 0 and t.uses == 3
    assert sorted(t.unresolved) == ["block/city_block.agb", "point/plaza.agp", "string/town_edge.ags"]
    u = t.unresolved["point/plaza.agp"]
    assert (u["uses"], u["tiles"]) == (1, 1) and "no library package was given" in u["why"]
    # The CLI refuses the same tile with exit 1.
    assert run_cli(cli, "place", "--dsf", str(DEMO), "--format", "json").returncode == 1


def test_an_asset_with_errors_is_listed(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    shutil.copytree(EXAMPLES / "point", pkg / "point")
    shutil.copytree(EXAMPLES / "block", pkg / "block")
    shutil.copytree(EXAMPLES / "string", pkg / "string")
    (pkg / "block" / "city_block.agb").write_text("A\n1000\nAG_BLOCK\nNONSENSE\n")
    t = agkit.place_dsf(DEMO, scenery=pkg)
    assert t.has_errors and [p.kind for p in t] == ["agp", "ags"]
    [a] = t.assets
    assert a["file"].endswith("city_block.agb") and not a["placeable"]
    assert any(d["severity"] == "error" for d in a["diagnostics"])


def test_place_dsf_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as e:
        agkit.place_dsf(tmp_path / "nope.dsf")
    assert e.value.filename == str(tmp_path / "nope.dsf")
    with pytest.raises(agkit.ParseError) as p:
        agkit.place_dsf(EXAMPLES / "point" / "plaza.agp")
    assert (p.value.offset, p.value.code) == (0, "DSF001")
    assert "autogen text file" in str(p.value)
    with pytest.raises(agkit.SceneryError, match="library.txt"):
        agkit.place_dsf(DEMO, library=[tmp_path])
    with pytest.raises(ValueError, match="not both"):
        agkit.place_dsf(DEMO, library=[XPLANE], installation=XPLANE)
    with pytest.raises(ValueError, match="installation must be"):
        agkit.place_dsf(DEMO, installation=3)  # type: ignore[arg-type]


def test_a_scenery_of_packages_resolves_and_places_as_place_dsf(cli: Path) -> None:
    s = agkit.scenery.Scenery(EXAMPLES)
    assert s.package_of(DEMO) == ("examples", str(EXAMPLES))
    assert [p.to_dict() for p in s.place_tile(DEMO, 7)] == [p.to_dict() for p in agkit.place_dsf(DEMO, scenery=EXAMPLES, seed=7)]
    local = s.resolve("point/plaza.agp", tile=(47.8, 13.04), dsf=DEMO)
    assert local.source == "local" and local.files == [str(EXAMPLES / "point" / "plaza.agp")]
    # Without the DSF, only libraries count: none here.
    assert s.resolve("point/plaza.agp", tile=(47.8, 13.04)).source == "nothing"
    # Libraries: the fixture's Library package, and a Custom Scenery folder.
    lib = agkit.scenery.Scenery(None, [XPLANE / "Custom Scenery" / "Library"])
    assert [Path(f).name for f in lib.resolve("lib/fixture/tower.obj", tile=(47.5, 13.5)).files] == ["tower.obj"]
    custom = agkit.scenery.Scenery(library=[XPLANE / "Custom Scenery"])
    assert custom.resolve("lib/fixture/shed.obj", tile=(47.5, 13.5)).source == "backup"
    assert isinstance(agkit.scenery.Installation(XPLANE), agkit.scenery.Scenery)


def test_place_dsf_whole_tile_places_as_the_cli_with_all(cli: Path) -> None:
    """`whole_tile=True` is `agkit place --dsf --all`: the tile's objects are
    placed after its autogen, one placement per definition, and `whole`
    counts every kind, each row placed or not drawn."""
    t = agkit.place_dsf(TOWN_DSF, installation=XPLANE, whole_tile=True)
    args = ["place", "--dsf", str(TOWN_DSF), "--xplane", str(XPLANE), "--all"]
    assert plain([p.to_dict() for p in t.placements]) == cli_json(cli, *args, "--format", "json")
    assert plain(t.__geo_interface__) == cli_json(cli, *args, "--format", "geojson")
    whole = t.whole
    assert whole is not None
    assert whole["counts"]["obj"]["in_dsf"] > 0
    for kind, c in whole["counts"].items():
        assert c["placed"] + c["not_drawn"] == c["in_dsf"], kind
    objs = [p for p in t if p.kind == "obj"]
    assert [p.asset for p in objs] == ["lib/fixture/shed.obj"]
    assert sum(len(p.objects) for p in objs) == whole["counts"]["obj"]["placed"]
    # Without it, the autogen only, as before.
    assert agkit.place_dsf(TOWN_DSF, installation=XPLANE).whole is None
