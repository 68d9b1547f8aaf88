"""P-style hand-analysis throughput on one core: wait detection, complete-shape checks, distance to
tenpai, useful draws.

Run: ``python benchmarks/ptrump/bench_hand.py [--hands N] [--repeats R] [--quick]``

The hands are random deals from the 54-card deck (uniform, as rank counts): 7 cards for waits,
distance and useful draws, 8 cards for completeness and distance; the pass over them calls the
kernel once per hand from a numba loop (``*_batch``). Building the hand rules array (tables) and
the first call (compilation or numba's cache load) are reported apart from the steady state, the
median of R timed passes over the same N hands.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba as nb  # noqa: E402

from simcore.ptrump import hand as H  # noqa: E402
from simcore.ptrump.cards import N_CARDS, N_RANKS  # noqa: E402


def random_hands(n, size, seed):
    """int64[n, 14] rank counts of n random ``size``-card deals from the 54 cards."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, N_CARDS))
    ids = np.argpartition(keys, size, axis=1)[:, :size]
    out = np.zeros((n, N_RANKS), np.int64)
    np.add.at(out, (np.repeat(np.arange(n), size), (ids // 4).ravel()), 1)
    return out


# The timed loops are compiled each run, never cached: numba's cache knows only this file, so a
# cached loop would keep the game code it was first compiled against after that code changes.
@nb.njit
def useful_batch(cnts, ks, hr, out):
    for i in range(cnts.shape[0]):
        out[i] = H.useful_mask(cnts[i], ks[i], hr)


def timed(fn, repeats):
    """(median wall seconds, median CPU seconds of this process) of ``repeats`` calls: on a shared
    machine the CPU figure is the fairer one."""
    wall, cpu = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def measure(hands=1_000_000, repeats=5) -> dict:
    """{"tables_s", "jobs": {name: {"per_s", "cpu_per_s", "n", "first_call_s"}}, "tenpai_share",
    "load_average"}: per_s by the wall clock (the suite's convention), cpu_per_s by this process's
    CPU time."""
    t = time.perf_counter()
    hr = H.hand_rules_array()
    out = {"tables_s": round(time.perf_counter() - t, 3), "hands": hands, "repeats": repeats,
           "jobs": {}}
    h7 = random_hands(hands, 7, 1)
    h8 = random_hands(hands, 8, 2)
    k = np.zeros(hands, np.int64)
    o_i = np.zeros(hands, np.int64)
    o_b = np.zeros(hands, np.bool_)
    n_small = max(hands // 10, 1)
    jobs = [
        ("wait detections (7 cards)", H.win_mask_batch, h7, o_i, hands),
        ("complete-shape checks (8 cards)", H.complete_batch, h8, o_b, hands),
        ("distance to tenpai (7 cards)", H.shanten_batch, h7, o_i, hands),
        ("distance to tenpai (8 cards)", H.shanten_batch, h8, o_i, hands),
        ("useful draws (7 cards)", useful_batch, h7[:n_small], o_i[:n_small], n_small),
    ]
    for name, fn, cnts, o, n in jobs:
        t = time.perf_counter()
        fn(cnts[:1], k[:1], hr, o[:1])          # compilation or cache load
        first = time.perf_counter() - t
        dt, dc = timed(lambda: fn(cnts, k[:n], hr, o), repeats)
        out["jobs"][name] = {"per_s": n / dt, "cpu_per_s": n / max(dc, 1e-9), "n": n,
                             "first_call_s": round(first, 3)}
    H.win_mask_batch(h7, k, hr, o_i)
    out["tenpai_share"] = float(np.mean(o_i != 0))
    out["load_average"] = os.getloadavg()[0]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=None, help="[1000000; 50000 with --quick]")
    ap.add_argument("--repeats", type=int, default=None, help="[5; 2 with --quick]")
    ap.add_argument("--quick", action="store_true", help="small sizes (CI, the suite's --quick)")
    args = ap.parse_args(argv)
    hands = args.hands or (50_000 if args.quick else 1_000_000)
    repeats = args.repeats or (2 if args.quick else 5)
    print(f"$ python benchmarks/ptrump/bench_hand.py --hands {hands} --repeats {repeats}")
    r = measure(hands, repeats)
    print(f"hand rules array built (tables; compiled code loaded): {r['tables_s']:.2f} s")
    for name, j in r["jobs"].items():
        print(f"{name:34s} {j['per_s'] / 1e6:7.2f} M/s wall {j['cpu_per_s'] / 1e6:7.2f} M/s CPU  "
              f"({j['n']} hands, median of {repeats}; first call {j['first_call_s']:.2f} s)")
    print(f"tenpai (shape) among the 7-card deals: {r['tenpai_share']:.1%}; load average "
          f"{r['load_average']:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
