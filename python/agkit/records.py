"""The records agkit returns, as TypedDicts: mypy knows their keys, so a
typo such as ``o["lng"]`` is an error, and their value types.

They are plain ``dict``s at run time; these classes only describe them.
"""

from __future__ import annotations

import sys
from typing import List, Optional, Tuple

if sys.version_info >= (3, 11):
    from typing import Literal, TypedDict
else:  # pragma: no cover - 3.9 and 3.10
    from typing_extensions import Literal, TypedDict

Point = Tuple[float, ...]


class _PlacedObjectBase(TypedDict):
    tile: int
    asset: str
    index: int
    mode: str
    x: float
    y: float
    lon: float
    lat: float
    heading: float
    height: float
    show: Optional[Tuple[int, int]]
    source_line: int


class PlacedObject(_PlacedObjectBase, total=False):
    """An object of ``Placement.objects``: its OBJ (``asset``), position in
    local metres (``x``, ``y``) and lon/lat, ``heading``, ``height`` and
    the AGP line it came from; with the art read, ``art``, ``footprint``,
    ``footprint_lonlat`` and ``object_height``."""

    kind: str
    art: str
    footprint: List[Tuple[float, float]]
    footprint_lonlat: List[Tuple[float, float]]
    object_height: float


class _PlacedTreeBase(TypedDict):
    tile: Optional[int]
    x: float
    y: float
    lon: float
    lat: float
    width: float
    layer: int
    heading: float
    source_line: int


class PlacedTree(_PlacedTreeBase, total=False):
    """A tree of ``Placement.trees``."""

    kind: str
    art: str
    height: float
    forest_tree: int
    tree_name: str


DsfObject = TypedDict(  # `def` is a keyword: the functional form
    "DsfObject",
    {
        "def": int,
        "asset": Optional[str],
        "lon": float,
        "lat": float,
        "heading": float,
        "elevation": Optional[float],
        "mode": Literal["draped", "msl", "agl"],
    },
)
# DsfObject: An object of ``Dsf.objects()``: definition index, its path, position, heading, elevation.

DsfPolygon = TypedDict(
    "DsfPolygon",
    {"def": int, "asset": Optional[str], "param": int, "depth": int, "windings": List[List[Point]]},
)
# DsfPolygon: A polygon of ``Dsf.polygons()``: its windings, each a list of points of ``depth`` planes.

DsfChain = TypedDict(
    "DsfChain",
    {"def": int, "network": Optional[str], "subtype": int, "depth": int, "points": List[Point]},
)
# DsfChain: A network chain of ``Dsf.chains()``.


class Finding(TypedDict):
    """A finding of ``Installation.check()``."""

    code: str
    severity: Literal["error", "warning", "note"]
    message: str


class PlacementWarning(TypedDict):
    """A warning of a placement (``Placement.warning_details``): its
    message and the diagnostic codes it reports (empty when no rule
    does)."""

    message: str
    codes: list[str]


__all__ = ["DsfChain", "DsfObject", "DsfPolygon", "Finding", "PlacedObject", "PlacedTree", "PlacementWarning"]
