"""ptrump engine throughput: whole rounds per second on one core, 2 and 3 seats.

Run: ``python benchmarks/ptrump/bench_engine.py [--quick] [--games N] [--repeats R]``

For each pairing (default: greedy on every seat, 2 and 3 seats; then baseline and random) the
first call (compilation, or loading numba's cache, and the tables) is timed apart; then
``--repeats`` batches of ``--games`` matches are played in one process and the median rounds/s
is printed, by wall clock and by CPU time of this process (the machine may be shared: CPU time
is the per-core figure when other processes compete). Targets (issue 13): 2 seats greedy >=
MOMOJAN's greedy-vs-greedy (~12,000 rounds/s), 3 seats >= 2/3 of that.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from benchmarks.engine_rate import batch_rates  # noqa: E402
from simcore.ptrump import scenario  # noqa: E402
from simcore.ptrump.simulate import Simulator  # noqa: E402

PAIRINGS = (("ptrump_2p", "greedy"), ("ptrump_3p", "greedy"), ("ptrump_2p", "baseline"),
            ("ptrump_3p", "baseline"), ("ptrump_2p", "random"))


def rounds_per_second(sc_name: str, policy: str, games: int, repeats: int):
    """(setup seconds, ``benchmarks.engine_rate.Rates``: rounds/s of wall time, median and best,
    of CPU time, median, and rounds per match)."""
    sc = scenario.load(sc_name)
    data = sc.to_dict()
    data["players"] = [{"policy": policy, "params": {}} for _ in data["players"]]
    t = time.perf_counter()
    sim = Simulator(scenario.from_dict(data, name=sc_name))
    sim.play(np.arange(2), seed=1)
    setup = time.perf_counter() - t
    return setup, batch_rates(lambda r: sim.play(np.arange(games), seed=100 + r), repeats, games)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer matches (CI)")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=None)
    args = ap.parse_args(argv)
    games = args.games or (300 if args.quick else 3000)
    repeats = args.repeats or (2 if args.quick else 5)
    pairings = PAIRINGS[:2] if args.quick else PAIRINGS
    cmd = "python benchmarks/ptrump/bench_engine.py" + (" --quick" if args.quick else "")
    print(f"# {cmd}   (load average {os.getloadavg()[0]:.2f}, {games} matches x {repeats})")
    print(f"{'scenario':<12}{'seats':<10}{'setup s':>9}{'rounds/s wall':>15}"
          f"{'rounds/s CPU':>14}{'rounds/match':>14}")
    for sc_name, policy in pairings:
        setup, r = rounds_per_second(sc_name, policy, games, repeats)
        print(f"{sc_name:<12}{policy:<10}{setup:>9.1f}{r.median:>15,.0f}{r.cpu:>14,.0f}"
              f"{r.per_game:>14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
