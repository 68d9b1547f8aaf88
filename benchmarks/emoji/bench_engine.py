"""Emoji engine throughput: rounds per second on one core for each bot on all four seats
(issue 33's target: greedy at least half of MOMOJAN's greedy figure).

Run: ``python -m benchmarks.emoji.bench_engine [--games 2000] [--repeats 3]``

Steady state: each pairing plays once to compile, then ``--repeats`` batches; the median and
the best batch are printed (a shared machine has slow periods), and the median in rounds per
second of CPU time (``benchmarks.engine_rate``).
"""

from __future__ import annotations

import argparse
import os
import sys

# run as a script too (python benchmarks/<family>/bench_engine.py): the repository's root
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from benchmarks.engine_rate import rounds_per_second as _rate  # noqa: E402


def rounds_per_second(policy, games, repeats):
    return _rate("emoji", policy, 4, games, repeats)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policies", default="idle,random,baseline,greedy")
    args = ap.parse_args()
    for p in args.policies.split(","):
        r = rounds_per_second(p, args.games, args.repeats)
        print(f"{p:10s} {r.median:10,.0f} rounds/s (median)  {r.best:10,.0f} (best)  "
              f"{r.cpu:10,.0f} (CPU time, median)")


if __name__ == "__main__":
    main()
