"""Multi-core (and multi-node) scaling of ``run``: rounds/s for 1, 2, 4, ... workers, same seed.

Run: ``python benchmarks/bench_scaling.py [--games N] [--workers 1,2,4,8,16]``
     ``python benchmarks/bench_scaling.py --ray-nodes 1,2 [--games N]``   (needs the ray extra)

It warms numba's on-disk cache in this process first (so workers only load compiled code), then
times :func:`simcore.study.run_study` (what ``run`` does: chunks of 2000 games, per-chunk sums)
for each worker count and checks that every count gives identical sums. Efficiency is throughput
per worker relative to one worker.

``--ray-nodes 1,2`` starts a throw-away Ray cluster on this machine (a head with 1 CPU, then one
more 1-CPU node per step: :class:`simcore.backends.localcluster.LocalCluster`), warms each
node's worker up, and times the same study through the Ray backend.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import statistics
import sys
import time

import numpy as np

from simcore.momojan import family
from simcore.momojan.simulate import Simulator
from simcore.study import run_study


def _rounds(sums) -> int:
    j = [m.name for m in family.CATALOGUE].index("mean_rounds_per_game")
    return int(sums.s[j, 0])


def _time(sc, games, seed, workers, runner=None, repeats=1):
    """Median wall time of ``repeats`` identical studies, and their sums."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        res = run_study(family, [sc], seed, games, workers, runner=runner)
        times.append(time.perf_counter() - t)
    return statistics.median(times), res.sums


def warm_up(sc) -> float:
    t = time.perf_counter()
    Simulator(sc).play(np.arange(4), seed=1)
    return time.perf_counter() - t


class _WarmPool:
    """A runner factory handing out one started ChunkRunner whose workers have already built
    the scenario's tables: the steady state, without fork and table building (reported apart)."""

    def __init__(self, workers, sc):
        from simcore.parallel import ChunkRunner
        from simcore.study import ChunkTask, variant_seed
        self.runner = ChunkRunner(workers).__enter__()
        warm = [ChunkTask((family.payload(sc),), (variant_seed(1, 0, True),), i, i + 2)
                for i in range(workers)]  # one per worker: every idle worker gets one
        list(self.runner.map(family.chunk_stats, warm))

    def __call__(self, n_workers):
        return contextlib.nullcontext(self.runner)

    def close(self):
        self.runner.close()


def local(sc_name="new_edition", games=12000, counts=(1, 2), seed=11, repeats=1) -> list:
    """[{"workers", "seconds", "games_per_s", "rounds_per_s", "efficiency", "identical",
    "seconds_with_startup"}]: steady state on warm workers, and a fresh run's wall time."""
    sc = family.load(sc_name)
    rows, ref = [], None
    for w in counts:
        cold, _ = _time(sc, games, seed, w)
        pool = _WarmPool(w, sc)
        try:
            dt, sums = _time(sc, games, seed, w, pool, repeats=repeats)
        finally:
            pool.close()
        rows.append(_row("workers", w, games, dt, sums, rows, ref))
        rows[-1]["seconds_with_startup"] = round(cold, 3)
        ref = ref or sums
    return rows


def ray_nodes(sc_name="new_edition", games=12000, nodes=(1, 2), seed=11, cpus_per_node=1,
              repeats=1) -> list:
    """The same study through Ray on a local cluster grown to each node count."""
    from simcore.backends.localcluster import LocalCluster
    from simcore.backends.raycluster import RayRunner

    sc = family.load(sc_name)
    rows, ref = [], None
    with LocalCluster(head_cpus=cpus_per_node) as cluster:
        runner = functools.partial(RayRunner, address=cluster.address)
        for n in nodes:
            while cluster.nodes < n:
                cluster.add_node(cpus_per_node)
            # Warm-up: every worker process imports the engine and builds its tables once.
            run_study(family, [sc], seed + 1, 200 * 4 * n, 0, runner=runner, chunk_games=200)
            dt, sums = _time(sc, games, seed, 0, runner, repeats)
            rows.append(_row("nodes", n, games, dt, sums, rows, ref, workers=n * cpus_per_node))
            ref = ref or sums
    return rows


def _row(key, value, games, dt, sums, rows, ref, workers=None):
    workers = workers or value
    rate = _rounds(sums) / dt
    base = rows[0]["rounds_per_s"] / rows[0]["workers"] if rows else rate / workers
    return {key: value, "workers": workers, "seconds": round(dt, 3), "games_per_s": games / dt,
            "rounds_per_s": rate, "efficiency": rate / workers / base,
            "identical": ref is None or (ref.n == sums.n and np.array_equal(ref.s, sums.s)
                                         and np.array_equal(ref.c, sums.c))}


def print_rows(rows, key):
    for r in rows:
        print(f"{key} {r[key]:>2}: {r['seconds']:7.2f} s  {r['games_per_s']:8.0f} games/s  "
              f"{r['rounds_per_s']:9.0f} rounds/s  efficiency {r['efficiency']:6.1%}  "
              f"identical sums: {r['identical']}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--workers", default="1,2,4,8,16")
    ap.add_argument("--ray-nodes", default=None, help="e.g. 1,2: through Ray instead")
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--repeats", type=int, default=1, help="median of R runs per count")
    args = ap.parse_args(argv)
    print(f"$ python benchmarks/bench_scaling.py {' '.join(argv or sys.argv[1:])}   "
          f"(cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"warm-up (compile or cache load, tables): {warm_up(family.load(args.scenario)):.1f} s",
          flush=True)
    if args.ray_nodes:
        print_rows(ray_nodes(args.scenario, args.games,
                             [int(n) for n in args.ray_nodes.split(",")],
                             repeats=args.repeats), "nodes")
    else:
        print_rows(local(args.scenario, args.games,
                         [int(w) for w in args.workers.split(",")], repeats=args.repeats),
                   "workers")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
