"""Peak memory and time of making one GeoParquet file of many part files
(BENCHMARKS.md, "Python: tiles on Dask"): the merge the recipes did until
stop 43 (pyarrow: every part read, concatenated, sorted, written) against
`agkit.ParquetWriter.append_file` (each part streamed into the file from
Rust, 65,536 rows at a time). Each way runs in a fresh Python process, so
its peak resident memory is its own.

    python python/bench/merge_memory.py PARTS_DIR [--schema placed]

PARTS_DIR holds the part files (`*.parquet`), e.g. the `parts/` folder a
`place_package(..., client=client)` run left, or the folder
`--make PARTS_DIR --tiles DIR --library LIB` fills with each tile's placed
table (one part per tile, written from Rust).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

OLD = """
import resource, sys, time
import pyarrow, pyarrow.parquet as pq
parts, out, keys = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
from pathlib import Path
start = time.perf_counter()
tables = [pq.read_table(p) for p in sorted(Path(parts).glob("*.parquet"))]
table = pyarrow.concat_tables(tables).sort_by([(k, "ascending") for k in keys])
pq.write_table(table, out, compression="snappy")
print(table.num_rows, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""

NEW = """
import resource, sys, time
import agkit
parts, out, schema = sys.argv[1], sys.argv[2], sys.argv[3]
from pathlib import Path
start = time.perf_counter()
with agkit.ParquetWriter(out, schema) as w:
    for p in sorted(Path(parts).glob("*.parquet")):
        w.append_file(p)
    rows = w.rows
print(rows, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""

BASE = """
import resource, pyarrow, pyarrow.parquet, agkit
print(0, 0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def run(code: str, *args: str) -> tuple[int, float, float]:
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    rows, wall, peak = p.stdout.split()
    return int(rows), float(wall), float(peak)


def make(parts: Path, tiles: Path, library: Path) -> None:
    import agkit
    from agkit import distributed

    parts.mkdir(parents=True, exist_ok=True)
    dsfs = distributed.dsf_files(tiles)
    scenery = agkit.scenery.Scenery(tiles, [library])
    for d in dsfs:
        scenery.placed_table(d, 0, name=d.name).write_parquet(parts / f"{d.stem}.parquet")
    print(f"{len(dsfs)} parts written to {parts}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parts", type=Path)
    ap.add_argument("--schema", default="placed", choices=["placed", "census"])
    ap.add_argument("--make", action="store_true", help="first write one part per tile of --tiles")
    ap.add_argument("--tiles", type=Path)
    ap.add_argument("--library", type=Path)
    a = ap.parse_args()
    if a.make:
        make(a.parts, a.tiles, a.library)
    keys = "dsf,placement" if a.schema == "placed" else "dsf,use"
    out = a.parts.parent / "merged.parquet"
    n = len(list(a.parts.glob("*.parquet")))
    _, _, base = run(BASE)
    print(f"{n} parts; a Python process with pyarrow and agkit imported peaks at {base:.0f} MB")
    results = {}
    for label, code, extra in [("pyarrow read+concat+sort+write", OLD, keys), ("ParquetWriter.append_file", NEW, a.schema)]:
        rows, wall, peak = run(code, str(a.parts), str(out), extra)
        results[label] = (rows, wall, peak)
        print(f"{label:34} {rows:>10,} rows {wall:8.2f} s  peak {peak:6.0f} MB")
        out.unlink()
    print(json.dumps({k: {"rows": r, "seconds": round(w, 2), "peak_mb": round(p)} for k, (r, w, p) in results.items()}))


if __name__ == "__main__":
    main()
