"""Coverage of ``mechanics``' 95% interval (a t interval over deals) against a large-run truth.

    python benchmarks/bench_mechanics_coverage.py [--scenario new_edition]
        [--mechanics never_riichi,always_riichi] [--truth 40000] [--reps 400] [--deals 25]

For each restriction: its cost on ``--truth`` deals of one seed (the truth; its own standard
error is printed beside it), then ``--reps`` studies of ``--deals`` deals each on disjoint deals
of another seed, each with the interval ``mechanics`` reports; the share of those intervals that
hold the truth, with its Clopper-Pearson 95% interval. A figure, never a pass or fail.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    from scipy import stats

    from simcore.family import registry as families
    from simcore.studies.mechanics import cost_interval, restriction_costs
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--mechanics", default="never_riichi,always_riichi")
    ap.add_argument("--truth", type=int, default=40_000)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--deals", type=int, default=25)
    args = ap.parse_args()
    fam, sc = families.load(args.scenario)
    by = {m.name: i for i, m in enumerate(fam.MECHANICS)}
    for name in args.mechanics.split(","):
        t0 = time.perf_counter()
        m = by[name]
        truth_x = restriction_costs(fam, sc, args.truth, 1001, [m])[m][0]
        truth = float(truth_x.mean())
        x = restriction_costs(fam, sc, args.reps * args.deals, 7, [m])[m][0]
        held = sum(lo <= truth <= hi for lo, hi in
                   (cost_interval(b) for b in x.reshape(args.reps, args.deals)))
        ci = stats.binomtest(held, args.reps).proportion_ci(0.95, method="exact")
        print(f"{args.scenario} {name:16s} truth {100 * truth:6.2f} pp (se "
              f"{100 * truth_x.std(ddof=1) / np.sqrt(args.truth):.2f}, {args.truth:,} deals); "
              f"coverage {held / args.reps:.3f} [{ci.low:.3f}, {ci.high:.3f}] of {args.reps} "
              f"studies of {args.deals} deals ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
