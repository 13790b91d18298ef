"""Renders a glTF scene with Blender's Cycles (CPU): how the README's 3-D
pictures (docs/img/demo_3d.png, docs/img/real_art_3d.png) are made.

    python e2e/render-blender.py SCENE.glb OUT.png [WIDTH HEIGHT [SAMPLES]]

Run it with a Python that has the `bpy` module (Blender as a Python
module: `pip install "bpy==4.5.*"` into a Python 3.11 virtual
environment; `.ci/run` makes one in target/blender-venv). The scene is
imported with Blender's own glTF importer, as a user would, and looked at
from the south-east and above, lit by a sun and a pale sky; the camera is
placed from the scene's bounds.
"""

import math
import sys

import bpy
import mathutils


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    scene_file, out = args[0], args[1]
    width = int(args[2]) if len(args) > 2 else 1000
    height = int(args[3]) if len(args) > 3 else 600
    samples = int(args[4]) if len(args) > 4 else 64
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=scene_file)
    if result != {"FINISHED"}:
        print(f"error: the importer returned {result}", file=sys.stderr)
        return 1
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False
    scene.render.resolution_x = width
    scene.render.resolution_y = height
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.view_settings.view_transform = "Standard"
    world = bpy.data.worlds.new("sky")
    scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs[0].default_value = (0.75, 0.82, 0.9, 1.0)
    bg.inputs[1].default_value = 0.6

    lo = mathutils.Vector((math.inf,) * 3)
    hi = mathutils.Vector((-math.inf,) * 3)
    for o in scene.objects:
        if o.type != "MESH":
            continue
        for c in o.bound_box:
            w = o.matrix_world @ mathutils.Vector(c)
            lo = mathutils.Vector(map(min, lo, w))
            hi = mathutils.Vector(map(max, hi, w))
    centre = (lo + hi) / 2
    size = max((hi - lo).length, 1.0)

    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 3.5
    sun.data.angle = math.radians(2)
    # From the south-west, 50° high.
    sun.rotation_euler = (math.radians(40), 0.0, math.radians(-35))
    scene.collection.objects.link(sun)

    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    cam.data.lens = 35
    cam.data.clip_end = size * 10
    where = centre + mathutils.Vector((0.45, -0.85, 0.75)).normalized() * size * 0.85
    cam.location = where
    cam.rotation_euler = (centre - where).to_track_quat("-Z", "Y").to_euler()
    scene.collection.objects.link(cam)
    scene.camera = cam

    scene.render.filepath = out
    bpy.ops.render.render(write_still=True)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
