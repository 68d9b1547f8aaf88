"""How much the luck correction (issue 32) narrows MOMOJAN's intervals, per headline metric.

Run: ``python benchmarks/momojan/bench_luck.py [--games 20000] [--pairs old_edition:new_edition,new_edition:no_ron_bonus] [--workers 0]``

For each pair A:B, one paired study of ``--games`` games (common random numbers, as compare
plays it), then per metric: how many times narrower the luck-corrected interval is than the
plain one for A's value alone (what ``run`` prints) and for the paired difference B - A (what
``compare`` prints), and the variance factor of the difference (the narrowing squared: the
factor by which the games needed for a given half-width fall). ``-`` where the correction does
not narrow the interval by 1.05x (the plain interval is kept). Printed with the command.

old_edition:new_edition differ in their decks (the pairing cancels little luck);
new_edition:no_ron_bonus is a same-deck pair (a point value: the pairing cancels most of it).
The engine's cost of measuring the luck is in bench_engine.py (before/after in the commit).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from simcore.family import registry as families  # noqa: E402
from simcore.stats.luck import corrected  # noqa: E402
from simcore.stats.moments import difference, ratio  # noqa: E402
from simcore.studies.study import run_study  # noqa: E402

METRICS = ("first_dealer_win_rate", "seat0_win_share", "mean_rounds_per_game",
           "mean_final_margin", "dealer_round_win_rate", "tsumo_rate", "ron_rate", "draw_rate",
           "mean_winning_points", "ron_bonus_share")


def _fmt(x) -> str:
    return "-" if x is None or x < 1.05 else f"{x:.2f}x"


def pair_table(fam, a, b, games, seed, workers) -> list[str]:
    _, sa = families.load(a)
    _, sb = families.load(b)
    t0 = time.perf_counter()
    res = run_study(fam, [sa, sb], seed, games, workers, luck=False)
    seconds = time.perf_counter() - t0
    raw, cor = res.sums, corrected(res.sums, True)
    alone = corrected(type(raw)(raw.n, raw.s[:, :2], raw.c[:, :2, :2], None,
                                _first_variant(raw.luck)))
    names = [m.name for m in fam.CATALOGUE]
    out = [f"{a} vs {b}: {games} paired games, seed {seed}, {seconds:.0f} s on {res.workers} "
           f"worker(s)",
           f"  {'metric':<24}{'run (A)':>10}{'compare B - A':>16}{'variance':>10}"]
    for name in METRICS:
        j = names.index(name)
        one = ratio(alone.raw, j).se / ratio(alone, j).se if alone.corrected[j] else None
        d_raw, d_cor = difference(raw, j), difference(cor, j)
        two = d_raw.se / d_cor.se if cor.corrected[j] and d_cor.se else None
        out.append(f"  {name:<24}{_fmt(one):>10}{_fmt(two):>16}"
                   f"{_fmt(two * two if two else None):>10}")
    return out


def _first_variant(luck):
    """Variant 0's share of two variants' luck sums (its components and its own controls)."""
    from simcore.stats.luck_sums import LuckSums
    k = len(luck.names)
    return LuckSums(luck.n0, luck.s0[:, :2], luck.c0[:, :2, :2], luck.sl[:, :k],
                    luck.cll[:, :k, :k], luck.czl[:, :, :2, :k], luck.names)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--pairs", default="old_edition:new_edition,new_edition:no_ron_bonus")
    args = ap.parse_args(argv)
    fam = families.get("momojan")
    print("$ python benchmarks/momojan/bench_luck.py " + " ".join(sys.argv[1:] if argv is None
                                                                    else argv))
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        print("\n".join(pair_table(fam, a, b, args.games, args.seed, args.workers)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
