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
    # The kept parts and the new one are merged in tile order.
    fresh = distributed.census(pkg, tmp_path / "fresh", client=client)
    pandas.testing.assert_frame_equal(pandas.read_parquet(second.output), pandas.read_parquet(fresh.output))
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


# --- the result as a Parquet dataset ----------------------------------------------


def dataset_parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def part_tiles(part: Path) -> list[str]:
    import pyarrow.parquet as pq

    return json.loads(pq.read_schema(part).metadata[b"agkit:tiles"])


def test_a_placement_dataset_reads_back_equal_to_the_single_file(
    package: Path, library: Path, client: Any, tmp_path: Path
) -> None:
    """dataset=True on 2 workers and in one process: a folder of part files
    (no parts/ folder, no merged file), which GeoPandas, pandas and
    pyarrow.dataset read as the rows of the single file, in its order."""
    import pyarrow.dataset as ds

    file = distributed.place_package(package, tmp_path / "file", library=[library], seed=5, client=False)
    want = geopandas.read_parquet(file.output)
    for label, c in [("two", client), ("one", False)]:
        run = distributed.place_package(package, tmp_path / label, library=[library], seed=5, client=c, dataset=True)
        assert run.ok and run.output == tmp_path / label / "placed" and run.output.is_dir()
        assert run.rows == file.rows == len(want)
        assert not (tmp_path / label / "parts").exists() and not (tmp_path / label / "placed.parquet").exists()
        got = geopandas.read_parquet(run.output)
        pandas.testing.assert_frame_equal(pandas.DataFrame(got.drop(columns="geometry")), pandas.DataFrame(want.drop(columns="geometry")))
        assert list(got.geometry.to_wkb()) == list(want.geometry.to_wkb()) and got.crs == "EPSG:4326"
        pandas.testing.assert_frame_equal(pandas.read_parquet(run.output).drop(columns="geometry"), pandas.read_parquet(file.output).drop(columns="geometry"))
        assert ds.dataset(run.output, format="parquet").to_table().num_rows == len(want)
        # Every tile in exactly one part, parts named in tile order.
        tiles = [t for p in dataset_parts(run.output) for t in part_tiles(p)]
        assert tiles == sorted(want["dsf"].unique()) == sorted(run.done)
    # On 2 workers the 5 tiles are 5 tasks, one part each; in one process
    # they are consecutive: one part.
    assert len(dataset_parts(tmp_path / "two" / "placed")) == len(LONS)
    assert len(dataset_parts(tmp_path / "one" / "placed")) == 1


def test_each_part_of_a_dataset_is_geoparquet_of_its_own_rows(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    """Each part's `geo` entry lists the geometry types of its rows and
    their bbox; its tiles are the `dsf` values it holds."""
    shapely = pytest.importorskip("shapely")
    import pyarrow.parquet as pq

    run = distributed.place_package(package, tmp_path, library=[library], seed=5, client=client, dataset=True)
    for part in dataset_parts(run.output):
        geo = json.loads(pq.read_schema(part).metadata[b"geo"])
        col = geo["columns"]["geometry"]
        assert geo["version"] == "1.0.0" and geo["primary_column"] == "geometry" and col["encoding"] == "WKB"
        gdf = geopandas.read_parquet(part)
        assert sorted(col["geometry_types"]) == sorted(set(gdf.geom_type))
        assert col["bbox"] == pytest.approx(list(shapely.total_bounds(gdf.geometry.values)))
        assert list(gdf["dsf"].unique()) == part_tiles(part)
        assert gdf.crs == "EPSG:4326"


def test_a_census_dataset_equals_the_file(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    file = distributed.census(package, tmp_path / "file", library=[library], client=client)
    data = distributed.census(package, tmp_path / "data", library=[library], client=client, dataset=True)
    assert data.ok and data.rows == file.rows == 3 * len(LONS)
    pandas.testing.assert_frame_equal(pandas.read_parquet(data.output), pandas.read_parquet(file.output))
    assert pandas.read_parquet(data.output).dtypes.to_dict() == {c: pandas.api.types.pandas_dtype(t) for c, t in distributed.CENSUS_COLUMNS.items()}


def test_a_dataset_with_a_failed_tile_resumes_in_tile_order(package: Path, library: Path, tmp_path: Path) -> None:
    """A failing tile in the middle: its neighbours are written in parts
    of their own, so the tile, run again alone, lands between them; a
    tile added before the others renames the parts; resume=False leaves
    only the new run's parts."""
    pkg = tmp_path / "Broken"
    shutil.copytree(package, pkg)
    bad = pkg / "Earth nav data" / "+40+010" / f"{tile_name(15)}.dsf"
    bad.write_bytes(b"XPLNEDSF\x01\x00\x00\x00 not a tile")
    out = tmp_path / "out"
    first = distributed.census(pkg, out, library=[library], client=False, dataset=True)
    rel = bad.relative_to(pkg).as_posix()
    assert list(first.failed) == [rel] and first.rows == 3 * (len(LONS) - 1)
    parts = dataset_parts(first.output)
    assert [len(part_tiles(p)) for p in parts] == [2, 2]
    stamps = {p.name: p.stat().st_mtime_ns for p in parts}
    bad.write_bytes(demo_tile(15))
    second = distributed.census(pkg, out, library=[library], client=False, dataset=True)
    assert second.done == [rel] and second.ok and second.rows == 3 * len(LONS)
    assert [p.name for p in dataset_parts(second.output)] == ["part-000000.parquet", "part-000002.parquet", "part-000003.parquet"]
    assert all((second.output / n).stat().st_mtime_ns == t for n, t in stamps.items()), "a finished tile ran again"
    whole = distributed.census(pkg, tmp_path / "whole", library=[library], client=False)
    pandas.testing.assert_frame_equal(pandas.read_parquet(second.output), pandas.read_parquet(whole.output))
    # A tile sorting before the others: the parts are renamed after their
    # first tile's new place, the new tile's part comes first.
    early = pkg / "Earth nav data" / "+40+000"
    early.mkdir()
    (early / f"{tile_name(12)}.dsf").write_bytes(demo_tile(12))
    third = distributed.census(pkg, out, library=[library], client=False, dataset=True)
    assert third.done == [f"Earth nav data/+40+000/{tile_name(12)}.dsf"] and len(third.skipped) == len(LONS)
    assert [p.name for p in dataset_parts(third.output)] == [
        "part-000000.parquet", "part-000001.parquet", "part-000003.parquet", "part-000004.parquet"]
    whole = distributed.census(pkg, tmp_path / "whole2", library=[library], client=False)
    pandas.testing.assert_frame_equal(pandas.read_parquet(third.output), pandas.read_parquet(whole.output))
    # Not resuming: every tile again, one part, nothing of the old parts.
    again = distributed.census(pkg, out, library=[library], client=False, dataset=True, resume=False)
    assert again.skipped == [] and len(again.done) == len(LONS) + 1
    assert [p.name for p in dataset_parts(again.output)] == ["part-000000.parquet"]
    pandas.testing.assert_frame_equal(pandas.read_parquet(again.output), pandas.read_parquet(whole.output))


def test_a_dataset_reads_with_dask_geopandas(package: Path, library: Path, client: Any, tmp_path: Path) -> None:
    dgpd = pytest.importorskip("dask_geopandas")
    run = distributed.place_package(package, tmp_path, library=[library], seed=5, client=client, dataset=True)
    lazy = dgpd.read_parquet(run.output)
    assert lazy.npartitions == len(dataset_parts(run.output))
    got = lazy.compute().reset_index(drop=True)
    want = geopandas.read_parquet(run.output)
    assert list(got.geometry.to_wkb()) == list(want.geometry.to_wkb()) and got.crs == want.crs
