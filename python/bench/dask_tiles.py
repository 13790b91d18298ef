"""agkit.distributed against the CLI, one process against a 2-worker dask
LocalCluster, on the tiles `agkit gen --scale full` writes (BENCHMARKS.md,
"Python: tiles on Dask").

    agkit gen --seed 1 --scale full -o /tmp/gfull
    python python/bench/dask_tiles.py /tmp/gfull --cli target/release/agkit \\
        [--workers 2] [--what census,place] [--small 5] [--repeat 3]

The generated tiles name lib/g10/autogen/{city_block.agb,plaza.agp,
town_edge.ags}; the script makes a library package exporting those paths
to the bundled examples' files (as the CLI benchmark's /tmp/glib does).
Then, for each recipe, it reports in one run:

1. the CLI on one thread (`RAYON_NUM_THREADS=1`) doing the same rows —
   `dsf autogen --format json` per tile (a process per tile) for the
   census, `place --dsf DIR --format json` for the placement — and its
   peak memory;
2. the recipe in this process (`client=None`), GeoParquet written, and its
   ratio to the CLI (target: at most 1.5x);
3. the recipe on a LocalCluster of N single-threaded worker processes,
   writing one file and writing a Parquet dataset (`dataset=True`: part
   files, nothing merged), the workers' CPU time, their speed-up over one
   process (target: at least 1.7x), and each worker's peak memory against
   the CLI's (target: below it); and on a LocalCluster of N thread workers
   in this process (`processes=False`: agkit's Rust work runs without the
   GIL), as a dataset;
4. each round, the machine's own ceiling: N processes of plain Python
   arithmetic (no memory to speak of, nothing shared) run at once against
   one alone. No N-process speed-up can pass it; on a shared VM whose host
   is busy it falls well below N.

Dask starts worker processes with MALLOC_TRIM_THRESHOLD_=65536, which
makes glibc give every allocation of 128 KiB or more its own pages;
`--no-trim` starts them without it. The CLI and the arithmetic run with
this process's environment as it was before any cluster started.

checking that the one-process and cluster results are the same rows
(the dataset read back as one table). With --repeat N the three runs are
made N times, one after the other, and the best of each is reported (on a
shared machine the load changes between runs). With
--small K it also times a K-tile run three ways: a plain loop over the
tiles in this process, the recipe without a Client and the recipe on the
cluster. With --writers it times writing every tile's placed table as
Parquet from Rust (`ArrowTable.write_parquet`) against pyarrow
(`pyarrow.parquet.write_table`). The cluster's start is timed apart: a
real cluster is started once for many runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import pandas

import agkit
from agkit import distributed

REPO = Path(__file__).resolve().parents[2]
# This process's environment before any cluster starts: a Nanny sets its
# `distributed.nanny.pre-spawn-environ` (MALLOC_TRIM_THRESHOLD_=65536 among
# them) in the environment of the process that starts it, which every
# later child would inherit. The CLI and the arithmetic are run with this
# one, as a user's shell runs them.
ENV = dict(os.environ)
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


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_cli(args: list[str]) -> tuple[float, float]:
    """Wall time and peak resident memory (MB) of one CLI process on one
    thread. The memory is GNU time's (`/usr/bin/time -f %M`): a child's
    own rusage would count the pages of this Python process it was forked
    from."""
    env = dict(ENV, RAYON_NUM_THREADS="1")
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        p = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        wall = time.perf_counter() - start
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(args)} exited {p.returncode}")
        return wall, int(rss.read().split()[-1]) / 1024


SPIN = "import math\nx = 0.0\nfor i in range(2_000_000):\n    x += math.atan2(i, 3.0)\n"


def ceiling(n: int) -> float:
    """N copies of the same plain arithmetic run at once, against one alone
    (after a run to wake the CPU up, the best of three tries each): the
    speed-up N processes can have on this machine now."""
    import sys

    def wall(k: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", SPIN], env=ENV) for _ in range(k)]
        for p in procs:
            p.wait()
        return time.perf_counter() - start

    wall(1)
    one = min(wall(1) for _ in range(3))
    many = min(wall(n) for _ in range(3))
    return n * one / many


def cli_census(cli: Path, tiles: list[Path]) -> tuple[float, float]:
    total, peak = 0.0, 0.0
    for dsf in tiles:
        wall, mb = run_cli([str(cli), "dsf", "autogen", str(dsf), "--format", "json"])
        total, peak = total + wall, max(peak, mb)
    return total, peak


def cli_place(cli: Path, folder: Path, lib: Path, out: Path) -> tuple[float, float]:
    return run_cli(
        [str(cli), "place", "--dsf", str(folder), "--library", str(lib), "--format", "json", "-o", str(out)]
    )


def timed(label: str, run: Callable[[], Any]) -> tuple[Any, float]:
    """Runs `run`, printing its wall time and this process's CPU time (the
    fairer figure on a loaded machine for work done in this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    rows = getattr(result, "rows", result)
    extra = f", {len(result.done)} tiles, {len(result.failed)} failed" if hasattr(result, "done") else ""
    print(f"{label:52} {wall:8.2f} s  (CPU here {cpu:.2f} s; {rows:,} rows{extra})", flush=True)
    return result, wall


def worker_peaks(client: Any) -> list[float]:
    got = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return sorted(got.values())


def workers_cpu(client: Any) -> float:
    """The CPU time the workers' processes have used so far, in seconds
    (user and system, every thread: the task's and Dask's own)."""
    got = client.run(lambda: sum(os.times()[:2]))
    return float(sum(got.values()))


def plain_loop(what: str, tiles: list[Path], lib: Path, out: Path) -> int:
    """The K-tile run as a plain loop: one Scenery, each tile's table built
    and the tables concatenated and written with pyarrow."""
    import pyarrow
    import pyarrow.parquet as pq

    scenery = agkit.scenery.Scenery(tiles[0].parent, [lib])
    if what == "census":
        tables = [pyarrow.table(scenery.census_table(t, name=t.name)) for t in tiles]
    else:
        tables = [pyarrow.table(scenery.placed_table(t, 0, name=t.name)) for t in tiles]
    table = pyarrow.concat_tables(tables)
    out.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, out)
    return int(table.num_rows)


def writers(tiles: list[Path], lib: Path, root: Path) -> None:
    """Every tile's placed table written as Parquet from Rust and with
    pyarrow: the time of the writing alone."""
    import pyarrow
    import pyarrow.parquet as pq

    scenery = agkit.scenery.Scenery(tiles[0].parent, [lib])
    tables = [scenery.placed_table(t, 0, name=t.name) for t in tiles]
    rows = sum(t.num_rows for t in tables)
    for label, write in [
        ("ArrowTable.write_parquet (Rust, snappy)", lambda t, p: t.write_parquet(p)),
        ("pyarrow.parquet.write_table (snappy)", lambda t, p: pq.write_table(pyarrow.table(t), p)),
    ]:
        out = root / f"w-{label.split(' ')[0]}"
        out.mkdir()
        start = time.perf_counter()
        for i, t in enumerate(tables):
            write(t, out / f"{i}.parquet")
        print(f"write {rows:,} placed rows, {len(tables)} files: {label:40} {time.perf_counter() - start:8.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gen", type=Path, help="the folder `agkit gen --scale full` wrote")
    ap.add_argument("--cli", type=Path, help="the agkit binary (release) to compare with")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--what", default="census,place")
    ap.add_argument("--small", type=int, default=0, help="also time a run of this many tiles three ways")
    ap.add_argument("--writers", action="store_true", help="also time the Parquet writers")
    ap.add_argument("--repeat", type=int, default=1, help="run the three ways this many times, alternately; report the best")
    ap.add_argument(
        "--no-trim",
        action="store_true",
        help="start the worker processes without the MALLOC_TRIM_THRESHOLD_=65536 Dask gives them",
    )
    a = ap.parse_args()
    import dask
    from dask.distributed import Client, LocalCluster

    if a.no_trim:
        # None unsets a variable of the Nanny's environment (distributed's
        # `_get_env_variables`).
        dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})

    tiles_dir = a.gen / "dsf"
    tiles = distributed.dsf_files(tiles_dir)
    print(f"{len(tiles)} tiles under {tiles_dir}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}"
          f"{'; workers without MALLOC_TRIM_THRESHOLD_' if a.no_trim else ''}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lib = make_library(root)
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        print(f"{'LocalCluster start':52} {time.perf_counter() - start:8.2f} s")
        trim = set(client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values())
        print(f"workers' MALLOC_TRIM_THRESHOLD_: {', '.join(str(t) for t in sorted(trim, key=str))}")

        # The workers import agkit (and pandas, pyarrow) before the clock.
        client.run(lambda: __import__("agkit.distributed") and __import__("pyarrow") and None)
        import pyarrow  # noqa: F401 - imported before the clock here too

        for what in a.what.split(","):
            recipe = {"census": distributed.census, "place": distributed.place_package}[what]
            cli_wall = cli_peak = None
            if a.cli is not None:
                if what == "census":
                    cli_wall, cli_peak = cli_census(a.cli, tiles)
                    label = "census: CLI `dsf autogen --format json` x tiles"
                else:
                    cli_wall, cli_peak = cli_place(a.cli, tiles_dir, lib, root / "cli.json")
                    (root / "cli.json").unlink()
                    label = "place: CLI `place --dsf DIR --format json`"
                print(f"{label:52} {cli_wall:8.2f} s  (1 thread, peak {cli_peak:.0f} MB)")
            before = peak_mb()
            base = worker_peaks(client)
            best = [float("inf")] * 4
            roof = 0.0
            ratios: list[tuple[float, float, float]] = []
            for r in range(a.repeat):
                if r:
                    for k in (1, 2, 3, 4):
                        shutil.rmtree(root / f"{what}{k}")
                print(f"{what}: round {r + 1} of {a.repeat}, load {os.getloadavg()[0]:.2f}")
                one, t1 = timed(f"{what}: Python, one process", lambda: recipe(tiles_dir, root / f"{what}1", library=[lib], client=False))
                cpu0 = workers_cpu(client)
                two, t2 = timed(
                    f"{what}: Python, LocalCluster of {a.workers}, one file",
                    lambda: recipe(tiles_dir, root / f"{what}2", library=[lib], client=client),
                )
                cpu1 = workers_cpu(client)
                data, t3 = timed(
                    f"{what}: Python, LocalCluster of {a.workers}, dataset",
                    lambda: recipe(tiles_dir, root / f"{what}3", library=[lib], client=client, dataset=True),
                )
                cpu2 = workers_cpu(client)
                # The thread workers live in this process: started for their
                # run only, so that their event loops do not slow the one
                # process's run.
                with LocalCluster(
                    n_workers=a.workers, threads_per_worker=1, processes=False, dashboard_address=None
                ) as tcluster, Client(tcluster, set_as_default=False) as tclient:
                    threads, t4 = timed(
                        f"{what}: Python, LocalCluster of {a.workers} threads, dataset",
                        lambda: recipe(tiles_dir, root / f"{what}4", library=[lib], client=tclient, dataset=True),
                    )
                print(f"{what}: workers' CPU {cpu1 - cpu0:.2f} s (one file), {cpu2 - cpu1:.2f} s (dataset); "
                      f"{len(list(data.output.glob('part-*.parquet')))} parts; "
                      f"speed-up {t1 / t2:.2f}x one file, {t1 / t3:.2f}x dataset, {t1 / t4:.2f}x threads")
                top = ceiling(a.workers)
                roof = max(roof, top)
                print(f"{what}: the machine now: {a.workers} processes of plain arithmetic at once run {top:.2f}x one alone")
                best = [min(b, t) for b, t in zip(best, (t1, t2, t3, t4))]
                ratios.append((t1 / t2, t1 / t3, t1 / t4))
            t1, t2, t3, t4 = best
            print(f"{what}: one process peak {peak_mb():.0f} MB (was {before:.0f} MB before the runs)")
            peaks = worker_peaks(client)
            want = pandas.read_parquet(one.output)
            same = all(want.equals(pandas.read_parquet(x.output)) for x in (two, data, threads))
            print(f"{what}: best of {a.repeat}: one process {t1:.2f} s, cluster one file {t2:.2f} s, "
                  f"dataset {t3:.2f} s, threads {t4:.2f} s")
            print(f"{what}: speed-up {t1 / t2:.2f}x one file, {t1 / t3:.2f}x dataset, {t1 / t4:.2f}x threads "
                  f"(target >= 1.7), same rows: {same}")
            mid = [statistics.median(r[k] for r in ratios) for k in (0, 1, 2)]
            print(f"{what}: median of the rounds' speed-ups: {mid[0]:.2f}x one file, {mid[1]:.2f}x dataset, "
                  f"{mid[2]:.2f}x threads")
            print(f"{what}: the machine's best ceiling over the rounds: {roof:.2f}x")
            print(f"{what}: worker peaks {', '.join(f'{p:.0f}' for p in peaks)} MB (before: {', '.join(f'{p:.0f}' for p in base)} MB)")
            if cli_wall is not None and cli_peak is not None:
                print(f"{what}: one process / CLI = {t1 / cli_wall:.2f} (target <= 1.5); "
                      f"largest worker / CLI peak = {peaks[-1] / cli_peak:.2f} (target < 1)")
            assert same and one.ok and two.ok and data.ok and threads.ok
            if a.small:
                few = root / f"few-{what}"
                few.mkdir()
                for t in tiles[: a.small]:
                    shutil.copy(t, few / t.name)
                some = distributed.dsf_files(few)
                timed(f"{what}, {len(some)} tiles: plain loop", lambda: plain_loop(what, some, lib, root / f"loop-{what}.parquet"))
                timed(f"{what}, {len(some)} tiles: recipe, one process", lambda: recipe(few, root / f"few1-{what}", library=[lib], client=False))
                timed(f"{what}, {len(some)} tiles: recipe, LocalCluster", lambda: recipe(few, root / f"few2-{what}", library=[lib], client=client))
        if a.writers:
            writers(tiles, lib, root)
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
