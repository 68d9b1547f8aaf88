"""Coverage of the tournament's 95% rating intervals against a large tournament's ratings.

Run: ``python benchmarks/bench_tournament_coverage.py [--reps 100] [--games 200]
[--truth-games 20000] [--policies baseline,greedy,greedy:call=0.5] [--scenario new_edition]``

Plays ``--reps`` independent duplicate tournaments (seeds 1..reps) of ``--games`` games per
seating and one of ``--truth-games`` (seed 0, the truth), and prints per entrant how often the
interval held the truth, for the cluster-robust interval the tournament reports and for the
interval that treats every comparison as independent (what it reported before issue 27).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from simcore.family import registry as families  # noqa: E402
from simcore.studies.tournament import bradley_terry, run_tournament  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--truth-games", type=int, default=20000)
    ap.add_argument("--policies", default="baseline,greedy,greedy:call=0.5")
    ap.add_argument("--scenario", default="new_edition")
    args = ap.parse_args(argv)
    fam, sc = families.load(args.scenario)
    entrants = args.policies.split(",")
    t0 = time.perf_counter()
    truth = run_tournament(sc, entrants, args.truth_games, 0, family=fam)
    true_rating = {r["entrant"]: r["rating"] for r in truth.ratings}
    print(f"truth ({args.truth_games} games per seating, {time.perf_counter() - t0:.0f} s): "
          + ", ".join(f"{e} {true_rating[e]:+.1f}" for e in entrants), file=sys.stderr)
    robust = {e: 0 for e in entrants}
    naive = {e: 0 for e in entrants}
    widths = {e: [] for e in entrants}
    for rep in range(args.reps):
        t = run_tournament(sc, entrants, args.games, 1 + rep, family=fam)
        _, half_naive = bradley_terry(t.wins, t.played)
        by = {r["entrant"]: r for r in t.ratings}
        for k, e in enumerate(entrants):
            r = by[e]
            robust[e] += r["ci"][0] <= true_rating[e] <= r["ci"][1]
            naive[e] += abs(r["rating"] - true_rating[e]) <= half_naive[k]
            widths[e].append((r["ci"][1] - r["ci"][0]) / 2 / half_naive[k])
        if (rep + 1) % 10 == 0:
            print(f"  {rep + 1}/{args.reps} tournaments ({time.perf_counter() - t0:.0f} s)",
                  file=sys.stderr, flush=True)
    print(f"{'entrant':<22}{'robust':>8}{'independent':>13}{'width ratio':>13}")
    for e in entrants:
        print(f"{e:<22}{robust[e] / args.reps:>8.3f}{naive[e] / args.reps:>13.3f}"
              f"{float(np.median(widths[e])):>13.2f}")
    print(f"({args.reps} tournaments of {args.games} games per seating, "
          f"{args.scenario}; {time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
