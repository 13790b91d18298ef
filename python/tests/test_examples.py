"""The two guide examples (python/examples, docs/python.md) run and do what
they say."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import pytest

import agkit

from conftest import EXAMPLES, REPO

SCRIPTS = REPO / "python" / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_blender_script_runs_outside_blender() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "blender_place_agp.py"), str(EXAMPLES / "point" / "plaza.agp"), "30"],
        capture_output=True,
        text=True,
        check=True,
    )
    n = len(agkit.place(EXAMPLES / "point" / "plaza.agp", at=(0, 0, 30), frame="wed").objects)
    assert out.stdout.strip().endswith(f"{n} empties created in the stand-in scene")


def test_blender_empties_sit_at_the_placed_objects() -> None:
    script = load("blender_place_agp")
    placed = agkit.place(EXAMPLES / "point" / "kiosk_cluster.agp", at=(0, 0, 90), frame="wed").objects
    empties = script.create_empties(str(EXAMPLES / "point" / "kiosk_cluster.agp"), 90.0)
    assert len(empties) == len(placed) > 0
    for e, o in zip(empties, placed):
        assert e.location == (o["x"], o["y"], o["height"])
        assert e.rotation_euler[2] == pytest.approx(-math.radians(o["heading"]))
        assert e.name == Path(o["asset"]).stem and e["agkit_obj"] == o["asset"]
        assert e.empty_display_type == "ARROWS"
    assert script.bpy.context.collection.objects == empties


def test_geopandas_script_loads_the_autogen_polygons() -> None:
    pytest.importorskip("geopandas")
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "geopandas_autogen.py")], capture_output=True, text=True, check=True
    )
    assert "block/city_block.agb" in out.stdout and "string/town_edge.ags" in out.stdout
    polygons = load("geopandas_autogen").autogen_polygons(str(EXAMPLES / "dsf" / "autogen_demo.dsf"))
    assert list(polygons["kind"]) == ["agb", "ags"]
    assert list(polygons["param"]) == [768, 769]


def test_the_extras_bring_what_the_examples_import() -> None:
    if sys.version_info < (3, 11):
        pytest.skip("tomllib is Python 3.11+")
    import tomllib

    extras = tomllib.loads((REPO / "python" / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {k: {d.split(">")[0].split("[")[0] for d in v} for k, v in extras.items()}
    assert {"geopandas", "shapely"} <= names["geo"]
    assert {"dask", "pandas", "pyarrow", "geopandas"} <= names["dask"]
    assert "dask[distributed]" in "".join(extras["dask"])
    text = (SCRIPTS / "geopandas_autogen.py").read_text()
    assert 'pip install "./python[geo]"' in text
