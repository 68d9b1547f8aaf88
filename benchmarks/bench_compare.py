"""Compare benchmark: time to a target half-width, and what the statistics cost beside playing.

1. ``compare old_edition new_edition`` on --workers processes until the paired 95% half-width of
   the first-dealer win-rate difference is at most --target (default 0.002 = 0.2 percentage
   points). Compile and table building are excluded (a warm-up run first).
2. The statistics' overhead: for chunks of 2000 games of both variants, the time of turning the
   records into per-game numerators/denominators and summing them (game_values +
   MomentSums.from_values) against the time of playing them, on one core.

    python benchmarks/bench_compare.py                 # the full target (minutes)
    python benchmarks/bench_compare.py --quick         # target 0.01, 2 overhead chunks
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from simcore.family.chunks import game_values, simulator_for
from simcore.momojan.family import FAMILY as family  # noqa: E402
from simcore.stats.moments import MomentSums, difference  # noqa: E402
from simcore.studies.study import Target, run_study  # noqa: E402


def overhead(scenarios, chunks: int, chunk_games: int = 2000):
    sims = [simulator_for(family, family.SCENARIOS.payload(s)) for s in scenarios]
    for sim in sims:
        sim.play(np.arange(8), 1)  # warm-up
    t_play = t_stats = 0.0
    for c in range(chunks):
        idx = np.arange(c * chunk_games, (c + 1) * chunk_games, dtype=np.int64)
        z = np.empty((len(idx), len(family.CATALOGUE), 2 * len(sims)), np.int64)
        for v, sim in enumerate(sims):
            t = time.perf_counter()
            b = sim.play(idx, 1)
            t_play += time.perf_counter() - t
            t = time.perf_counter()
            z[:, :, 2 * v], z[:, :, 2 * v + 1] = game_values(family, idx, b.games, b.rounds)
            t_stats += time.perf_counter() - t
        t = time.perf_counter()
        MomentSums.from_values(z)
        t_stats += time.perf_counter() - t
    return t_play, t_stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="old_edition")
    ap.add_argument("--b", default="new_edition")
    ap.add_argument("--target", type=float, default=0.002)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-games", type=int, default=2_000_000)
    ap.add_argument("--overhead-chunks", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="target 0.01, 2 overhead chunks")
    args = ap.parse_args()
    if args.quick:
        args.target, args.overhead_chunks = 0.01, 2
    a, b = family.SCENARIOS.load(args.a), family.SCENARIOS.load(args.b)
    t = time.perf_counter()
    run_study(family, [a, b], seed=1, games=50, workers=1)  # compile / tables, not timed
    print(f"warm-up (compile or cache load, tables): {time.perf_counter() - t:.1f} s")

    t_play, t_stats = overhead([a, b], args.overhead_chunks)
    print(f"statistics overhead: {t_stats:.3f} s beside {t_play:.2f} s of playing "
          f"({100 * t_stats / t_play:.1f}%), {args.overhead_chunks} chunks of 2000 games x 2 "
          f"variants, one core")

    res = run_study(family, [a, b], seed=1, games=20000, workers=args.workers,
                    target=Target("first_dealer_win_rate", args.target),
                    max_games=args.max_games)
    j = [m.name for m in family.CATALOGUE].index("first_dealer_win_rate")
    d = difference(res.sums, j)
    r = res.reached
    print(f"compare {args.a} {args.b}: first-dealer difference {100 * d.diff:+.2f} pp, 95% "
          f"half-width {100 * r['half_width']:.3f} pp (target {100 * args.target:.2f} pp, "
          f"{'reached' if r['reached'] else 'NOT reached'}) after {res.games:,} games per "
          f"variant in {res.seconds:.1f} s on {res.workers} workers "
          f"({2 * res.games / res.seconds:,.0f} games/s over both variants); pairing "
          f"narrowing {d.narrowing:.2f}x, per-game correlation {d.correlation:.3f}")
    print(f"command: python benchmarks/bench_compare.py {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
