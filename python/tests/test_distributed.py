"""agkit.distributed on a dask LocalCluster: the autogen census and the
placement of every tile of a package give the same rows on two workers as
in one process, the rows the single-tile API gives; a tile that fails is
reported and the others kept; a second run resumes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

import agkit

from conftest import EXAMPLES

pytest.importorskip("dask.distributed")
pandas = pytest.importorskip("pandas")
geopandas = pytest.importorskip("geopandas")
pytest.importorskip("pyarrow")

from agkit import distributed  # noqa: E402

DEMO_TEXT = (EXAMPLES / "dsf" / "autogen_demo.txt").read_text()
LONS = (13, 14, 15, 16, 17)


def demo_tile(lon: int, library_plaza: bool = False) -> bytes:
    """The demo tile moved to the tile at (47, lon): the same uses, each
    shifted by whole degrees of longitude."""
    text = DEMO_TEXT.replace("sim/west 13", f"sim/west {lon}").replace("sim/east 14", f"sim/east {lon + 1}")
    text = text.replace("OBJECT 0 13.", f"OBJECT 0 {lon}.").replace("POLYGON_POINT 13.", f"POLYGON_POINT {lon}.")
    if library_plaza:
        text = text.replace("OBJECT_DEF point/plaza.agp", "OBJECT_DEF lib/demo/plaza.agp")
    return agkit.dsf.build(text)


def tile_name(lon: int) -> str:
    return f"+47{lon:+04d}"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scenery package: the example assets and five tiles of the demo
    tile's uses in `Earth nav data/+40+010/`; the last tile names its AGP
    through a library path."""
    pkg = tmp_path_factory.mktemp("scenery") / "Demo"
    for sub in ("point", "block", "string"):
        shutil.copytree(EXAMPLES / sub, pkg / sub)
    for lon in LONS:
        folder = pkg / "Earth nav data" / "+40+010"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{tile_name(lon)}.dsf").write_bytes(demo_tile(lon, library_plaza=lon == LONS[-1]))
    return pkg


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lib = tmp_path_factory.mktemp("lib") / "DemoLib"
    shutil.copytree(EXAMPLES / "point", lib / "point")
    (lib / "library.txt").write_text("A\n800\nLIBRARY\nEXPORT lib/demo/plaza.agp point/plaza.agp\n")
    return lib


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster) as c:
            yield c


def test_the_tiles_are_where_they_say(package: Path) -> None:
    for dsf in distributed.dsf_files(package):
        uses = agkit.dsf.autogen(dsf)["features"]
        lon = int(dsf.stem[3:])
        assert len(uses) == 3
        assert all(lon <= distributed._centroid(u["geometry"])[0] < lon + 1 for u in uses), dsf


def test_the_census_is_the_same_on_two_workers_as_in_one_process(
    package: Path, library: Path, client: Any, tmp_path: Path
) -> None:
    one = distributed.census(package, tmp_path / "one", library=[library], client=False)
    two = distributed.census(package, tmp_path / "two", library=[library], client=client)
    assert one.ok and two.ok and one.rows == two.rows == 3 * len(LONS)
    assert sorted(one.done) == sorted(two.done) and len(one.done) == len(LONS)
    a, b = pandas.read_parquet(one.output), pandas.read_parquet(two.output)
    pandas.testing.assert_frame_equal(a, b)
    assert list(a.columns) == list(distributed.CENSUS_COLUMNS)
    assert list(a["dsf"]) == sorted(a["dsf"]) and a.groupby("dsf")["use"].apply(list).map(lambda u: u == [0, 1, 2]).all()


def test_census_rows_are_the_tiles_uses_resolved(package: Path, library: Path, tmp_path: Path) -> None:
    df = pandas.read_parquet(distributed.census(package, tmp_path, library=[library]).output)
    for dsf in distributed.dsf_files(package):
        rel = dsf.relative_to(package).as_posix()
        rows = df[df["dsf"] == rel]
        uses = agkit.dsf.autogen(dsf)["features"]
        assert list(rows["asset"]) == [u["properties"]["asset"] for u in uses]
        assert list(rows["kind"]) == ["agp", "agb", "ags"]
        assert list(rows["param"].astype("float").fillna(-1)) == [-1, 768, 769]
        assert set(rows["tile"]) == {dsf.stem} and set(rows["package"]) == {"Demo"}
        point = uses[0]["geometry"]["coordinates"]
        assert (rows.iloc[0]["lon"], rows.iloc[0]["lat"]) == (point[0], point[1])
    lib_rows = df[df["asset"] == "lib/demo/plaza.agp"]
    assert len(lib_rows) == 1
    assert (lib_rows.iloc[0]["resolved_package"], lib_rows.iloc[0]["resolution"]) == ("DemoLib", "library")
    assert lib_rows.iloc[0]["resolved_file"] == str(library / "point" / "plaza.agp")
    local = df[df["asset"] != "lib/demo/plaza.agp"]
    assert set(local["resolution"]) == {"local"} and set(local["resolved_package"]) == {"Demo"}
    # Without the library the path resolves nowhere, and the row says so.
    bare = pandas.read_parquet(distributed.census(package, tmp_path / "bare").output)
    row = bare[bare["asset"] == "lib/demo/plaza.agp"].iloc[0]
    assert pandas.isna(row["resolved_package"]) and row["resolution"] == "nothing"


def test_placing_a_package_is_the_same_on_two_workers_and_equals_place_dsf(
    package: Path, library: Path, client: Any, tmp_path: Path
) -> None:
    one = distributed.place_package(package, tmp_path / "one", library=[library], seed=5, client=False)
    two = distributed.place_package(package, tmp_path / "two", library=[library], seed=5, client=client)
    assert one.ok and two.ok and one.rows == two.rows > 0
    a, b = geopandas.read_parquet(one.output), geopandas.read_parquet(two.output)
    pandas.testing.assert_frame_equal(pandas.DataFrame(a.drop(columns="geometry")), pandas.DataFrame(b.drop(columns="geometry")))
    assert list(a.geometry.to_wkb()) == list(b.geometry.to_wkb())
    assert a.crs == "EPSG:4326" and {"Point", "Polygon"} <= set(a.geom_type) <= {"Point", "Polygon", "LineString"}
    assert set(a["kind"]) == {"object", "facade", "tree"}
    for dsf in distributed.dsf_files(package / "Earth nav data"):
        t = agkit.place_dsf(dsf, scenery=package, library=[library], seed=5)
        rows = a[a["tile"] == dsf.stem]
        assert len(rows) == sum(len(p.objects) + len(p.facades) + len(p.trees) for p in t)
        objects = rows[rows["kind"] == "object"]
        # The GIS rows carry coordinates to 7 decimals (about 1 cm).
        want = [(round(o["lon"], 7), round(o["lat"], 7)) for p in t for o in p.objects]
        assert list(zip(objects["lon"], objects["lat"])) == want


def test_a_failing_tile_is_reported_and_a_second_run_resumes(package: Path, client: Any, tmp_path: Path) -> None:
    pkg = tmp_path / "Broken"
    shutil.copytree(package, pkg)
    bad = pkg / "Earth nav data" / "+40+010" / f"{tile_name(14)}.dsf"
    bad.write_bytes(b"XPLNEDSF\x01\x00\x00\x00 not a tile")
    out = tmp_path / "census"
    first = distributed.census(pkg, out, client=client)
    rel = bad.relative_to(pkg).as_posix()
    assert list(first.failed) == [rel] and "ParseError" in first.failed[rel] and "DSF" in first.failed[rel]
    assert len(first.done) == len(LONS) - 1 and first.rows == 3 * (len(LONS) - 1)
    assert json.loads((out / "failed.json").read_text()) == first.failed
    assert first.failed[rel].startswith("ParseError: ") and "DSF003" in first.failed[rel]
    parts = sorted((out / "parts").iterdir())
    stamps = {p.name: p.stat().st_mtime_ns for p in parts}
    bad.write_bytes(demo_tile(14))
    second = distributed.census(pkg, out, client=client)
    assert second.done == [rel] and sorted(second.skipped) == sorted(first.done) and second.ok
    assert second.rows == 3 * len(LONS)
    assert all((out / "parts" / n).stat().st_mtime_ns == t for n, t in stamps.items()), "a finished tile ran again"
    again = distributed.census(pkg, out, client=client, resume=False)
    assert sorted(again.done) == sorted(second.done + second.skipped) and again.skipped == []


def test_a_missing_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        distributed.census(tmp_path / "nope", tmp_path / "out")
    with pytest.raises(ValueError, match="not both"):
        distributed.census(tmp_path, tmp_path / "out", library=[tmp_path], installation=tmp_path)


def test_census_and_placement_through_an_installation(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    root = tmp_path / "X-Plane"
    custom = root / "Custom Scenery"
    shutil.copytree(package, custom / "Demo")
    shutil.copytree(library, custom / "DemoLib")
    (custom / "scenery_packs.ini").write_text(
        "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/Demo/\nSCENERY_PACK Custom Scenery/DemoLib/\n"
    )
    run = distributed.census(custom, tmp_path / "census", client=client, installation=root)
    df = pandas.read_parquet(run.output)
    assert run.ok and len(df) == 3 * len(LONS)
    assert set(df["resolution"]) == {"local", "library"} and set(df["package"]) == {"Demo"}
    assert set(df["resolved_package"]) == {"Demo", "DemoLib"}
    placed = distributed.place_package(custom / "Demo", tmp_path / "placed", client=client, installation=root, seed=5)
    by_library = distributed.place_package(package, tmp_path / "lib", library=[library], seed=5)
    a, b = geopandas.read_parquet(placed.output), geopandas.read_parquet(by_library.output)
    assert list(a["kind"]) == list(b["kind"]) and list(a.geometry.to_wkb()) == list(b.geometry.to_wkb())


def test_client_none_uses_the_running_client(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    """With a Client running, client=None runs the tiles on it (the
    scheduler sees the tasks), not in this process."""
    before = len(client.cluster.scheduler.transition_log)
    run = distributed.census(package, tmp_path / "c", library=[library])
    assert run.ok and run.rows == 3 * len(LONS)
    log = list(client.cluster.scheduler.transition_log)[before:]
    assert any("agkit-_census_tile" in str(entry[0]) for entry in log)


def test_client_false_runs_here_even_with_a_client_running(
    package: Path, library: Path, client: Any, tmp_path: Path
) -> None:
    """client=False: the tiles run in this process though a Client is
    running (the scheduler sees no task of theirs, no part file is
    written), with the rows the Client gives."""
    before = len(client.cluster.scheduler.transition_log)
    here = distributed.census(package, tmp_path / "here", library=[library], client=False)
    log = list(client.cluster.scheduler.transition_log)[before:]
    # Tasks of earlier tests may still be released meanwhile; none is run.
    assert not any("agkit-" in str(entry[0]) and entry[2] == "processing" for entry in log), log
    assert not (tmp_path / "here" / "parts").exists() or list((tmp_path / "here" / "parts").iterdir()) == []
    there = distributed.census(package, tmp_path / "there", library=[library], client=client)
    assert here.ok and here.rows == there.rows == 3 * len(LONS)
    pandas.testing.assert_frame_equal(pandas.read_parquet(here.output), pandas.read_parquet(there.output))


def test_without_a_client_the_tiles_run_here(package: Path, library: Path, tmp_path: Path) -> None:
    from distributed import get_client

    try:
        get_client()
        pytest.skip("a Client is running in this process")
    except ValueError:
        pass
    assert distributed._client(None) is None
    run = distributed.census(package, tmp_path / "here", library=[library], progress=True)
    assert run.ok and run.rows == 3 * len(LONS)


def test_progress_on_a_client_is_dasks_own(package: Path, library: Path, client: Any, tmp_path: Path, capsys: Any) -> None:
    run = distributed.census(package, tmp_path / "p", library=[library], client=client, progress=True)
    assert run.ok


def test_from_map_gives_dask_frames_equal_to_the_recipes(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    lazy = distributed.census_frame(package, library=[library])
    assert lazy.npartitions == len(LONS)
    got = lazy.compute().reset_index(drop=True)
    want = pandas.read_parquet(distributed.census(package, tmp_path / "w", library=[library]).output)
    got = got.assign(dsf=[Path(d).relative_to(package).as_posix() for d in got["dsf"]])
    got = got.astype(distributed.CENSUS_COLUMNS).sort_values(["dsf", "use"]).reset_index(drop=True)
    pandas.testing.assert_frame_equal(got, want)
    paths = [str(p) for p in distributed.dsf_files(package)]
    one = dd.from_map(distributed.tile_census, paths, meta=distributed.census_meta(), library=[library])
    assert len(one.compute()) == len(want)


def test_features_frame_is_a_dask_geopandas_frame(package: Path, client: Any) -> None:
    pytest.importorskip("dask_geopandas")
    lazy = distributed.features_frame(package / "Earth nav data", layer="polygons")
    assert type(lazy).__name__ == "GeoDataFrame" and lazy.npartitions == len(LONS)
    gdf = lazy.compute()
    assert len(gdf) == 2 * len(LONS) and gdf.crs == "EPSG:4326"
    assert list(gdf.columns) == [*agkit.dsf.SCHEMAS["polygons"], "geometry"]
    with pytest.raises(ValueError, match="the layers are"):
        distributed.tile_features(distributed.dsf_files(package)[0], layer="roads")
