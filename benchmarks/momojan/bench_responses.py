"""Do the value bots chase a point value when it is raised? (issue 30, item 2: the README's
response table.) Every probe of ``Family.response_probes``: the scenario against the same with
that value raised, on the same deals, the share of wins that has it; then the values not probed,
with their reasons.

    python benchmarks/momojan/bench_responses.py [--games 20000] [--seed 7] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from simcore.family import registry as families  # noqa: E402
from simcore.family.players import with_players
from simcore.studies.responses import probe_rows, probe_table  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--players", default="value")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--only", help="comma-separated parts of probe keys (e.g. dog,tabi)")
    a = ap.parse_args(argv)
    print(f"$ python benchmarks/momojan/bench_responses.py --scenario {a.scenario} --players "
          f"{a.players} --games {a.games} --seed {a.seed}", flush=True)
    fam, sc = families.load(a.scenario)
    sc = with_players(fam, sc, a.players)
    probes, skipped = fam.response_probes(sc)
    if a.only:
        probes = [p for p in probes if any(w in p.key for w in a.only.split(","))]
    started = time.perf_counter()

    def talk(i, n, row):
        print(f"  {i}/{n} {row['what']}: {row['verdict']} ({time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)

    rows = probe_rows(fam, sc, probes, a.games, a.seed, a.workers, progress=talk)
    print(probe_table(rows, skipped))
    print(f"\n{len(rows)} probes, {sum(r['rose'] for r in rows)} rose; "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
