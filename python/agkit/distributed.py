"""Thousands of DSF tiles on Dask: a task per batch of tiles, Parquet out.

Two recipes on ``dask.distributed`` (``pip install "./python[dask]"``):

- :func:`census` — every DSF under a folder → one row per autogen use
  (tile, DSF, use, kind, asset, DSF parameter, height, low byte, heading,
  centroid lon/lat, the DSF's package and the package and file the asset
  resolves to), written as Parquet;
- :func:`place_package` — every tile of a scenery package placed → one row
  per placed object, facade and tree (with its geometry), written as
  GeoParquet.

Both take a ``distributed.Client``: ``Client(LocalCluster(...))`` on one
machine (thread workers, ``processes=False``, do as well there as worker
processes: the Rust work runs without the GIL and they share one opened
scenery),
``Client("tcp://scheduler:8786")`` on a cluster (the workers need
agkit installed and the same paths); ``client=None`` uses the Client
already running (``distributed.get_client()``), and runs every tile in this
process, one after the other, only when there is none; ``client=False``
runs them in this process even when a Client is running. ``progress=True``
shows Dask's own progress bar (``distributed.progress``; without a Client
``dask.diagnostics.ProgressBar``). The result is written from Rust
(:class:`agkit.ParquetWriter`), the tiles in path order, each tile's rows
in use/placement order, so the rows are the same whatever the number of
workers. It is one Parquet file (``OUT/census.parquet``,
``OUT/placed.parquet``) or, with ``dataset=True``, a Parquet dataset: a
folder (``OUT/census/``, ``OUT/placed/``) of part files named in tile
order (``part-000000.parquet``, …), each a complete (Geo)Parquet file of
consecutive tiles, which ``pandas.read_parquet``,
``geopandas.read_parquet``, ``dask_geopandas.read_parquet`` and
``pyarrow.dataset`` read as one table. On a Client a task per batch of
tiles writes their part files; as a dataset that is all (nothing is
merged after the last task), as one file the parts (under
``OUT/parts/``) are then streamed into it. Without a Client each tile's
table goes straight into the file (no part files: a small run costs what
a plain loop over the tiles costs), or into the dataset's parts. A tile
that fails (its task raises, or its worker dies) is reported in
:attr:`Run.failed` with the reason and the others are kept; running again
skips the tiles an earlier run's part files hold (``resume``; each part
lists its tiles in its metadata), so only the failed and new ones run.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import agkit

PathLike = Union[str, "os.PathLike[str]"]

CENSUS_COLUMNS: dict[str, str] = {
    "tile": "string",
    "dsf": "string",
    "use": "int64",
    "kind": "string",
    "asset": "string",
    "param": "Int64",
    "height": "float64",
    "low": "Int64",
    "heading": "float64",
    "lon": "float64",
    "lat": "float64",
    "package": "string",
    "resolved_package": "string",
    "resolved_file": "string",
    "resolution": "string",
}
"""The census columns and their pandas dtypes."""

PLACED_COLUMNS: dict[str, str] = {
    "tile": "string",
    "dsf": "string",
    "placement": "int64",
    "autogen": "string",
    "kind": "string",
    "asset": "string",
    "heading": "float64",
    "height": "float64",
    "mode": "string",
    "source_line": "Int64",
    "lon": "float64",
    "lat": "float64",
    "object_height": "float64",
    "art": "string",
}
"""The columns of placed items (besides ``geometry``) and their dtypes:
``lon``/``lat`` is an object's or tree's position (its geometry is the
object's footprint where its OBJ could be read), ``object_height`` the
height of the object read from its OBJ, ``art`` whether the item's art was
``found``, ``missing``, ``unchecked`` or ``invalid``."""


@dataclass
class Run:
    """What a recipe did: the tiles it ran (``done``), those whose part was
    already written (``skipped``), those that failed with the reason
    (``failed``), the rows of the result and where it was written."""

    output: Path
    done: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    rows: int = 0

    @property
    def ok(self) -> bool:
        """True when no tile failed."""
        return not self.failed


# --- the scenery a worker resolves through ----------------------------------


def _spec(
    package: Optional[PathLike],
    library: Sequence[PathLike],
    installation: Optional[PathLike],
    drefs: Optional[Mapping[str, float]],
    season: Optional[str],
) -> tuple[Any, ...]:
    """A picklable, hashable description of the scenery (sent to workers)."""
    if installation is not None and library:
        raise ValueError("give library folders or an installation, not both")
    return (
        str(Path(package).resolve()) if package is not None else None,
        tuple(str(Path(p).resolve()) for p in library),
        str(Path(installation).resolve()) if installation is not None else None,
        tuple(sorted((drefs or {}).items())),
        season,
    )


_OPENED: dict[tuple[Any, ...], agkit.scenery.Scenery] = {}


def _scenery(spec: tuple[Any, ...]) -> agkit.scenery.Scenery:
    """The scenery of `spec`, opened once per worker process (its libraries
    and assets read once for every tile the worker places)."""
    if spec not in _OPENED:
        _OPENED[spec] = _open(spec)
    return _OPENED[spec]


def _open(spec: tuple[Any, ...]) -> agkit.scenery.Scenery:
    package, library, installation, drefs, season = spec
    if installation is not None:
        return agkit.scenery.Installation(installation, package=package, drefs=dict(drefs), season=season)
    return agkit.scenery.Scenery(package, list(library), drefs=dict(drefs), season=season)


# --- one tile -----------------------------------------------------------------


def _tile_name(dsf: Path) -> str:
    return dsf.stem


def _centroid(geometry: Mapping[str, Any]) -> tuple[float, float]:
    """A point's position, or the mean of a polygon's outer ring vertices
    (its closing vertex once), as `agkit scenery at` places an item."""
    if geometry["type"] == "Point":
        lon, lat = geometry["coordinates"][:2]
        return float(lon), float(lat)
    ring = geometry["coordinates"][0]
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))


def census_table(dsf: PathLike, scenery: agkit.scenery.Scenery, name: Optional[str] = None) -> agkit.ArrowTable:
    """The census of one DSF as an :class:`agkit.ArrowTable` built in Rust
    (:data:`CENSUS_COLUMNS`, one row per autogen use, in use order)."""
    return scenery.census_table(dsf, name=name)


def placed_table(
    dsf: PathLike, scenery: agkit.scenery.Scenery, seed: int = 0, name: Optional[str] = None
) -> agkit.ArrowTable:
    """The placed objects, facades and trees of one DSF as an
    :class:`agkit.ArrowTable` built in Rust (:data:`PLACED_COLUMNS` and a
    WKB ``geometry``), in placement order."""
    return scenery.placed_table(dsf, seed, name=name)


def census_rows(dsf: PathLike, scenery: agkit.scenery.Scenery, name: Optional[str] = None) -> list[dict[str, Any]]:
    """The census rows of one DSF as dicts: one per autogen use, in use
    order (:func:`census_table` as Python rows; needs pyarrow)."""
    return _pyarrow().table(census_table(dsf, scenery, name)).to_pylist()  # type: ignore[no-any-return]


def placed_rows(
    dsf: PathLike, scenery: agkit.scenery.Scenery, seed: int = 0, name: Optional[str] = None
) -> tuple[list[dict[str, Any]], Any]:
    """The placed objects, facades and trees of one DSF: their rows (in
    placement order) and a numpy array of their shapely geometries
    (:func:`placed_table` as Python rows; needs pyarrow and shapely)."""
    import shapely  # type: ignore[import-untyped,unused-ignore]

    t = _pyarrow().table(placed_table(dsf, scenery, seed, name))
    geoms = shapely.from_wkb(t.column("geometry").to_numpy(zero_copy_only=False))
    return t.drop_columns(["geometry"]).to_pylist(), geoms


def _pyarrow() -> Any:
    import pyarrow  # type: ignore[import-untyped,unused-ignore]

    return pyarrow


def _frame(rows: list[dict[str, Any]], columns: Mapping[str, str]) -> Any:
    """A pandas DataFrame of `rows` with the `columns` and their dtypes."""
    import pandas  # type: ignore[import-untyped,unused-ignore]

    df = pandas.DataFrame(rows, columns=list(columns))
    return df.astype(dict(columns))


def _arrow_frame(table: Any, columns: Mapping[str, str]) -> Any:
    """A pandas DataFrame of an Arrow table (anything with
    ``__arrow_c_stream__``) with the `columns` and their dtypes."""
    return _pyarrow().table(table).to_pandas().astype(dict(columns))


def _census_tile(dsf: str, name: str, spec: tuple[Any, ...]) -> agkit.ArrowTable:
    return census_table(dsf, _scenery(spec), name)


def _place_tile(dsf: str, name: str, spec: tuple[Any, ...], seed: int) -> agkit.ArrowTable:
    return placed_table(dsf, _scenery(spec), seed, name)


def _pandas_metadata(columns: Mapping[str, str]) -> str:
    """pandas' `pandas` schema entry giving `columns` their dtypes when
    pandas reads the file (``Int64``, ``string``); made once per process
    (making it costs as much as a small tile's census)."""
    key = tuple(columns.items())
    if key not in _PANDAS_METADATA:
        import pandas  # type: ignore[import-untyped,unused-ignore]

        frame = pandas.DataFrame({c: pandas.Series([], dtype=t) for c, t in columns.items()})
        meta = _pyarrow().Schema.from_pandas(frame, preserve_index=False).metadata[b"pandas"]
        _PANDAS_METADATA[key] = meta.decode()
    return _PANDAS_METADATA[key]


_PANDAS_METADATA: dict[tuple[tuple[str, str], ...], str] = {}


# --- per-tile functions for dask.dataframe.from_map -------------------------------


def tile_census(
    dsf: PathLike,
    *,
    scenery: Optional[PathLike] = None,
    library: Sequence[PathLike] = (),
    installation: Optional[PathLike] = None,
    drefs: Optional[Mapping[str, float]] = None,
    season: Optional[str] = None,
) -> Any:
    """The census of one DSF as a pandas DataFrame of :data:`CENSUS_COLUMNS`
    (their dtypes), for ``dask.dataframe.from_map(tile_census, paths,
    meta=census_meta())``."""
    spec = _spec(scenery, library, installation, drefs, season)
    return _arrow_frame(census_table(dsf, _scenery(spec)), CENSUS_COLUMNS)


def census_meta() -> Any:
    """An empty DataFrame of the census columns (``meta=`` of
    ``dask.dataframe.from_map``)."""
    return _frame([], CENSUS_COLUMNS)


def tile_features(dsf: PathLike, layer: str = "objects") -> Any:
    """One table of a DSF's features (``agkit.dsf`` tables: ``objects``,
    ``polygons``, ``lines``, ``facades``, ``forests``, ``chains``,
    ``vertices``) as a GeoDataFrame, for
    ``dask_geopandas.from_map``/``dask.dataframe.from_map``."""
    if layer not in agkit.dsf.SCHEMAS:
        raise ValueError(f"layer={layer!r}: the layers are {', '.join(agkit.dsf.SCHEMAS)}")
    return agkit.dsf.read(dsf).tables()[layer].to_geopandas()


def features_meta(layer: str = "objects") -> Any:
    """An empty GeoDataFrame of one layer's schema (``meta=``)."""
    return agkit.dsf.Table.empty(layer).to_geopandas()


def census_frame(folder: PathLike, **scenery: Any) -> Any:
    """A lazy ``dask.dataframe.DataFrame`` of the census of every DSF
    under `folder`: one partition per tile (``dd.from_map`` over
    :func:`tile_census`); `scenery` as :func:`tile_census` takes it.
    ``.compute()`` runs it on the running Client (or dask's local
    scheduler)."""
    import dask.dataframe as dd  # type: ignore[import-untyped,unused-ignore]

    paths = [str(p) for p in dsf_files(folder)]
    if not paths:
        raise FileNotFoundError(2, "No .dsf file under the folder", str(folder))
    return dd.from_map(tile_census, paths, meta=census_meta(), **scenery)


def features_frame(*sources: Any, layer: str = "objects") -> Any:
    """A lazy dask-geopandas GeoDataFrame of one feature table of every
    DSF that `sources` name (files, folders, glob patterns), one partition
    per tile. Needs dask-geopandas."""
    import dask.dataframe as dd  # type: ignore[import-untyped,unused-ignore]

    try:
        # Registers the GeoDataFrame partitions: from_map then gives a
        # dask_geopandas.GeoDataFrame.
        import dask_geopandas  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError as e:
        raise ImportError(f"features_frame needs dask-geopandas: pip install dask-geopandas ({e})") from e
    paths = [str(p) for p in agkit.dsf.dsf_paths(*sources)]
    if not paths:
        raise FileNotFoundError(2, "No .dsf file matches", " ".join(map(str, sources)))
    return dd.from_map(tile_features, paths, layer=layer, meta=features_meta(layer))


# --- the run --------------------------------------------------------------------


def _client(client: Any) -> Any:
    """`client`, else the Client running in this process, else None (and
    None for `client=False`: this process, whatever is running)."""
    if client is False:
        return None
    if client is not None:
        return client
    try:
        from distributed import get_client
    except ImportError:
        return None
    try:
        return get_client()
    except ValueError:  # no Client is running
        return None


def _write_parts(
    tile: Callable[..., agkit.ArrowTable],
    jobs: Sequence[tuple[str, str, int]],
    folder: str,
    schema: str,
    meta: Mapping[str, str],
    *extra: Any,
) -> list[tuple[str, Optional[str]]]:
    """A task for a batch of tiles `jobs` ((dsf, rel, index) in index
    order): their tables written from Rust into part files under
    `folder`, one part per run of consecutive tiles (a failed tile, or a
    gap in the indexes, starts a new part), each named after the index of
    its first tile and listing its tiles in its metadata
    (``agkit:tiles``). Returns (tile, None) when done, (tile, why) when it
    failed."""
    out: list[tuple[str, Optional[str]]] = []
    writer: Optional[agkit.ParquetWriter] = None
    tiles: list[str] = []
    last = -2

    def close() -> None:
        nonlocal writer, tiles
        if writer is not None:
            writer.close({_TILES_KEY: json.dumps(tiles)})
        writer, tiles = None, []

    Path(folder).mkdir(parents=True, exist_ok=True)
    try:
        for dsf_s, rel, i in jobs:
            if i != last + 1:
                close()
            try:
                table = tile(dsf_s, rel, *extra)
            except Exception as e:  # noqa: BLE001 - reported per tile
                close()
                out.append((rel, _reason(e)))
                continue
            if writer is None:
                writer = agkit.ParquetWriter(Path(folder) / _part_file(i), schema, dict(meta))
            writer.write(table)
            tiles.append(rel)
            last = i
            out.append((rel, None))
        close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    return out


_TILES_KEY = "agkit:tiles"
"""The metadata entry of a part file listing its tiles (JSON)."""


def _part_file(index: int) -> str:
    """The name of the part whose first tile is tile `index` of the run:
    parts sort by name in tile order."""
    return f"part-{index:06d}.parquet"


def _batches(todo: list[tuple[str, str, int]], slots: int) -> list[list[tuple[str, str, int]]]:
    """The tiles `todo` (in order) cut into batches of consecutive tiles,
    one task each: big ones first, then smaller and smaller (guided
    scheduling: each takes half of what is left per worker thread,
    weighed by the tiles' file sizes), so that the workers finish
    together — the last tasks are a tile each — while the tasks, and the
    part files they write, stay few (300 tiles on 2 threads: 21 tasks,
    the first of 73 tiles)."""
    if not todo:
        return []
    sizes = [_file_size(dsf) for dsf, _, _ in todo]
    left = float(sum(sizes))
    out: list[list[tuple[str, str, int]]] = []
    i = 0
    while i < len(todo):
        want = left / (2 * max(1, slots))
        j, got = i + 1, float(sizes[i])
        while j < len(todo) and got + sizes[j] <= want:
            got += sizes[j]
            j += 1
        out.append(todo[i:j])
        left -= got
        i = j
    return out


def _file_size(path: str) -> int:
    """A tile's size in bytes (at least 1): its share of the work."""
    try:
        return max(1, os.stat(path).st_size)
    except OSError:
        return 1


def dsf_files(folder: PathLike) -> list[Path]:
    """Every `.dsf` under `folder` (any letter case), in path order."""
    folder = Path(folder)
    if folder.is_file():
        return [folder]
    if not folder.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(folder))
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".dsf" and p.is_file())


def _existing(folder: Path) -> list[tuple[Path, list[str]]]:
    """The part files an earlier run left in `folder` and the tiles each
    holds (from its ``agkit:tiles`` entry; a ``part-*.parquet`` without
    one, or unreadable, holds none)."""
    if not folder.is_dir():
        return []
    pq = _pyarrow_parquet()
    out = []
    for p in sorted(folder.glob("part-*.parquet")):
        try:
            meta = pq.read_schema(p).metadata or {}
            tiles = json.loads(meta[_TILES_KEY.encode()])
        except Exception:  # noqa: BLE001 - not one of ours, or damaged: redone
            tiles = []
        out.append((p, [str(t) for t in tiles]))
    return out


def _pyarrow_parquet() -> Any:
    import pyarrow.parquet  # type: ignore[import-untyped,unused-ignore]

    return pyarrow.parquet


def _keep_parts(folder: Path, index: Mapping[str, int], resume: bool) -> dict[str, tuple[Path, list[str]]]:
    """The parts of `folder` a run keeps and their tiles, by their first
    tile: with `resume`, each part whose tiles are consecutive tiles of
    this run (`index`) and in no other part, renamed after its first
    tile's index where that changed; the others (and every part without
    `resume`) are removed, so the folder holds only this run's rows."""
    keep: dict[str, tuple[Path, list[str]]] = {}
    held: set[str] = set()
    for path, tiles in _existing(folder):
        ok = (
            resume
            and bool(tiles)
            and all(t in index and t not in held for t in tiles)
            and [index[t] for t in tiles] == list(range(index[tiles[0]], index[tiles[0]] + len(tiles)))
        )
        if not ok:
            path.unlink()
            continue
        held.update(tiles)
        keep[tiles[0]] = (path, tiles)
    # Renamed in two steps, so that no name is taken while another part
    # still has it.
    moved = {}
    for first, (path, _) in keep.items():
        want = folder / _part_file(index[first])
        if path != want:
            tmp = path.with_name(f".renaming-{path.name}")
            path.rename(tmp)
            moved[first] = (tmp, want)
    for first, (tmp, want) in moved.items():
        tmp.rename(want)
        keep[first] = (want, keep[first][1])
    return keep


def _run(
    tile: Callable[..., agkit.ArrowTable],
    tiles: list[Path],
    root: Path,
    out: Path,
    result: str,
    columns: Mapping[str, str],
    extra: tuple[Any, ...],
    client: Any,
    resume: bool,
    progress: bool = False,
    dataset: bool = False,
) -> Run:
    """Makes the result of every tile's table (`tile(dsf, rel, *extra)`),
    from Rust, the tiles in path order.

    As a `dataset` (`out/NAME/`), the tiles are written as part files
    straight into it: on a Client a task per batch of tiles, each writing
    its parts; without one, here. As one file (`out/NAME.parquet`), on a
    Client the tasks write their parts under `out/parts/` and the parts
    are streamed into the file as the tasks end; without one each tile's
    table goes straight into the file, with no part files (the parts of
    an earlier run are still used when `resume`)."""
    name = result.split(".")[0]
    # Sorted by the `dsf` column's value (the path relative to `root`):
    # each tile's rows are in use/placement order, so the result is sorted
    # by (dsf, row) without a sort.
    jobs = sorted(
        ((dsf.relative_to(root).as_posix() if dsf != root else dsf.name, dsf) for dsf in tiles),
        key=lambda j: j[0],
    )
    index = {rel: i for i, (rel, _) in enumerate(jobs)}
    parts_dir = out / name if dataset else out / "parts"
    run = Run(output=parts_dir if dataset else out / result)
    out.mkdir(parents=True, exist_ok=True)
    kept = _keep_parts(parts_dir, index, resume) if (dataset or parts_dir.is_dir()) else {}
    done = {t for _, ts in kept.values() for t in ts}
    run.skipped = [rel for rel, _ in jobs if rel in done]
    todo = [(str(dsf), rel, index[rel]) for rel, dsf in jobs if rel not in done]
    client = _client(client)
    meta = {"pandas": _pandas_metadata(columns)}
    if dataset:
        parts_dir.mkdir(parents=True, exist_ok=True)
        _parts(client, tile, todo, str(parts_dir), name, meta, extra, run, progress)
        run.rows = _rows(parts_dir)
    else:
        with agkit.ParquetWriter(run.output, name, meta) as writer:
            if client is None:
                _here(tile, jobs, {first: p for first, (p, _) in kept.items()}, done, writer, extra, run, progress)
            else:
                merged: set[str] = set()

                def merge(before: float) -> None:
                    # The parts before the first tile still running go
                    # into the file, in order, while the rest run.
                    for path in sorted(parts_dir.glob("part-*.parquet")):
                        if path.name not in merged and int(path.stem[5:]) < before:
                            writer.append_file(path)
                            merged.add(path.name)

                _parts(client, tile, todo, str(parts_dir), name, meta, extra, run, progress, merge)
                merge(float("inf"))
            run.rows = writer.rows
    run.done.sort()
    (out / "failed.json").write_text(json.dumps(run.failed, indent=2, sort_keys=True) + "\n")
    return run


def _rows(folder: Path) -> int:
    """The rows of the part files in `folder` (from their footers)."""
    pq = _pyarrow_parquet()
    return sum(int(pq.read_metadata(p).num_rows) for p in folder.glob("part-*.parquet"))


def _here(
    tile: Callable[..., agkit.ArrowTable],
    jobs: list[tuple[str, Path]],
    kept: Mapping[str, Path],
    done: set[str],
    writer: agkit.ParquetWriter,
    extra: tuple[Any, ...],
    run: Run,
    progress: bool,
) -> None:
    """Every tile in this process, in order, its table written straight
    into `writer` (for tiles an earlier run wrote, the part holding them)."""

    def step(rel: str, dsf: Path, _before: Any = None) -> None:
        if rel in done:
            if rel in kept:
                writer.append_file(kept[rel])
            return
        try:
            table = tile(str(dsf), rel, *extra)
        except Exception as e:  # noqa: BLE001 - reported per tile
            run.failed[rel] = _reason(e)
            return
        writer.write(table)
        run.done.append(rel)

    _in_order([functools.partial(step, rel, dsf) for rel, dsf in jobs], progress and len(done) < len(jobs))


def _in_order(calls: Sequence[Callable[[], Any]], progress: bool) -> list[Any]:
    """What `calls` return, each called here after the one before (the
    rows go into the result in order); with `progress` as one task each on
    dask's synchronous scheduler, under ``dask.diagnostics.ProgressBar``."""
    out: list[Any] = []

    def call(c: Callable[[], Any], _before: Any = None) -> None:
        out.append(c())

    if progress and calls:
        import dask  # type: ignore[import-untyped,unused-ignore]
        from dask.diagnostics import ProgressBar  # type: ignore[import-untyped,unused-ignore]

        last = None
        for c in calls:
            last = dask.delayed(call, pure=False)(c, last)
        with ProgressBar():
            dask.compute(last, scheduler="sync")
    else:
        for c in calls:
            call(c)
    return out


def _parts(
    client: Any,
    tile: Callable[..., agkit.ArrowTable],
    todo: list[tuple[str, str, int]],
    folder: str,
    schema: str,
    meta: Mapping[str, str],
    extra: tuple[Any, ...],
    run: Run,
    progress: bool,
    done: Optional[Callable[[float], None]] = None,
) -> None:
    """The tiles `todo` written as part files into `folder`: on
    `client`'s workers a task per batch of tiles, or here without one.
    On a Client `done(index)` is called as tasks end, with the index of
    the first tile still running (every part before it is written)."""
    if not todo:
        return
    if client is None:
        # One batch (a part per run of consecutive tiles), or 20 to show
        # progress by (20 parts).
        size = -(-len(todo) // 20) if progress else len(todo)
        batches = [todo[i : i + size] for i in range(0, len(todo), size)]
        calls = [functools.partial(_write_parts, tile, b, folder, schema, meta, *extra) for b in batches]
        for got in _in_order(calls, progress):
            _note(run, got)
        return
    from distributed import as_completed
    from distributed import progress as show_progress

    slots = sum(client.nthreads().values()) or 1
    # `pure=False`: a task is run again after a failure, never answered
    # from a cache.
    futures = {}
    for jobs in _batches(todo, slots):
        key = f"agkit-{tile.__name__}-{jobs[0][1]}"
        futures[client.submit(_write_parts, tile, jobs, folder, schema, meta, *extra, key=key, pure=False)] = jobs
    if progress:
        show_progress(list(futures))
    running = {fut: jobs[0][2] for fut, jobs in futures.items()}
    # The client's own loop: it need not be the default Client.
    for fut in as_completed(futures, loop=client.loop):
        jobs = futures[fut]
        try:
            _note(run, fut.result())
        except Exception as e:  # noqa: BLE001 - a lost worker: every tile of the batch
            for _, rel, _ in jobs:
                run.failed[rel] = _reason(e)
        finally:
            fut.release()
            del running[fut]
        if done is not None:
            done(min(running.values(), default=float("inf")))


def _note(run: Run, got: Sequence[tuple[str, Optional[str]]]) -> None:
    for rel, why in got:
        if why is None:
            run.done.append(rel)
        else:
            run.failed[rel] = why


def _reason(e: BaseException) -> str:
    """One line saying why a tile failed: the exception's class and
    message (a lost worker is dask's `KilledWorker`)."""
    return f"{type(e).__name__}: {e}"


def census(
    folder: PathLike,
    out: PathLike,
    *,
    client: Any = None,
    scenery: Optional[PathLike] = None,
    library: Sequence[PathLike] = (),
    installation: Optional[PathLike] = None,
    drefs: Optional[Mapping[str, float]] = None,
    season: Optional[str] = None,
    resume: bool = True,
    progress: bool = False,
    dataset: bool = False,
) -> Run:
    """An autogen census of every DSF under `folder`: one row per autogen
    use (:data:`CENSUS_COLUMNS`), each asset resolved as the simulator
    resolves it (a file of the DSF's package first — `scenery`, by default
    the folder above `Earth nav data` — then the `library` folders, or
    across an X-Plane `installation`). Written to `out/census.parquet`
    (sorted by DSF path and use; on a Client from part files under
    `out/parts/`), or with `dataset=True` as the Parquet dataset
    `out/census/` (part files of consecutive tiles, nothing merged), and
    the failed tiles listed in `out/failed.json`.
    """
    root = Path(folder)
    out = Path(out)
    spec = _spec(scenery, library, installation, drefs, season)
    return _run(_census_tile, dsf_files(root), root, out, "census.parquet", CENSUS_COLUMNS, (spec,), client, resume, progress, dataset)


def place_package(
    package: PathLike,
    out: PathLike,
    *,
    client: Any = None,
    library: Sequence[PathLike] = (),
    installation: Optional[PathLike] = None,
    drefs: Optional[Mapping[str, float]] = None,
    season: Optional[str] = None,
    seed: int = 0,
    resume: bool = True,
    progress: bool = False,
    dataset: bool = False,
) -> Run:
    """Places every tile of the scenery `package` (every DSF under its
    `Earth nav data`, or under `package` itself when it has none), its
    assets resolved in the package, then the `library` folders (or the
    libraries of an X-Plane `installation`); use `i` of a tile gets the
    seed `seed XOR i`, as `agkit place --dsf`. Written to
    `out/placed.parquet` (GeoParquet, lon/lat, EPSG:4326: one row per
    placed object, facade and tree, :data:`PLACED_COLUMNS` and
    `geometry`; on a Client from part files under `out/parts/`), or with
    `dataset=True` as the GeoParquet dataset `out/placed/` (part files of
    consecutive tiles, nothing merged), and the failed tiles listed in
    `out/failed.json`.
    """
    pkg = Path(package)
    end = next((p for p in pkg.iterdir() if p.is_dir() and p.name.lower() == "earth nav data"), None) if pkg.is_dir() else None
    root = end or pkg
    out = Path(out)
    spec = _spec(pkg, library, installation, drefs, season)
    return _run(_place_tile, dsf_files(root), root, out, "placed.parquet", PLACED_COLUMNS, (spec, seed), client, resume, progress, dataset)


__all__ = [
    "CENSUS_COLUMNS",
    "PLACED_COLUMNS",
    "Run",
    "census",
    "census_frame",
    "census_meta",
    "census_rows",
    "census_table",
    "dsf_files",
    "features_frame",
    "features_meta",
    "place_package",
    "placed_rows",
    "placed_table",
    "tile_census",
    "tile_features",
]
