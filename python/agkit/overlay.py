"""From GIS data to X-Plane scenery: DSF overlay tiles that place autogen on
GeoJSON features (``agkit overlay build``)."""

from __future__ import annotations

import json
import os
from typing import Any, Literal, Mapping, Optional, Union

from ._agkit import overlay_build

__all__ = ["build"]


def _plain(value: Any) -> Any:
    """JSON for the values GIS libraries put in properties (numpy scalars
    and arrays, dates)."""
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if hasattr(value, "tolist") and callable(value.tolist):
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def build(
    features: Union[str, "os.PathLike[str]", Mapping[str, Any], Any],
    rules: Union[str, "os.PathLike[str]", Mapping[str, Any]],
    out_dir: Union[str, "os.PathLike[str]"],
    *,
    base: Union[str, "os.PathLike[str]", None] = None,
    preview: Optional[Literal["svg", "png"]] = None,
    lenient: bool = False,
) -> dict[str, Any]:
    """Builds DSF overlay tiles placing autogen on GeoJSON features into the
    scenery folder ``out_dir`` (``Earth nav data/…`` and
    ``overlay-report.json``), as ``agkit overlay build`` does, and returns
    the report (the content of ``overlay-report.json``): ``features``,
    ``used``, ``skipped``, ``placed``, ``tiles``, ``warnings``.

    ``features`` is a GeoJSON FeatureCollection (or Feature) as a dict, a
    path to a ``.geojson`` file, or anything with ``__geo_interface__``
    (a ``geopandas.GeoDataFrame``); coordinates are lon/lat. ``rules`` is
    the rules file (a path), its TOML text, or the same as a dict (see
    docs/overlay.md). ``preview_file`` paths in the rules are relative to
    ``base``: by default the rules file's folder, else the current folder.
    ``preview`` writes one picture per tile into ``out_dir/preview``:
    ``"svg"``, or ``"png"`` for SVG and PNG. ``lenient`` skips invalid
    features (reported) instead of failing.

    Raises ``agkit.ParseError`` for features or rules that cannot be used
    (every problem named), ``agkit.BuildError`` when a tile cannot be
    written (or the folder holds a tile agkit did not write), ``OSError``
    when a file cannot be read or written. Nothing is written on error.
    """
    if hasattr(features, "__geo_interface__") and not isinstance(features, Mapping):
        features = features.__geo_interface__
    if isinstance(features, Mapping):
        # A line break marks the string as the text, not a path.
        features = json.dumps(features, default=_plain) + "\n"
    elif isinstance(features, str) and "\n" not in features and features.lstrip().startswith("{"):
        features = features + "\n"
    return overlay_build(features, rules, out_dir, base=base, preview=preview, lenient=lenient)
