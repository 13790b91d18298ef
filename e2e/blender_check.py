"""Every glTF scene the tests wrote, opened in Blender as a user opens it.

Run with the Python that has the `bpy` module (Blender as a Python module,
from PyPI) and `trimesh`:

    python e2e/blender_check.py DIR [--renders OUTDIR]

For each `*.glb` and `*.gltf` in DIR (what tests/gltf.rs writes to
`${CARGO_TARGET_DIR:-target}/tmp/gltf-out`), in a fresh Blender file:

- `bpy.ops.import_scene.gltf` finishes with no importer error or warning;
- the objects are what the placements hold: one per placement, per object,
  per facade, per tree group (a placement's cards, or its 3-D trees) and
  per ground, counted against the sidecar
  `NAME.counts.json` the test wrote from the placements (or, without one,
  the counts in the scene's own extras);
- the instances of one OBJ share one mesh;
- every image texture has pixels;
- no face corner's normal points against its face (the share of such
  corners is 0 in every mesh), and the boxes drawn for missing objects are
  closed;
- a whole tile's draped polygons and painted lines (counted against the
  sidecar's `draped` and `lines` when it has them) lie just above the
  ground, every face facing up, textured when they name a texture, and
  render lit, not black;
- a tile set on its base mesh (a `terrain` object, `place --dsf --all
  --mesh`): no draped object and no 3-D tree floats more than 0.5 m
  above or is buried more than 0.5 m below the terrain at its reference
  point (a ray cast down onto the terrain there), and the draped
  polygons' and lines' vertices lie just above it (objects at MSL, AGL or
  graded to their tile's ground point are not held to their own point);
  its airports (`airport ICAO` objects, counted against the sidecar's
  `airports`) have every runway, helipad and pavement vertex within
  0.5 m of the terrain under it (just above it: agkit lifts them 2-3 cm);
- a small Cycles render (CPU, a few samples, a sun and a camera from the
  scene's bounds) shows the OBJ objects lit, not black, against the ground:
  the scene is rendered once as it is and once with flat mask colours, and
  the OBJ pixels' mean brightness is compared with the ground's;

and trimesh loads the file, its faces agreeing with its normals.

Exits non-zero, listing every failure, when anything fails.
"""

import argparse
import contextlib
import io
import json
import logging
import math
import os
import struct
import sys
import tempfile

import bpy  # noqa: E402  (Blender as a module)
import bmesh
import mathutils
import numpy
import trimesh

failures = []


def fail(scene, msg):
    failures.append(f"{scene}: {msg}")
    print(f"FAIL {scene}: {msg}", flush=True)


def gltf_json(path):
    """The glTF document's JSON (the JSON chunk of a GLB)."""
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        n = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20 : 20 + n])
    return json.loads(data)


def expected_counts(path, doc):
    """What the placements hold: from the test's sidecar, else the
    scene's extras."""
    side = os.path.splitext(path)[0] + ".counts.json"
    if os.path.exists(side):
        return json.load(open(side))
    ps = doc["scenes"][doc.get("scene", 0)].get("extras", {}).get("placements", [])
    if not all("objects" in p for p in ps):
        fail(os.path.basename(path), "no NAME.counts.json beside it and no counts in its extras")
        ps = [{"objects": 0, "facades": 0, "trees": 0} for _ in ps]
    return {
        "placements": len(ps),
        "objects": sum(p["objects"] for p in ps),
        "facades": sum(p["facades"] for p in ps),
        "tree_groups": sum(1 for p in ps if p["trees"] > 0),
    }


class Collect(logging.Handler):
    """Log records of WARNING and above, from the importer."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


@contextlib.contextmanager
def captured_fds():
    """Standard output and error at the file-descriptor level (the
    importer and Blender print there), as text once the block ends."""
    out = tempfile.TemporaryFile(mode="w+b")
    saved = [os.dup(1), os.dup(2)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(out.fileno(), 1)
    os.dup2(out.fileno(), 2)
    box = {}
    try:
        yield box
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        out.seek(0)
        box["text"] = out.read().decode("utf-8", "replace")


def import_scene(name, path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    handler = Collect()
    logging.getLogger().addHandler(handler)
    try:
        with captured_fds() as box:
            result = bpy.ops.import_scene.gltf(filepath=path)
    finally:
        logging.getLogger().removeHandler(handler)
    text = box.get("text", "")
    if result != {"FINISHED"}:
        fail(name, f"the importer returned {result}")
    said = [
        line
        for line in text.splitlines() + handler.records
        if "WARNING" in line.upper() or "ERROR" in line.upper()
    ]
    if said:
        fail(name, "the importer said: " + " | ".join(said[:5]))


def check_counts(name, expect):
    by_item = {}
    for o in bpy.data.objects:
        item = o.get("item")
        by_item[item] = by_item.get(item, 0) + 1
    have = {
        "placements": by_item.get("placement", 0),
        "objects": by_item.get("object", 0),
        "facades": by_item.get("facade", 0),
        # A placement's tree cards are one object; each of its 3-D trees
        # is an object of its own sharing its kind's mesh: a group is a
        # placement with either.
        "tree_groups": len(
            {
                o.parent.name if o.parent else o.name
                for o in bpy.data.objects
                if o.get("item") in ("trees", "tree")
            }
        ),
    }
    for k in ("placements", "objects", "facades", "tree_groups"):
        if have[k] != expect[k]:
            fail(name, f"{have[k]} {k} in Blender, the placements hold {expect[k]}")
    # A whole tile's draped polygons and painted lines, when the sidecar
    # counts them.
    for k, item in (("draped", "draped"), ("lines", "line"), ("airports", "airport")):
        if k in expect:
            have[k] = by_item.get(item, 0)
            if have[k] != expect[k]:
                fail(name, f"{have[k]} {k} in Blender, the placements hold {expect[k]}")
    grounds = by_item.get("ground", 0)
    if grounds > have["placements"]:
        fail(name, f"{grounds} ground objects for {have['placements']} placements")
    unknown = by_item.get(None, 0)
    if unknown:
        fail(name, f"{unknown} objects without an item property")
    for o in bpy.data.objects:
        # The terrain is the mesh's, not an asset's: it names its ground.
        if o.get("item") == "terrain":
            if "ground" not in o.keys():
                fail(name, f"terrain {o.name!r} does not name its ground")
            continue
        # An airport is the apt.dat's: it names that file and its line.
        if o.get("item") == "airport":
            if "file" not in o.keys() or "line" not in o.keys():
                fail(name, f"airport {o.name!r} does not name its apt.dat and line")
            continue
        if "asset" not in o.keys():
            fail(name, f"object {o.name!r} names no asset")
        if o.get("item") in ("object", "facade") and "source_line" not in o.keys():
            fail(name, f"object {o.name!r} names no source line")
    names = [o.name for o in bpy.data.objects]
    renamed = [n for n in names if len(n) > 4 and n[-4] == "." and n[-3:].isdigit()]
    if renamed:
        fail(name, f"Blender renamed clashing names: {renamed[:3]}")
    print(f"  objects: {have}, grounds {grounds}", flush=True)


def check_instances(name):
    meshes = {}
    for o in bpy.data.objects:
        if o.get("item") == "object" and o.data is not None:
            key = o.get("art_file") or ("missing", o.get("art"))
            meshes.setdefault(key, set()).add(o.data.name)
    for key, m in meshes.items():
        if len(m) != 1:
            fail(name, f"the instances of {key} use {len(m)} meshes, not one")


def check_images(name):
    for img in bpy.data.images:
        if img.size[0] == 0 or img.size[1] == 0 or len(img.pixels) == 0:
            fail(name, f"image {img.name!r} has no pixels")


def check_normals(name):
    """Share of face corners whose normal points against their face: 0."""
    for me in bpy.data.meshes:
        against = 0
        total = 0
        normals = me.corner_normals
        for poly in me.polygons:
            fn = poly.normal
            for li in poly.loop_indices:
                total += 1
                if normals[li].vector.dot(fn) <= 0.0:
                    against += 1
        if against:
            fail(
                name,
                f"mesh {me.name!r}: {against} of {total} corners "
                f"({100.0 * against / total:.1f} %) point against their face",
            )
        if me.name.startswith("missing "):
            bm = bmesh.new()
            bm.from_mesh(me)
            bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-4)
            open_edges = sum(1 for e in bm.edges if not e.is_manifold)
            bm.free()
            if open_edges:
                fail(name, f"box {me.name!r} is not closed: {open_edges} open edges")


def check_draped(name):
    """Draped polygons and painted lines lie flat just above the ground and
    face up (+Z in Blender, +Y in glTF): a reversed winding would face
    down and render black from above. Textured ones draw an image."""
    n = 0
    for o in bpy.data.objects:
        if o.get("item") not in ("draped", "line") or o.type != "MESH":
            continue
        n += 1
        rot = o.matrix_world.to_3x3()
        down = 0
        for poly in o.data.polygons:
            up = (rot @ poly.normal).normalized()
            if TERRAIN is None:
                if up.z < 0.99:
                    down += 1
            elif up.z < 0.5:
                # On a mesh a face follows the slope under its vertices. X-Plane
                # drapes along the mesh's edges, which agkit does not yet
                # (issue 49), so a long face is a chord of the terrain under
                # it: held here to facing the sky (not reversed), not to the
                # terrain's normal at its centre.
                down += 1
        if down:
            fail(name, f"{o.name!r}: {down} of {len(o.data.polygons)} faces do not face up")
        zs = [(o.matrix_world @ v.co).z for v in o.data.vertices]
        if TERRAIN is not None:
            # On a mesh: each vertex just above the terrain under it.
            zs = [
                z - g
                for v, z in zip(o.data.vertices, zs)
                if (g := terrain_z(o.matrix_world @ v.co)) is not None
            ]
        if zs and not (0.0 < min(zs) and max(zs) < 0.2):
            fail(name, f"{o.name!r}: lies at {min(zs):.3f}..{max(zs):.3f} m, not just above the ground")
        if o.get("texture"):
            mats = [s.material for s in o.material_slots if s.material]
            has_image = any(
                nd.type == "TEX_IMAGE" and nd.image is not None
                for m in mats
                if m.node_tree
                for nd in m.node_tree.nodes
            )
            if not has_image:
                fail(name, f"{o.name!r}: names texture {o.get('texture')!r} but draws no image")
    if n:
        print(f"  draped polygons and lines: {n}, all facing up", flush=True)


# The terrain of the scene being checked: (BVH tree, top z), or None.
TERRAIN = None


def load_terrain():
    """The scene's terrain object as a BVH tree in world coordinates."""
    global TERRAIN
    TERRAIN = None
    ts = [o for o in bpy.data.objects if o.get("item") == "terrain" and o.type == "MESH"]
    if not ts:
        return
    from mathutils.bvhtree import BVHTree

    t = ts[0]
    verts = [t.matrix_world @ v.co for v in t.data.vertices]
    polys = [tuple(p.vertices) for p in t.data.polygons]
    top = max((v.z for v in verts), default=0.0)
    TERRAIN = (BVHTree.FromPolygons(verts, polys), top)


def terrain_z(p):
    """The terrain's height under world point `p`, or None off it."""
    tree, top = TERRAIN
    hit, _normal, _index, _dist = tree.ray_cast(
        mathutils.Vector((p.x, p.y, top + 100.0)), mathutils.Vector((0.0, 0.0, -1.0))
    )
    return None if hit is None else hit.z


def check_terrain(name):
    """Objects set on the terrain stand on it: within 0.5 m of the
    terrain under their reference point (their origin)."""
    if TERRAIN is None:
        return
    n, skipped = 0, 0
    for o in bpy.data.objects:
        item = o.get("item")
        if item not in ("object", "tree"):
            continue
        if item == "object" and o.get("mode") not in (None, "draped"):
            skipped += 1
            continue
        p = o.matrix_world.translation
        g = terrain_z(p)
        if g is None:
            fail(name, f"{o.name!r} at ({p.x:.1f}, {p.y:.1f}) is not over the terrain")
            continue
        n += 1
        if p.z - g > 0.5:
            fail(name, f"{o.name!r} floats {p.z - g:.2f} m above the terrain")
        elif g - p.z > 0.5:
            fail(name, f"{o.name!r} is buried {g - p.z:.2f} m below the terrain")
    if n == 0:
        fail(name, "a terrain, but no object on the ground to check against it")
    print(f"  on the terrain: {n} objects and trees within 0.5 m ({skipped} MSL, AGL or graded not held to their own point)", flush=True)


def check_airports(name):
    """A tile's airports lie on the terrain: every vertex of their faces
    within 0.5 m of the terrain under it, none below it by more than
    that. Checked at the vertices, as the draped polygons are: agkit sets
    each vertex on the ground and does not yet cut the faces along the
    mesh's edges as X-Plane drapes them."""
    airports = [o for o in bpy.data.objects if o.get("item") == "airport" and o.type == "MESH"]
    if not airports:
        return
    if TERRAIN is None:
        # Flat ground: every vertex at one level, faces up.
        return
    for o in airports:
        off, worst = 0, 0.0
        for v in o.data.vertices:
            w = o.matrix_world @ v.co
            g = terrain_z(w)
            if g is None:
                off += 1
                continue
            d = w.z - g
            if abs(d) > abs(worst):
                worst = d
        if off:
            fail(name, f"{o.name!r}: {off} of {len(o.data.vertices)} vertices not over the terrain")
        if abs(worst) > 0.5:
            fail(name, f"{o.name!r}: a vertex {worst:.2f} m from the terrain under it")
        print(f"  airport {o.name!r}: {len(o.data.polygons)} faces, vertices within {abs(worst):.3f} m of the terrain", flush=True)


def bounds():
    lo = mathutils.Vector((math.inf,) * 3)
    hi = mathutils.Vector((-math.inf,) * 3)
    for o in bpy.data.objects:
        if o.type != "MESH":
            continue
        for c in o.bound_box:
            w = o.matrix_world @ mathutils.Vector(c)
            lo = mathutils.Vector(map(min, lo, w))
            hi = mathutils.Vector(map(max, hi, w))
    return lo, hi


def setup_render(width=320, height=240, samples=4):
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
    if scene.world is None:
        scene.world = bpy.data.worlds.new("sky")
    scene.world.use_nodes = True
    bg = scene.world.node_tree.nodes.get("Background")
    bg.inputs[0].default_value = (0.6, 0.7, 0.9, 1.0)
    bg.inputs[1].default_value = 0.3
    lo, hi = bounds()
    centre = (lo + hi) / 2
    size = max((hi - lo).length, 1.0)
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 3.0
    sun.rotation_euler = (math.radians(40), 0.0, math.radians(30))
    scene.collection.objects.link(sun)
    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    cam.data.angle = math.radians(50)
    cam.data.clip_end = size * 10
    where = centre + mathutils.Vector((0.5, -0.9, 0.8)).normalized() * size * 0.7
    cam.location = where
    cam.rotation_euler = (centre - where).to_track_quat("-Z", "Y").to_euler()
    scene.collection.objects.link(cam)
    scene.camera = cam
    return scene


def render(scene, path):
    scene.render.filepath = path
    with captured_fds():
        bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(path, check_existing=False)
    w, h = img.size
    px = numpy.array(img.pixels[:], dtype=numpy.float32).reshape(h, w, 4)[:, :, :3]
    bpy.data.images.remove(img)
    return px


def emission(name, rgb):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    nt = m.node_tree
    nt.nodes.clear()
    e = nt.nodes.new("ShaderNodeEmission")
    e.inputs[0].default_value = (*rgb, 1.0)
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    nt.links.new(e.outputs[0], out.inputs[0])
    return m


def check_render(name, keep):
    scene = setup_render()
    lit = render(scene, os.path.join(keep, f"{name}.png"))
    # The same view with mask colours: OBJ objects magenta, ground green,
    # all else black.
    flat = emission("mask draped", (1.0, 1.0, 0.0))
    masks = {
        "object": emission("mask object", (1.0, 0.0, 1.0)),
        "ground": emission("mask ground", (0.0, 1.0, 0.0)),
        "draped": flat,
        "line": flat,
    }
    other = emission("mask other", (0.0, 0.0, 0.0))
    for o in bpy.data.objects:
        if o.type != "MESH":
            continue
        is_box = o.data.name.startswith("missing ")
        m = masks.get(o.get("item")) if not is_box else other
        for slot in o.material_slots:
            slot.link = "OBJECT"
            slot.material = m or other
    scene.cycles.samples = 1
    scene.render.filter_size = 0.01
    mask = render(scene, os.path.join(keep, f"{name}.mask.png"))
    is_obj = (mask[:, :, 0] > 0.5) & (mask[:, :, 2] > 0.5) & (mask[:, :, 1] < 0.2)
    is_ground = (mask[:, :, 1] > 0.5) & (mask[:, :, 0] < 0.2)
    lum = lit @ numpy.array([0.2126, 0.7152, 0.0722], dtype=numpy.float32)
    # Draped polygons and lines seen from the camera are lit, not black
    # (facing down they would be).
    is_draped = (mask[:, :, 0] > 0.5) & (mask[:, :, 1] > 0.5) & (mask[:, :, 2] < 0.2)
    n_draped = int(is_draped.sum())
    if n_draped >= 20:
        dl = float(lum[is_draped].mean())
        dark = float((lum[is_draped] < 0.03).mean())
        print(f"  render: draped pixels {dl:.3f} ({n_draped} px, {100 * dark:.0f} % black)", flush=True)
        if dark > 0.2:
            fail(name, f"draped pixels are dark: {100 * dark:.0f} % black")
    n_obj, n_ground = int(is_obj.sum()), int(is_ground.sum())
    if n_obj < 20 or n_ground < 20:
        print(f"  render: {n_obj} OBJ and {n_ground} ground pixels; too few to compare")
        return n_obj >= 20
    obj, ground = float(lum[is_obj].mean()), float(lum[is_ground].mean())
    dark = float((lum[is_obj] < 0.03).mean())
    print(
        f"  render: OBJ pixels {obj:.3f} ({n_obj} px, {100 * dark:.0f} % black), "
        f"ground {ground:.3f} ({n_ground} px)",
        flush=True,
    )
    if obj < 0.25 * ground or dark > 0.2:
        fail(name, f"OBJ pixels are dark: {obj:.3f} against the ground's {ground:.3f}, {100 * dark:.0f} % black")
    return True


def check_trimesh(name, path):
    try:
        scene = trimesh.load(path, force="scene", process=False)
    except Exception as e:  # noqa: BLE001 (any failure to load is the finding)
        fail(name, f"trimesh cannot load it: {e}")
        return
    if not scene.geometry:
        fail(name, "trimesh finds no geometry")
    for gname, mesh in scene.geometry.items():
        if not len(mesh.faces):
            continue
        fn = mesh.face_normals
        vn = mesh.vertex_normals[mesh.faces]
        against = int((numpy.einsum("fj,fkj->fk", fn, vn) <= 0).sum())
        if against:
            fail(name, f"trimesh: {gname}: {against} corners against their face")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--renders", default=None, help="where the renders are kept")
    args = ap.parse_args()
    files = sorted(
        f for f in os.listdir(args.dir) if f.endswith(".glb") or f.endswith(".gltf")
    )
    if not files:
        print(f"error: no .glb or .gltf in {args.dir}: run cargo test --test gltf first", file=sys.stderr)
        return 1
    keep = args.renders or os.path.join(args.dir, "blender")
    os.makedirs(keep, exist_ok=True)
    rendered_objs = 0
    print(f"Blender {bpy.app.version_string}, trimesh {trimesh.__version__}", flush=True)
    for f in files:
        path = os.path.join(args.dir, f)
        name = f
        print(f"== {name}", flush=True)
        doc = gltf_json(path)
        import_scene(name, path)
        check_counts(name, expected_counts(path, doc))
        check_instances(name)
        check_images(name)
        check_normals(name)
        load_terrain()
        check_draped(name)
        check_terrain(name)
        check_airports(name)
        if check_render(name, keep):
            rendered_objs += 1
        check_trimesh(name, path)
    if rendered_objs == 0:
        fail("all", "no scene showed OBJ pixels to compare with the ground")
    if failures:
        print(f"\n{len(failures)} failure(s):", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        return 1
    print(f"\n{len(files)} scene(s) open right in Blender and trimesh; renders in {keep}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
