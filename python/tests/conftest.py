"""Shared paths and fixtures: the bundled examples (../examples) and the
real corpus (listed in its MANIFEST.tsv).

The tests that read the real corpus are marked ``corpus`` and run only with
``--corpus``: a plain clone runs ``pytest python/tests`` with nothing beside
it. The corpus is found at ``AGKIT_CORPUS`` (default ``../shared/corpus``
beside the repository); with ``--corpus`` and no corpus there, the run stops
at once naming the path it looked for, rather than passing on no files."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "fixtures"
CORPUS = Path(os.environ.get("AGKIT_CORPUS") or REPO.parent / "shared" / "corpus")

# Set from --corpus when pytest starts, before any test module is collected.
RUN_CORPUS = False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--corpus",
        action="store_true",
        help="also run the tests that read the real-file corpus (AGKIT_CORPUS, default ../shared/corpus)",
    )


def pytest_configure(config: pytest.Config) -> None:
    global RUN_CORPUS
    config.addinivalue_line("markers", "corpus: reads the real-file corpus; runs with --corpus")
    RUN_CORPUS = bool(config.getoption("--corpus"))
    if RUN_CORPUS and not (CORPUS / "MANIFEST.tsv").is_file():
        raise pytest.UsageError(
            f"--corpus: the real-file corpus is missing: no {CORPUS / 'MANIFEST.tsv'} "
            "(set AGKIT_CORPUS to the corpus folder)"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if RUN_CORPUS:
        return
    kept = [i for i in items if i.get_closest_marker("corpus") is None]
    dropped = [i for i in items if i.get_closest_marker("corpus") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def corpus_files(fmt: str) -> list[Path]:
    """The corpus files of one MANIFEST format (`agp`, `dsf`, `txt`...);
    none unless the run reads the corpus (--corpus)."""
    if not RUN_CORPUS:
        return []
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
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    if not target.is_absolute():
        target = REPO / target
    for profile in ("debug", "release"):
        exe = target / profile / "agkit"
        if exe.is_file():
            return exe
    found = shutil.which("agkit")
    if found is None:
        pytest.skip("the agkit binary is not built (cargo build)")
    return Path(found)


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cli), *args], capture_output=True, text=True, cwd=REPO)
