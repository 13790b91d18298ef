"""Python manners: messages name arguments, not command-line flags; a
folder given as a file is an IsADirectoryError with its filename; points
are said back in the order given; either ring winding is taken; swapped
lat/lon is caught for rings; numpy arrays and open files are taken."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import agkit

from conftest import EXAMPLES

PLAZA = EXAMPLES / "point" / "plaza.agp"
BLOCK = EXAMPLES / "block" / "city_block.agb"
DEMO = EXAMPLES / "dsf" / "autogen_demo.dsf"
# The block of the README, counter-clockwise, (lon, lat).
RING = [(13.042, 47.8), (13.04333, 47.80019), (13.04318, 47.80071), (13.04185, 47.80052)]
CLI_FLAG = re.compile(r"(?<![\w-])--[a-z]")


def test_an_agp_on_a_polygon_says_the_argument_not_the_flag() -> None:
    with pytest.raises(agkit.PlaceError) as e:
        agkit.place(PLAZA, polygon=[RING])
    assert "at=(lat, lon[, heading])" in str(e.value) and not CLI_FLAG.search(str(e.value)), e.value
    with pytest.raises(agkit.PlaceError) as e:
        agkit.place(BLOCK, at=(47.8, 13.04))
    assert "polygon=" in str(e.value) and not CLI_FLAG.search(str(e.value)), e.value


def test_a_folder_given_as_a_file_is_an_is_a_directory_error_with_its_filename(tmp_path: Path) -> None:
    for call in (agkit.read_asset, agkit.dsf.read, agkit.check):
        with pytest.raises(IsADirectoryError) as e:
            call(tmp_path)
        assert e.value.filename == str(tmp_path), call
        assert "standard input" not in str(e.value) and "`-`" not in str(e.value)


def test_a_file_inside_a_file_is_a_not_a_directory_error_with_its_filename(tmp_path: Path) -> None:
    f = tmp_path / "plain"
    f.write_text("x")
    with pytest.raises(NotADirectoryError) as e:
        agkit.dsf.read(f / "tile.dsf")
    assert e.value.filename == str(f / "tile.dsf")


def test_at_is_said_back_in_the_order_given() -> None:
    with pytest.raises(ValueError) as e:
        agkit.place(PLAZA, at=(130, 13))
    msg = str(e.value)
    assert "at=(130, 13)" in msg and "(lat, lon)" in msg and "(13, 130)" not in msg, msg


def test_at_takes_named_lat_and_lon() -> None:
    a = agkit.place(PLAZA, at={"lat": 47.5, "lon": 13.0, "heading": 30})
    b = agkit.place(PLAZA, at=(47.5, 13.0, 30))
    assert a.to_dict() == b.to_dict()


def test_either_ring_winding_is_taken_for_a_list() -> None:
    ccw = agkit.place(BLOCK, polygon=[RING], height=12, spelling_set=0)
    cw = agkit.place(BLOCK, polygon=[RING[::-1]], height=12, spelling_set=0)
    assert len(cw.objects) == len(ccw.objects) > 0
    assert any("clockwise" in n for n in cw.notes), cw.notes


def test_swapped_lat_lon_in_a_ring_is_caught() -> None:
    # Sydney given as (lat, lon): -33.8 fits a longitude, 151.2 no latitude.
    swapped = [(-33.86, 151.20), (-33.86, 151.21), (-33.85, 151.21), (-33.85, 151.20)]
    with pytest.raises(ValueError) as e:
        agkit.place(BLOCK, polygon=[swapped])
    assert "(lat, lon)" in str(e.value) and "polygon takes (lon, lat)" in str(e.value), e.value


def test_numpy_arrays_are_taken_where_sequences_are() -> None:
    numpy = pytest.importorskip("numpy")
    a = agkit.place(PLAZA, at=numpy.array([47.5, 13.0, 30.0]))
    assert a.to_dict() == agkit.place(PLAZA, at=(47.5, 13.0, 30.0)).to_dict()
    b = agkit.place(BLOCK, polygon=[numpy.array(RING)], height=12, spelling_set=0)
    assert b.to_dict() == agkit.place(BLOCK, polygon=[RING], height=12, spelling_set=0).to_dict()


def test_open_files_are_taken_where_a_path_is() -> None:
    with open(DEMO, "rb") as f:
        tile = agkit.dsf.read(f)
    assert tile.name == str(DEMO) and tile.counts == agkit.dsf.read(DEMO).counts
    with open(PLAZA, encoding="utf-8") as f:
        asset = agkit.read_asset(f)
    assert asset.to_dict() == agkit.read_asset(PLAZA).to_dict()
    anonymous = agkit.dsf.read(io.BytesIO(DEMO.read_bytes()))
    assert anonymous.name == "<stream>" and anonymous.counts == tile.counts
    with pytest.raises(TypeError, match="open file"):
        agkit.dsf.read(3.5)
