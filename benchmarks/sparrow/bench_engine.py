"""Sparrow engine throughput: rounds per second on one core, the same bot in every seat (issue
49: at least emoji's per round).

Run: ``python -m benchmarks.sparrow.bench_engine [--games 4000] [--repeats 3] [--seats 4]``

Steady state: one small play to compile, then ``--repeats`` batches; median and best, and the
median in rounds per second of CPU time (``benchmarks.engine_rate``).
"""

from __future__ import annotations

import argparse
import os
import sys

# run as a script too (python benchmarks/<family>/bench_engine.py): the repository's root
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from benchmarks.engine_rate import rounds_per_second as _rate  # noqa: E402


def rounds_per_second(policy, games, repeats, seats=4):
    return _rate("sparrow", policy, seats, games, repeats)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--policies", default="random,greedy")
    args = ap.parse_args()
    for p in args.policies.split(","):
        r = rounds_per_second(p, args.games, args.repeats, args.seats)
        print(f"{p:10s} {r.median:10,.0f} rounds/s (median)  {r.best:10,.0f} (best)  "
              f"{r.cpu:10,.0f} (CPU time, median)")


if __name__ == "__main__":
    main()
