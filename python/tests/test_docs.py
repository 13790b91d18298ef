"""The Python in python/README.md and docs/python.md runs, and the shown
outputs of the example scripts are what they print."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

DOCS = [REPO / "python" / "README.md", REPO / "docs" / "python.md"]


def blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_python_blocks_run(doc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = blocks(doc, "python")
    assert code
    monkeypatch.chdir(REPO)
    for block in code:
        if "geopandas" in block:
            pytest.importorskip("geopandas")
        if "dask" in block:
            pytest.importorskip("dask.distributed")
            pytest.importorskip("pyarrow")
        exec(compile(block, str(doc), "exec"), {"__name__": "doc"})


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


def test_the_rust_version_named_is_the_crates() -> None:
    """python/README.md names the Rust the crates say they need."""
    need = set()
    for toml in (REPO / "Cargo.toml", REPO / "python" / "Cargo.toml"):
        need |= set(re.findall(r'^rust-version = "([0-9.]+)"', toml.read_text(encoding="utf-8"), re.M))
    assert len(need) == 1, need
    readme = (REPO / "python" / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"Rust toolchain \(([0-9.]+)\s+or newer", readme)
    assert named == list(need)
