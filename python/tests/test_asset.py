"""agkit.read_asset, agkit.check, agkit.fmt and agkit.Asset on the bundled
examples, the rule fixtures and the real corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agkit

from conftest import EXAMPLES, FIXTURES, corpus_files, corpus_ids, run_cli

ASSETS = sorted(
    p for p in EXAMPLES.rglob("*") if p.suffix in (".agp", ".agb", ".ags")
)
RULE_FIXTURES = sorted((FIXTURES / "xp").iterdir())
CORPUS_AGP = corpus_files("agp")


def test_every_example_asset_reads_with_its_kind() -> None:
    assert len(ASSETS) >= 6
    for path in ASSETS:
        a = agkit.read_asset(path)
        assert a.kind == path.suffix[1:]
        assert a.name == str(path)
        assert a.warnings == []
        assert a.summary["format"] == a.kind
        assert a.summary["errors"] == 0


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_AGP, ids=corpus_ids(CORPUS_AGP))
def test_corpus_agp_reads_exactly_when_check_finds_no_error(path: Path) -> None:
    errors = [d for d in agkit.check(path) if d.is_error]
    if errors:
        with pytest.raises(agkit.ParseError) as e:
            agkit.read_asset(path)
        assert e.value.code == errors[0].code
        assert e.value.line == errors[0].line
    else:
        a = agkit.read_asset(path)
        assert a.kind == "agp"
        assert len(a.tiles) >= 1
        # What an AGP places at a point is at least its tile.
        p = agkit.place(a, at=(47.0, 13.0, 45.0))
        assert len(p.tiles) >= 1


def test_the_three_source_forms_give_the_same_asset() -> None:
    path = EXAMPLES / "point" / "plaza.agp"
    by_path = agkit.read_asset(path).to_dict()
    assert agkit.read_asset(str(path)).to_dict() == by_path
    assert agkit.read_asset(path.read_bytes()).to_dict() == by_path
    assert agkit.read_asset(bytearray(path.read_bytes())).to_dict() == by_path
    text = agkit.read_asset(path.read_text(encoding="utf-8"))
    assert text.to_dict() == by_path
    assert text.name == "<text>"
    with pytest.raises(TypeError):
        agkit.read_asset(12)  # type: ignore[arg-type]


def test_agp_attributes() -> None:
    a = agkit.read_asset(EXAMPLES / "point" / "plaza.agp")
    assert a.objects == ["fountain.obj", "kiosk.obj", "lamp_post.obj", "bench.obj"]
    assert a.facades == ["shops_low.fac", "hedge.fac"]
    assert a.vegetation == "plaza_trees.for"
    assert a.texture == "plaza.png"
    assert a.metres_per_pixel == (0.0625, 0.0625)
    assert len(a.tiles) == 2
    tile = a.tiles[0]
    assert len(tile["rect"]) == 4 and tile["line"] > 0
    assert any(ann["kind"]["type"] == "object" for ann in tile["annotations"])
    assert a.grids == [] and a.spellings == [] and a.corners == []
    model = a.to_dict()
    assert model["kind"] == "agp" and model["common"]["texture"]["value"] == "plaza.png"
    json.dumps(model)  # plain data all the way down


def test_agb_has_grids_and_spelling_sets() -> None:
    a = agkit.read_asset(EXAMPLES / "block" / "city_block.agb")
    assert a.kind == "agb" and a.tiles == []
    assert len(a.grids) >= 1 and len(a.grids[0]["columns"]) >= 1
    assert len(a.spellings) >= 1 and "spellings_s" in a.spellings[0]
    s = a.summary
    assert s["grids"] == len(a.grids) and s["spellings"] == len(a.spellings)


def test_ags_has_spellings_and_corners() -> None:
    a = agkit.read_asset(EXAMPLES / "string" / "town_edge.ags")
    assert a.kind == "ags" and len(a.tiles) >= 1
    assert len(a.spellings) >= 1 and "tiles" in a.spellings[0]
    assert a.summary["corners"] == len(a.corners)


def test_to_text_reads_back_to_the_same_model() -> None:
    for path in ASSETS:
        a = agkit.read_asset(path)
        again = agkit.read_asset(a.to_text())
        strip = lambda m: json.loads(json.dumps(m).replace('"line": ', '"_": '))  # noqa: E731
        assert again.kind == a.kind
        assert len(again.tiles) == len(a.tiles)
        assert again.objects == a.objects and again.facades == a.facades
        assert strip(again.summary) == strip(a.summary)


@pytest.mark.parametrize("path", RULE_FIXTURES, ids=[p.name for p in RULE_FIXTURES])
def test_each_rule_fixture_reports_its_code(path: Path) -> None:
    diags = agkit.check(path)
    assert path.stem in {d.code for d in diags}
    for d in diags:
        assert d.file == str(path)
        assert d.line is not None and d.line >= 1
        assert d.column is not None and d.column >= 1
        assert d.offset is None
        assert d.severity in ("error", "warning", "note")
        assert str(d).startswith(f"{path}:{d.line}:{d.column}: {d.severity}[{d.code}]")
        assert d.to_dict()["code"] == d.code
    if any(d.is_error for d in diags):
        with pytest.raises(agkit.ParseError) as e:
            agkit.read_asset(path)
        first = next(d for d in diags if d.is_error)
        err = e.value
        assert (err.file, err.line, err.column, err.code) == (
            str(path),
            first.line,
            first.column,
            first.code,
        )
        assert err.diagnostics == diags
        assert isinstance(err, agkit.Error)


KEYS = ("file", "line", "column", "offset", "severity", "code", "message")


def test_check_matches_the_cli(cli: Path) -> None:
    files = ASSETS + RULE_FIXTURES[:20] + CORPUS_AGP[:10]
    out = run_cli(cli, "check", "--format", "json", *map(str, files))
    by_file: dict[str, list[dict]] = {}
    for rec in json.loads(out.stdout):
        by_file.setdefault(rec["file"], []).append(rec)
    for f in files:
        mine = [d.to_dict() for d in agkit.check(f)]
        theirs = [{k: r.get(k) for k in KEYS} for r in by_file.get(str(f), [])]
        assert mine == theirs, f
    assert any(by_file.values())


def test_check_on_text_bytes_and_binary_files() -> None:
    bad = "A\n1000\nAG_POINT\nTILE 0 0 1\n"
    diags = agkit.check(bad)
    assert diags and all(d.file == "<text>" for d in diags)
    assert {d.code for d in agkit.check(bad.encode())} == {d.code for d in diags}
    # Invalid UTF-8 is reported (AG0077), not raised.
    assert "AG0077" in {d.code for d in agkit.check(b"A\n1000\nAG_POINT\n\xff\n")}
    # DSF and AGN are told apart by their first bytes.
    assert agkit.check(EXAMPLES / "dsf" / "autogen_demo.dsf") == []
    assert agkit.check(EXAMPLES / "agn" / "001332223121112an.agn") == []
    assert agkit.check(b"XPLNEDSF\x01\x00")[0].code.startswith("DSF")
    assert agkit.check(b"RIFF\x00")[0].code.startswith("AGN")
    with pytest.raises(FileNotFoundError) as e:
        agkit.check("no/such/file.agp")
    assert e.value.filename == "no/such/file.agp"


def test_fmt_is_canonical_idempotent_and_keeps_comments() -> None:
    for path in ASSETS:
        text = path.read_text(encoding="utf-8")
        once = agkit.fmt(text)
        assert agkit.fmt(once) == once
        assert agkit.read_asset(once).summary == agkit.read_asset(path).summary
    messy = "A\n1000\nAG_POINT\n# keep me\nTEXTURE   t.png\nTEXTURE_SCALE 512  512\nTEXTURE_WIDTH 32.000\nTILE 0 0 512 512\n"
    out = agkit.fmt(messy)
    assert "# keep me" in out
    assert "TEXTURE t.png" in out and "TEXTURE_SCALE 512 512" in out
    assert out != messy


def test_fmt_refuses_text_with_errors() -> None:
    with pytest.raises(agkit.ParseError) as e:
        agkit.fmt("A\n1000\nAG_POINT\nTILE 0 0\n")
    assert e.value.file == "<text>" and e.value.line is not None and e.value.code


def test_read_asset_errors() -> None:
    with pytest.raises(FileNotFoundError):
        agkit.read_asset(EXAMPLES / "missing.agp")
    with pytest.raises(agkit.ParseError) as e:
        agkit.read_asset(b"not an autogen file\nat all\n")
    assert e.value.code is not None and e.value.line == 1
    with pytest.raises(agkit.ParseError) as e:
        agkit.read_asset(b"A\n1000\nAG_POINT\n\xff\xfe\n")
    assert "AG0077" in {d.code for d in e.value.diagnostics}
    assert "error[" in str(e.value)
    # Another kind of file is named for what it is, none of its bytes quoted.
    with pytest.raises(agkit.ParseError) as e:
        agkit.read_asset(EXAMPLES / "dsf" / "autogen_demo.dsf")
    assert e.value.code == "AG0001" and len(e.value.diagnostics) == 1
    assert "it is a DSF tile" in str(e.value) and "DAEH" not in str(e.value)
