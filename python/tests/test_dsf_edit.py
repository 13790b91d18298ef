"""agkit.dsf's binary edits (extract_overlay, rasters, filter, merge, props):
the same bytes as the command line's `agkit dsf …`, on the bundled demo
tile and on every readable DSF of the corpus; results read back; inputs
never written over; errors name the tile they are about."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import agkit

from conftest import DAMAGED_DSF, EXAMPLES, corpus_files, corpus_ids, run_cli

DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
READABLE = [p for p in corpus_files("dsf") if p != DAMAGED_DSF]
SEVEN_Z = b"7z\xbc\xaf\x27\x1c"


def cli_bytes(cli: Path, tmp: Path, *args: str) -> bytes:
    out = tmp / "cli.dsf"
    done = run_cli(cli, "dsf", *args, "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def test_extract_overlay_is_the_command_lines_and_reads_back(cli: Path, tmp_path: Path) -> None:
    got = agkit.dsf.extract_overlay(DEMO)
    assert got == cli_bytes(cli, tmp_path, "extract-overlay", str(DEMO))
    again = agkit.dsf.read(got)
    assert again.property("sim/overlay") == "1"
    # Ortho4XP's overlays hold no objects; the demo's one object goes.
    assert again.counts["objects"] == 0
    # Polygon definition 0 is left out by default (Ortho4XP's beaches).
    demo = agkit.dsf.read(DEMO)
    assert [p["asset"] for p in again.polygons()] == [p["asset"] for p in demo.polygons() if p["def"] != 0]
    every = agkit.dsf.read(agkit.dsf.extract_overlay(DEMO, exclude_polygons=["none"], objects=True))
    assert every.counts["objects"] == demo.counts["objects"]
    assert every.counts["polygons"] == demo.counts["polygons"]


def test_a_source_given_as_bytes_gives_the_same_tile_as_its_path() -> None:
    assert agkit.dsf.extract_overlay(DEMO.read_bytes()) == agkit.dsf.extract_overlay(DEMO)
    assert agkit.dsf.props(DEMO.read_bytes(), set=[("a", "b")]) == agkit.dsf.props(DEMO, set=[("a", "b")])


def test_filter_drops_and_keeps_by_kind_and_pattern(cli: Path, tmp_path: Path) -> None:
    t = agkit.dsf.read(DEMO)
    no_objects = agkit.dsf.filter(DEMO, drop=["object"])
    assert no_objects == cli_bytes(cli, tmp_path, "filter", str(DEMO), "--drop", "object")
    r = agkit.dsf.read(no_objects)
    assert r.counts["objects"] == 0
    assert r.counts["polygons"] == t.counts["polygons"]
    blocks = agkit.dsf.read(agkit.dsf.filter(DEMO, keep=["polygon:*.agb"]))
    assert blocks.counts["objects"] == 0
    assert [p["asset"] for p in blocks.polygons()] == [p["asset"] for p in t.polygons() if p["asset"].endswith(".agb")]
    # An area that holds none of the tile keeps nothing: refused, as the
    # result would be an empty tile.
    with pytest.raises(agkit.BuildError) as e:
        agkit.dsf.filter(DEMO, bbox=(13.5, 47.1, 13.6, 47.2))
    assert e.value.code == "DSF-EDIT-empty"
    with pytest.raises(ValueError):
        agkit.dsf.filter(DEMO, keep=["building:*"])


def test_merge_of_a_tile_with_itself_holds_everything_twice(cli: Path, tmp_path: Path) -> None:
    t = agkit.dsf.read(DEMO)
    copy = tmp_path / "copy.dsf"
    shutil.copyfile(DEMO, copy)
    got = agkit.dsf.merge([DEMO, copy])
    assert got == cli_bytes(cli, tmp_path, "merge", str(DEMO), str(copy))
    m = agkit.dsf.read(got)
    for k in ("objects", "polygons"):
        assert m.counts[k] == 2 * t.counts[k], k
    # Definitions are renumbered, not repeated.
    assert m.object_defs == t.object_defs
    assert m.polygon_defs == t.polygon_defs


def test_props_set_and_unset_exclusions(cli: Path, tmp_path: Path) -> None:
    box = "13.0/47.0/13.1/47.1"
    got = agkit.dsf.props(DEMO, set=[("sim/exclude_obj", box), ("sim/exclude_fac", box)])
    assert got == cli_bytes(
        cli, tmp_path, "props", str(DEMO), "--set", f"sim/exclude_obj={box}", "--set", f"sim/exclude_fac={box}"
    )
    t = agkit.dsf.read(got)
    assert ("sim/exclude_obj", box) in t.properties and ("sim/exclude_fac", box) in t.properties
    # Everything else is the tile's, as it was.
    before = agkit.dsf.read(DEMO)
    assert list(t.objects()) == list(before.objects())
    assert list(t.polygons()) == list(before.polygons())
    gone = agkit.dsf.read(agkit.dsf.props(got, unset=["sim/exclude_obj"]))
    assert gone.property("sim/exclude_obj") is None
    assert gone.property("sim/exclude_fac") == box
    with pytest.raises(agkit.BuildError) as e:
        agkit.dsf.props(DEMO, unset=["sim/north"])
    assert e.value.code == "DSF-EDIT-bounds"
    assert e.value.file == "the result"


def test_compress_packs_7z_that_reads_back_and_output_is_written(tmp_path: Path) -> None:
    out = tmp_path / "o.dsf"
    got = agkit.dsf.extract_overlay(DEMO, output=out, compress=True)
    assert got.startswith(SEVEN_Z)
    assert out.read_bytes() == got
    t = agkit.dsf.read(out)
    assert t.compressed and t.md5 == "valid"
    assert t.counts == agkit.dsf.read(agkit.dsf.extract_overlay(DEMO)).counts
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".agkit-tmp-")]


def test_an_edit_never_writes_over_its_input(tmp_path: Path) -> None:
    tile = tmp_path / "t.dsf"
    shutil.copyfile(DEMO, tile)
    link = tmp_path / "link.dsf"
    link.symlink_to(tile)
    before = tile.read_bytes()
    for out in (tile, link, tmp_path / "." / "t.dsf"):
        for call in (
            lambda: agkit.dsf.extract_overlay(tile, output=out),
            lambda: agkit.dsf.filter(tile, drop=["object"], output=out),
            lambda: agkit.dsf.props(tile, set=[("a", "b")], output=out),
            lambda: agkit.dsf.merge([DEMO, tile], output=out),
            lambda: agkit.dsf.rasters(DEMO, from_tile=tile, output=out),
        ):
            with pytest.raises(ValueError, match="name another output"):
                call()
    assert tile.read_bytes() == before
    with pytest.raises(ValueError, match="folder"):
        agkit.dsf.props(DEMO, set=[("a", "b")], output=tmp_path)


def test_errors_name_the_tile_they_are_about(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dsf"
    data = bytearray(DEMO.read_bytes())
    data[20:40] = b"\xff" * 20
    bad.write_bytes(bytes(data))
    with pytest.raises(agkit.ParseError) as e:
        agkit.dsf.merge([DEMO, bad])
    assert e.value.file == str(bad)
    assert e.value.offset is not None
    assert str(bad) in str(e.value)
    # A layer the source tile lacks is the source tile's fault.
    with pytest.raises(agkit.BuildError) as e:
        agkit.dsf.rasters(DEMO, from_tile=DEMO, layers=["spr9"])
    assert e.value.code == "DSF-EDIT-raster"
    assert e.value.file == str(DEMO)
    with pytest.raises(FileNotFoundError):
        agkit.dsf.filter(tmp_path / "missing.dsf", drop=["object"])


@pytest.mark.corpus
@pytest.mark.parametrize("path", READABLE, ids=corpus_ids(READABLE))
def test_corpus_tiles_edit_as_the_command_line_does(cli: Path, tmp_path: Path, path: Path) -> None:
    t = agkit.dsf.read(path)
    merged = agkit.dsf.read(agkit.dsf.merge([path, path]))
    for k in ("objects", "polygons", "chains"):
        assert merged.counts[k] == 2 * t.counts[k], k
    props = agkit.dsf.props(path, set=[("sim/exclude_obj", "0/0/0/0")])
    assert props == cli_bytes(cli, tmp_path, "props", str(path), "--set", "sim/exclude_obj=0/0/0/0")
    assert json.dumps(list(agkit.dsf.read(props).objects())) == json.dumps(list(t.objects()))
    try:
        overlay = agkit.dsf.extract_overlay(path)
    except agkit.BuildError as e:
        # A tile with nothing an overlay keeps: the command line refuses it
        # alike.
        assert e.code == "DSF-EDIT-empty"
        done = run_cli(cli, "dsf", "extract-overlay", str(path), "-o", str(tmp_path / "x.dsf"))
        assert done.returncode != 0 and "no entity" in done.stderr
        return
    assert overlay == cli_bytes(cli, tmp_path, "extract-overlay", str(path))
    assert agkit.dsf.read(overlay).counts["objects"] == 0
