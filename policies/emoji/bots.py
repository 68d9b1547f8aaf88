"""Emoji mahjong's bots: numba policies deciding inside the compiled turn loop, and their
registry (spec emoji.md §4.2, §5).

Every policy has one signature::

    policy(obs: int64[OBS_LEN], mask: bool[N_ACTIONS], params: float64[:], rng: uint64[4],
           t: int16[...], ra: int64[N_RA]) -> int action

``obs`` is the deciding seat's view (:mod:`simcore.emoji.layout`), ``mask`` the legal actions
(kind k: discard it; 30 + k: discard it declaring riichi), ``t`` the hand table
(:func:`simcore.emoji.hand.tables`). The only decision is the discard (and riichi with it): wins
are automatic. -1 means the default, the drawn tile.

- ``idle``: always the default (the source's AFK player, spec §4.2).
- ``random``: uniform over the legal actions.
- ``baseline``: the discard that leaves the hand closest to a win (``hand.distance``), the lowest
  kind on ties; riichi whenever that discard allows it.
- ``greedy``: closest to a win, ties broken by the unseen copies (what the seat can see) of the
  kinds that would bring the hand closer (the waits when tenpai), then by keeping the dora;
  riichi with probability ``riichi`` when the best discard allows it.
- ``search``: each legal discard played forward on redealt unseen tiles, every seat then played
  by ``greedy`` (:mod:`simcore.emoji.search`; the kit's method, :mod:`simcore.nb.search`).

What this implementation simplifies: no bot reads the others' discards for safety (wins are
automatic, so defence is only in what one lets go); no bot weighs the multipliers.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.bits import sum_at_bits
from simcore.nb.borrow import writable
from policies.random_policy import random_policy, uniform
from policies.scripted import scripted_action
from simcore.nb.restrict import restricted_action, restricted_mask
from simcore.emoji.hand import IMPOSSIBLE, N_KINDS, distances_after, improving_kinds
from simcore.emoji.layout import N_ACTIONS, OBS_DORA, OBS_DRAWN, OBS_OWN, OBS_UNSEEN, OBS_WORK
from simcore.family.params import Param
from simcore.family.policy import (  # noqa: F401  (SCRIPTED: tests')
    RESTRICTED, SCRIPTED, PolicySpec, Registry, search_spec)

GREEDY_PARAMS = (
    Param("riichi", "float", 1.0, "probability of declaring riichi when the best discard "
          "allows it (0: never)", 0.0, 1.0),
)
POLICIES = Registry((
    PolicySpec("random", "uniform over the legal discards (and riichi declarations)", ()),
    PolicySpec("idle", "always discards the drawn tile (the source's AFK player)", ()),
    PolicySpec("baseline", "the discard closest to a win, the lowest tile on ties; riichi "
               "whenever it may", ()),
    PolicySpec("greedy", "closest to a win, then the most unseen useful tiles; riichi by "
               "probability", GREEDY_PARAMS),
    search_spec(("random", "idle", "baseline", "greedy"), "greedy", sims=16),   # docs/bots.md
), max_params=5, best="greedy")
P_RANDOM, P_IDLE, P_BASELINE, P_GREEDY, P_SEARCH = (
    POLICIES.id(n) for n in ("random", "idle", "baseline", "greedy", "search"))
BEST = POLICIES.best   # the bot `mechanics` restricts
_BEST_ROW = np.array(POLICIES.param_row(BEST, {}) or [0.0], np.float64)


@nb.njit(cache=True, inline="always")
def _useful(h, obs, t) -> int:
    """Unseen copies of the kinds that bring a 7-tile hand closer."""
    return sum_at_bits(improving_kinds(h, t), obs, OBS_UNSEEN)


@nb.njit(cache=True)
def _best_discard(obs, mask, t, with_useful):
    """(kind, whether riichi is legal with it) of the discard closest to a win: the distances
    of every discard first, then the useful tiles only for those at the best distance (when
    more than one discard is)."""
    h = obs[OBS_OWN:OBS_OWN + N_KINDS]   # changed below for a moment, and restored
    dist = obs[OBS_WORK:OBS_WORK + N_KINDS]
    distances_after(h, t, -1, dist)
    best_d = IMPOSSIBLE
    n_best = 0
    for k in range(N_KINDS):
        if not mask[k]:
            dist[k] = IMPOSSIBLE
        elif dist[k] < best_d:
            best_d, n_best = dist[k], 1
        elif dist[k] == best_d:
            n_best += 1
    best_k, best_u = -1, -1
    dora = obs[OBS_DORA]
    for k in range(N_KINDS):
        if dist[k] != best_d:
            continue
        if not with_useful or n_best == 1:
            best_k = k
            break
        h[k] -= 1
        u = _useful(h, obs, t)     # the kinds that bring it below best_d
        h[k] += 1
        if u > best_u or (u == best_u and best_k == dora):
            best_k, best_u = k, u
    return best_k, mask[N_KINDS + best_k]


@nb.njit(cache=True)
def idle_policy(obs, mask, params, rng, t, ra):
    return -1


@nb.njit(cache=True)
def baseline_policy(obs, mask, params, rng, t, ra):
    k, riichi = _best_discard(obs, mask, t, False)
    return N_KINDS + k if riichi else k


@nb.njit(cache=True)
def greedy_policy(obs, mask, params, rng, t, ra):
    k, riichi = _best_discard(obs, mask, t, True)
    if riichi and params[0] > 0 and (params[0] >= 1 or uniform(rng) < params[0]):
        return N_KINDS + k
    return k


@nb.njit(cache=True)
def scripted_policy(obs, mask, params, rng, t, ra):
    """Tests: ``params[0]`` is a cursor into the action list ``params[1:]``; an entry of -1 (or
    the end of the row) lets ``baseline`` decide that one (:mod:`simcore.family.policy`); -2 plays
    the default (the drawn tile); ASK stops the game for a human seat."""
    a = scripted_action(params)
    if a == -2:
        return np.int64(obs[OBS_DRAWN])
    return a if a >= 0 else baseline_policy(obs, mask, params, rng, t, ra)


@nb.njit(cache=True)
def restricted_policy(obs, mask, params, rng, t, ra):
    """``greedy`` with one kind of decision taken away or forced (``params``:
    :mod:`simcore.nb.restrict`), for ``mechanics``."""
    row = writable(_BEST_ROW)   # one compile of greedy_policy (simcore.nb.borrow)
    return restricted_action(greedy_policy(obs, restricted_mask(mask, params), row, rng, t,
                             ra), mask, params)


@nb.njit(cache=True)
def search_hint(obs, mask, params, rng, t, ra):
    """A search seat asked outside the search kernel (a hint in ``play``): greedy's choice. In
    games it plays by simulation (:mod:`simcore.emoji.search`)."""
    return greedy_policy(obs, mask, writable(_BEST_ROW), rng, t, ra)


@nb.njit(cache=True)
def decide(policy_id, obs, mask, params, rng, t, ra):
    """The action of policy ``policy_id`` (an id of :data:`POLICIES`, or ``SCRIPTED``)."""
    if policy_id == P_GREEDY:
        return greedy_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_BASELINE:
        return baseline_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_RANDOM:
        return random_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_IDLE:
        return idle_policy(obs, mask, params, rng, t, ra)
    if policy_id == P_SEARCH:
        return search_hint(obs, mask, params, rng, t, ra)
    if policy_id == RESTRICTED:
        return restricted_policy(obs, mask, params, rng, t, ra)
    return scripted_policy(obs, mask, params, rng, t, ra)


assert N_ACTIONS == 2 * N_KINDS


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
