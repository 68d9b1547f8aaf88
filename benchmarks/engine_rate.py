"""Steady-state engine throughput of any family: rounds per second on one core with the same bot
in every seat (one small play compiles, then ``repeats`` batches; the median and the best)."""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402


def rounds_per_second(family: str, policy: str, seats: int, games: int, repeats: int):
    from simcore.family import registry
    fam = registry.get(family)
    sc = fam.SCENARIOS.from_dict({"game": family, "players": [{"policy": policy}] * seats})
    sim = fam.SIMULATOR(sc)
    sim.play(np.arange(20), 0)
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        b = sim.play(np.arange(r * games, (r + 1) * games), 0)
        rates.append(len(b.rounds) / (time.perf_counter() - t))
    return statistics.median(rates), max(rates)
