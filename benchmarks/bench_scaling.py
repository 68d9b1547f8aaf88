"""Multi-core (and multi-node) scaling of ``run``: rounds/s for 1, 2, 4, ... workers, same seed.

Run: ``python benchmarks/bench_scaling.py [--games N] [--workers 1,2,4,8,16]``
     ``python benchmarks/bench_scaling.py --ray-nodes 1,2 [--games N]``   (needs the ray extra)

It warms numba's on-disk cache in this process first (so workers only load compiled code), then
times :func:`simcore.studies.study.run_study` (what ``run`` does: chunks of games, per-chunk sums; here
at least eight chunks per worker, :func:`chunk_games_for`) for each worker count and checks that
every count gives identical sums. Efficiency is throughput
per worker relative to one worker.

``--ray-nodes 1,2`` starts a throw-away Ray cluster on this machine (a head with 1 CPU, then one
more 1-CPU node per step: :class:`simcore.runners.localcluster.LocalCluster`) and times the same
study through the Ray backend: on one driver whose workers are warm (the steady state), and a
fresh run with its start-up (reported apart, as for local workers).
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

from simcore.family.chunks import CHUNK_GAMES
from simcore.family.chunks import chunk_stats
from simcore.momojan.family import FAMILY as family
from simcore.momojan.simulate import Simulator
from simcore.studies.study import run_study


def _rounds(sums) -> int:
    j = [m.name for m in family.CATALOGUE].index("mean_rounds_per_game")
    return int(sums.s[j, 0])


def chunk_games_for(games, most_workers):
    """Chunks small enough that every worker gets eight or more (at most ``run``'s 2000 games):
    6000 games in ``run``'s 2000-game chunks are 3 chunks, and 2 workers then finish in the time
    of 2 chunks, so their efficiency could not exceed 75% whatever the machine."""
    return max(50, min(CHUNK_GAMES, games // (8 * max(1, most_workers))))


def _time(sc, games, seed, workers, runner=None, repeats=1, chunk_games=CHUNK_GAMES):
    """Median wall time of ``repeats`` identical studies, and their sums."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        res = run_study(family, [sc], seed, games, workers, runner=runner,
                        chunk_games=chunk_games)
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
        from simcore.family.chunks import ChunkTask
        from simcore.runners.local import ChunkRunner
        from simcore.studies.study import variant_seed
        self.runner = ChunkRunner(workers).__enter__()
        warm = [ChunkTask((family.SCENARIOS.payload(sc),), (variant_seed(1, 0, True),), i, i + 2)
                for i in range(workers)]  # one per worker: every idle worker gets one
        list(self.runner.map(functools.partial(chunk_stats, family), warm))

    def __call__(self, n_workers):
        return contextlib.nullcontext(self.runner)

    def close(self):
        self.runner.close()


_SIM = {}


def _sim_init(sc_name):
    _SIM["sim"] = Simulator(family.SCENARIOS.load(sc_name))


def _play_span(job):
    """Rounds played by games ``start .. stop - 1`` of ``job = (start, stop, seed)``: the engine
    alone, no chunk statistics."""
    start, stop, seed = job
    return len(_SIM["sim"].play(np.arange(start, stop), seed=seed).rounds)


class _BarePool:
    """``w`` processes that only play games (one equal share each, no chunks, no statistics, no
    result merging): what the machine gives ``w`` copies of the engine, the ceiling for
    :func:`local`'s efficiency."""

    def __init__(self, workers, sc_name):
        import multiprocessing
        self.workers = workers
        self.pool = multiprocessing.get_context("fork").Pool(workers, _sim_init, (sc_name,))
        self.pool.map(_play_span, [(0, 2, 1)] * workers, chunksize=1)

    def time(self, games, seed):
        share = -(-games // self.workers)
        spans = [(i * share, min(games, (i + 1) * share), seed) for i in range(self.workers)]
        t = time.perf_counter()
        rounds = sum(self.pool.map(_play_span, spans, chunksize=1))
        return time.perf_counter() - t, rounds

    def close(self):
        self.pool.terminate()
        self.pool.join()


def local(sc_name="new_edition", games=12000, counts=(1, 2), seed=11, repeats=1) -> list:
    """[{"workers", "seconds", "games_per_s", "rounds_per_s", "efficiency", "identical",
    "seconds_with_startup", "bare_rounds_per_s", "bare_efficiency"}]: steady state on warm
    workers (median of ``repeats``), a fresh run's wall time, and the same games played by
    ``workers`` bare engine processes (:class:`_BarePool`: the machine's ceiling). Every count
    and both kinds take turns within each repeat: this VM has slow spells of tens of seconds
    that hit every core, and timing all of one count's repeats before the next would charge a
    spell to one count only."""
    sc = family.SCENARIOS.load(sc_name)
    chunk = chunk_games_for(games, max(counts))
    cold = {w: _time(sc, games, seed, w, chunk_games=chunk)[0] for w in counts}
    pools, bare = {}, {}
    try:
        for w in counts:
            pools[w] = _WarmPool(w, sc)
            bare[w] = _BarePool(w, sc_name)
        times, sums, bare_rates = {w: [] for w in counts}, {}, {w: [] for w in counts}
        for _ in range(repeats):
            for w in counts:
                dt, sums[w] = _time(sc, games, seed, w, pools[w], chunk_games=chunk)
                times[w].append(dt)
                bt, rounds = bare[w].time(games, seed)
                bare_rates[w].append(rounds / bt)
    finally:
        for pool in [*pools.values(), *bare.values()]:
            pool.close()
    rows, ref = [], None
    for w in counts:
        rows.append(_row("workers", w, games, statistics.median(times[w]), sums[w], rows, ref))
        rows[-1]["seconds_with_startup"] = round(cold[w], 3)
        rate = statistics.median(bare_rates[w])
        rows[-1]["bare_rounds_per_s"] = rate
        rows[-1]["bare_efficiency"] = rate / w / (rows[0]["bare_rounds_per_s"] / rows[0]["workers"])
        ref = ref or sums[w]
    return rows


def ray_nodes(sc_name="new_edition", games=12000, nodes=(1, 2), seed=11, cpus_per_node=1,
              repeats=1) -> list:
    """The same study through Ray on a local cluster grown to each node count: the steady state
    of one driver whose worker processes have already built the scenario's tables (like
    :func:`local`'s warm pool), and a fresh run's wall time (``seconds_with_startup``: the driver
    joins the cluster and Ray starts a worker process per CPU for the new job, which imports the
    engine, loads the compiled code and builds its tables)."""
    from simcore.runners.localcluster import LocalCluster
    from simcore.runners.raycluster import RayRunner

    sc = family.SCENARIOS.load(sc_name)
    rows, ref = [], None
    chunk = chunk_games_for(games, max(nodes) * cpus_per_node)
    with LocalCluster(head_cpus=cpus_per_node) as cluster:
        fresh = functools.partial(RayRunner, address=cluster.address)
        for n in nodes:
            while cluster.nodes < n:
                cluster.add_node(cpus_per_node)
            cold, _ = _time(sc, games, seed, 0, fresh, chunk_games=chunk)
            with RayRunner(address=cluster.address) as ray_runner:
                warm = lambda _workers: contextlib.nullcontext(ray_runner)  # noqa: E731
                # Warm-up: chunks long enough (~0.3 s) that every node's worker takes some.
                run_study(family, [sc], seed + 1, 400 * 4 * n, 0, runner=warm, chunk_games=400)
                dt, sums = _time(sc, games, seed, 0, warm, repeats, chunk)
            rows.append(_row("nodes", n, games, dt, sums, rows, ref, workers=n * cpus_per_node))
            rows[-1]["seconds_with_startup"] = round(cold, 3)
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
              f"identical sums: {r['identical']}  (a fresh run, start-up included: "
              f"{r['seconds_with_startup']:.2f} s)", flush=True)
        if "bare_rounds_per_s" in r:
            print(f"    bare engine processes, no harness: {r['bare_rounds_per_s']:9.0f} rounds/s  "
                  f"efficiency {r['bare_efficiency']:6.1%}", flush=True)


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
    print(f"warm-up (compile or cache load, tables): {warm_up(family.SCENARIOS.load(args.scenario)):.1f} s",
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
