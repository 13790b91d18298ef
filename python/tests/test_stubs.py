"""The .pyi stubs describe exactly what the extension has, every public
item has a docstring, and the package's modules export what they say."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import agkit
import pytest
from agkit import _agkit

STUB = Path(_agkit.__file__).with_name("_agkit.pyi")
if not STUB.is_file():  # an installed wheel keeps it beside the package
    STUB = Path(agkit.__file__).with_name("_agkit.pyi")

ALIASES = {"Source", "GeoJSON", "Record", "FloatArray", "Numbers", "Rings"}


def stub_items() -> dict[str, set[str] | None]:
    """Top-level names of the stub: a class maps to its member names."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    out: dict[str, set[str] | None] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            for base in node.bases:  # a stub class inherits its base's members
                if isinstance(base, ast.Name) and isinstance(out.get(base.id), set):
                    members |= out[base.id] or set()
            out[node.name] = members
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = None
    return {k: v for k, v in out.items() if k not in ALIASES}


def public(names: list[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_stubs_name_exactly_the_extension() -> None:
    stubs = stub_items()
    runtime = public(dir(_agkit)) | {"__version__"}
    assert set(stubs) == runtime
    for name, members in stubs.items():
        obj = getattr(_agkit, name)
        if members is None:
            continue
        have = public(dir(obj)) | {m for m in ("__geo_interface__", "__iter__", "__next__", "__len__", "__new__", "__enter__", "__exit__", "__arrow_c_stream__", "__arrow_c_schema__") if m in vars(obj)}
        if "__new__" not in members:
            # An abi3 (stable ABI) class has a `__new__` slot whether or not
            # it can be made from Python; stubtest checks the real ones.
            have.discard("__new__")
        assert members == have, name


def test_every_public_item_is_documented() -> None:
    for name in public(dir(_agkit)):
        obj = getattr(_agkit, name)
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj):
            for m in public(dir(obj)) - {"count", "index"}:
                assert inspect.getdoc(getattr(obj, m)), f"{name}.{m}"


def test_the_modules_export_what_they_list() -> None:
    for module in (agkit, agkit.dsf, agkit.agn, agkit.scenery, agkit.overlay):
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{module.__name__}.{name}"
    assert agkit.dsf.read is _agkit.dsf_read and agkit.agn.write is _agkit.agn_write
    assert agkit.__version__ == "0.1.0"
    assert (Path(agkit.__file__).parent / "py.typed").is_file()


def test_stubtest_finds_the_stubs_true(tmp_path: Path) -> None:
    """mypy's stubtest: every signature, default and property of the stub
    is the extension's, and mypy can read the stub at all (a method named
    ``property`` once hid the decorator from the members after it)."""
    import subprocess
    import sys

    pytest.importorskip("mypy.stubtest")
    allowlist = Path(__file__).with_name("stubtest-allowlist.txt")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "agkit", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        # Not the repository root, whose python/agkit has no extension.
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_knows_the_record_keys_and_takes_numpy(tmp_path: Path) -> None:
    """Records are TypedDicts: a key typo is a mypy error; numpy arrays
    type-check where sequences are taken; the DSF tables are typed."""
    import subprocess
    import sys

    pytest.importorskip("mypy")
    good = tmp_path / "good.py"
    good.write_text(
        "import numpy\nimport agkit\n"
        "p = agkit.place('a.agp', at=numpy.array([47.5, 13.0]))\n"
        "lon: float = p.objects[0]['lon']\n"
        "q = agkit.place('a.agb', polygon=[numpy.array([[13.0, 47.0], [13.1, 47.0], [13.1, 47.1]])])\n"
        "r = agkit.place('a.agp', at={'lat': 47.5, 'lon': 13.0})\n"
        "t = agkit.dsf.read('t.dsf').tables()\n"
        "n: int = len(t.objects)\n"
        "for o in agkit.dsf.read('t.dsf').objects():\n"
        "    h: float = o['heading']\n"
    )
    bad = tmp_path / "bad.py"
    bad.write_text("import agkit\np = agkit.place('a.agp', at=(47.5, 13.0))\nx = p.objects[0]['lng']\n")
    cmd = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache")]
    ok = subprocess.run([*cmd, str(good)], capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    ko = subprocess.run([*cmd, str(bad)], capture_output=True, text=True, cwd=tmp_path)
    assert ko.returncode == 1 and '"lng"' in ko.stdout, ko.stdout
