#!/usr/bin/env python3
"""Checks GIS files with GDAL's own tools, as a QGIS user's conversions would.

Usage: gis_check.py DIR [DIR ...]

For every *.geojson and *.gpkg under the folders (those the tests wrote):

- each layer has one geometry type: a GeoPackage table as ogrinfo reports
  it; in a GeoJSON file, the features of one value of the ``layer`` property
  (agkit's layers) as ogr2ogr reads them back;
- ``ogr2ogr`` of each layer to GeoPackage, FlatGeobuf and Shapefile succeeds
  and prints no warning (a laundered field name, a truncated value, a
  geometry type that does not fit ...);
- the converted layer has the same fields with the same types, and the same
  values, feature by feature. One loss is the format's, not agkit's: a
  Shapefile has no boolean type, so a Boolean field comes back as an
  Integer holding 0 or 1.

Only the standard library and GDAL's command-line tools (``ogrinfo``,
``ogr2ogr``) are used. Exits 1 with every problem listed, 0 when all hold.
"""

import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS = [("GPKG", ".gpkg"), ("FlatGeobuf", ".fgb"), ("ESRI Shapefile", ".shp")]


def run(args):
    """Runs a GDAL tool; returns (status, stdout, stderr)."""
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def schema(path, layer=None, where=None):
    """Field name -> type (with subtype) and the geometry type, from
    ``ogrinfo -so``."""
    args = ["ogrinfo", "-ro", "-so", "-nomd", str(path)]
    if layer:
        args.append(layer)
    else:
        args.append("-al")
    if where:
        args += ["-where", where]
    rc, out, err = run(args)
    if rc != 0:
        raise RuntimeError(f"ogrinfo {path}: {err.strip()}")
    fields, geom = {}, None
    for line in out.splitlines():
        m = re.match(r"^Geometry: (.*)$", line)
        if m:
            geom = m.group(1).strip()
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*): ([A-Za-z0-9]+(?:\([A-Za-z0-9]+\))?) \(", line)
        if m and m.group(1) not in ("Layer name", "Geometry", "Extent"):
            fields[m.group(1)] = m.group(2)
    return fields, geom


def features(path, layer=None, where=None):
    """The features as GeoJSON objects, read back through ogr2ogr."""
    args = ["ogr2ogr", "-f", "GeoJSON", "/vsistdout/", str(path)]
    if layer:
        args.append(layer)
    if where:
        args += ["-where", where]
    rc, out, err = run(args)
    if rc != 0:
        raise RuntimeError(f"ogr2ogr {path}: {err.strip()}")
    return json.loads(out)["features"]


def layers_of(path):
    """(layer to read, -where filter, name) for each agkit layer of a file."""
    if path.suffix == ".gpkg":
        rc, out, _ = run(["ogrinfo", "-ro", "-q", str(path)])
        names = [m.group(1) for m in re.finditer(r"^\d+: (\S+)", out, re.M)]
        return [(n, None, n) for n in names]
    names = sorted({f["properties"].get("layer") for f in features(path)} - {None})
    if not names:
        return [(None, None, path.stem)]
    return [(None, f"layer = '{n}'", n) for n in names]


def same(a, b):
    """Field values equal (numbers to 1e-9 relative, a Shapefile's empty
    text and a null being the same)."""
    if a in ("", None) and b in ("", None):
        return True
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def check_file(path, problems):
    for layer, where, name in layers_of(path):
        label = f"{path.name}:{name}"
        feats = features(path, layer, where)
        kinds = {f["geometry"]["type"] for f in feats if f.get("geometry")}
        fields, geom = schema(path, layer, where)
        if path.suffix == ".gpkg":
            if geom is None or "Unknown" in geom or "Geometry Collection" in geom:
                problems.append(f"{label}: geometry type {geom}")
        if len(kinds) > 1:
            problems.append(f"{label}: several geometry types {sorted(kinds)}")
        if not feats:
            continue
        nlt = next(iter(kinds)).upper() if kinds else None
        with tempfile.TemporaryDirectory() as tmp:
            for driver, ext in TARGETS:
                out = Path(tmp) / f"{name}{ext}"
                args = ["ogr2ogr", "-f", driver, str(out), str(path)]
                if layer:
                    args.append(layer)
                if where:
                    args += ["-where", where]
                args += ["-nln", name]
                if nlt:
                    args += ["-nlt", nlt]
                if driver == "FlatGeobuf":
                    # Without its spatial index a FlatGeobuf keeps the
                    # features in order, for the comparison below.
                    args += ["-lco", "SPATIAL_INDEX=NO"]
                rc, _, err = run(args)
                if rc != 0 or err.strip():
                    problems.append(f"{label} -> {driver}: status {rc}: {err.strip()}")
                    continue
                back_fields, _ = schema(out, name)
                if driver == "ESRI Shapefile":
                    # DBF has no boolean: 0 and 1 in an Integer field.
                    back_fields = {
                        k: ("Integer(Boolean)" if fields.get(k) == "Integer(Boolean)" and t == "Integer" else t)
                        for k, t in back_fields.items()
                    }
                if back_fields != fields:
                    diff = {
                        k: (fields.get(k), back_fields.get(k))
                        for k in set(fields) | set(back_fields)
                        if fields.get(k) != back_fields.get(k)
                    }
                    problems.append(f"{label} -> {driver}: fields differ {diff}")
                back = features(out, name)
                if len(back) != len(feats):
                    problems.append(f"{label} -> {driver}: {len(back)} features, not {len(feats)}")
                    continue
                for i, (f, g) in enumerate(zip(feats, back)):
                    a, b = f["properties"], g["properties"]
                    bad = [k for k in fields if not same(a.get(k), b.get(k))]
                    if bad:
                        k = bad[0]
                        problems.append(
                            f"{label} -> {driver}: feature {i} field {k}: {a.get(k)!r} became {b.get(k)!r}"
                        )
                        break
        print(f"ok {label}: {len(feats)} features, {next(iter(kinds), 'no geometry')}, {len(fields)} fields")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    files = sorted(
        p for d in argv[1:] for p in Path(d).rglob("*") if p.suffix in (".geojson", ".gpkg")
    )
    if not files:
        print(f"error: no .geojson or .gpkg file under {' '.join(argv[1:])}", file=sys.stderr)
        return 1
    problems = []
    for f in files:
        try:
            check_file(f, problems)
        except (RuntimeError, ValueError, KeyError) as e:
            problems.append(f"{f.name}: {e}")
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    sys.stderr.flush()
    print(f"{len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
