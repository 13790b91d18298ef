#!/usr/bin/env python3
"""The ortho pipelines' own DSF steps, run with DSFTool and with agkit.

BENCHMARKS.md, "The pipelines' own code against agkit" (issue 51). Three
routes per step and tile:

  overlay  Ortho4XP's ``build_overlay`` (src/O4_Overlay_Utils.py) with the
           peer DSFTool; the same code with agkit's drop-in DSFTool (a link
           to agkit named DSFTool); ``agkit dsf extract-overlay``.
  seasons  AutoOrtho's ``DsfUtils.add_season_to_dsf_txt``
           (autoortho/utils/dsf_utils.py) with the peer DSFTool; the same
           code with agkit's drop-in; ``agkit dsf rasters --from``.

The pipelines' modules are imported from their checkouts as they are; only
what they take from outside is stubbed: Ortho4XP's UI module (printing),
its folders (``O4_File_Names``' Tmp_dir, Overlay_dir), the overlay source
folder and the DSFTool path; AutoOrtho's ``CFG`` (X-Plane folder, scenery
folder, cache folder, no 7z) and the DSFTool path.

Every output is read back by the peer DSFTool (``--dsf2text``) and the two
texts compared entity for entity and plane for plane (patches as
triangles, rasters byte for byte). Each route is timed as one process
under /usr/bin/time: wall seconds and the peak RSS of the largest process
of the route, the better of two runs.

usage:
  python3.12 benches/dsf_pipelines_vs_dsftool.py --dsftool PATH/TO/DSFTool \
      --ortho4xp PATH/TO/Ortho4XP --autoortho PATH/TO/autoortho \
      [--agkit target/release/agkit] [--busy 201,626] [--work DIR] \
      --eddb PATH/TO/+52+013.dsf [TILE.dsf ...]

``--eddb`` is an overlay of tile +52+013 (the corpus's EDDB tile): the busy
tiles are a generated Ortho4XP-shaped mesh (N x N vertices, DIVISIONS 8)
merged with it; their Global Scenery counterpart adds a 1201 x 1201
elevation raster, eight 300 x 300 season rasters and a soundscape. TILEs
(overlays or Global Scenery tiles) get the overlay step only. AutoOrtho's
code needs Python 3.12 (nested f-strings). The work folder's path must not
hold "spr", "win", "fal", "sum", "soundscape" or "elevation" (AutoOrtho
matches those anywhere in a RASTER_ line).
"""

import argparse
import collections
import hashlib
import importlib.util
import math
import os
import random
import re
import shutil
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# ---------------------------------------------------------------- the routes
# Run in a child process: `THIS route NAME ARGS...`.


def route_ortho4xp(o4dir, dsftool, src_dsf, lat, lon, work):
    """Ortho4XP's overlay extraction on SRC_DSF (tile LAT LON); prints the output."""
    sys.path.insert(0, os.path.join(o4dir, "src"))
    ui = types.ModuleType("O4_UI_Utils")
    ui.is_working = 0
    ui.logprint = lambda *a, **k: None
    ui.vprint = lambda *a, **k: None
    ui.timings_and_bottom_line = lambda *a, **k: None

    def fail(*a):
        raise SystemExit("Ortho4XP: " + " ".join(str(x) for x in a))

    ui.exit_message_and_bottom_line = fail
    sys.modules["O4_UI_Utils"] = ui
    import O4_File_Names as FNAMES

    FNAMES.Tmp_dir = os.path.join(work, "tmp")
    FNAMES.Overlay_dir = os.path.join(work, "yOrtho4XP_Overlays")
    os.makedirs(FNAMES.Tmp_dir, exist_ok=True)
    srcdir = os.path.join(work, "overlay_src")
    tile = os.path.join(srcdir, "Earth nav data", FNAMES.long_latlon(lat, lon) + ".dsf")
    os.makedirs(os.path.dirname(tile), exist_ok=True)
    if not os.path.exists(tile):
        os.symlink(os.path.abspath(src_dsf), tile)
    import O4_Overlay_Utils as OVL

    OVL.custom_overlay_src = srcdir
    OVL.dsftool_cmd = dsftool + " "
    if OVL.build_overlay(lat, lon) != 1:
        raise SystemExit("Ortho4XP: build_overlay failed")
    print(
        os.path.join(
            FNAMES.Overlay_dir,
            "Earth nav data",
            FNAMES.round_latlon(lat, lon),
            FNAMES.short_latlon(lat, lon) + ".dsf",
        )
    )


def route_autoortho(aodir, dsftool, ortho_dsf, global_dsf, lat, lon, work):
    """AutoOrtho's season step: GLOBAL_DSF's rasters into ORTHO_DSF; prints the output."""
    folder = "%+03d%+04d" % (math.floor(lat / 10) * 10, math.floor(lon / 10) * 10)
    name = "%+03d%+04d.dsf" % (lat, lon)
    xp = os.path.join(work, "xp")
    gdir = os.path.join(xp, "Global Scenery", "X-Plane 12 Global Scenery", "Earth nav data", folder)
    os.makedirs(gdir, exist_ok=True)
    if not os.path.exists(os.path.join(gdir, name)):
        os.symlink(os.path.abspath(global_dsf), os.path.join(gdir, name))
    ao = os.path.join(work, "ao")
    pkg = "z_ao_bench"
    tdir = os.path.join(ao, "z_autoortho", "scenery", pkg, "Earth nav data", folder)
    os.makedirs(tdir, exist_ok=True)
    target = os.path.join(tdir, name)
    shutil.copy(ortho_dsf, target)
    shutil.rmtree(os.path.join(ao, "z_autoortho", "scenery", pkg, "dsf_backups"), ignore_errors=True)
    cfg = types.SimpleNamespace(
        paths=types.SimpleNamespace(xplane_path=xp, scenery_path=ao, dsf_dir=os.path.join(work, "cache")),
        seasons=types.SimpleNamespace(compress_dsf=False, seasons_convert_workers=1),
    )
    stub = types.ModuleType("aoconfig")
    stub.CFG = cfg
    sys.modules["aoconfig"] = stub
    pkgstub = types.ModuleType("autoortho")
    pkgstub.__path__ = []
    sys.modules["autoortho"] = pkgstub
    sys.path.insert(0, os.path.join(aodir, "autoortho"))
    spec = importlib.util.spec_from_file_location(
        "utils.dsf_utils", os.path.join(aodir, "autoortho", "utils", "dsf_utils.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    du = mod.dsf_utils
    du.dsf_tool_location = dsftool
    result = du.add_season_to_dsf_txt(pkg, folder, name, os.path.join(work, "cache", "one"), {})
    if result != mod.SeasonsAddResult.ADDED:
        raise SystemExit("AutoOrtho: add_season_to_dsf_txt gave %s" % result)
    print(target)


# ------------------------------------------------------------ busy tiles


def mesh_text(path, size, lat, lon, seed, rasters):
    """DSF2Text of an Ortho4XP-shaped mesh on tile LAT LON (DIVISIONS 8).

    A SIZE x SIZE jittered grid, two triangles a square, each in one of four
    terrain patches; with RASTERS, the Global Scenery layers as .raw files
    beside PATH.
    """
    r = random.Random(seed)
    n = size - 1
    pts = []
    for j in range(size):
        for i in range(size):
            ji = 0.0 if i in (0, n) else r.uniform(-0.3, 0.3) / n
            jj = 0.0 if j in (0, n) else r.uniform(-0.3, 0.3) / n
            pts.append(
                (lon + i / n + ji, lat + j / n + jj, r.uniform(20.0, 180.0), r.uniform(-0.3, 0.3), r.uniform(-0.3, 0.3))
            )
    patches = [[], [], [], []]
    for j in range(n):
        for i in range(n):
            a = j * size + i
            b, c, d = a + 1, a + size, a + size + 1
            patches[r.randrange(4)].append((a, b, d))
            patches[r.randrange(4)].append((a, d, c))
    with open(path, "w") as f:
        f.write("I\n800 written by DSFTool 2.4.0-b1\nDSF2TEXT\n\nDIVISIONS 8\nHEIGHTS 1.0 -500.0\n")
        f.write(
            "PROPERTY sim/west %d\nPROPERTY sim/east %d\nPROPERTY sim/north %d\nPROPERTY sim/south %d\n"
            % (lon, lon + 1, lat + 1, lat)
        )
        for k in range(4):
            f.write("TERRAIN_DEF terrain/t%d.ter\n" % k)
        layers = []
        if rasters:
            layers.append(("elevation", 2, 5, 1201, 1.0, 0.0))
            for s in ("spr1", "spr2", "sum1", "sum2", "fal1", "fal2", "win1", "win2"):
                layers.append((s, 1, 6, 300, 2.0, 0.0))
            layers.append(("soundscape", 1, 6, 300, 1.0, 0.0))
            for name, *_ in layers:
                f.write("RASTER_DEF %s\n" % name)
        for k, tris in enumerate(patches):
            f.write("BEGIN_PATCH %d 0.000000 -1.000000 1 5\nBEGIN_PRIMITIVE 0\n" % k)
            for m, t in enumerate(tris):
                if m and m % 85 == 0:
                    f.write("END_PRIMITIVE\nBEGIN_PRIMITIVE 0\n")
                for v in t:
                    f.write("PATCH_VERTEX %.9f %.9f %.9f %.9f %.9f\n" % pts[v])
            f.write("END_PRIMITIVE\nEND_PATCH\n")
        for name, bpp, flags, w, scale, offset in layers:
            raw = "%s.%s.raw" % (path, name)
            with open(raw, "wb") as g:
                g.write(bytes(r.randrange(256) for _ in range(min(w * w * bpp, 4096))) * ((w * w * bpp) // 4096 + 1))
            os.truncate(raw, w * w * bpp)
            f.write(
                "RASTER_DATA version=1 bpp=%d flags=%d width=%d height=%d scale=%f offset=%f %s\n"
                % (bpp, flags, w, w, scale, offset, raw)
            )


def agkit(ag, *args):
    subprocess.run([ag, *args], check=True, stdout=subprocess.DEVNULL)


def busy_tiles(ag, eddb, size, work):
    """(ortho tile, Global Scenery tile) of SIZE x SIZE vertices on +52+013."""
    out = []
    for rasters in (False, True):
        folder = os.path.join(work, "busy%d%s" % (size, "_global" if rasters else ""))
        os.makedirs(folder)
        stem = os.path.join(folder, "tile")
        mesh_text(stem + "_mesh.txt", size, 52, 13, 51, rasters)
        agkit(ag, "dsftool", "--text2dsf", stem + "_mesh.txt", stem + "_mesh.dsf")
        agkit(ag, "dsf", "merge", stem + "_mesh.dsf", eddb, "-o", stem + "_merged.dsf")
        agkit(ag, "dsf", "props", stem + "_merged.dsf", "--unset", "sim/overlay", "-o", os.path.join(folder, "+52+013.dsf"))
        out.append(os.path.join(folder, "+52+013.dsf"))
    return out


# -------------------------------------------------------------- read-back


def read_back(dsftool, dsf, work, tag):
    """Entities of DSFTool's text of DSF: {group: [flat float tuple]}, rasters, properties."""
    txt = os.path.join(work, "rb_%s.txt" % tag)
    for old in os.listdir(work):
        if old.startswith("rb_%s.txt" % tag):
            os.remove(os.path.join(work, old))
    subprocess.run([dsftool, "--dsf2text", dsf, txt], check=True, stdout=subprocess.DEVNULL)
    defs = {"TERRAIN_DEF": [], "OBJECT_DEF": [], "POLYGON_DEF": [], "NETWORK_DEF": [], "RASTER_DEF": []}
    props, groups, rasters = [], {}, {}
    cur, kind = None, None
    prim, prim_type = [], 0

    def add(group, tup):
        groups.setdefault(group, []).append(tup)

    def flush_prim(group):
        tris = []
        if prim_type == 0:
            tris = [prim[i : i + 3] for i in range(0, len(prim) - 2, 3)]
        elif prim_type == 1:
            tris = [(prim[i], prim[i + 1], prim[i + 2]) if i % 2 == 0 else (prim[i + 1], prim[i], prim[i + 2]) for i in range(len(prim) - 2)]
        elif prim_type == 2:
            tris = [(prim[0], prim[i], prim[i + 1]) for i in range(1, len(prim) - 1)]
        for t in tris:
            k = min(range(3), key=lambda i: t[i][:2])
            t = t[k:] + t[:k]
            add(group, tuple(x for v in t for x in v))

    with open(txt) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            op = w[0]
            if op in defs:
                defs[op].append(line[len(op) :].strip())
            elif op == "PROPERTY":
                props.append(" ".join(w[1:]))
            elif op == "OBJECT":
                add(("OBJECT", defs["OBJECT_DEF"][int(w[1])]), tuple(map(float, w[2:])))
            elif op == "BEGIN_POLYGON":
                kind = ("POLYGON", defs["POLYGON_DEF"][int(w[1])], w[2], w[3])
                cur = []
            elif op == "BEGIN_WINDING":
                cur.append("|")
            elif op == "POLYGON_POINT":
                cur.extend(map(float, w[1:]))
            elif op == "END_POLYGON":
                add(kind, tuple(x for x in cur if x != "|") + (cur.count("|"),))
            elif op.startswith("BEGIN_SEGMENT"):
                kind = ("SEGMENT" + op[13:], defs["NETWORK_DEF"][int(w[1])], w[2])
                cur = list(map(float, w[4:]))
            elif op.startswith("SHAPE_POINT"):
                cur.extend(map(float, w[1:]))
            elif op.startswith("END_SEGMENT"):
                cur.extend(map(float, w[2:]))
                add(kind, tuple(cur))
            elif op == "BEGIN_PATCH":
                kind = ("PATCH", defs["TERRAIN_DEF"][int(w[1])], w[2], w[3], w[4], w[5])
            elif op == "BEGIN_PRIMITIVE":
                prim, prim_type = [], int(w[1])
            elif op == "PATCH_VERTEX":
                prim.append(tuple(map(float, w[1:])))
            elif op == "END_PRIMITIVE":
                flush_prim(kind)
            elif op == "RASTER_DATA":
                name = defs["RASTER_DEF"][len(rasters)]
                with open(w[-1], "rb") as g:
                    rasters[name] = (" ".join(w[1:-1]), hashlib.md5(g.read()).hexdigest())
    props = sorted(p for p in props if not p.startswith("sim/creation_agent"))
    return groups, rasters, props


# Two entities are the same when every vertex is within this many degrees.
MATCH = 1e-4


def compare(a, b):
    """Compare two read-backs: (lines of report, equal within tolerance)."""
    ga, ra, pa = a
    gb, rb, pb = b
    out, ok = [], True
    if pa != pb and sorted(set(pa)) == sorted(set(pb)):
        out.append("properties equal but for repeats: %s vs %s" % (len(pa), len(pb)))
    elif pa != pb:
        ok = False
        ca, cb = collections.Counter(pa), collections.Counter(pb)
        out.append("properties differ: only in the first %s, only in the second %s" % (sorted((ca - cb).elements()), sorted((cb - ca).elements())))
    if ra != rb:
        ok = False
        out.append("rasters differ: %s vs %s" % (ra, rb))
    elif ra:
        out.append("rasters equal byte for byte: %s" % ", ".join(sorted(ra)))
    worst = {}
    for g in sorted(set(ga) | set(gb), key=str):
        la, lb = sorted(ga.get(g, [])), sorted(gb.get(g, []))
        if len(la) != len(lb):
            ok = False
            out.append("%s: %d vs %d entities" % (g[:2], len(la), len(lb)))
            continue
        cat = g[0]
        if cat == "OBJECT":
            depth = len(la[0]) if la else 1
        elif cat == "PATCH":
            depth = int(g[5])
        elif cat == "POLYGON":
            depth = int(g[3])
        else:
            depth = 3
        unmatched = 0
        used = [False] * len(lb)
        for i, ea in enumerate(la):
            # A match is within MATCH on position (planes 0 and 1 of every
            # vertex); of those, the closest on every plane (two objects on
            # one spot differ by their heading).
            best, bj = None, None
            for j in range(max(0, i - 16), min(len(lb), i + 17)):
                eb = lb[j]
                if used[j] or len(eb) != len(ea):
                    continue
                d = max((abs(x - y) for k, (x, y) in enumerate(zip(ea, eb)) if k % depth < 2), default=0.0)
                if d > MATCH:
                    continue
                full = max((abs(x - y) for x, y in zip(ea, eb)), default=0.0)
                if best is None or full < best:
                    best, bj = full, j
            if bj is None:
                unmatched += 1
                continue
            used[bj] = True
            eb = lb[bj]
            w = worst.setdefault(cat, {})
            for k, (x, y) in enumerate(zip(ea, eb)):
                p = k % depth
                w[p] = max(w.get(p, 0.0), abs(x - y))
        if unmatched:
            ok = False
            out.append("%s: %d of %d entities without a match" % (g[:2], unmatched, len(la)))
    counts = {}
    for g, l in ga.items():
        counts[g[0]] = counts.get(g[0], 0) + len(l)
    for cat in sorted(counts):
        planes = worst.get(cat, {})
        out.append(
            "%s: %d entities, max difference by plane: %s"
            % (cat, counts[cat], " ".join("%d:%.1e" % (p, planes[p]) for p in sorted(planes)))
        )
    return out, ok


# ----------------------------------------------------------------- timing


def timed(cmd, work):
    """(wall s, peak MB, stdout) of the better of two runs of CMD."""
    best = None
    for _ in range(2):
        tf = os.path.join(work, "time.txt")
        p = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", tf, *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        if p.returncode:
            raise SystemExit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
        wall, kb = open(tf).read().split()[-2:]
        run = (float(wall), int(kb) / 1024, p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "")
        if best is None or run[0] < best[0]:
            best = run
    return best


def tile_latlon(dsf):
    m = re.search(r"([+-]\d\d)([+-]\d\d\d)\.dsf$", dsf)
    if not m:
        raise SystemExit("%s: the file name must be the tile's, e.g. +52+013.dsf" % dsf)
    return int(m.group(1)), int(m.group(2))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "route":
        fn = {"ortho4xp": route_ortho4xp, "autoortho": route_autoortho}[sys.argv[2]]
        args = sys.argv[3:]
        if fn is route_ortho4xp:
            return fn(args[0], args[1], args[2], int(args[3]), int(args[4]), args[5])
        return fn(args[0], args[1], args[2], args[3], int(args[4]), int(args[5]), args[6])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dsftool", required=True)
    ap.add_argument("--ortho4xp", required=True)
    ap.add_argument("--autoortho", required=True)
    ap.add_argument("--agkit", default=os.path.join(ROOT, "target", "release", "agkit"))
    ap.add_argument("--eddb", required=True)
    ap.add_argument("--busy", default="201,626")
    ap.add_argument("--work", default=None)
    ap.add_argument("tiles", nargs="*")
    o = ap.parse_args()
    dsftool, ag = os.path.abspath(o.dsftool), os.path.abspath(o.agkit)
    work = os.path.abspath(o.work or os.path.join("/tmp", "pipebench"))
    if any(s in work for s in ("spr", "win", "fal", "sum", "soundscape", "elevation")):
        raise SystemExit("%s: AutoOrtho would take this path for a raster name" % work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "bin"))
    dropin = os.path.join(work, "bin", "DSFTool")
    os.symlink(ag, dropin)
    me = os.path.abspath(__file__)
    jobs = [("overlay", t, None) for t in o.tiles]
    for size in [int(s) for s in o.busy.split(",") if s]:
        ortho, glob = busy_tiles(ag, o.eddb, size, work)
        jobs += [("overlay", glob, size), ("seasons", (ortho, glob), size)]
    print("| tile | step | pipeline + DSFTool: s / MB | pipeline + agkit drop-in: s / MB | agkit command: s / MB | ratio | read-back |")
    print("|---|---|---|---|---|---|---|")
    for n, (step, t, size) in enumerate(jobs):
        runs = {}
        for label, tool in (("dsftool", dsftool), ("dropin", dropin)):
            rw = os.path.join(work, "r%d_%s" % (n, label))
            shutil.rmtree(rw, ignore_errors=True)
            os.makedirs(rw)
            if step == "overlay":
                lat, lon = tile_latlon(t)
                cmd = [sys.executable, me, "route", "ortho4xp", o.ortho4xp, tool, t, str(lat), str(lon), rw]
            else:
                lat, lon = 52, 13
                cmd = [sys.executable, me, "route", "autoortho", o.autoortho, tool, t[0], t[1], str(lat), str(lon), rw]
            wall, mb, out = timed(cmd, work)
            keep = os.path.join(work, "out%d_%s.dsf" % (n, label))
            shutil.copy(out, keep)
            runs[label] = (wall, mb, keep)
        keep = os.path.join(work, "out%d_agkit.dsf" % n)
        if step == "overlay":
            cmd = [ag, "dsf", "extract-overlay", t, "-o", keep]
        else:
            cmd = [ag, "dsf", "rasters", t[0], "--from", t[1], "-o", keep]
        if os.path.exists(keep):
            os.remove(keep)
        wall, mb, _ = timed(cmd, work)
        runs["agkit"] = (wall, mb, keep)
        ref = read_back(dsftool, runs["dsftool"][2], work, "%d_ref" % n)
        notes = []
        for label in ("dropin", "agkit"):
            lines, ok = compare(ref, read_back(dsftool, runs[label][2], work, "%d_%s" % (n, label)))
            notes.append("%s %s" % (label, "equal" if ok else "DIFFERS"))
            print("## %s %s, %s vs DSFTool route:" % (step, size or os.path.basename(t), label), file=sys.stderr)
            for line in lines:
                print("   " + line, file=sys.stderr)
        # What each route keeps of its input tile's entities.
        src = t if step == "overlay" else t[0]
        given = read_back(dsftool, src, work, "%d_input" % n)
        for label in ("dsftool", "agkit"):
            lines, _ = compare(given, read_back(dsftool, runs[label][2], work, "%d_%s_in" % (n, label)))
            print("## %s %s, input vs %s route:" % (step, size or os.path.basename(t), label), file=sys.stderr)
            for line in lines:
                if "entities" in line and "max difference" in line:
                    print("   " + line, file=sys.stderr)
        name = "busy %d², %s B" % (size, format(os.path.getsize(src), ",")) if size else "%s, %s B" % (
            os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(src)))) or os.path.basename(src),
            format(os.path.getsize(src), ","),
        )
        print(
            "| %s | %s | %.2f / %.1f | %.2f / %.1f | %.2f / %.1f | %.3f× | %s |"
            % (
                name,
                step,
                runs["dsftool"][0],
                runs["dsftool"][1],
                runs["dropin"][0],
                runs["dropin"][1],
                runs["agkit"][0],
                runs["agkit"][1],
                runs["agkit"][0] / runs["dsftool"][0] if runs["dsftool"][0] else 0.0,
                ", ".join(notes),
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
