"""Steady-state engine throughput of any family: rounds per second on one core with the same bot
in every seat (one small play compiles, then ``repeats`` batches; the median and the best).

Every engine benchmark times its batches with :func:`batch_rates`: wall-clock rounds/s (median
and best) and rounds per second of the process's own CPU time (median). The issue-48 targets are
judged on the CPU figure: on a shared VM the wall figure also counts the time the process was
not running (another process on its core, or the hypervisor's steal where the guest kernel
accounts it apart), which is not the engine's speed on one core; a slow host makes both figures
lower alike."""

from __future__ import annotations

import os
import statistics
import time
from typing import Callable, NamedTuple

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402


class Rates(NamedTuple):
    median: float     # rounds/s of wall time, the median batch
    best: float       # rounds/s of wall time, the fastest batch
    cpu: float        # rounds/s of this process's CPU time, the median batch
    per_game: float   # rounds per game, over every batch


def batch_rates(play: Callable[[int], object], repeats: int, games: int) -> Rates:
    """Time ``play(r)`` (a batch of ``games`` games whose ``.rounds`` are counted) for r in
    ``range(repeats)``."""
    wall, cpu, rounds = [], [], 0
    for r in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        n = len(play(r).rounds)
        w, u = time.perf_counter() - t, time.process_time() - c
        wall.append(n / w)
        cpu.append(n / max(u, 1e-9))
        rounds += n
    return Rates(statistics.median(wall), max(wall), statistics.median(cpu),
                 rounds / (repeats * games))


def rounds_per_second(family: str, policy: str, seats: int, games: int, repeats: int) -> Rates:
    from simcore.family import registry
    fam = registry.get(family)
    sc = fam.SCENARIOS.from_dict({"game": family, "players": [{"policy": policy}] * seats})
    sim = fam.SIMULATOR(sc)
    sim.play(np.arange(20), 0)
    return batch_rates(lambda r: sim.play(np.arange(r * games, (r + 1) * games), 0),
                       repeats, games)
