"""Emoji engine throughput: rounds per second on one core for each bot on all four seats
(issue 33's target: greedy at least half of MOMOJAN's greedy figure).

Run: ``python benchmarks/emoji/bench_engine.py [--games 2000] [--repeats 3]``

Steady state: each pairing plays once to compile, then ``--repeats`` batches; the median and
the best batch are printed (a shared machine has slow periods).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from simcore.emoji.scenario import LOADER  # noqa: E402
from simcore.emoji.simulate import Simulator  # noqa: E402


def rounds_per_second(policy, games, repeats):
    sc = LOADER.from_dict({"game": "emoji", "players": [{"policy": policy}] * 4})
    sim = Simulator(sc)
    sim.play(np.arange(20), 0)
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        b = sim.play(np.arange(r * games, (r + 1) * games), 0)
        rates.append(len(b.rounds) / (time.perf_counter() - t))
    return statistics.median(rates), max(rates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policies", default="idle,random,baseline,greedy")
    args = ap.parse_args()
    for p in args.policies.split(","):
        med, best = rounds_per_second(p, args.games, args.repeats)
        print(f"{p:10s} {med:10,.0f} rounds/s (median)  {best:10,.0f} (best)")


if __name__ == "__main__":
    main()
