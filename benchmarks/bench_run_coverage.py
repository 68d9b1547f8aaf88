"""Coverage of ``run``'s 95% intervals (one variant) by metric kind and expected event count.

Run: ``python benchmarks/bench_run_coverage.py [--reps 300] [--games 300] [--truth 200000]
[--scenario new_edition]``

``--reps`` runs of ``--games`` games with the baseline bot in both seats (the intervals'
properties do not depend on the bots) against a truth from one run of ``--truth`` games on
another seed. Rates of rounds and wins are grouped by their expected count of events in a run
(the truth's rate, or its complement when above a half, times the run's expected units), so a
rare yaku's share of wins is judged where it is rare. Beside each interval ``run`` prints, the
coverage of the one it printed before 7 December (for rates of rounds and wins the normal
interval clipped at [0, 1]; docs/statistics.md, "One variant's intervals").
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from simcore.family.chunks import ChunkTask, chunk_stats  # noqa: E402
from simcore.family.players import with_players  # noqa: E402
from simcore.momojan import scenario  # noqa: E402
from simcore.momojan.family import FAMILY as family  # noqa: E402
from simcore.stats.moments import Z95, ratio, wilson_bounds  # noqa: E402
from simcore.stats.summary import _wilson_counts, metric_summary  # noqa: E402

BUCKETS = ((1, "< 1"), (3, "1-3"), (10, "3-10"), (30, "10-30"), (float("inf"), "30+"))


def _sums(payload, seed: int, games: int):
    return chunk_stats(family, ChunkTask((payload,), (seed,), 0, games)).sums


def _before(m, s, j: int):
    """The interval ``run`` printed before 7 December: plain Wilson for a share of games, and
    for a share of rounds or wins none or all of them; otherwise the normal interval, clipped
    at [0, 1] for a share."""
    if m.kind == "game_rate":
        return wilson_bounds(*_wilson_counts(s, j))
    r = ratio(s, j)
    if m.is_rate and r.den and r.num in (0, r.den):
        return wilson_bounds(r.num, r.den)
    if r.se is None:
        return None, None
    lo, hi = r.value - Z95 * r.se, r.value + Z95 * r.se
    return (max(lo, 0.0), min(hi, 1.0)) if m.is_rate else (lo, hi)


def study(scenario_name: str, reps: int, games: int, truth_games: int, progress) -> dict:
    sc = with_players(family, scenario.load(scenario_name), "baseline,baseline")
    payload = family.SCENARIOS.payload(sc)
    truth = _sums(payload, 999_999, truth_games)
    progress(f"truth of {truth_games} games")
    cat = family.CATALOGUE
    values = {j: ratio(truth, j).value for j in range(len(cat))}
    tally = defaultdict(lambda: [0, 0, 0])   # covered, covered by the interval before, shown
    for rep in range(reps):
        s = _sums(payload, 10_000 + rep, games)
        for j, m in enumerate(cat):
            t = values[j]
            lo, hi = metric_summary(m, s, j)["ci"]
            if t is None or lo is None:
                continue
            if m.is_rate and t in (0.0, 1.0):
                continue   # never (or always) happens: nothing to cover
            if m.is_rate and m.kind != "game_rate":
                mu = min(t, 1 - t) * float(truth.s[j, 1]) * games / truth.n
                key = (m.kind, next(label for top, label in BUCKETS if mu < top))
            else:
                key = (m.kind, "")
            row = tally[key]
            row[0] += lo <= t <= hi
            blo, bhi = _before(m, s, j)   # as run printed it: to 6 decimals
            row[1] += blo is not None and round(blo, 6) <= t <= round(bhi, 6)
            row[2] += 1
    return {f"{k[0]} {k[1]}".strip(): {"coverage": round(c / n, 4), "before": round(cn / n, 4),
                                       "intervals": n}
            for k, (c, cn, n) in sorted(tally.items())}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--truth", type=int, default=200_000)
    ap.add_argument("--scenario", default="new_edition")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = study(args.scenario, args.reps, args.games, args.truth,
                lambda what: print(f"  played {what} ({time.perf_counter() - t0:.0f} s)",
                                   file=sys.stderr, flush=True))
    print(f"{'metric kind, expected events':<32}{'coverage':>9}{'before':>8}{'intervals':>10}")
    for k, v in out.items():
        print(f"{k:<32}{v['coverage']:>9.3f}{v['before']:>8.3f}{v['intervals']:>10}")
    print(f"({args.reps} runs of {args.games} games of {args.scenario}, baseline bots; truth "
          f"{args.truth} games; {time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
