"""Scoring throughput on one core: ``score_hand`` (decompositions, yaku, bonuses) on winning hands.

Run: ``python benchmarks/momojan/bench_score.py [--reps N] [--repeats R]``

A fixed set of winning hands (open and closed, ron and tsumo, with and without dora) is scored
over and over inside one compiled loop, so the figure is the kernel's cost per win, not Python's.
Compile time (first call, numba's cache included) is reported apart.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

from simcore.momojan import scenario  # noqa: E402
from simcore.momojan.analysis import parse_hand_for  # noqa: E402
from simcore.momojan.cards import mask_from_kinds, parse_card  # noqa: E402
from simcore.momojan.scoring import (  # noqa: E402
    N_SCORE_SLOTS, VALID, WIN_RIICHI, WIN_RON, Scorer, revealed_arrays, score_hand,
)

# (hand without the winning card, winning card, ron, riichi, dora indicator)
HANDS = [
    ("kai:111z kai:456o chi:789o 23o 44z", "1o", True, True, "3l"),
    ("kai:111z kai:456o chi:789o 23o 44z", "4o", False, False, None),
    ("kai:111z chi:789o 23o 44z 123l", "1o", False, False, None),
    ("kai:111z chi:789o 23o 44z 123l", "4o", True, True, "2l"),
    ("chi:123l kai:456o 78o 11z", "9o", False, True, None),
    ("chi:123l kai:456o 78o 11z", "6o", True, False, "5o"),
]


# The timed loops are compiled each run, never cached: numba's cache knows only this file, so a
# cached loop would keep the game code it was first compiled against after that code changes.
@nb.njit
def _score_many(masks, wins, cards, n_cards, origin, n_rev, flags, dora, ra, T, reps):
    yaku = np.zeros(N_SCORE_SLOTS, np.int64)
    bonus = np.zeros(3, np.int64)
    total = 0
    for _ in range(reps):
        for i in range(masks.shape[0]):
            status, points, sub, n_sets = score_hand(masks[i], wins[i], cards[i], n_cards[i],
                                                     origin[i], n_rev[i], flags[i], dora[i], ra,
                                                     T, yaku, bonus)
            if status == VALID:
                total += points
    return total


def prepare(sc_name="new_edition"):
    sc = scenario.load(sc_name)
    scorer = Scorer(sc)
    rows = []
    for text, win, ron, riichi, dora in HANDS:
        try:
            hand = parse_hand_for(text, sc.hand_rules, kan_allowed=sc.get("kan.enabled"))
        except Exception:
            continue  # a hand that is not legal under these rules
        w = parse_card(win)
        c, n, o = revealed_arrays(hand)
        rows.append((np.uint64(mask_from_kinds(list(hand.concealed) + [w])), w, c, n, o,
                     len(hand.revealed), WIN_RON * ron | WIN_RIICHI * riichi,
                     -1 if dora is None else parse_card(dora)))
    cols = list(zip(*rows))
    arrays = (np.array(cols[0], np.uint64), np.array(cols[1], np.int64), np.stack(cols[2]),
              np.stack(cols[3]), np.stack(cols[4]), np.array(cols[5], np.int64),
              np.array(cols[6], np.int64), np.array(cols[7], np.int64))
    return arrays, scorer


def measure(reps=20_000, repeats=3, sc_name="new_edition") -> dict:
    """{"first_call_s", "scores_per_s", "hands", "valid"}."""
    arrays, scorer = prepare(sc_name)
    t = time.perf_counter()
    _score_many(*arrays, scorer.ra, scorer.tables, 1)
    first = time.perf_counter() - t
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        _score_many(*arrays, scorer.ra, scorer.tables, reps)
        times.append(time.perf_counter() - t)
    n = reps * len(arrays[0])
    return {"first_call_s": round(first, 3), "scores_per_s": n / statistics.median(times),
            "hands": len(arrays[0]), "repeats": repeats}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    r = measure(args.reps, args.repeats)
    print(f"$ python benchmarks/momojan/bench_score.py --reps {args.reps} --repeats {args.repeats}")
    print(f"wins scored {r['scores_per_s'] / 1e6:8.2f} M/s  ({r['hands']} hands x {args.reps}, "
          f"median of {args.repeats}; first call {r['first_call_s']:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
