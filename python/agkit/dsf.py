"""X-Plane DSF tiles (binary, plain or 7z-compressed) and DSF2Text.

``read`` decodes a tile into a :class:`Dsf`; ``to_text`` and ``build`` go
between binary DSF and DSFTool's text form; ``autogen`` lists a tile's
autogen uses as GeoJSON (``geopandas.GeoDataFrame.from_features`` takes it).
"""

from ._agkit import Dsf, Entities
from ._agkit import dsf_autogen as autogen
from ._agkit import dsf_build as build
from ._agkit import dsf_read as read
from ._agkit import dsf_to_text as to_text

__all__ = ["Dsf", "Entities", "autogen", "build", "read", "to_text"]
