"""agkit.distributed without a Client: every tile runs in this process and
its table goes straight into the result file (agkit.ParquetWriter), with no
part files; the result holds the rows the per-tile tables hold, sorted by tile
path and row as the part-file merge sorted them; parts a Client's run left
are used when resuming. (A module of its own: test_distributed keeps a
Client running for its whole module, and client=None would use it.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import EXAMPLES

pytest.importorskip("dask.distributed")
pandas = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from agkit import distributed  # noqa: E402
from test_distributed import LONS, demo_tile, tile_name  # noqa: E402


@pytest.fixture()
def package(tmp_path: Path) -> Path:
    """The five demo tiles in two folders, named so that path order and
    the order of the `dsf` strings differ (`+40+010 b` sorts before
    `+40+010/` as a string, after it as a path)."""
    pkg = tmp_path / "Demo"
    for sub in ("point", "block", "string"):
        shutil.copytree(EXAMPLES / sub, pkg / sub)
    for k, lon in enumerate(LONS):
        folder = pkg / "Earth nav data" / ("+40+010" if k % 2 else "+40+010 b")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{tile_name(lon)}.dsf").write_bytes(demo_tile(lon))
    return pkg


def no_client() -> None:
    assert distributed._client(None) is None, "a dask Client is running in this process"


def merged(root: Path, table: Any, keys: list[str]) -> Any:
    """What the part-file merge made of the tiles under `root`: each
    tile's table (its `dsf` the path relative to `root`), concatenated in
    path order, stable-sorted by `keys`."""
    tables = [pa.table(table(d, d.relative_to(root).as_posix())) for d in distributed.dsf_files(root)]
    return pa.concat_tables(tables).sort_by([(k, "ascending") for k in keys])


def assert_same_rows(path: Path, want: Any) -> None:
    got = pq.read_table(path)
    assert got.column_names == want.column_names
    for name in want.column_names:
        assert got.column(name).to_pylist() == want.column(name).to_pylist(), name


def test_census_without_a_client_writes_the_merged_rows_and_no_parts(package: Path, tmp_path: Path) -> None:
    no_client()
    out = tmp_path / "census"
    run = distributed.census(package, out)
    assert run.ok and run.rows == 3 * len(LONS) and len(run.done) == len(LONS) and run.skipped == []
    assert not (out / "parts").exists() or list((out / "parts").iterdir()) == []
    scenery = distributed._open(distributed._spec(None, [], None, None, None))
    want = merged(package, lambda d, rel: scenery.census_table(d, name=rel), ["dsf", "use"])
    assert_same_rows(run.output, want)
    df = pandas.read_parquet(run.output)
    assert dict(df.dtypes.astype(str)) == distributed.CENSUS_COLUMNS
    assert json.loads((out / "failed.json").read_text()) == {}


def test_placement_without_a_client_writes_the_merged_rows_and_no_parts(package: Path, tmp_path: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    no_client()
    out = tmp_path / "placed"
    run = distributed.place_package(package, out, seed=5, progress=True)
    assert run.ok and run.rows > 0 and len(run.done) == len(LONS)
    assert not (out / "parts").exists() or list((out / "parts").iterdir()) == []
    scenery = distributed._open(distributed._spec(package, [], None, None, None))
    want = merged(package / "Earth nav data", lambda d, rel: scenery.placed_table(d, 5, name=rel), ["dsf", "placement"])
    assert_same_rows(run.output, want)
    gdf = geopandas.read_parquet(run.output)
    assert gdf.crs == "EPSG:4326" and len(gdf) == want.num_rows
    geo = json.loads(pq.read_schema(run.output).metadata[b"geo"])
    assert set(geo["columns"]["geometry"]["geometry_types"]) == set(gdf.geom_type)


def test_a_failed_tile_is_reported_and_resuming_here_uses_a_clients_parts(package: Path, tmp_path: Path) -> None:
    from dask.distributed import Client, LocalCluster

    bad = next((package / "Earth nav data").rglob(f"{tile_name(LONS[1])}.dsf"))
    good = bad.read_bytes()
    bad.write_bytes(b"XPLNEDSF\x01\x00\x00\x00 not a tile")
    rel = bad.relative_to(package).as_posix()
    out = tmp_path / "census"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            first = distributed.census(package, out, client=client)
    assert list(first.failed) == [rel] and first.rows == 3 * (len(LONS) - 1)
    parts = sorted(p.name for p in (out / "parts").iterdir())
    # Parts of consecutive tiles (a task's batch, split at the failed
    # tile), each listing its tiles.
    held = [t for p in parts for t in json.loads(pq.read_schema(out / "parts" / p).metadata[b"agkit:tiles"])]
    assert len(held) == len(LONS) - 1 and rel not in held
    no_client()
    # Without a Client, failing again: reported, the others' parts used.
    again = distributed.census(package, out)
    assert list(again.failed) == [rel] and again.done == [] and len(again.skipped) == len(LONS) - 1
    assert again.rows == first.rows
    bad.write_bytes(good)
    last = distributed.census(package, out)
    assert last.ok and last.done == [rel] and last.rows == 3 * len(LONS)
    # The tile run here wrote no part.
    assert sorted(p.name for p in (out / "parts").iterdir()) == parts
    scenery = distributed._open(distributed._spec(None, [], None, None, None))
    want = merged(package, lambda d, rel: scenery.census_table(d, name=rel), ["dsf", "use"])
    assert_same_rows(last.output, want)


def test_a_client_that_is_not_the_default_one_runs_the_tiles(package: Path, tmp_path: Path) -> None:
    """A Client made with set_as_default=False, none other running: the
    recipes wait on its tasks through its own loop (they used the default
    Client's, and raised "No clients found")."""
    from dask.distributed import Client, LocalCluster

    no_client()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster, set_as_default=False) as client:
            no_client()
            data = distributed.census(package, tmp_path / "data", client=client, dataset=True)
            file = distributed.census(package, tmp_path / "file", client=client)
    assert data.ok and file.ok and data.rows == file.rows == 3 * len(LONS)
    pandas.testing.assert_frame_equal(pandas.read_parquet(data.output), pandas.read_parquet(file.output))


def test_a_dataset_here_with_progress_has_the_files_rows(package: Path, tmp_path: Path, capsys: Any) -> None:
    """Without a Client, dataset=True with progress: the tiles in batches
    under dask's progress bar, the rows of the single file, in order."""
    no_client()
    data = distributed.census(package, tmp_path / "data", dataset=True, progress=True)
    file = distributed.census(package, tmp_path / "file")
    assert data.ok and data.rows == file.rows == 3 * len(LONS)
    assert "100%" in capsys.readouterr().out
    pandas.testing.assert_frame_equal(pandas.read_parquet(data.output), pandas.read_parquet(file.output))
