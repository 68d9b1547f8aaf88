"""Sparrow engine throughput: rounds per second on one core, the same bot in every seat (issue
49: at least emoji's per round).

Run: ``python -m benchmarks.sparrow.bench_engine [--games 4000] [--repeats 3] [--seats 4]``

Steady state: one small play to compile, then ``--repeats`` batches; median and best.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from simcore.sparrow.family import FAMILY  # noqa: E402


def rounds_per_second(policy, games, repeats, seats=4):
    sc = FAMILY.SCENARIOS.from_dict({"game": "sparrow", "players": [{"policy": policy}] * seats})
    sim = FAMILY.SIMULATOR(sc)
    sim.play(np.arange(20), 0)
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        b = sim.play(np.arange(r * games, (r + 1) * games), 0)
        rates.append(len(b.rounds) / (time.perf_counter() - t))
    return statistics.median(rates), max(rates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--policies", default="random,greedy")
    args = ap.parse_args()
    for p in args.policies.split(","):
        med, best = rounds_per_second(p, args.games, args.repeats, args.seats)
        print(f"{p:10s} {med:10,.0f} rounds/s (median)  {best:10,.0f} (best)")


if __name__ == "__main__":
    main()
