"""Games per second of the ``search`` bot, one core, every family that has it (issue 51's target).

    python benchmarks/bench_search.py [--games N] [--families momojan,sparrow,riichi2p,emoji]

Each family's default scenario with ``search`` (its defaults) in every seat, then in one seat
against the family's best heuristic bot; a game first (compiling or loading the search kernel,
reported apart), then ``--games`` games timed. Prints each figure beside the target (MOMOJAN, both
seats searching: 4 games/s a core); a figure, never a pass or fail.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TARGETS = {"momojan": 4.0}   # games/s a core, both seats searching (issue 51)


def rate(fam, seats: str, games: int) -> tuple[float, float]:
    """(seconds of the first game, games/s of the next ``games``) of the default scenario with
    ``seats`` (a --players string)."""
    from simcore.family.players import with_players
    sc = with_players(fam, fam.SCENARIOS.load(fam.DEFAULT_SCENARIO), seats)
    sim = fam.SIMULATOR(sc)
    t0 = time.perf_counter()
    sim.play(np.arange(1), seed=5)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    sim.play(np.arange(1, 1 + games), seed=5)
    return first, games / (time.perf_counter() - t0)


def main() -> int:
    from simcore.family import registry as families
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--families", default=None, help="default: every family with a search bot")
    args = ap.parse_args()
    names = args.families.split(",") if args.families else families.names()
    for name in names:
        fam = families.get(name)
        if not fam.SEARCH_KERNEL:
            print(f"{name:9s} no search bot")
            continue
        n = len(fam.SCENARIOS.load(fam.DEFAULT_SCENARIO)["players"])
        for label, seats in (("every seat", "search"),
                             (f"one seat vs {fam.BEST_BOT}",
                              ",".join(["search"] + [fam.BEST_BOT] * (n - 1)))):
            first, r = rate(fam, seats, args.games)
            target = TARGETS.get(name) if label == "every seat" else None
            print(f"{name:9s} {fam.DEFAULT_SCENARIO:12s} search in {label:22s} {r:7.2f} games/s"
                  f"  (first game {first:5.1f} s)"
                  + (f"  target {target:.0f}: {'met' if r >= target else 'missed'}"
                     if target else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
