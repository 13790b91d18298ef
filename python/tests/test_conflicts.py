"""agkit.scenery.Installation.conflicts held to `agkit scenery conflicts`
(issue 50): the same JSON, the same GeoJSON, the `conflicts` Arrow table in
the schema of the GeoPackage's `cnf_items` layer, and the fix package that,
installed, leaves the report empty. On a copy of the fixture installation
with tests/fixtures/apt/conflicts_xtst.dat (a runway under the Town pack's
shed) as the Airport pack's apt.dat."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import FIXTURES, run_cli


@pytest.fixture()
def install(tmp_path: Path) -> Path:
    root = tmp_path / "X-Plane"
    shutil.copytree(FIXTURES / "xplane", root)
    shutil.copy(FIXTURES / "apt" / "conflicts_xtst.dat", root / "Custom Scenery/Airport/Earth nav data/apt.dat")
    return root


def plain(d: Any) -> Any:
    return json.loads(json.dumps(d))


def test_the_report_is_the_clis_json(cli: Path, install: Path) -> None:
    out = run_cli(cli, "scenery", "conflicts", "--xplane", str(install), "--format", "json")
    assert out.returncode == 1, out.stderr
    report = agkit.scenery.Installation(install).conflicts()
    assert plain(report.to_dict()) == json.loads(out.stdout)
    assert report.has_errors
    assert len(report) == 1
    f = report.findings[0]
    assert (f["code"], f["package"], f["feature_name"]) == ("CNF001", "Town", "09/27")
    assert report.fix is None


def test_the_geojson_is_the_clis(cli: Path, install: Path) -> None:
    out = run_cli(cli, "scenery", "conflicts", "--xplane", str(install), "--format", "geojson")
    assert out.returncode == 1, out.stderr
    report = agkit.scenery.Installation(install).conflicts(airport="XTST")
    assert plain(report.__geo_interface__) == json.loads(out.stdout)


def test_the_arrow_table_is_the_cnf_items_layer(install: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    report = agkit.scenery.Installation(install).conflicts(tile=(47.5, 13.5))
    t = pa.table(report.to_arrow())
    assert t.num_rows == 1
    empty = pa.table(agkit.empty_table("conflicts"))
    assert t.schema.names == empty.schema.names
    assert t.column("code").to_pylist() == ["CNF001"]
    assert t.column("asset").to_pylist() == ["lib/fixture/shed.obj"]
    props = next(f["properties"] for f in report.__geo_interface__["features"] if f["properties"]["layer"] == "cnf_items")
    row = t.to_pylist()[0]
    for k, v in props.items():
        assert row[k] == v, k
    assert "geometry" in t.schema.names


def test_the_fix_written_from_python_empties_the_report(install: Path) -> None:
    fix = install / "Custom Scenery" / "Fixes"
    report = agkit.scenery.Installation(install).conflicts(fix=fix)
    w = report.fix
    assert w is not None
    assert w["exclusions"] == 1 and w["in_custom_scenery"]
    assert w["line"] == "SCENERY_PACK Custom Scenery/Fixes/" and w["above"] == "Town"
    assert (fix / w["dsfs"][0]).is_file()
    ini = install / "Custom Scenery" / "scenery_packs.ini"
    ini.write_text(ini.read_text().replace("SCENERY_PACK Custom Scenery/Town/", w["line"] + "\nSCENERY_PACK Custom Scenery/Town/"))
    again = agkit.scenery.Installation(install).conflicts()
    assert again.findings == [] and not again.has_errors
    # A folder that holds something is refused before any work.
    with pytest.raises(ValueError, match="not empty"):
        agkit.scenery.Installation(install).conflicts(fix=install / "Custom Scenery" / "Town")


def test_bad_scopes_are_value_errors(install: Path) -> None:
    xp = agkit.scenery.Installation(install)
    with pytest.raises(ValueError, match="at most one"):
        xp.conflicts(tile=(47.5, 13.5), airport="XTST")
    with pytest.raises(ValueError, match="west < east"):
        xp.conflicts(bbox=(14.0, 47.0, 13.0, 48.0))
    with pytest.raises(ValueError):
        xp.conflicts(tile=(float("nan"), 13.5))
    assert len(xp.conflicts(airport="NONE")) == 0
