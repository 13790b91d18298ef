"""Where the CPU of `agkit.distributed.place_package` goes on a
LocalCluster (BENCHMARKS.md, "Python: the result as a Parquet dataset").

    python python/bench/cpu_split.py /tmp/gfull [--rounds 2]

On the tiles `agkit gen --scale full` writes (the library of
`dask_tiles.py`), it prints:

1. the writing alone, in this process: every tile's placed table written
   as a Parquet file of its own (`ArrowTable.write_parquet`) against all of
   them into one file (`agkit.ParquetWriter`) — the cost of part files;
2. alternately, `rounds` times: the recipe in this process
   (`client=False`, as a dataset) and on LocalClusters of 1 and 2
   single-threaded workers, with the workers' whole-process CPU time and
   the CPU time of their task threads (`time.thread_time()` around each
   task): the difference is Dask's own work; a 1-worker cluster's task
   CPU against one process is what a worker adds; 2 workers against 1 is
   what two busy cores cost each other.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import agkit
from agkit import distributed

from dask_tiles import make_library


def count_task_cpu() -> None:
    """Wraps `distributed._write_parts` in this (worker) process to add up
    the CPU time of the thread running each task."""
    if getattr(distributed, "_task_cpu", None) is not None:
        return
    distributed._task_cpu = 0.0  # type: ignore[attr-defined]
    inner = distributed._write_parts

    def counted(*a: Any, **k: Any) -> Any:
        start = time.thread_time()
        try:
            return inner(*a, **k)
        finally:
            distributed._task_cpu += time.thread_time() - start  # type: ignore[attr-defined]

    counted.__name__ = inner.__name__
    distributed._write_parts = counted  # type: ignore[assignment]


def cpu_so_far() -> tuple[float, float]:
    """This process's CPU time and its tasks' so far."""
    return sum(os.times()[:2]), float(getattr(distributed, "_task_cpu", 0.0))


def writing(tiles: list[Path], lib: Path, root: Path) -> None:
    scenery = agkit.scenery.Scenery(tiles[0].parent, [lib])
    tables = [scenery.placed_table(t, 0, name=t.name) for t in tiles]
    (root / "parts").mkdir()
    start = time.process_time()
    for i, t in enumerate(tables):
        t.write_parquet(root / "parts" / f"{i}.parquet")
    parts = time.process_time() - start
    start = time.process_time()
    with agkit.ParquetWriter(root / "one.parquet", "placed") as w:
        for t in tables:
            w.write(t)
    one = time.process_time() - start
    rows = sum(t.num_rows for t in tables)
    print(f"write {rows:,} rows: a file per tile ({len(tables)}) {parts:.2f} s CPU, one file {one:.2f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gen", type=Path, help="the folder `agkit gen --scale full` wrote")
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    from dask.distributed import Client, LocalCluster

    tiles_dir = a.gen / "dsf"
    tiles = distributed.dsf_files(tiles_dir)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lib = make_library(root)
        print(f"{len(tiles)} tiles; load {os.getloadavg()[0]:.2f}")
        writing(tiles, lib, root)
        clients = {}
        for n in (1, 2):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster, set_as_default=False)
            client.run(count_task_cpu)
            clients[n] = client
        for r in range(a.rounds):
            out = root / f"round{r}"
            start, cpu = time.perf_counter(), time.process_time()
            distributed.place_package(tiles_dir, out / "here", library=[lib], client=False, dataset=True)
            print(f"load {os.getloadavg()[0]:.1f}  one process: {time.perf_counter() - start:6.2f} s, "
                  f"CPU {time.process_time() - cpu:.2f} s")
            for n, client in clients.items():
                before = client.run(cpu_so_far)
                start = time.perf_counter()
                distributed.place_package(tiles_dir, out / f"c{n}", library=[lib], client=client, dataset=True)
                wall = time.perf_counter() - start
                after = client.run(cpu_so_far)
                proc = sum(after[w][0] - before[w][0] for w in after)
                task = sum(after[w][1] - before[w][1] for w in after)
                print(f"load {os.getloadavg()[0]:.1f}  {n} worker(s): {wall:6.2f} s, workers' CPU {proc:.2f} s, "
                      f"of it in tasks {task:.2f} s")
            shutil.rmtree(out)
        for client in clients.values():
            cluster = client.cluster
            client.close()
            cluster.close()


if __name__ == "__main__":
    main()
