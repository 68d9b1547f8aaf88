"""Two-player riichi engine throughput on one core: hands (rounds) per second with one bot in
both seats (issue 34's target: greedy at least 5,000 hands/s).

Run: ``python benchmarks/riichi2p/bench_engine.py [--games 400] [--repeats 3]``

Steady state: each bot plays once to compile or load its cache, then ``--repeats`` batches of
new games; the median and the best batch are printed (a shared machine has slow periods), and
the median in hands per second of CPU time (``benchmarks.engine_rate``).
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

# run as a script too (python benchmarks/<family>/bench_engine.py): the repository's root
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from benchmarks.engine_rate import Rates, batch_rates  # noqa: E402
from simcore.riichi2p.scenario import LOADER  # noqa: E402
from simcore.riichi2p.simulate import Simulator  # noqa: E402


def rounds_per_second(policy, games, repeats, scenario=None) -> Rates:
    """Hands/s of ``policy`` in both seats (``benchmarks.engine_rate.Rates``: median and best of
    wall time, median of CPU time, hands per game)."""
    data = {"game": "riichi2p", "players": [{"policy": policy}] * 2, **(scenario or {})}
    sim = Simulator(LOADER.from_dict(data))
    sim.play(np.arange(5), 0)
    return batch_rates(lambda r: sim.play(np.arange(1000 + r * games, 1000 + (r + 1) * games), 0),
                       repeats, games)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policies", default="random,baseline,greedy")
    args = ap.parse_args()
    for p in args.policies.split(","):
        r = rounds_per_second(p, args.games, args.repeats)
        print(f"{p:10s} {r.median:10,.0f} hands/s (median)  {r.best:10,.0f} (best)  "
              f"{r.cpu:10,.0f} (CPU time, median)  {r.per_game:5.1f} hands per game")


if __name__ == "__main__":
    main()
