"""MOMOJAN's bots: the registry and the one compiled dispatcher the engine calls.

Every policy has the kit's signature (:mod:`simcore.family.policy`)::

    policy(obs: int64[OBS_LEN], mask: bool[N_ACTIONS], params: float64[:], rng: uint64[4],
           core: uint64[CORE_LEN], ra: int64[RULES_LEN]) -> int action

``core`` (``HandTables.core``: the waits table and friends in one array, layout in
``simcore.momojan.hand``) lets bots ask for waits without rebuilding anything. ``decide``
dispatches on the policy id with a plain branch, so the engine calls the policy directly inside
compiled code (``benchmarks/momojan/bench_engine.py`` measures the dispatch cost).

To add a policy: write ``my_policy`` and its ``MY_PARAMS`` in its own module, append a
``PolicySpec`` to :data:`POLICIES`, name its id below and add a branch to :func:`decide`.
"""

import numba as nb
import numpy as np

from simcore.nb.borrow import writable
from policies.random_policy import random_pick
from simcore.momojan.actions import OBS_N_LEGAL
from simcore.family.policy import (  # noqa: F401  (SCRIPTED: the engine's)
    RESTRICTED, SCRIPTED, PolicySpec, Registry, search_spec)
from simcore.nb.restrict import restricted_action, restricted_mask

from .baseline import baseline_policy
from .defensive import DEFENSIVE_PARAMS, defensive_policy
from .greedy import GREEDY_PARAMS, greedy_policy
from .scripted import scripted_policy
from .value import VALUE_PARAMS, value_policy
from .worth import UNPLANNED_YAKU

MAX_PARAMS = 16
POLICIES = Registry((
    PolicySpec(name="random", doc="uniform over the legal actions", params=()),
    PolicySpec(name="baseline", doc="wins when it can, Kai when it can, never calls, riichi when "
               "it may, discards towards tenpai", params=()),
    PolicySpec(name="greedy", doc="plays for the fastest win: distance to tenpai, useful cards, "
               "calls and draws three when they help, riichi when tenpai", params=GREEDY_PARAMS),
    PolicySpec(name="value", doc="plays for points: weighs speed against every yaku, dora and "
               "bonus read from the rules; riichi and folding by value",
               params=VALUE_PARAMS, reads_point_values=True,
               # what policies.momojan.worth and play's riichi and fold decisions read: every
               # yaku (a scenario's new picture-set yaku too) and bonus, except these
               reads=("scoring.",),
               ignores=tuple(f"scoring.yaku.{y}." for y in UNPLANNED_YAKU)),
    PolicySpec(name="defensive", doc="greedy that folds to the least dangerous card against a "
               "riichi or fast opponent", params=DEFENSIVE_PARAMS),
    search_spec(("random", "baseline", "greedy", "value", "defensive"), "value",
                          sims=16, margin=1.5),
), MAX_PARAMS, best="value")
P_RANDOM, P_BASELINE, P_GREEDY, P_VALUE, P_DEFENSIVE, P_SEARCH = (
    POLICIES.id(n) for n in ("random", "baseline", "greedy", "value", "defensive", "search"))
# the greedy bot's defaults (search_hint)
_GREEDY_ROW = np.array(POLICIES.param_row("greedy", {}), np.float64)
BEST = POLICIES.best   # the bot `mechanics` restricts
_BEST_ROW = np.array(POLICIES.param_row(BEST, {}), np.float64)


@nb.njit(cache=True)
def search_hint(obs, mask, params, rng, core, ra):
    """A search seat asked outside the search kernel (a hint in ``play``, which has the
    seat's view only): greedy's choice. In games it plays by simulation
    (:mod:`simcore.momojan.search`)."""
    return greedy_policy(obs, mask, writable(_GREEDY_ROW), rng, core, ra)


@nb.njit(cache=True)
def restricted_policy(obs, mask, params, rng, core, ra):
    """``value`` with one kind of decision taken away or forced (``params``:
    :mod:`simcore.nb.restrict`), for ``mechanics``."""
    row = writable(_BEST_ROW)   # one compile of value_policy (simcore.nb.borrow)
    return restricted_action(value_policy(obs, restricted_mask(mask, params), row, rng, core,
                             ra), mask, params)


# inline: a plain branch the engine writes into its round loop; as a function of its own it would
# compile and optimise every policy's code once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def decide(policy_id, obs, mask, params, rng, core, ra):
    """The action of seat policy ``policy_id`` (an id of :data:`POLICIES`, or ``SCRIPTED``)."""
    if policy_id == P_RANDOM:
        return random_pick(mask, obs[OBS_N_LEGAL], rng)   # the round loop counted the legal actions
    if policy_id == P_BASELINE:
        return baseline_policy(obs, mask, params, rng, core, ra)
    if policy_id == P_GREEDY:
        return greedy_policy(obs, mask, params, rng, core, ra)
    if policy_id == P_VALUE:
        return value_policy(obs, mask, params, rng, core, ra)
    if policy_id == P_DEFENSIVE:
        return defensive_policy(obs, mask, params, rng, core, ra)
    if policy_id == P_SEARCH:
        return search_hint(obs, mask, params, rng, core, ra)
    if policy_id == RESTRICTED:
        return restricted_policy(obs, mask, params, rng, core, ra)
    return scripted_policy(obs, mask, params, rng, core, ra)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
