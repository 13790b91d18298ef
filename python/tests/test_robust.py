"""Bad input gets an agkit.Error naming where, never a panic, a crash or
another exception: mutated and truncated real files through every reader."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import pytest

import agkit
from agkit import _agkit

from conftest import CORPUS, EXAMPLES, FIXTURES, corpus_files

DSFS = [EXAMPLES / "dsf" / "autogen_demo.dsf", *corpus_files("dsf")]
TEXTS = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".agp", ".agb", ".ags"))
AGN = EXAMPLES / "agn" / "001332223121112an.agn"


def mutations(data: bytes, seed: int, count: int) -> list[bytes]:
    """Truncations and byte flips of `data`, the same every run."""
    r = random.Random(seed)
    out = [data[:n] for n in sorted({r.randrange(len(data)) for _ in range(count // 2)})]
    for _ in range(count - len(out)):
        b = bytearray(data)
        for _ in range(r.randint(1, 8)):
            b[r.randrange(len(b))] = r.choice([0, 0xFF, 0x7F, 0x80, r.randrange(256)])
        out.append(bytes(b))
    return out


def survives(read: Callable[[bytes], object], data: bytes) -> None:
    """`read(data)` returns, or raises a ParseError naming its place."""
    try:
        read(data)
    except agkit.ParseError as e:
        assert e.code, e
        # A place in the file, or the whole file: bytes that are another
        # kind of file (a mutation that breaks the header and adds a NUL
        # byte is "a binary file"), as check reports them.
        assert e.offset is not None or e.line is not None or (e.code == "AG0001" and e.column is None), e
        assert e.file in ("<bytes>", "<text>")


@pytest.mark.parametrize("path", DSFS, ids=[p.name for p in DSFS])
def test_mutated_dsf_tiles(path: Path) -> None:
    data = path.read_bytes()
    for m in mutations(data, seed=len(data), count=150):
        survives(agkit.dsf.read, m)
        if m.startswith(b"XPLNEDSF"):  # else `check` reads it as text
            for d in agkit.check(m):
                assert d.code.startswith("DSF") and d.line is None
                # Read errors point at a byte; content warnings may be about
                # the whole file.
                assert d.offset is not None or not d.is_error


def test_mutated_agn() -> None:
    data = AGN.read_bytes()
    for m in mutations(data, seed=1, count=400):
        survives(agkit.agn.read, m)


def test_mutated_autogen_text() -> None:
    files = TEXTS + sorted((FIXTURES / "xp").iterdir())[::7] + corpus_files("agp")[::9]
    for path in files:
        data = path.read_bytes()
        for m in mutations(data, seed=len(data), count=40):
            survives(agkit.read_asset, m)
            for d in agkit.check(m):
                # A place in the file, or the whole file (a mutation that
                # breaks the header and adds a NUL byte is "a binary file").
                assert (d.line is not None and d.line >= 1) or (
                    d.line is None and d.column is None and d.code == "AG0001"
                )
            try:
                text = m.decode("utf-8")
            except UnicodeDecodeError:
                continue
            try:
                out = agkit.fmt(text)
            except agkit.ParseError as e:
                assert e.line is not None
            else:
                assert agkit.fmt(out) == out


def test_dsf2text_lines_with_hostile_values() -> None:
    head = "I\n800\nDSF2TEXT\nPROPERTY sim/west 13\nPROPERTY sim/east 14\nPROPERTY sim/south 47\nPROPERTY sim/north 48\nOBJECT_DEF a.obj\n"
    for line in [
        "OBJECT 0 nan 47.5 0",
        "OBJECT 0 13.5 inf 0",
        "OBJECT 0 1e309 47.5 0",
        "OBJECT -1 13.5 47.5 0",
        "OBJECT 99999999999999999999 13.5 47.5 0",
        "OBJECT 0 13.5",
        "BEGIN_POLYGON 0 0 2",
        "POLYGON_POINT 13.5 47.5",
        "BEGIN_PATCH 0 0 -1 1 5",
        "RASTER_DATA version=1 bpp=99999999 width=99999999 height=99999999 scale=1 offset=0 x.raw",
    ]:
        try:
            agkit.dsf.build(head + line + "\n")
        except (agkit.ParseError, agkit.BuildError) as e:
            assert e.code in ("DSF030", "DSF031"), e


def test_a_panic_inside_agkit_is_an_internal_error() -> None:
    with pytest.raises(agkit.InternalError) as e:
        _agkit._panic_for_tests()
    assert "deliberate panic" in str(e.value)
    assert isinstance(e.value, agkit.Error)
    # The module still works afterwards.
    assert agkit.agn.cell_name(0.0, 0.0)


def test_error_classes() -> None:
    for cls in (agkit.ParseError, agkit.BuildError, agkit.PlaceError, agkit.CellError, agkit.InternalError):
        assert issubclass(cls, agkit.Error) and issubclass(cls, Exception)
    assert issubclass(agkit.PlaceError, ValueError) and issubclass(agkit.CellError, ValueError)
    assert not issubclass(agkit.ParseError, ValueError)
    e = agkit.ParseError("m", file="f", line=3, column=4, code="AG0001")
    assert (str(e), e.file, e.line, e.column, e.offset, e.code, e.diagnostics) == ("m", "f", 3, 4, None, "AG0001", [])
