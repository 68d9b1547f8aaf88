"""Multi-core scaling of ``run``: games/s for 1, 2, 4, ... worker processes, same seed.

Run: ``python benchmarks/bench_scaling.py [--games N] [--workers 1,2,4,8,16]``

It warms numba's on-disk cache in this process first (so workers only load compiled code), then
times ``run_games`` for each worker count and checks that every count gives identical records.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from simcore.momojan import scenario
from simcore.momojan.simulate import Simulator, run_games


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--workers", default="1,2,4,8,16")
    ap.add_argument("--scenario", default="new_edition")
    args = ap.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    print(f"$ python benchmarks/bench_scaling.py --games {args.games} --workers {args.workers} "
          f"--scenario {args.scenario}   (cores: {os.cpu_count()})", flush=True)
    sc = scenario.load(args.scenario)
    t = time.perf_counter()
    Simulator(sc).play(np.arange(4), seed=1)
    print(f"warm-up (compile or cache load, tables): {time.perf_counter() - t:.1f} s", flush=True)
    ref = None
    base = None
    for w in counts:
        t = time.perf_counter()
        b = run_games(sc, args.games, seed=11, workers=w)
        dt = time.perf_counter() - t
        rate = args.games / dt
        base = base or rate
        same = ref is None or (np.array_equal(ref.games, b.games) and np.array_equal(ref.rounds, b.rounds))
        ref = ref or b
        print(f"workers {w:>2}: {dt:7.2f} s  {rate:8.0f} games/s  {len(b.rounds) / dt:9.0f} rounds/s  "
              f"speedup {rate / base:5.2f}x  identical records: {same}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
