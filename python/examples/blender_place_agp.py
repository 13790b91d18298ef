"""Place an autogen point (AGP) and create a Blender empty at every object.

In Blender (the agkit package installed into Blender's Python):

    blender --background --python blender_place_agp.py -- plaza.agp 30

Outside Blender the same script runs with a small stand-in for the part of
`bpy` it uses, and prints the empties it would create:

    python blender_place_agp.py [ASSET.agp] [HEADING]

The empties sit in the AGP's local frame, in metres: x east, y north of the
AGP point (X-Plane's heading is clockwise from north, Blender's Z rotation
counter-clockwise, hence the minus sign). Each is named after its OBJ and
keeps the agkit record in custom properties.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import SimpleNamespace

import agkit

try:
    import bpy  # type: ignore[import-not-found]
except ImportError:  # not inside Blender: a stand-in for what we use of bpy

    class _Object:
        """A Blender object: name, transform, custom properties."""

        def __init__(self, name: str, data: object) -> None:
            self.name, self.data = name, data
            self.location = (0.0, 0.0, 0.0)
            self.rotation_euler = (0.0, 0.0, 0.0)
            self.empty_display_type = "PLAIN_AXES"
            self.props: dict = {}

        def __setitem__(self, key: str, value: object) -> None:
            self.props[key] = value

        def __getitem__(self, key: str) -> object:
            return self.props[key]

    class _Objects(list):
        """`bpy.data.objects` (new) and a collection's objects (link)."""

        def new(self, name: str, data: object) -> _Object:
            obj = _Object(name, data)
            self.append(obj)
            return obj

        def link(self, obj: _Object) -> None:
            self.append(obj)

    bpy = SimpleNamespace(
        data=SimpleNamespace(objects=_Objects()),
        context=SimpleNamespace(collection=SimpleNamespace(objects=_Objects())),
        stand_in=True,
    )

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "point" / "plaza.agp"


def script_args() -> list[str]:
    """The arguments after `--` in Blender, else the command line's."""
    argv = sys.argv
    return argv[argv.index("--") + 1 :] if "--" in argv else argv[1:]


def create_empties(asset_path: str, heading: float) -> list:
    """Places the AGP at (0, 0) with `heading` and links one empty per
    placed object; returns the empties."""
    # WorldEditor's frame: the tile as authors see it in WED and Blender.
    placement = agkit.place(asset_path, at=(0.0, 0.0, heading), frame="wed")
    empties = []
    for obj in placement.objects:
        name = Path(obj["asset"]).stem
        empty = bpy.data.objects.new(name, None)  # None: an empty
        empty.empty_display_type = "ARROWS"
        empty.location = (obj["x"], obj["y"], obj["height"])
        empty.rotation_euler = (0.0, 0.0, -math.radians(obj["heading"]))
        empty["agkit_obj"] = obj["asset"]
        empty["agkit_mode"] = obj["mode"]
        empty["agkit_line"] = obj["source_line"]
        bpy.context.collection.objects.link(empty)
        empties.append(empty)
    return empties


def main() -> None:
    args = script_args()
    asset = args[0] if args else str(EXAMPLE)
    heading = float(args[1]) if len(args) > 1 else 0.0
    empties = create_empties(asset, heading)
    for e in empties:
        x, y, z = e.location
        rz = math.degrees(e.rotation_euler[2])
        print(f"{e.name:16} at ({x:8.2f}, {y:8.2f}, {z:5.2f}) m, rotation {rz:8.2f} deg")
    where = "stand-in scene" if getattr(bpy, "stand_in", False) else "Blender scene"
    print(f"{len(empties)} empties created in the {where}")


if __name__ == "__main__":
    main()
