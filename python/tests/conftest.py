"""Shared paths and fixtures: the bundled examples (../examples) and the
real corpus (../shared/corpus, listed in its MANIFEST.tsv)."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "fixtures"
CORPUS = REPO.parent / "shared" / "corpus"


def corpus_files(fmt: str) -> list[Path]:
    """The corpus files of one MANIFEST format (`agp`, `dsf`, `txt`...)."""
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    files = [CORPUS / r["local_path"] for r in rows if r["format"] == fmt]
    assert files, f"no {fmt} files in the corpus manifest"
    return files


def corpus_ids(files: list[Path]) -> list[str]:
    return [str(p.relative_to(CORPUS)) for p in files]


DAMAGED_DSF = CORPUS / "medmatix__XPStarbase/Earth nav data/+20-100/+26-098.dsf"


@pytest.fixture(scope="session")
def cli() -> Path:
    """The agkit command line built from this tree (debug or release), to
    hold the binding to the CLI's answers; tests using it are skipped when
    it has not been built."""
    for profile in ("debug", "release"):
        exe = REPO / "target" / profile / "agkit"
        if exe.is_file():
            return exe
    found = shutil.which("agkit")
    if found is None:
        pytest.skip("the agkit binary is not built (cargo build)")
    return Path(found)


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cli), *args], capture_output=True, text=True, cwd=REPO)
