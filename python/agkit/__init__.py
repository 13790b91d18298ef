"""agkit: read, check and place X-Plane and FSX autogen scenery.

The Python face of the agkit Rust library::

    import agkit

    asset = agkit.read_asset("plaza.agp")        # AGP, AGB or AGS
    placement = agkit.place(asset, at=(47.5, 13.0, 30))
    placement.objects                             # list of dicts
    placement.__geo_interface__                   # GeoJSON, for shapely/geopandas

    agkit.check("tile.dsf")                       # list[agkit.Diagnostic]
    agkit.check_table("tile.dsf").to_pandas()     # the same as one Arrow table
    agkit.fmt(text)                               # canonical autogen text

    tile = agkit.dsf.read("+47+013.dsf")          # agkit.dsf: DSF and DSF2Text
    cells = agkit.agn.read("001332223121112an.agn")  # agkit.agn: FSX AGN, LOD13 cells

    placed = agkit.place_dsf("+47+013.dsf", scenery="My Scenery", library=["Libs"])
    xp = agkit.scenery.Installation("X-Plane 12")  # agkit.scenery: installations
    xp.at(47.5, 13.0, radius=300)                  # what is placed there, resolved
    agkit.overlay.build(gdf, "rules.toml", "out")  # agkit.overlay: GIS -> DSF overlays

Functions taking a *source* accept a path (``str`` or ``os.PathLike``), the
file's ``bytes``, or its text (a ``str`` holding a line break). Long work
runs with the GIL released. Errors are :class:`agkit.Error` subclasses.
"""

from . import agn, dsf, overlay, scenery
from ._agkit import (
    ArrowTable,
    Asset,
    Diagnostic,
    ParquetWriter,
    Placement,
    TilePlacement,
    __version__,
    check,
    check_table,
    fmt,
    place,
    empty_table,
    place_dsf,
    read_asset,
)
from ._errors import (
    BuildError,
    CellError,
    Error,
    InternalError,
    ParseError,
    PlaceError,
    SceneryError,
)

__all__ = [
    "ArrowTable",
    "Asset",
    "BuildError",
    "CellError",
    "Diagnostic",
    "Error",
    "InternalError",
    "ParquetWriter",
    "ParseError",
    "PlaceError",
    "Placement",
    "SceneryError",
    "TilePlacement",
    "__version__",
    "agn",
    "check",
    "check_table",
    "dsf",
    "empty_table",
    "fmt",
    "overlay",
    "place",
    "place_dsf",
    "read_asset",
    "scenery",
]
