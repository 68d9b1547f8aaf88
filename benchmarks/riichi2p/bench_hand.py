"""Two-player riichi hand analysis speed on one core: distance to a win (shanten + 1) and waits
of 13-tile hands dealt from a shuffled wall, the distance after every discard (what the greedy
bot asks on each turn), and scoring of closed winning hands.

Run: ``python benchmarks/riichi2p/bench_hand.py [--hands 1000000] [--repeats 5]``

The loops are compiled (numba); each figure is the median of the repeats after one warm-up call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

from simcore.riichi2p import hand as H  # noqa: E402
from simcore.riichi2p import scoring as S  # noqa: E402
from simcore.riichi2p.rules_array import build_scoring_rules  # noqa: E402


# The timed loops are compiled each run, never cached: numba's cache knows only this file, so a
# cached loop would keep the game code it was first compiled against after that code changes.
@nb.njit
def _all_distances(hands, ts, th):
    acc = 0
    for i in range(hands.shape[0]):
        acc += H.distance(hands[i], 0, ts, th)
    return acc


@nb.njit
def _all_waits(hands, ts, th):
    acc = np.int64(0)
    for i in range(hands.shape[0]):
        acc ^= H.waits(hands[i], 0, hands[i], False, ts, th)
    return acc


@nb.njit
def _all_discards(hands, ts, th):
    out = np.empty(H.AFTER_LEN, np.int64)
    acc = 0
    for i in range(hands.shape[0]):
        H.distances_after(hands[i], 0, ts, th, -1, out)
        acc += out[0]
    return acc


@nb.njit
def _all_scores(hands, wins, sr):
    melds = np.zeros((4, 3), np.int64)
    cx = np.zeros(S.N_CX, np.int64)
    cx[S.CX_SEAT_WIND] = 1
    cx[S.CX_STREAK] = 1
    dora = np.zeros(34, np.int64)
    dora[4] = 1
    ura = np.zeros(34, np.int64)
    res = np.zeros(S.N_RES, np.int64)
    acc = 0
    for i in range(hands.shape[0]):
        cx[S.CX_TSUMO] = i & 1
        cx[S.CX_RIICHI] = (i >> 1) & 1
        acc += S.score_win(hands[i], melds, wins[i], cx, dora, ura, sr, res)
    return acc


def deal(n, size, seed=1):
    """``n`` hands of ``size`` tiles, each from a freshly shuffled 136-tile wall."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(34), 4)
    out = np.zeros((n, 34), np.int64)
    for i in range(n):
        np.add.at(out[i], rng.permutation(wall)[:size], 1)
    return out


def winning_hands(n, seed=2):
    """Closed 14-tile wins: four random sets (runs or triplets) and a pair, one tile the win."""
    rng = np.random.default_rng(seed)
    hands, wins = np.zeros((n, 34), np.int64), np.zeros(n, np.int64)
    i = 0
    while i < n:
        c = np.zeros(34, np.int64)
        for _ in range(4):
            if rng.random() < 0.7:
                s, r = rng.integers(3), rng.integers(7)
                c[9 * s + r:9 * s + r + 3] += 1
            else:
                c[rng.integers(34)] += 3
        c[rng.integers(34)] += 2
        if c.max() > 4:
            continue
        hands[i] = c
        wins[i] = rng.choice(np.flatnonzero(c))
        i += 1
    return hands, wins


def _rate(fn, args, n, repeats):
    fn(*(a[:10] if isinstance(a, np.ndarray) and a.shape[0] == n else a for a in args))
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return n / statistics.median(times)


def measure(hands=1_000_000, repeats=5) -> dict:
    t = time.perf_counter()
    ts, th = H.tables()
    setup = time.perf_counter() - t
    dealt = deal(hands, 13)
    n14 = max(hands // 4, 1)
    dealt14 = deal(n14, 14, seed=3)
    wins, win_tiles = winning_hands(n14)
    sr = build_scoring_rules()
    return {"tables_s": round(setup, 3), "hands": hands,
            "distance_per_s": _rate(_all_distances, (dealt, ts, th), hands, repeats),
            "waits_per_s": _rate(_all_waits, (dealt, ts, th), hands, repeats),
            "distances_after_discards_per_s": _rate(_all_discards, (dealt14, ts, th), n14,
                                                   repeats),
            "scorings_per_s": _rate(_all_scores, (wins, win_tiles, sr), n14, repeats)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    m = measure(args.hands, args.repeats)
    print(f"tables built (incl. loading compiled code): {m['tables_s']:.2f} s")
    print(f"distance (13 tiles)                 {m['distance_per_s'] / 1e6:6.2f} M hands/s")
    print(f"waits (13 tiles)                    {m['waits_per_s'] / 1e6:6.2f} M hands/s")
    print(f"distance after each discard (14)    {m['distances_after_discards_per_s'] / 1e6:6.2f}"
          f" M hands/s")
    print(f"scoring of closed wins              {m['scorings_per_s'] / 1e6:6.2f} M hands/s")


if __name__ == "__main__":
    main()
