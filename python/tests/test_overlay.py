"""agkit.overlay.build held to `agkit overlay build`: the same tiles (byte
for byte), previews and report from the bundled GIS example, whether the
features come as a path, a dict or a GeoDataFrame and the rules as a path,
TOML text or a dict; errors name the file and line."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import agkit

from conftest import EXAMPLES, run_cli

GIS = EXAMPLES / "gis"
FEATURES = GIS / "FEATURES.geojson"
RULES = GIS / "RULES.toml"


def files(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by relative path."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def rules_dict() -> dict[str, Any]:
    if sys.version_info < (3, 11):
        pytest.skip("tomllib is Python 3.11+")
    import tomllib

    return tomllib.loads(RULES.read_text())


@pytest.fixture(scope="module")
def by_cli(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "overlay"
    r = run_cli(cli, "overlay", "build", str(FEATURES), "--rules", str(RULES), "-o", str(out), "--preview", "png")
    assert r.returncode == 0, r.stderr
    return out


def test_build_writes_what_the_cli_writes(by_cli: Path, tmp_path: Path) -> None:
    report = agkit.overlay.build(FEATURES, RULES, tmp_path, preview="png")
    assert files(tmp_path) == files(by_cli)
    assert report == json.loads((by_cli / "overlay-report.json").read_text())
    assert report["features"] == 6 and report["tiles"]
    assert any(p.endswith(".png") for p in files(tmp_path))


def test_every_form_of_the_inputs_builds_the_same(by_cli: Path, tmp_path: Path) -> None:
    expected = {k: v for k, v in files(by_cli).items() if not k.startswith("preview")}
    geo = json.loads(FEATURES.read_text())
    forms: list[tuple[Any, Any, Any]] = [
        (str(FEATURES), str(RULES), None),
        (geo, RULES.read_text(), GIS),
        (geo, rules_dict(), GIS),
    ]
    for i, (features, rules, base) in enumerate(forms):
        out = tmp_path / str(i)
        agkit.overlay.build(features, rules, out, base=base)
        assert files(out) == expected, i


def test_a_geodataframe_is_taken(by_cli: Path, tmp_path: Path) -> None:
    geopandas = pytest.importorskip("geopandas")
    df = geopandas.read_file(FEATURES)
    report = agkit.overlay.build(df, RULES, tmp_path)
    theirs = json.loads((by_cli / "overlay-report.json").read_text())
    # The same uses from the same polygons (a GeoDataFrame numbers its
    # features itself, so ids may differ; numpy values become plain JSON).
    assert report["placed"] == theirs["placed"]
    assert [t["uses"] for t in report["tiles"]] == [t["uses"] for t in theirs["tiles"]]


def test_bad_rules_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "rules.toml"
    bad.write_text("[settings]\nheight_property = 3\n")
    with pytest.raises(agkit.ParseError) as e:
        agkit.overlay.build(FEATURES, bad, tmp_path / "out")
    assert e.value.file == str(bad) and e.value.line == 2
    assert not (tmp_path / "out").exists()


def test_invalid_features_are_refused_or_skipped(tmp_path: Path) -> None:
    geo = json.loads(FEATURES.read_text())
    ring = [[12.99, 47.8], [12.991, 47.801], [12.991, 47.8], [12.99, 47.801], [12.99, 47.8]]
    geo["features"].append(
        {"type": "Feature", "properties": {"landuse": "commercial"}, "geometry": {"type": "Polygon", "coordinates": [ring]}}
    )
    with pytest.raises(agkit.ParseError, match="feature 6"):
        agkit.overlay.build(geo, RULES, tmp_path / "strict")
    assert not (tmp_path / "strict").exists()
    report = agkit.overlay.build(geo, RULES, tmp_path / "lenient", lenient=True)
    strict = agkit.overlay.build(FEATURES, RULES, tmp_path / "plain")
    assert [s["feature"] for s in report["skipped"]] == [s["feature"] for s in strict["skipped"]] + [6]
    with pytest.raises(agkit.ParseError, match="FeatureCollection"):
        agkit.overlay.build({"type": "Point", "coordinates": [0, 0]}, RULES, tmp_path / "x")


def test_a_folder_holding_foreign_tiles_is_refused(by_cli: Path, tmp_path: Path) -> None:
    shutil.copytree(by_cli, tmp_path / "out")
    [tile] = [p for p in (tmp_path / "out").rglob("*.dsf")][:1]
    tile.write_bytes(agkit.dsf.build(agkit.dsf.to_text(tile).replace("sim/creation_agent", "sim/x")))
    with pytest.raises(agkit.BuildError, match="replaces only tiles it wrote"):
        agkit.overlay.build(FEATURES, RULES, tmp_path / "out")
    with pytest.raises(FileNotFoundError):
        agkit.overlay.build(FEATURES, tmp_path / "nope.toml", tmp_path / "y")
    with pytest.raises(ValueError, match="preview"):
        agkit.overlay.build(FEATURES, RULES, tmp_path / "z", preview="gif")  # type: ignore[arg-type]
