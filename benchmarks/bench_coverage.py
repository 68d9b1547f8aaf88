"""Coverage of compare's 95% intervals by metric kind, against a large-run truth.

Run: ``python benchmarks/bench_coverage.py [--reps 200] [--games 300,3000] [--out FILE.json]``

For each kind of pair (a point-value change: new_edition vs no_ron_bonus; a play change:
new_edition vs new_edition without riichi; a deck change: old_edition vs new_edition; no_draw_three
is not used: no bot ever wins without the three-card draw), ``--reps`` paired runs
of each size are played with the baseline bot in both seats (the intervals' properties do not
depend on the bots). Each run's truth is the other runs of the largest size pooled (independent
of the run). Printed per pair, size and metric kind (game rate, round rate, win mean, rare
share: a share of wins below 5% in a): the coverage of the intervals compare printed, how many
it printed, the share of rows with too few differing games, zero-width intervals (must be 0),
and the rate of false ``equivalent`` from the two one-sided tests when the margin is set to
the true difference (target <= 5%).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from simcore.family.chunks import ChunkTask  # noqa: E402
from simcore.family.chunks import chunk_stats
from simcore.family.players import with_players
from simcore.momojan import scenario  # noqa: E402
from simcore.momojan.family import FAMILY as family  # noqa: E402
from simcore.stats.moments import MomentSums, difference  # noqa: E402
from simcore.stats.verdicts import compare_rows  # noqa: E402

PAIRS = {"point value": ("new_edition", "no_ron_bonus"),
         "play": ("new_edition", {"riichi": {"enabled": False}}),
         "deck": ("old_edition", "new_edition")}
NAMES = [m.name for m in family.CATALOGUE]
KIND = {m.name: m.kind for m in family.CATALOGUE}


def kind_of(name: str, a_value: float) -> str | None:
    k = KIND[name]
    if k == "win_rate" and a_value is not None and a_value < 0.05:
        return "rare share"
    return {"game_rate": "game rate", "round_rate": "round rate", "per_win": "win mean",
            "win_rate": "win share", "per_game": "game mean", "per_round": "round mean"}[k]


def _sums(a, b, seed, games):
    payloads = (family.SCENARIOS.payload(a), family.SCENARIOS.payload(b))
    return chunk_stats(family, ChunkTask(payloads, (seed, seed), 0, games)).sums


def _pool(runs):
    total = runs[0]
    for r in runs[1:]:
        total = total.merge(r)
    return total


def study(pair: str, sizes, reps: int, progress) -> dict:
    a_name, b_name = PAIRS[pair]
    a = with_players(family, scenario.load(a_name), "baseline,baseline")
    b = (family.SCENARIOS.with_overrides(a, b_name, "no_riichi") if isinstance(b_name, dict) else
         with_players(family, scenario.load(b_name), "baseline,baseline"))
    runs = {n: [_sums(a, b, 70000 + 1000 * i + rep, n) for rep in range(reps)]
            for i, n in enumerate(sizes)}
    progress(pair)
    big = runs[max(sizes)]
    whole = _pool(big)
    out = {}
    for n in sizes:
        tally = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # covered, shown, rows, too few, zero, false eq
        for rep, run in enumerate(runs[n]):
            truth_sums = _pool(big[:rep] + big[rep + 1:]) if n == max(sizes) else whole
            truths = {}
            for j, name in enumerate(NAMES):
                d = difference(truth_sums, j)
                truths[name] = (d.diff, d.a.value)
            margins = {name: (abs(t), False) for name, (t, _) in truths.items()
                       if t is not None and abs(t) > 1e-9}
            rows = compare_rows(family.CATALOGUE, run, [(0, 1)], NAMES, margins)
            for r in rows:
                truth, a_value = truths[r["metric"]]
                if truth is None or r["verdict"] == "never happened":
                    continue
                t = tally[kind_of(r["metric"], a_value)]
                t[2] += 1
                lo, hi = r["ci"]
                if lo is None:
                    t[3] += 1
                    continue
                t[1] += 1
                t[0] += lo <= truth <= hi
                t[4] += hi <= lo
                if r["metric"] in margins and r["p_equivalence"] is not None:
                    t[5] += r["p_equivalence"] < 0.05
        out[n] = {k: {"coverage": round(v[0] / v[1], 4) if v[1] else None, "intervals": v[1],
                      "rows": v[2], "too_few_share": round(v[3] / v[2], 3) if v[2] else None,
                      "zero_width": v[4],
                      "false_equivalent_at_margin": round(v[5] / v[1], 4) if v[1] else None}
                  for k, v in sorted(tally.items())}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--games", default="300,3000")
    ap.add_argument("--pairs", default=",".join(PAIRS))
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.games.split(",")]
    t0 = time.perf_counter()
    report = {}
    for pair in args.pairs.split(","):
        report[pair] = study(pair, sizes, args.reps,
                             lambda p: print(f"  played {p} ({time.perf_counter() - t0:.0f} s)",
                                             file=sys.stderr, flush=True))
    print(f"{'pair':<12}{'games':>6}  {'kind':<12}{'coverage':>9}{'shown':>7}{'too few':>8}"
          f"{'zero':>5}{'TOST@margin':>12}")
    for pair, by_n in report.items():
        for n, kinds in by_n.items():
            for k, v in kinds.items():
                cov = "-" if v["coverage"] is None else f"{v['coverage']:.3f}"
                fe = "-" if v["false_equivalent_at_margin"] is None else \
                    f"{v['false_equivalent_at_margin']:.3f}"
                print(f"{pair:<12}{n:>6}  {k:<12}{cov:>9}{v['intervals']:>7}"
                      f"{v['too_few_share']:>8.2f}{v['zero_width']:>5}{fe:>12}")
    print(f"({args.reps} paired runs per pair and size, baseline bots; "
          f"{time.perf_counter() - t0:.0f} s)")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"reps": args.reps, "report": report}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
