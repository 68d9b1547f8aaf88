"""Hand-analysis throughput on one core: complete-shape checks, wait detections, distance to tenpai.

Distance to tenpai is timed twice: the table-driven kernel (``simcore.momojan.shanten``) on all N
hands and the depth-first search it replaced (``hand.shanten_batch``, the slow path) on N / 10.

Run: ``python benchmarks/momojan/bench_hand.py [--hands N] [--edition new|old] [--repeats R]``

Compile time (first call, numba's cache included) is reported apart from steady state, which is the
median of R timed passes over the same N random hands (uniform over the deck, with 0-3 revealed
sets, so most are not tenpai: the table lookup costs the same either way).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from simcore.momojan.hand import complete_batch, shanten_batch, waits_batch  # noqa: E402
from simcore.momojan.tables import build_hand_tables  # noqa: E402
from simcore.momojan import shanten as table_shanten  # noqa: E402
from simcore.momojan.shapes import NEW_EDITION, OLD_EDITION  # noqa: E402
from simcore.momojan.cards import N_NUMBER_KINDS, PICTURE_SHIFT  # noqa: E402


def random_hands(n, size, rules, seed):
    """uint64 masks of n random concealed hands of ``size`` cards drawn from a shuffled deck."""
    rng = np.random.default_rng(seed)
    deck = list(range(N_NUMBER_KINDS)) + [N_NUMBER_KINDS + p for p in range(5)
                                          for _ in range(rules.picture_copies[p])]
    deck = np.array(deck)
    masks = np.zeros(n, np.uint64)
    for i in range(n):
        m = 0
        for k in rng.choice(deck, size, replace=False):
            m += (1 << int(k)) if k < N_NUMBER_KINDS else 1 << (PICTURE_SHIFT + 3 * (int(k) - N_NUMBER_KINDS))
        masks[i] = m
    return masks, rng.integers(1, 4, n).astype(np.int64)


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(hands=1_000_000, edition="new", repeats=5, search=True) -> dict:
    """{"tables_s", "jobs": {name: {"per_s", "n", "first_call_s"}}, "tenpai_share"}: the figures
    ``main`` prints (the depth-first search only with ``search``)."""
    rules = NEW_EDITION if edition == "new" else OLD_EDITION
    t = time.perf_counter()
    T = build_hand_tables(rules)
    out = {"tables_s": round(time.perf_counter() - t, 3), "hands": hands, "edition": edition,
           "repeats": repeats, "jobs": {}}
    h7, r7 = random_hands(hands, 7, rules, 1)
    h8, r8 = random_hands(hands, 8, rules, 2)
    rev = np.zeros(hands, np.uint64)
    out_w = np.zeros(hands, np.uint64)
    out_c = np.zeros(hands, np.bool_)
    out_s = np.zeros(hands, np.int64)
    n_small = max(hands // 10, 1)

    h8_small, r8_small = h8[:n_small], r8[:n_small]
    jobs = [
        ("complete-shape checks (8 cards)", lambda: complete_batch(h8, r8, T, out_c), hands),
        ("wait detections (7 cards)", lambda: waits_batch(h7, rev, r7, T, out_w), hands),
        ("distance to tenpai (7 cards)",
         lambda: table_shanten.shanten_batch(h7, r7, T.core, out_s), hands),
        ("distance to tenpai (8 cards)",
         lambda: table_shanten.shanten_batch(h8, r8, T.core, out_s), hands),
    ]
    if search:
        jobs += [
            ("  depth-first search (7 cards)", lambda: shanten_batch(h7[:n_small], r7[:n_small], T,
                                                                     out_s[:n_small]), n_small),
            ("  depth-first search (8 cards)", lambda: shanten_batch(h8_small, r8_small, T,
                                                                     out_s[:n_small]), n_small),
        ]
    for name, fn, n in jobs:
        t = time.perf_counter()
        # first call on a tiny slice: compilation or cache load
        if "complete" in name:
            complete_batch(h8[:1], r8[:1], T, out_c[:1])
        elif "wait" in name:
            waits_batch(h7[:1], rev[:1], r7[:1], T, out_w[:1])
        elif "search" in name:
            shanten_batch(h7[:1], r7[:1], T, out_s[:1])
        else:
            table_shanten.shanten_batch(h7[:1], r7[:1], T.core, out_s[:1])
        first = time.perf_counter() - t
        dt = timed(fn, repeats)
        out["jobs"][name.strip()] = {"per_s": n / dt, "n": n, "first_call_s": round(first, 3)}
    waits_batch(h7, rev, r7, T, out_w)
    out["tenpai_share"] = float(np.mean(out_w != 0))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--edition", choices=["new", "old"], default="new")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"$ python benchmarks/momojan/bench_hand.py --hands {args.hands} --edition {args.edition} "
          f"--repeats {args.repeats}")
    r = measure(args.hands, args.edition, args.repeats)
    print(f"tables built (incl. loading compiled code): {r['tables_s']:.2f} s")
    for name, j in r["jobs"].items():
        label = name if not name.startswith("depth") else "  " + name
        print(f"{label:34s} {j['per_s'] / 1e6:8.2f} M/s   ({j['n']} hands, median of "
              f"{args.repeats}; first call {j['first_call_s']:.2f} s)")
    print(f"tenpai among the 7-card hands: {r['tenpai_share']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
