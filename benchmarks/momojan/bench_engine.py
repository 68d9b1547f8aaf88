"""Engine throughput: full rounds per second on one core, and the cost of policy dispatch.

Run: ``python benchmarks/momojan/bench_engine.py [--games N] [--scenario NAME] [--repeats R]``

Rounds/s is steady state (compilation and table building are timed apart), single process, for
each ``--pairings`` entry (default: baseline, random, greedy, value and defensive on both seats, then
value and defensive against greedy). Dispatch cost: the same recorded
decision points are replayed through ``policies.momojan.decide`` and through the policy function
called directly; the difference is what the registry costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

# run as a script too (python benchmarks/<family>/bench_engine.py): the repository's root
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from benchmarks.engine_rate import batch_rates  # noqa: E402
from policies.momojan import decide  # noqa: E402
from policies.momojan.baseline import baseline_policy  # noqa: E402
from policies.random_policy import random_policy  # noqa: E402
from simcore.momojan import scenario  # noqa: E402
from simcore.momojan.actions import DISCARD, N_ACTIONS, OBS_HAND, OBS_LEN  # noqa: E402
from simcore.momojan.actions import OBS_OWN_N_REVEALED, OBS_OWN_REVEALED, OBS_TENPAI_CHECKED  # noqa: E402
from simcore.momojan.simulate import Simulator  # noqa: E402


def rounds_per_second(sc_name, pairing, games, repeats):
    """Steady-state rounds/s for ``pairing`` ("greedy:value", or one name for both seats):
    (setup seconds, ``benchmarks.engine_rate.Rates`` of ``repeats`` batches of ``games``).

    The median and the best batch of wall time, because this kind of shared VM has slow periods
    of tens of seconds when its neighbours load the host (the same batch runs ~35% slower, in
    every process): the best of several short batches is the code's speed on an undisturbed core,
    the median what a run got; and the median of CPU time, which leaves out the time the process
    was not running at all."""
    a, _, b = pairing.partition(":")
    data = scenario.load(sc_name).to_dict()
    data["players"] = [{"policy": a, "params": {}}, {"policy": b or a, "params": {}}]
    t = time.perf_counter()
    sim = Simulator(scenario.from_dict(data, name=sc_name))
    sim.play(np.arange(2), seed=1)
    setup = time.perf_counter() - t
    return setup, batch_rates(lambda r: sim.play(np.arange(games), seed=100 + r), repeats, games)


# The timed loops are compiled each run, never cached: numba's cache knows only this file, so a
# cached loop would keep the game code it was first compiled against after that code changes.
@nb.njit
def _via_registry(pid, obs, masks, params, rng, T, ra):
    s = 0
    for i in range(obs.shape[0]):
        s += decide(pid, obs[i], masks[i], params, rng, T, ra)
    return s


@nb.njit  # not cached: it takes a function argument (one specialisation per policy)
def _direct(policy, obs, masks, params, rng, T, ra):
    s = 0
    for i in range(obs.shape[0]):
        s += policy(obs[i], masks[i], params, rng, T, ra)
    return s


def decision_points(n, T, seed=0):
    """Discard decisions after a draw: random 8-card hands with 2 revealed sets."""
    rng = np.random.default_rng(seed)
    obs = np.zeros((n, OBS_LEN), np.int64)
    masks = np.zeros((n, N_ACTIONS), np.bool_)
    deck = list(range(36)) + [36 + p for p in range(5) for _ in range(4)]
    for i in range(n):
        cards = rng.choice(len(deck), 14, replace=False)
        hand = [deck[c] for c in cards[:8]]
        m = 0
        for k in hand:
            m += (1 << k) if k < 36 else 1 << (36 + 3 * (k - 36))
            masks[i, DISCARD + k] = True
        obs[i, OBS_HAND] = m
        obs[i, OBS_OWN_N_REVEALED] = 2
        obs[i, OBS_OWN_REVEALED] = 0
        obs[i, OBS_TENPAI_CHECKED] = 0
    return obs, masks


def dispatch_cost(T, ra, n=200_000, repeats=5):
    obs, masks = decision_points(n, T)
    params = np.zeros(16)
    rng = np.zeros(4, np.uint64)
    rng[0] = 12345
    out = {}
    for name, fn in [("baseline via registry", lambda: _via_registry(1, obs, masks, params, rng, T, ra)),
                     ("baseline called directly", lambda: _direct(baseline_policy, obs, masks, params, rng, T, ra)),
                     ("random via registry", lambda: _via_registry(0, obs, masks, params, rng, T, ra)),
                     ("random called directly", lambda: _direct(random_policy, obs, masks, params, rng, T, ra))]:
        fn()
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        out[name] = statistics.median(times) / n * 1e9
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--repeats", type=int, default=3, help="batches per pairing (median and best)")
    ap.add_argument("--pairings", default="baseline,random,greedy,value,defensive,value:greedy,"
                    "defensive:greedy", help="comma-separated seat pairings, a:b or one name for both")
    args = ap.parse_args(argv)
    from simcore.errors import InputError
    from simcore.family import registry as families
    try:
        family, _ = families.load(args.scenario)  # its own family's loader says what is wrong
        if family.NAME != "momojan":
            raise InputError(f"{args.scenario} is a {family.NAME} scenario: this benchmark plays "
                             f"MOMOJAN (P-style: benchmarks/ptrump/bench_engine.py)")
    except InputError as e:
        print(f"bench_engine: {e}", file=sys.stderr)
        return 2
    print(f"$ python benchmarks/momojan/bench_engine.py --games {args.games} --scenario {args.scenario} "
          f"--repeats {args.repeats}")
    for pairing in args.pairings.split(","):
        setup, r = rounds_per_second(args.scenario, pairing, args.games, args.repeats)
        a, _, b = pairing.partition(":")
        print(f"{a:>9} vs {b or a:<9} {r.median:10.0f} rounds/s median, {r.best:7.0f} best of "
              f"{args.repeats}, {r.cpu:7.0f} of CPU time ({r.median / r.per_game:7.0f} games/s, "
              f"{r.per_game:.2f} rounds/game; setup incl. compile/cache load {setup:.1f} s)")
    sim = Simulator(scenario.load(args.scenario))
    costs = dispatch_cost(sim.T.core, sim.ra)
    for k, v in costs.items():
        print(f"{k:<26} {v:8.1f} ns per decision")
    print(f"registry dispatch overhead: baseline {costs['baseline via registry'] - costs['baseline called directly']:+.1f} ns, "
          f"random {costs['random via registry'] - costs['random called directly']:+.1f} ns per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
