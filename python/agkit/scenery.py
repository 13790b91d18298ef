"""X-Plane installations: which packages load in which order, what a path
a DSF names resolves to, what the packages place near a point, and every
autogen use of a tile placed through them.

``Installation(path, *, drefs=None, season=None)`` opens the X-Plane folder
(or its Custom Scenery folder) as the simulator reads it; ``.at()``,
``.check()``, ``.conflicts()``, ``.resolve()`` and ``.place_tile()`` give
what ``agkit scenery at``, ``agkit scenery check``, ``agkit scenery
conflicts``, ``agkit scenery resolve`` and ``agkit place --dsf`` print as
JSON. ``Scenery(package, library)`` is the
same for a package and its library folders (``--scenery``/``--library``):
``.resolve()`` and ``.place_tile()``.
"""

from ._agkit import AtReport, CheckReport, ConflictReport, Installation, Resolution, Scenery, TilePlacement

__all__ = ["AtReport", "CheckReport", "ConflictReport", "Installation", "Resolution", "Scenery", "TilePlacement"]
