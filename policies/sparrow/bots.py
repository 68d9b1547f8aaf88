"""Sparrow mahjong's bots, deciding inside the compiled round loop (contract:
:mod:`simcore.family.policy`). A discard is a hand slot (0-5); asked about a win (only under
``wins.may_decline``) a bot answers TAKE or DECLINE.

- ``random``: uniform over the legal actions (so it declines half the wins it may decline).
- ``greedy``: the discard that leaves the hand closest to two sets; on ties, the one with the
  most unseen tiles that bring it closer, then one that keeps red and dora tiles; it declines a
  win worth fewer than ``decline_below`` points.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.borrow import writable
from policies.random_policy import random_policy
from policies.scripted import scripted_action
from simcore.family.params import Param
from simcore.family.policy import RESTRICTED, Mechanic, PolicySpec, Registry, search_spec
from simcore.nb.restrict import ALWAYS, restricted_action, restricted_mask
from simcore.sparrow.hand import N_KINDS, distance, is_red
from simcore.sparrow.layout import (DECLINE, OBS_DORA, OBS_HAND, OBS_OWN, OBS_PHASE, OBS_UNSEEN,
                                    OBS_WIN_POINTS, PHASE_WIN, RA_DECK_RED_BAMBOO, TAKE)

POLICIES = Registry((
    PolicySpec("random", "uniform over the legal actions", ()),
    PolicySpec("greedy", "closest to a win, then the most unseen useful tiles, then keeps red "
               "and dora", (Param("decline_below", "int", 0, "declines a win worth fewer "
                                  "points (under wins.may_decline)", 0, 1000),),
               reads_point_values=True),
    search_spec(("random", "greedy"), "greedy", sims=32),   # docs/bots.md
), max_params=5, best="greedy", mechanics=(
    Mechanic("always_take", "takes every win (under wins.may_decline)", ALWAYS,
             ((TAKE, TAKE + 1),)),))
P_RANDOM, P_GREEDY, P_SEARCH = POLICIES.id("random"), POLICIES.id("greedy"), POLICIES.id("search")
BEST = POLICIES.best   # the bot `mechanics` restricts
_BEST_ROW = np.array(POLICIES.param_row(BEST, {}), np.float64)


@nb.njit(cache=True)
def greedy_policy(obs, mask, params, rng, t, ra):
    if obs[OBS_PHASE] == PHASE_WIN:
        return DECLINE if obs[OBS_WIN_POINTS] < params[0] else TAKE
    c = obs[OBS_OWN:OBS_OWN + N_KINDS].copy()
    best, best_key = 0, 1 << 62
    for slot in range(6):
        tile = obs[OBS_HAND + slot]
        k = tile >> 2
        c[k] -= 1
        d = distance(c, t)
        useful = 0
        for j in range(N_KINDS):
            if c[j] < 4:
                c[j] += 1
                if distance(c, t) < d:
                    useful += obs[OBS_UNSEEN + j]
                c[j] -= 1
        c[k] += 1
        worth = int(k == obs[OBS_DORA]) + int(is_red(tile, ra[RA_DECK_RED_BAMBOO]))   # it scores
        key = d * 1000 - useful * 4 + worth
        if key < best_key:
            best, best_key = slot, key
    return best


@nb.njit(cache=True)
def search_hint(obs, mask, params, rng, t, ra):
    """A search seat asked outside the search kernel (a hint in ``play``): greedy's choice. In
    games it plays by simulation (:mod:`simcore.sparrow.search`)."""
    return greedy_policy(obs, mask, params[:1] * 0, rng, t, ra)


@nb.njit(cache=True)
def decide(policy_id, obs, mask, params, rng, t, ra):
    """The action of policy ``policy_id`` (an id of :data:`POLICIES`); a scripted test seat
    otherwise: ``params[0]`` a cursor into the actions ``params[1:]`` (-1 or past the end:
    greedy). ``RESTRICTED``: greedy with a kind of decision taken away or forced
    (:mod:`simcore.nb.restrict`, for ``mechanics``); ``writable(_BEST_ROW)``: one compile of
    greedy (:mod:`simcore.nb.borrow`)."""
    if policy_id == P_GREEDY:
        return greedy_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_RANDOM:
        return random_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_SEARCH:
        return search_hint(obs, mask, params, rng, t, ra)
    if policy_id == RESTRICTED:
        return restricted_action(greedy_policy(obs, restricted_mask(mask, params),
                                               writable(_BEST_ROW), rng, t, ra), mask, params)
    a = scripted_action(params)   # the scripted seat (ASK: stop for a human seat)
    return a if a >= 0 else greedy_policy(obs, mask, params[:1] * 0, rng, t, ra)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
