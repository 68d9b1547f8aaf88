"""Two-player riichi bots: numba policies deciding inside the compiled hand loop, and their
registry (spec riichi2p.md §4.6).

Every policy has one signature::

    policy(obs: int64[OBS_LEN], mask: bool[N_ACTIONS], params: float64[:], rng: uint64[4],
           ts, th) -> int action

``obs`` is the deciding seat's view and ``mask`` the legal actions (:mod:`simcore.riichi2p.layout`:
discard, riichi + discard, ankan, kakan, tsumo, kyuushu, ron, pass, chi, pon, daiminkan);
``ts``, ``th`` the hand tables (:func:`simcore.riichi2p.hand.tables`). The engine asks only when
there is a choice and replaces an illegal answer by the default (discard the drawn tile, pass).

- ``random``: uniform over the legal actions.
- ``baseline``: every win it may; the discard that leaves the hand closest to a win
  (``hand.distance``), the lowest kind on ties; riichi whenever it may; no calls, no kans.
- ``greedy``: every win; the discard closest to a win, ties by the unseen tiles that bring it
  closer (ukeire), then by keeping dora and value tiles; riichi when tenpai; pon of a value tile
  (a yaku) and, with ``calls`` on, any chi/pon that brings the hand closer while it keeps a yaku
  in reach (a value-tile triplet, or all simples); ankan when the hand stays as close; against a
  riichi it folds (the opponent's safe tiles first) when its own hand is ``fold`` or more tiles
  from a win.

What this implementation simplifies: no bot reads the opponent's discards beyond safety, none
weighs the hand's value when choosing between equally close discards (dora aside).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.bits import sum_at_bits
from simcore.nb.borrow import writable
from policies.random_policy import random_policy, uniform
from policies.scripted import scripted_action
from simcore.nb.restrict import restricted_action, restricted_mask
from simcore.nb.stack import stack_empty
from simcore.family.params import Param
from simcore.family.policy import (  # noqa: F401  (SCRIPTED: tests')
    RESTRICTED, SCRIPTED, PolicySpec, Registry, search_spec)
from simcore.riichi2p.hand import AFTER_LEN, distance, distances_after, improving_kinds
from simcore.riichi2p.layout import (
    A_ANKAN, A_CHI, A_DISCARD, A_KAKAN, A_KYUUSHU, A_MINKAN, A_PASS, A_PON, A_RIICHI, A_RON,
    A_TSUMO, D_AFTER_CALL, D_ON_DISCARD, D_ON_KAN, D_OWN_TURN, N_ACTIONS, N_KINDS, OBS_CLOSED,
    OBS_DECISION, OBS_DORA, OBS_N_MELDS, OBS_OPP_DISC, OBS_OPP_RIICHI, OBS_OPP_SAFE, OBS_OWN,
    OBS_RIICHI, OBS_TILE, OBS_UNSEEN, OBS_WORK, OBS_YAKUHAI,
)

GREEDY_PARAMS = (
    Param("riichi", "float", 1.0, "probability of declaring riichi when tenpai and closed "
          "(0: never)", 0.0, 1.0),
    Param("calls", "int", 1, "1: chi and pon where they bring the hand closer and keep a yaku "
          "in reach; 0: only pon of value tiles", 0, 1),
    Param("fold", "int", 3, "against a riichi, fold (safe tiles first) when the hand lacks at "
          "least this many tiles (99: never fold)", 1, 99),
)
POLICIES = Registry((
    PolicySpec("random", "uniform over the legal actions", ()),
    PolicySpec("baseline", "every win; the discard closest to a win (lowest tile on ties); "
               "riichi whenever it may; no calls", ()),
    PolicySpec("greedy", "every win; closest to a win, then the most useful unseen tiles; "
               "riichi when tenpai; calls that keep a yaku; folds against riichi; kyuushu when 4+ "
               "tiles away", GREEDY_PARAMS),
    search_spec(("random", "baseline", "greedy"), "greedy", sims=16, margin=3.0),   # docs/bots.md
), max_params=5, best="greedy")
P_RANDOM, P_BASELINE, P_GREEDY, P_SEARCH = (POLICIES.id(n) for n in (
    "random", "baseline", "greedy", "search"))
BEST = POLICIES.best   # the bot `mechanics` restricts
_BEST_ROW = np.array(POLICIES.param_row(BEST, {}) or [0.0], np.float64)
FAR = 99


@nb.njit(cache=True, inline="always")
def _hand(obs):
    """The seat's concealed counts, in the caller's frame (inlined: simcore.nb.stack)."""
    h = stack_empty(N_KINDS, np.int64)
    for k in range(N_KINDS):
        h[k] = obs[OBS_OWN + k]
    return h


@nb.njit(cache=True)
def _ukeire(h, n_melds, obs, ts, th) -> int:
    """Unseen copies of the kinds that bring the hand closer."""
    return sum_at_bits(improving_kinds(h, n_melds, ts, th, -1)[0], obs, OBS_UNSEEN)


@nb.njit(cache=True)
def _danger(obs, k) -> int:
    """How risky discarding kind k is against a riichi: 0 safe (after the riichi, or the
    opponent's own discard), then honours by unseen copies, then the rest."""
    if obs[OBS_OPP_SAFE + k] or obs[OBS_OPP_DISC + k]:
        return 0
    u = obs[OBS_UNSEEN + k]
    if k >= 27:
        return 1 + u
    r = k % 9
    return 6 + (4 if 2 <= r <= 6 else 2) + u


@nb.njit(cache=True)
def _best_discard(obs, mask, ts, th, with_ukeire, fold_at):
    """(kind, distance after it) of the discard closest to a win among the legal ones (the
    riichi ones too); folding against a riichi when the hand is ``fold_at`` or more away."""
    h = obs[OBS_OWN:OBS_OWN + N_KINDS]   # changed below for a moment, and restored
    n_melds = obs[OBS_N_MELDS]
    dist = obs[OBS_WORK:OBS_WORK + AFTER_LEN]
    distances_after(h, n_melds, ts, th, -1, dist)
    best_d = FAR
    for k in range(N_KINDS):
        if mask[A_DISCARD + k] or mask[A_RIICHI + k]:
            if dist[k] < best_d:
                best_d = dist[k]
        else:
            dist[k] = FAR
    if obs[OBS_OPP_RIICHI] > 0 and best_d >= fold_at:
        best_k, best_r = -1, 1 << 30
        for k in range(N_KINDS):
            if dist[k] < FAR:
                r = _danger(obs, k) * 16 + dist[k]
                if r < best_r:
                    best_k, best_r = k, r
        return best_k, dist[best_k]
    best_k = -1
    n_best = 0
    for k in range(N_KINDS):
        if dist[k] == best_d:
            n_best += 1
            if best_k < 0:
                best_k = k
    if n_best == 1 or not with_ukeire:
        return best_k, best_d       # no choice to make, or the lowest tile (baseline)
    best_k, best_u = -1, -(1 << 30)
    for k in range(N_KINDS):
        if dist[k] != best_d:
            continue
        h[k] -= 1
        u = _ukeire(h, n_melds, obs, ts, th) * 8   # the kinds that bring it below best_d
        h[k] += 1
        # keep dora and value tiles: a small bonus for discarding neither
        u -= obs[OBS_DORA + k] * 4 + obs[OBS_YAKUHAI + k] * (1 if h[k] >= 2 else 0)
        if u > best_u:
            best_k, best_u = k, u
    return best_k, best_d


@nb.njit(cache=True)
def _own_turn(obs, mask, params, rng, ts, th, greedy):
    if mask[A_TSUMO]:
        return A_TSUMO
    # nine kinds of terminals and honours: abort a hand four or more tiles from a win (a
    # kokushi that close plays on)
    if greedy and mask[A_KYUUSHU] and distance(obs[OBS_OWN:OBS_OWN + N_KINDS], obs[OBS_N_MELDS],
                                               ts, th) >= 4:
        return A_KYUUSHU
    fold_at = np.int64(params[2]) if greedy else FAR
    k, d = _best_discard(obs, mask, ts, th, greedy, fold_at)
    if greedy:
        # an ankan that leaves the hand as close (in riichi the engine checks the wait)
        h = obs[OBS_OWN:OBS_OWN + N_KINDS]   # changed for a moment, and restored
        for j in range(N_KINDS):
            if mask[A_ANKAN + j]:
                if obs[OBS_OPP_RIICHI] > 0 and obs[OBS_RIICHI] == 0:
                    continue
                h[j] -= 4
                dk = distance(h, obs[OBS_N_MELDS] + 1, ts, th)
                h[j] += 4
                if dk <= d + 1 - (0 if mask[A_DISCARD + j] else 0):
                    return A_ANKAN + j
    if mask[A_RIICHI + k]:
        if not greedy or (params[0] >= 1 or (params[0] > 0 and uniform(rng) < params[0])):
            return A_RIICHI + k
    return A_DISCARD + k


@nb.njit(cache=True)
def _has_yaku_route(h, obs, extra_kind) -> bool:
    """A yaku stays in reach after calling: a value-tile pair or triplet held (or the call's
    own tile), or every held tile a simple (open tanyao)."""
    for k in range(27, 34):
        if obs[OBS_YAKUHAI + k] and (h[k] >= 2 or k == extra_kind):
            return True
    for k in range(N_KINDS):
        if h[k] > 0 and (k >= 27 or k % 9 == 0 or k % 9 == 8):
            return False
    return True


@nb.njit(cache=True)
def _on_discard(obs, mask, params, ts, th, greedy):
    if mask[A_RON]:
        return A_RON
    if not greedy:
        return A_PASS
    k = obs[OBS_TILE] // 4
    h = _hand(obs)
    n = obs[OBS_N_MELDS]
    if obs[OBS_OPP_RIICHI] > 0:
        return A_PASS
    d0 = distance(h, n, ts, th)
    if mask[A_PON] and obs[OBS_YAKUHAI + k]:
        return A_PON
    if params[1] < 1:
        return A_PASS
    best, best_d = A_PASS, d0
    if mask[A_PON]:
        h[k] -= 2
        dd = _after_call_distance(h, n + 1, ts, th)
        ok = _has_yaku_route(h, obs, -1) or obs[OBS_CLOSED] == 0
        h[k] += 2
        if dd < best_d and ok and (obs[OBS_CLOSED] == 0 or dd <= 2):
            best, best_d = A_PON, dd
    for i in range(3):
        if not mask[A_CHI + i]:
            continue
        low = k - i
        for j in range(3):
            if j != i:
                h[low + j] -= 1
        dd = _after_call_distance(h, n + 1, ts, th)
        ok = _has_yaku_route(h, obs, -1)
        for j in range(3):
            if j != i:
                h[low + j] += 1
        if dd < best_d and ok and (obs[OBS_CLOSED] == 0 or dd <= 2):
            best, best_d = A_CHI + i, dd
    return best


@nb.njit(cache=True)
def _after_call_distance(h, n_melds, ts, th) -> int:
    """The distance after calling and then making the best discard."""
    after = stack_empty(AFTER_LEN, np.int64)
    distances_after(h, n_melds, ts, th, -1, after)
    best = FAR
    for k in range(N_KINDS):
        if after[k] < best:
            best = after[k]
    return best


@nb.njit(cache=True)
def baseline_policy(obs, mask, params, rng, ts, th):
    dec = obs[OBS_DECISION]
    if dec == D_OWN_TURN or dec == D_AFTER_CALL:
        return _own_turn(obs, mask, params, rng, ts, th, False)
    return A_RON if mask[A_RON] else A_PASS


@nb.njit(cache=True)
def greedy_policy(obs, mask, params, rng, ts, th):
    dec = obs[OBS_DECISION]
    if dec == D_OWN_TURN or dec == D_AFTER_CALL:
        return _own_turn(obs, mask, params, rng, ts, th, True)
    if dec == D_ON_DISCARD:
        return _on_discard(obs, mask, params, ts, th, True)
    return A_RON if mask[A_RON] else A_PASS


@nb.njit(cache=True)
def scripted_policy(obs, mask, params, rng, ts, th):
    """Tests: ``params[0]`` is a cursor into the action list ``params[1:]``; an entry of -1 (or
    the end of the row) lets ``baseline`` decide that one, ASK stops the game for a human seat
    (:mod:`simcore.family.policy`)."""
    a = scripted_action(params)
    return a if a >= 0 else baseline_policy(obs, mask, params, rng, ts, th)


@nb.njit(cache=True)
def restricted_policy(obs, mask, params, rng, ts, th):
    """``greedy`` with one kind of decision taken away or forced (``params``:
    :mod:`simcore.nb.restrict`), for ``mechanics``."""
    row = writable(_BEST_ROW)   # one compile of greedy_policy (simcore.nb.borrow)
    return restricted_action(greedy_policy(obs, restricted_mask(mask, params), row, rng, ts,
                             th), mask, params)


@nb.njit(cache=True)
def search_hint(obs, mask, params, rng, ts, th):
    """A search seat asked outside its own turns in the search kernel (its answers to the other
    seat's discards, its discards after a call, a hint in ``play``): greedy's choice. Its own
    turns it plays by simulation (:mod:`simcore.riichi2p.search`)."""
    return greedy_policy(obs, mask, writable(_BEST_ROW), rng, ts, th)


@nb.njit(cache=True)
def decide(policy_id, obs, mask, params, rng, ts, th):
    """The action of policy ``policy_id`` (an id of :data:`POLICIES`, or ``SCRIPTED``)."""
    if policy_id == P_GREEDY:
        return greedy_policy(obs, mask, params, rng, ts, th)
    if policy_id == P_BASELINE:
        return baseline_policy(obs, mask, params, rng, ts, th)
    if policy_id == P_RANDOM:
        return random_policy(obs, mask, params, rng, ts, th)
    if policy_id == P_SEARCH:
        return search_hint(obs, mask, params, rng, ts, th)
    if policy_id == RESTRICTED:
        return restricted_policy(obs, mask, params, rng, ts, th)
    return scripted_policy(obs, mask, params, rng, ts, th)


_ = (A_KAKAN, A_MINKAN, D_ON_KAN, N_ACTIONS)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
