"""Emoji hand analysis speed: waits and distance per second on one core (issue 33's target:
wait detection >= 5 M hands/s), and scoring of winning hands per second.

Run: ``python benchmarks/emoji/bench_hand.py [--hands 1000000] [--repeats 5]``

Hands are 7 tiles dealt from a shuffled 90-tile wall (the deal's distribution); the loop is
compiled (numba), the figure is the median of the repeats.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

from simcore.emoji import hand as H  # noqa: E402
from simcore.emoji import scoring as S  # noqa: E402


# The timed loops are compiled each run, never cached: numba's cache knows only this file, so a
# cached loop would keep the game code it was first compiled against after that code changes.
@nb.njit
def _all_waits(hands, t):
    acc = np.int64(0)
    for i in range(hands.shape[0]):
        acc ^= H.waits(hands[i], t)
    return acc


@nb.njit
def _all_distances(hands, t):
    acc = 0
    for i in range(hands.shape[0]):
        acc += H.distance(hands[i], t)
    return acc


@nb.njit
def _all_scores(hands, sr):
    out = np.zeros(H.DECOMP_COLS, np.int64)
    acc = 0.0
    for i in range(hands.shape[0]):
        v, p, m = S.score_win(hands[i], 0, True, 0, 5, 15, False, 0, sr, out)
        acc += v
    return acc


def deal(n, size, seed=1):
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(30), 3)
    out = np.zeros((n, 30), np.int64)
    for i in range(n):
        np.add.at(out[i], rng.permutation(wall)[:size], 1)
    return out


def _rate(fn, data, arg, repeats):
    fn(data[:10], arg)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(data, arg)
        times.append(time.perf_counter() - t)
    return len(data) / statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    t = H.tables(False)
    hands7 = deal(args.hands, 7)
    print(f"waits:    {_rate(_all_waits, hands7, t, args.repeats) / 1e6:6.2f} M hands/s")
    print(f"distance: {_rate(_all_distances, hands7, t, args.repeats) / 1e6:6.2f} M hands/s")
    wins = []
    for c in deal(args.hands // 4, 7, seed=2):
        w = H.waits(c, t)
        if w:
            k = int(np.log2(w & -w))
            c = c.copy()
            c[k] += 1
            wins.append(c)
    wins = np.array(wins)
    print(f"scoring:  {_rate(_all_scores, wins, S.scoring_rules(), args.repeats) / 1e6:6.2f} "
          f"M winning hands/s ({len(wins):,} hands)")


if __name__ == "__main__":
    main()
