"""X-Plane DSF tiles (binary, plain or 7z-compressed) and DSF2Text.

``read`` decodes a tile into a :class:`Dsf`; ``to_text`` and ``build`` go
between binary DSF and DSF2Text; ``autogen`` lists a tile's autogen uses as
GeoJSON. ``extract_overlay``, ``rasters``, ``filter``, ``merge`` and
``props`` edit a tile binary to binary, in-process, where pipelines run a
DSFTool text round trip (docs/pipelines.md); each returns the new DSF's
bytes (7z with ``compress=True``) and writes them to ``output`` if given.

For GIS, ``read(path).tables()`` (one tile) and ``read_tables(folder,
glob or paths)`` (many) give a tile's objects, polygons, lines, facades,
forests and network chains as :class:`Tables`: typed tables of a fixed
schema (:data:`SCHEMAS`), each with ``__geo_interface__`` and
``to_geopandas()`` (EPSG:4326), whose geometries are valid by construction
(rings closed, repeated points removed, holes of fewer than three points
dropped with a note in ``Tables.notes``).
"""

from __future__ import annotations

import glob as _glob
import os
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from ._agkit import Dsf, Entities
from ._agkit import dsf_autogen as autogen
from ._agkit import dsf_build as build
from ._agkit import dsf_read as read
from ._agkit import dsf_to_text as to_text
from ._agkit import dsf_extract_overlay as extract_overlay
from ._agkit import dsf_filter as filter
from ._agkit import dsf_merge as merge
from ._agkit import dsf_props as props
from ._agkit import dsf_rasters as rasters

CRS = "EPSG:4326"
"""The coordinate reference system of every geometry: lon/lat on WGS84."""

_COMMON: Dict[str, str] = {
    "tile": "string",
    "file": "string",
    "entity": "int64",
    "def": "int64",
    "definition": "string",
    "kind": "string",
}

SCHEMAS: Dict[str, Dict[str, str]] = {
    "objects": {**_COMMON, "heading": "float64", "elevation": "float64", "mode": "string"},
    "polygons": {**_COMMON, "param": "int64", "height": "float64"},
    "lines": {**_COMMON, "winding": "int64", "param": "int64", "closed": "bool", "spacing": "float64"},
    "facades": {**_COMMON, "param": "int64", "height": "float64", "closed": "bool"},
    "forests": {**_COMMON, "param": "int64", "density": "float64", "fill_mode": "int64"},
    "chains": {**_COMMON, "subtype": "int64", "start_junction": "int64", "end_junction": "int64"},
    "vertices": {
        "tile": "string",
        "file": "string",
        "layer": "string",
        "entity": "int64",
        "ring": "int64",
        "vertex": "int64",
        "lon": "float64",
        "lat": "float64",
        "elevation": "float64",
        "junction": "float64",
        "wall": "float64",
        "u": "float64",
        "v": "float64",
        "ctrl_lon": "float64",
        "ctrl_lat": "float64",
        "ctrl_elevation": "float64",
        "ctrl_u": "float64",
        "ctrl_v": "float64",
        "normal_x": "float64",
        "normal_z": "float64",
        "beach": "float64",
    },
}
"""The columns of each table (besides ``geometry``) and their pandas
dtypes; every table has them all, whatever the tiles hold.

- every table: ``tile`` (``+47+013``, from the tile's ``sim/south`` and
  ``sim/west``), ``file`` (the path read), ``entity`` (index of the entity
  in the tile's command stream), ``def`` and ``definition`` (index and path
  in the tile's definition table), ``kind`` (the definition's extension:
  ``obj``, ``agp``, ``pol``, ``agb``, ``fac``, …; ``net`` for chains);
- ``objects`` (Points): ``heading`` (degrees clockwise from north),
  ``elevation`` (metres, NaN when draped) and ``mode`` (``draped``,
  ``msl``, ``agl``);
- ``polygons`` (``.pol``, ``.agb``, ``.ags``, ``.bch``, …; Polygons with
  holes): ``param`` and ``height`` (AGB/AGS: ``(param >> 8) * 4`` m);
- ``lines`` (``.lin``, ``.str``; LineStrings, one per winding):
  ``winding``, ``param``, ``closed`` (a ``.lin`` with the closed flag; its
  line ends where it starts) and ``spacing`` (``.str``: metres);
- ``facades``: ``param``, ``height`` (metres), ``closed``; a Polygon
  (``closed`` true) when it has 3 distinct points or more, a LineString
  (``closed`` false) when it has 2 — a single wall, all X-Plane draws of
  it. Whether a longer facade is an open chain of walls (a fence) is said
  by its ``.fac`` (``RING 0``), not by the DSF: these tables read no art,
  so it is a Polygon here (``agkit.place_dsf(..., whole_tile=True)``
  reads the ``.fac`` and gives a LineString);
- ``forests`` (Polygons in fill mode 0, else LineStrings): ``param``,
  ``density`` (0..1), ``fill_mode``;
- ``chains`` (network chains, LineStrings): ``subtype``,
  ``start_junction``, ``end_junction``;
- ``vertices`` (Points): the planes past lon/lat of every point of the
  other tables that has them, one row per point (``layer``, ``entity``,
  ``ring``, ``vertex``) with each plane as a named column (NaN where a
  point has no such plane): UV (``u``, ``v``), bezier control points
  (``ctrl_lon``, ``ctrl_lat``, …), facade ``wall`` types, chain
  ``elevation`` and ``junction``.
"""

LAYERS = ("objects", "polygons", "lines", "facades", "forests", "chains")
"""The feature tables, in order (``vertices`` holds their extra planes)."""

PathLike = Union[str, "os.PathLike[str]"]


class Table:
    """One table of features: ``columns`` (name → list of values, every
    column of its schema) and ``geometry`` (GeoJSON geometries, lon/lat),
    row by row."""

    def __init__(self, name: str, columns: Dict[str, List[Any]], geometry: List[Dict[str, Any]]) -> None:
        self.name = name
        self.columns = columns
        self.geometry = geometry

    @classmethod
    def empty(cls, name: str) -> "Table":
        return cls(name, {c: [] for c in SCHEMAS[name]}, [])

    def __len__(self) -> int:
        return len(self.geometry)

    def __repr__(self) -> str:
        return f"<agkit.dsf.Table {self.name}: {len(self)} row(s)>"

    @property
    def schema(self) -> Dict[str, str]:
        """The columns and their pandas dtypes (:data:`SCHEMAS`)."""
        return SCHEMAS[self.name]

    def records(self) -> Iterator[Dict[str, Any]]:
        """The rows as dicts (with ``geometry``)."""
        names = list(self.columns)
        for i, g in enumerate(self.geometry):
            row = {n: self.columns[n][i] for n in names}
            row["geometry"] = g
            yield row

    @property
    def __geo_interface__(self) -> Dict[str, Any]:
        names = list(self.columns)
        return {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "geometry": g,
                    "properties": {n: self.columns[n][i] for n in names},
                }
                for i, g in enumerate(self.geometry)
            ],
        }

    def to_pandas(self) -> Any:
        """The table without geometry as a pandas DataFrame of the schema's
        dtypes."""
        import pandas  # type: ignore[import-untyped,unused-ignore]

        df = pandas.DataFrame({c: pandas.Series(self.columns[c], dtype=object) for c in self.schema})
        return df.astype(self.schema)

    def to_geopandas(self) -> Any:
        """A GeoDataFrame (CRS EPSG:4326) of the schema's columns and
        dtypes plus ``geometry``. Needs geopandas."""
        import geopandas  # type: ignore[import-untyped,unused-ignore]
        from shapely.geometry import shape  # type: ignore[import-untyped,unused-ignore]

        return geopandas.GeoDataFrame(self.to_pandas(), geometry=[shape(g) for g in self.geometry], crs=CRS)

    def _extend(self, other: "Table") -> None:
        for c in self.columns:
            self.columns[c].extend(other.columns[c])
        self.geometry.extend(other.geometry)


class Tables:
    """The feature tables of one or more tiles: ``objects``, ``polygons``,
    ``lines``, ``facades``, ``forests``, ``chains`` and ``vertices``
    (:class:`Table`), and ``notes``: what was dropped to keep geometries
    valid (dicts of ``tile``, ``file``, ``entity``, ``message``)."""

    def __init__(self) -> None:
        self.objects = Table.empty("objects")
        self.polygons = Table.empty("polygons")
        self.lines = Table.empty("lines")
        self.facades = Table.empty("facades")
        self.forests = Table.empty("forests")
        self.chains = Table.empty("chains")
        self.vertices = Table.empty("vertices")
        self.notes: List[Dict[str, Any]] = []

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {len(self[n])}" for n in (*LAYERS, "vertices"))
        return f"<agkit.dsf.Tables: {counts}, notes {len(self.notes)}>"

    def __getitem__(self, name: str) -> Table:
        if name not in SCHEMAS:
            raise KeyError(f"no table {name!r}: the tables are {', '.join(SCHEMAS)}")
        table: Table = getattr(self, name)
        return table

    @property
    def tables(self) -> Dict[str, Table]:
        """Every table by name (the feature tables, then ``vertices``)."""
        return {n: self[n] for n in (*LAYERS, "vertices")}

    def __len__(self) -> int:
        """How many features (rows of the feature tables)."""
        return sum(len(self[n]) for n in LAYERS)

    @property
    def __geo_interface__(self) -> Dict[str, Any]:
        """Every feature of the feature tables as one FeatureCollection,
        with a ``layer`` property."""
        features = []
        for n in LAYERS:
            for f in self[n].__geo_interface__["features"]:
                f["properties"]["layer"] = n
                features.append(f)
        return {"type": "FeatureCollection", "features": features}

    def to_geopandas(self) -> Any:
        """One GeoDataFrame (EPSG:4326) of every feature: a ``layer``
        column, then the columns of every feature table (missing where a
        table has no such column). Needs geopandas; each table's own
        ``to_geopandas()`` keeps its dtypes strictly."""
        import geopandas  # type: ignore[import-untyped,unused-ignore]
        import pandas  # type: ignore[import-untyped,unused-ignore]

        frames = []
        for n in LAYERS:
            gdf = self[n].to_geopandas()
            gdf.insert(0, "layer", pandas.Series([n] * len(gdf), dtype="string"))
            frames.append(gdf)
        out = pandas.concat(frames, ignore_index=True)
        return geopandas.GeoDataFrame(out, geometry="geometry", crs=CRS)

    def invalid(self) -> List[Dict[str, Any]]:
        """The rows whose geometry shapely finds invalid, and why: dicts of
        ``table``, ``row``, ``tile``, ``file``, ``entity`` and ``reason``
        (``shapely.is_valid_reason``). A geometry agkit builds is closed and
        has enough points; what is left is what the data draws, such as
        an outline crossing itself. Needs shapely."""
        import shapely  # type: ignore[import-untyped,unused-ignore]
        from shapely.geometry import shape  # type: ignore[import-untyped,unused-ignore]

        out = []
        for n in LAYERS:
            table = self[n]
            geoms = [shape(g) for g in table.geometry]
            if not geoms:
                continue
            for i in [int(i) for i, ok in enumerate(shapely.is_valid(geoms)) if not ok]:
                out.append(
                    {
                        "table": n,
                        "row": i,
                        "tile": table.columns["tile"][i],
                        "file": table.columns["file"][i],
                        "entity": table.columns["entity"][i],
                        "reason": shapely.is_valid_reason(geoms[i]),
                    }
                )
        return out

    def notes_frame(self) -> Any:
        """``notes`` as a pandas DataFrame (``tile``, ``file``, ``entity``,
        ``message``)."""
        import pandas  # type: ignore[import-untyped,unused-ignore]

        cols = {"tile": "string", "file": "string", "entity": "int64", "message": "string"}
        return pandas.DataFrame(self.notes, columns=list(cols)).astype(cols)

    def extend(self, other: "Tables") -> None:
        """Appends another tile's tables."""
        for n in (*LAYERS, "vertices"):
            self[n]._extend(other[n])
        self.notes.extend(other.notes)


# Feature fields (agkit's Rust names) and the column each fills.
_FIELDS = {
    "objects": ("heading", "elevation", "mode"),
    "polygons": ("param", "height"),
    "lines": ("winding", "param", "closed", "spacing"),
    "facades": ("param", "height", "closed"),
    "forests": ("param", "density", "fill_mode"),
}
_NAN = float("nan")


def _rings(geometry: Mapping[str, Any]) -> List[Sequence[Any]]:
    """The point lists of a geometry as the extra planes follow them: a
    polygon's rings without their closing point, a line's points (a closed
    line without its last)."""
    t, c = geometry["type"], geometry["coordinates"]
    if t == "Point":
        return [[c]]
    if t == "Polygon":
        return [r[:-1] for r in c]
    return [c]


def _tables(raw: Mapping[str, Any], file: str) -> Tables:
    """The :class:`Tables` of one tile's raw features (``Dsf.features()``)."""
    out = Tables()
    tile = raw["tile"]
    vt = out.vertices.columns
    for f in raw["features"]:
        layer = f["layer"]
        table = out[layer]
        cols = table.columns
        cols["tile"].append(tile)
        cols["file"].append(file)
        cols["entity"].append(f["entity"])
        cols["def"].append(f["def"])
        cols["definition"].append(f["definition"])
        cols["kind"].append(f["kind"])
        if layer == "chains":
            start, end = f["junctions"]
            cols["subtype"].append(f["subtype"])
            cols["start_junction"].append(start)
            cols["end_junction"].append(end)
        else:
            for name in _FIELDS[layer]:
                v = f[name]
                if name == "closed" and v is None:
                    v = False
                if v is None and table.schema[name] == "float64":
                    v = _NAN
                cols[name].append(v)
        geometry = f["geometry"]
        table.geometry.append(geometry)
        planes = f["planes"]
        if planes:
            extra = f["extra"]
            k = len(planes)
            at = 0
            for ring, points in enumerate(_rings(geometry)):
                if layer == "lines" and f["closed"]:
                    points = points[:-1]
                for vertex, (lon, lat) in enumerate(points):
                    values = extra[at : at + k]
                    at += k
                    vt["tile"].append(tile)
                    vt["file"].append(file)
                    vt["layer"].append(layer)
                    vt["entity"].append(f["entity"])
                    vt["ring"].append(f["winding"] if layer == "lines" else ring)
                    vt["vertex"].append(vertex)
                    vt["lon"].append(lon)
                    vt["lat"].append(lat)
                    named = dict(zip(planes, values))
                    for c in list(SCHEMAS["vertices"])[8:]:
                        vt[c].append(named.get(c, _NAN))
                    out.vertices.geometry.append({"type": "Point", "coordinates": (lon, lat)})
    for n in raw["notes"]:
        out.notes.append({"tile": tile, "file": file, "entity": n["entity"], "message": n["message"]})
    return out


def dsf_paths(*sources: Union[PathLike, Iterable[PathLike]]) -> List[Path]:
    """The DSF files `sources` name: a file as it is, a folder's ``.dsf``
    files at any depth (any letter case), a glob pattern's matches (``*``,
    ``?``, ``[``; ``**`` at any depth), or an iterable of those; sorted,
    each once. A name that matches nothing raises ``FileNotFoundError``."""
    out: List[Path] = []
    for s in sources:
        if not isinstance(s, (str, os.PathLike)):
            out.extend(dsf_paths(*s))
            continue
        text = os.fspath(s)
        p = Path(text)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() == ".dsf" and q.is_file()))
        elif p.exists():
            out.append(p)
        elif _glob.has_magic(text):
            hits = [Path(h) for h in _glob.glob(text, recursive=True)]
            if not hits:
                raise FileNotFoundError(2, "No file matches the pattern", text)
            out.extend(sorted(h for h in hits if h.is_file()))
        else:
            raise FileNotFoundError(2, "No such file or directory", text)
    seen: Dict[Path, None] = {}
    for p in out:
        seen.setdefault(p, None)
    return sorted(seen)


def read_tables(*sources: Union[PathLike, Iterable[PathLike]], threads: Optional[int] = None) -> Tables:
    """The :class:`Tables` of every DSF that `sources` name (files,
    folders, glob patterns: :func:`dsf_paths`), concatenated in path order.
    Tiles are read on `threads` threads (default: the machine's cores; the
    reading releases the GIL). A damaged tile raises its
    ``agkit.ParseError``."""
    paths = dsf_paths(*sources)
    out = Tables()
    if not paths:
        return out
    from concurrent.futures import ThreadPoolExecutor

    def one(p: Path) -> Tables:
        d = read(p)
        return _tables(d.features(), str(p))

    workers = threads or min(len(paths), os.cpu_count() or 1)
    if workers <= 1:
        for p in paths:
            out.extend(one(p))
        return out
    with ThreadPoolExecutor(workers) as pool:
        for t in pool.map(one, paths):
            out.extend(t)
    return out


__all__ = [
    "CRS",
    "Dsf",
    "Entities",
    "LAYERS",
    "SCHEMAS",
    "Table",
    "Tables",
    "autogen",
    "build",
    "dsf_paths",
    "extract_overlay",
    "filter",
    "merge",
    "props",
    "rasters",
    "read",
    "read_tables",
    "to_text",
]
