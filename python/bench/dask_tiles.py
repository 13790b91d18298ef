"""agkit.distributed on a 2-worker dask LocalCluster against one process,
on the tiles `agkit gen --scale full` writes (BENCHMARKS.md, "Python: tiles
on Dask").

    agkit gen --seed 1 --scale full -o /tmp/gfull
    python python/bench/dask_tiles.py /tmp/gfull [--workers 2] [--what census,place]

The generated tiles name lib/g10/autogen/{city_block.agb,plaza.agp,
town_edge.ags}; the script makes a library package exporting those paths
to the bundled examples' files (as the CLI benchmark's /tmp/glib does), then
runs each recipe in this process (`client=None`) and on a LocalCluster of
N single-threaded worker processes, checks the two results are the same
rows, and prints wall times. The cluster's start is timed apart: a real
cluster is started once for many runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import pandas

from agkit import distributed

REPO = Path(__file__).resolve().parents[2]
EXPORTS = {
    "lib/g10/autogen/city_block.agb": "block/city_block.agb",
    "lib/g10/autogen/plaza.agp": "point/plaza.agp",
    "lib/g10/autogen/town_edge.ags": "string/town_edge.ags",
}


def make_library(root: Path) -> Path:
    lib = root / "glib"
    lines = ["A", "800", "LIBRARY"]
    for virtual, real in EXPORTS.items():
        (lib / real).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "examples" / real, lib / real)
        lines.append(f"EXPORT {virtual} {real}")
    (lib / "library.txt").write_text("\n".join(lines) + "\n")
    return lib


def timed(label: str, run):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = run()
    wall = time.perf_counter() - start
    print(f"{label:40} {wall:8.2f} s  ({result.rows:,} rows, {len(result.done)} tiles, {len(result.failed)} failed)")
    return result, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gen", type=Path, help="the folder `agkit gen --scale full` wrote")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--what", default="census,place")
    a = ap.parse_args()
    from dask.distributed import Client, LocalCluster

    tiles = a.gen / "dsf"
    n = len(distributed.dsf_files(tiles))
    print(f"{n} tiles under {tiles}; {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lib = make_library(root)
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        print(f"{'LocalCluster start':40} {time.perf_counter() - start:8.2f} s")
        # The workers import agkit (and pandas, pyarrow) before the clock.
        client.run(lambda: __import__("agkit.distributed") and __import__("pyarrow") and None)
        for what in a.what.split(","):
            recipe = {"census": distributed.census, "place": distributed.place_package}[what]
            read = pandas.read_parquet
            one, t1 = timed(f"{what}: one process", lambda: recipe(tiles, root / f"{what}1", library=[lib]))
            two, t2 = timed(
                f"{what}: LocalCluster, {a.workers} workers",
                lambda: recipe(tiles, root / f"{what}2", library=[lib], client=client),
            )
            same = read(one.output).equals(read(two.output))
            print(f"{what}: speed-up {t1 / t2:.2f}x, same rows: {same}")
            assert same and one.ok and two.ok
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
