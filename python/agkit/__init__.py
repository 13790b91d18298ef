"""agkit: read, check and place X-Plane and FSX autogen scenery.

The Python face of the agkit Rust library::

    import agkit

    asset = agkit.read_asset("plaza.agp")        # AGP, AGB or AGS
    placement = agkit.place(asset, at=(47.5, 13.0, 30))
    placement.objects                             # list of dicts
    placement.__geo_interface__                   # GeoJSON, for shapely/geopandas

    agkit.check("tile.dsf")                       # list[agkit.Diagnostic]
    agkit.fmt(text)                               # canonical autogen text

    tile = agkit.dsf.read("+47+013.dsf")          # agkit.dsf: DSF and DSF2Text
    cells = agkit.agn.read("001332223121112an.agn")  # agkit.agn: FSX AGN, LOD13 cells

Functions taking a *source* accept a path (``str`` or ``os.PathLike``), the
file's ``bytes``, or its text (a ``str`` holding a line break). Long work
runs with the GIL released. Errors are :class:`agkit.Error` subclasses.
"""

from . import agn, dsf
from ._agkit import (
    Asset,
    Diagnostic,
    Placement,
    __version__,
    check,
    fmt,
    place,
    read_asset,
)
from ._errors import (
    BuildError,
    CellError,
    Error,
    InternalError,
    ParseError,
    PlaceError,
)

__all__ = [
    "Asset",
    "BuildError",
    "CellError",
    "Diagnostic",
    "Error",
    "InternalError",
    "ParseError",
    "PlaceError",
    "Placement",
    "__version__",
    "agn",
    "check",
    "dsf",
    "fmt",
    "place",
    "read_asset",
]
