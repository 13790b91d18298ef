"""The exceptions agkit raises about its inputs.

Every one is an :class:`Error` and carries where the problem is: ``file``,
``line`` and ``column`` (text files, 1-based), ``offset`` (bytes into a
binary file), ``code`` (the stable diagnostic code, e.g. ``AG0012``,
``DSF004``, ``AGN003``) and, for a text file with errors, every
``diagnostics`` record. Fields that do not apply are ``None``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from ._agkit import Diagnostic


class Error(Exception):
    """Base class of agkit's errors."""

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    code: Optional[str]
    diagnostics: list[Diagnostic]

    def __init__(
        self,
        message: str,
        *,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        offset: Optional[int] = None,
        code: Optional[str] = None,
        diagnostics: Sequence[Diagnostic] = (),
    ) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
        self.code = code
        self.diagnostics = list(diagnostics)


class ParseError(Error):
    """An input could not be read: an autogen file with errors, a damaged
    DSF or AGN, DSF2Text that DSFTool would refuse."""


class BuildError(Error):
    """A model could not be written as a DSF or AGN file."""


class PlaceError(Error, ValueError):
    """The asset cannot be placed there (wrong kind of use, a polygon that
    does not fit, an asset without tiles...)."""


class CellError(Error, ValueError):
    """Not a LOD13 cell name, or a position outside the world."""


class SceneryError(Error):
    """An X-Plane installation or library folder cannot be used: not an
    installation, no ``library.txt``, a file where a folder is wanted."""


class InternalError(Error):
    """agkit failed inside (a bug): please report it with the input."""
