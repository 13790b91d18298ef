"""Long work runs with the GIL released: another Python thread makes
progress while a big DSF is built, read, converted or checked and while a
big polygon is placed.

The probe runs the call in a worker thread with the interpreter's forced
switching turned off (a huge switch interval), so the main thread can run
during the call only if the call itself lets go of the GIL. The main thread
wakes when the worker is about to call, then counts its own steps while the
call is still in flight. A call that keeps the GIL lets the main thread run
only after it returned: zero steps, whatever the machine's speed. Timing
cannot make it pass wrongly; a slow machine can at worst delay the wake-up
past a short call, so each probe gets a few tries.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import agkit

from conftest import EXAMPLES

TRIES = 5


def steps_during(call: Callable[[], Any]) -> int:
    """How many steps the main thread made while `call` ran in a worker."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        best = 0
        for _ in range(TRIES):
            started, state = threading.Event(), {"done": False}

            def work() -> None:
                started.set()
                try:
                    call()
                finally:
                    state["done"] = True

            t = threading.Thread(target=work)
            t.start()
            started.wait()
            steps = 0
            while not state["done"]:
                steps += 1
                time.sleep(0.0005)  # gives the GIL back so the worker can finish
            t.join()
            best = max(best, steps)
            if best > 0:
                break
        return best
    finally:
        sys.setswitchinterval(old)


@pytest.fixture(scope="module")
def big_text() -> str:
    """DSF2Text of 600,000 objects in one tile."""
    r = random.Random(5)
    lines = [
        "I",
        "800",
        "DSF2TEXT",
        "PROPERTY sim/west 13",
        "PROPERTY sim/east 14",
        "PROPERTY sim/south 47",
        "PROPERTY sim/north 48",
        "OBJECT_DEF lib/a.obj",
        "OBJECT_DEF lib/b.obj",
    ]
    lines += [
        f"OBJECT {i % 2} {13 + r.random():.7f} {47 + r.random():.7f} {r.random() * 360:.1f}"
        for i in range(600_000)
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def big_dsf(big_text: str) -> bytes:
    return agkit.dsf.build(big_text)


def test_the_probe_sees_a_call_that_keeps_the_gil() -> None:
    # Pure Python work never lets go of the GIL with switching off.
    assert steps_during(lambda: sum(range(3_000_000))) == 0


def test_building_a_big_dsf(big_text: str) -> None:
    assert steps_during(lambda: agkit.dsf.build(big_text)) > 0


def test_reading_a_big_dsf(big_dsf: bytes) -> None:
    assert steps_during(lambda: agkit.dsf.read(big_dsf)) > 0


def test_converting_a_big_dsf_to_text(big_dsf: bytes) -> None:
    tile = agkit.dsf.read(big_dsf)
    assert tile.counts["objects"] == 600_000
    assert steps_during(tile.to_text) > 0


def test_checking_a_big_dsf(big_dsf: bytes) -> None:
    assert steps_during(lambda: agkit.check(big_dsf)) > 0


def test_placing_a_big_polygon() -> None:
    ags = agkit.read_asset(EXAMPLES / "string" / "town_edge.ags")
    ring = [(13.0, 47.0), (13.05, 47.0), (13.05, 47.05), (13.0, 47.05)]
    p = agkit.place(ags, polygon=[ring], height=12, spawning=1)
    assert len(p.trees) > 100_000
    assert steps_during(lambda: agkit.place(ags, polygon=[ring], height=12, spawning=1)) > 0


def test_placing_a_big_tile(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "I",
            "800",
            "DSF2TEXT",
            "PROPERTY sim/west 13",
            "PROPERTY sim/east 14",
            "PROPERTY sim/south 47",
            "PROPERTY sim/north 48",
            "POLYGON_DEF string/town_edge.ags",
            "BEGIN_POLYGON 0 769 2",
            "BEGIN_WINDING",
            "POLYGON_POINT 13.0 47.0",
            "POLYGON_POINT 13.05 47.0",
            "POLYGON_POINT 13.05 47.05",
            "POLYGON_POINT 13.0 47.05",
            "END_WINDING",
            "END_POLYGON",
        ]
    )
    tile = tmp_path / "+47+013.dsf"
    tile.write_bytes(agkit.dsf.build(text + "\n"))
    placed = agkit.place_dsf(tile, scenery=EXAMPLES)
    assert len(placed.placements[0].trees) > 100_000
    assert steps_during(lambda: agkit.place_dsf(tile, scenery=EXAMPLES)) > 0
