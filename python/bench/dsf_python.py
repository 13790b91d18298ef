"""Reading DSF tiles and placing AGS uses from Python (BENCHMARKS.md, "Python").

    python python/bench/dsf_python.py DSF_DIR [--xplnedsf PATH/xplnedsf.py] [--big N] [--cli target/release/agkit]

Reads every .dsf under DSF_DIR (e.g. `agkit gen --scale full` output) three
ways with agkit — the tile alone, the tile plus every entity as Python dicts,
the tile plus every pool as numpy arrays — and, given the path of the
public pure-Python reader xplnedsf.py (not part of agkit: fetch it yourself),
with `XPLNEDSF().read`. `--big N` adds one tile of N objects built here.
Then it places every AGS use of the tiles with examples/string/town_edge.ags
(height 12 m, one spawning ring), from Python and, given `--cli`, with the
command line on the same polygons (one process, JSON written to a file).
Each figure is the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import random
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Callable

import agkit

REPO = Path(__file__).resolve().parents[2]


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return min(times)


def big_tile(n: int, path: Path) -> Path:
    """A tile of `n` objects over two definitions, built with agkit."""
    r = random.Random(5)
    lines = ["I", "800", "DSF2TEXT"]
    lines += [f"PROPERTY sim/{k} {v}" for k, v in (("west", 13), ("east", 14), ("south", 47), ("north", 48))]
    lines += ["OBJECT_DEF lib/a.obj", "OBJECT_DEF lib/b.obj"]
    lines += [
        f"OBJECT {i % 2} {13 + r.random():.7f} {47 + r.random():.7f} {r.random() * 360:.1f}"
        for i in range(n)
    ]
    agkit.dsf.build("\n".join(lines) + "\n", path)
    return path


def agree(xpl: object, files: list[Path]) -> None:
    """Both readers decode the same points (not timed)."""
    for f in files:
        d = xpl.XPLNEDSF()  # type: ignore[attr-defined]
        with redirect_stdout(io.StringIO()):
            d.read(str(f), log=0)
        t = agkit.dsf.read(f)
        pools = [p for p in t.pools if not p["wide"]]
        assert len(d.V) == len(pools), f
        for i, pool in enumerate(d.V):
            mine = t.pool_points(i).tolist()
            assert len(mine) == len(pool), f
            assert all(abs(a - b) < 1e-9 for p, q in zip(mine, pool) for a, b in zip(p, q)), f
    print(f"\n(xplnedsf and agkit decode the same points in all {len(files)} file(s))")


def row(name: str, seconds: float, nbytes: int, files: int) -> None:
    print(f"| {name} | {seconds * 1000:9.1f} ms | {nbytes / seconds / 1e6:8.1f} MB/s | {seconds / files * 1000:8.3f} ms/tile |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dsf_dir", type=Path)
    ap.add_argument("--xplnedsf", type=Path)
    ap.add_argument("--big", type=int, default=0)
    ap.add_argument("--cli", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    sets = {"tiles": sorted(args.dsf_dir.rglob("*.dsf"))}
    if args.big:
        sets[f"one tile of {args.big} objects"] = [big_tile(args.big, Path("/tmp/agkit-bench-big.dsf"))]
    xpl = None
    if args.xplnedsf:
        spec = importlib.util.spec_from_file_location("xplnedsf", args.xplnedsf)
        assert spec and spec.loader
        xpl = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(xpl)

    for label, files in sets.items():
        nbytes = sum(f.stat().st_size for f in files)
        print(f"\n{label}: {len(files)} file(s), {nbytes / 1e6:.2f} MB\n")
        print("| reader | time | throughput | per tile |\n|---|---|---|---|")

        def tiles() -> None:
            for f in files:
                agkit.dsf.read(f)

        def dicts() -> None:
            for f in files:
                t = agkit.dsf.read(f)
                list(t.objects()), list(t.polygons()), list(t.patches()), list(t.chains())

        def arrays() -> None:
            for f in files:
                t = agkit.dsf.read(f)
                for p in t.pools:
                    t.pool_points(p["index"], wide=p["wide"])
                t.object_array()

        row("`agkit.dsf.read`", best(tiles, args.repeat), nbytes, len(files))
        row("`agkit.dsf.read` + every entity as dicts", best(dicts, args.repeat), nbytes, len(files))
        row("`agkit.dsf.read` + every pool and the objects as numpy", best(arrays, args.repeat), nbytes, len(files))
        if xpl is not None:

            def pure() -> None:
                for f in files:
                    with redirect_stdout(io.StringIO()):  # it prints as it goes
                        assert xpl.XPLNEDSF().read(str(f), log=0) == 0

            row("xplnedsf `XPLNEDSF().read` (pure Python)", best(pure, args.repeat), nbytes, len(files))
            agree(xpl, files)

    asset = REPO / "examples" / "string" / "town_edge.ags"
    ags = agkit.read_asset(asset)
    rings = [
        f["geometry"]["coordinates"]
        for path in sets["tiles"]
        for f in agkit.dsf.autogen(path)["features"]
        if f["properties"]["kind"] == "ags"
    ]
    vertices = sum(len(r) - 1 for rs in rings for r in rs)

    def place() -> None:
        for r in rings:
            agkit.place(ags, polygon=r, height=12, spawning=1)

    def place_dicts() -> None:
        for r in rings:
            agkit.place(ags, polygon=r, height=12, spawning=1).to_dict()

    print(f"\nplacing {len(rings)} AGS uses ({vertices} vertices) with town_edge.ags\n")
    print("| call | time | uses/s | µs per vertex |\n|---|---|---|---|")
    runs = [("`agkit.place`", place), ("`agkit.place(...).to_dict()`", place_dicts)]
    if args.cli:
        polygons = Path("/tmp/agkit-bench-ags.geojson")
        polygons.write_text(json.dumps({"type": "MultiPolygon", "coordinates": rings}))
        cmd = [str(args.cli), "place", str(asset), "--polygon", str(polygons), "--height", "12"]
        cmd += ["--spawning", "1", "--format", "json", "-o", "/tmp/agkit-bench-ags.json"]
        runs.append(("`agkit place --polygon` (CLI, JSON to a file)", lambda: subprocess.run(cmd, check=True, capture_output=True)))
    for name, run in runs:
        s = best(run, args.repeat)
        print(f"| {name} | {s * 1000:9.1f} ms | {len(rings) / s:9.0f} | {s / vertices * 1e6:8.2f} |")


if __name__ == "__main__":
    sys.exit(main())
