"""How strong the ``search`` bot is: its game-win share against a heuristic bot, in duplicate.

    python benchmarks/search_strength.py SCENARIO [--deals N] [--against greedy] [--seed 11]
        [--params sims=32,margin=1]

``search`` (its defaults) in one seat and ``--against`` in the others, the same ``--deals`` deals
with the searching seat in each seat in turn; prints its share of the games won (a shared win
counts 1/m), the standard error, the fair share and the games per second. A figure for
docs/bots.md, never a pass or fail (tests/harness/test_search.py holds the tested bounds).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--params", default="", help="the search seat's params: name=value,...")
    a = ap.parse_args(argv)
    prm = {k: float(v) if "." in v else int(v)
           for k, v in (kv.split("=") for kv in a.params.split(",") if kv)}
    from simcore.family import registry as families
    from simcore.studies.mechanics import seat_win_shares
    fam, sc = families.load(a.scenario)
    data = sc.to_dict()
    seats, idx, shares, t0 = len(data["players"]), np.arange(a.deals), [], time.perf_counter()
    for seat in range(seats):
        data["players"] = [{"policy": "search", "params": prm} if p == seat else
                           {"policy": a.against, "params": {}} for p in range(seats)]
        sim = fam.SIMULATOR(fam.SCENARIOS.from_dict(data, name=a.scenario))
        shares.append(seat_win_shares(fam, sim, idx, a.seed, seat)[0])
        print(f"  search in seat {seat}: {shares[-1].mean():.1%} of {a.deals}", flush=True)
    s = np.concatenate(shares)
    print(f"{a.scenario}: search ({a.params or 'defaults'}) against {a.against}: {s.mean():.2%} "
          f"of {len(s)} games (se {s.std(ddof=1) / np.sqrt(len(s)):.2%}; fair {1 / seats:.1%}); "
          f"{len(s) / (time.perf_counter() - t0):.1f} games/s, compile included")
    return 0


if __name__ == "__main__":
    sys.exit(main())
