"""FSX/P3D AGN autogen files and their LOD13 cells.

``read`` gives an :class:`Agn` (lossless: ``write`` gives back the same
bytes); ``cell_name`` and ``cell_bounds`` go between positions and LOD13
cell names (the AGN file names).
"""

from ._agkit import Agn, cell_bounds, cell_name
from ._agkit import agn_read as read
from ._agkit import agn_write as write

__all__ = ["Agn", "cell_bounds", "cell_name", "read", "write"]
