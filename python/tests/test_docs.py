"""Every Python code block in README.md, python/README.md and docs/*.md runs
as written, as a script: each is saved to a file in a fresh temporary
folder and run with ``python FILE.py`` in a subprocess (from the repository
root, where the docs say to run them), so what breaks only outside a REPL
(a ``dask.distributed`` cluster started without a ``__main__`` guard, a
name a previous block defined) breaks here too.

A block's shown output is the ```` ```output ```` block right after it: the
script's standard output must match it, ``...`` standing for any text (as
doctest's ELLIPSIS). The shell transcripts of the example scripts
(```` ```sh ```` blocks starting ``$ python``) are run and compared the
same way."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

DOCS = sorted([REPO / "README.md", REPO / "python" / "README.md", *(REPO / "docs").glob("*.md")])

# A fenced block: its info string and its text.
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
PYTHON = {"python", "py", "python3"}


def fenced(path: Path) -> list[tuple[str, str]]:
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(path.read_text(encoding="utf-8"))]


def python_blocks(path: Path) -> list[tuple[str, str | None]]:
    """The Python blocks of a doc, each with the output shown after it (or
    None)."""
    blocks = fenced(path)
    out: list[tuple[str, str | None]] = []
    for i, (info, text) in enumerate(blocks):
        if info.split(" ")[0] not in PYTHON:
            continue
        shown = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "output" else None
        out.append((text, shown))
    return out


def blocks(path: Path, lang: str) -> list[str]:
    return [text for info, text in fenced(path) if info == lang]


CASES = [(doc, i, code, shown) for doc in DOCS for i, (code, shown) in enumerate(python_blocks(doc))]


def matches(shown: str, printed: str) -> bool:
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return checker.check_output(shown, printed, flags)


def test_the_docs_have_python_blocks() -> None:
    """The collector finds the blocks (a fence change would silently run
    none)."""
    names = {doc.name for doc, *_ in CASES}
    assert {"README.md", "python.md"} <= names, names
    assert len(CASES) >= 7


@pytest.mark.parametrize(
    ("doc", "index", "code", "shown"),
    CASES,
    ids=[f"{doc.relative_to(REPO)}#{i}" for doc, i, _, _ in CASES],
)
def test_python_block_runs_as_a_script(doc: Path, index: int, code: str, shown: str | None, tmp_path: Path) -> None:
    if "geopandas" in code:
        pytest.importorskip("geopandas")
    if "dask" in code:
        pytest.importorskip("dask.distributed")
        pytest.importorskip("pyarrow")
    script = tmp_path / f"{doc.stem}_{index}.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "MPLBACKEND": "Agg"}
    run = subprocess.run(
        [sys.executable, str(script)], cwd=REPO, capture_output=True, text=True, timeout=600, env=env
    )
    assert run.returncode == 0, f"{doc.name} block {index} failed as a script:\n{code}\n--- stderr:\n{run.stderr}"
    if shown is not None:
        assert matches(shown, run.stdout), f"{doc.name} block {index} printed:\n{run.stdout}\nthe doc shows:\n{shown}"


def test_shown_script_outputs_are_what_the_scripts_print() -> None:
    shown = 0
    for block in blocks(REPO / "docs" / "python.md", "sh"):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ python "):
            continue
        args = shlex.split(lines[0][2:])
        if "geopandas" in args[1]:
            pytest.importorskip("geopandas")
        out = subprocess.run([sys.executable, *args[1:]], cwd=REPO, capture_output=True, text=True, check=True)
        assert out.stdout.splitlines() == lines[1:]
        shown += 1
    assert shown == 2


def test_ellipsis_and_mismatch() -> None:
    """The comparison can fail: a different value is a mismatch, `...`
    stands only for text."""
    assert matches("a ... c\n", "a b c\n")
    assert not matches("[{'code': 'SCN001', ...}]\n", "[]\n")


def test_the_rust_version_named_is_the_crates() -> None:
    """python/README.md names the Rust the crates say they need."""
    need = set()
    for toml in (REPO / "Cargo.toml", REPO / "python" / "Cargo.toml"):
        need |= set(re.findall(r'^rust-version = "([0-9.]+)"', toml.read_text(encoding="utf-8"), re.M))
    assert len(need) == 1, need
    readme = (REPO / "python" / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"Rust toolchain \(([0-9.]+)\s+or newer", readme)
    assert named == list(need)
