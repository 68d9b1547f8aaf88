"""The compiled pieces of the ``search`` bot every family shares (docs/bots.md, "Search").

At a decision with at least two legal actions, a searching seat plays each candidate action
forward ``sims`` times with the family's own engine from a copy of the round's state in which
everything the seat cannot see (the other seats' concealed cards, the wall) is dealt again at
random from the cards it has not seen (a determinization), every seat then played by the rollout
bot. It plays the rollout bot's own choice unless another candidate's mean outcome beats it
clearly: by more than ``margin`` standard errors of the paired difference (a one-step
improvement of the rollout bot: Tesauro and Galperin's rollouts, on determinizations). Every
candidate is tried on the same ``sims`` determinizations and rollout streams (common random
numbers: the candidates' outcomes differ by their actions, not by their luck, so the paired
differences are narrow), derived from one draw of the seat's own stream, so the same seed gives
the same game.

A family supplies what only it knows, as two compiled functions of a tuple of its own: ``deal``
(copy the round's state, deal the unseen cards again) and ``resume`` (play on from the decision
with a forced first action; the outcome for the seat). Its decision asks its rollout bot for
its choice, takes :func:`legal_candidates` (and may prune them: :func:`keep_fastest`), then
:func:`search_among` runs the simulations (:func:`simulate`) and picks (:func:`choose`);
:func:`scratch` makes the kit's part of the scratch.

How the engine meets the search: its round loop takes one more argument (or tuple member),
``sx``: the state again in the policies' kernel, a tuple (the search's scratch) in the search
kernel. At each decision
the loop asks ``searching(sx)``, a constant of the compile, and in the search kernel hands the
decision to the family's ``searching_decision(ctx, sx)`` through :func:`search_hook` (``ctx``: a
tuple of whatever the family's search reads, built only on that branch). So the two kernels are
two compiles of one source, the policies' carries no search, and a rollout, which plays the
policies' loop, never searches inside itself.
"""

from __future__ import annotations

import importlib

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import overload

from simcore.nb.rng import next_u64, randint, seed_keyed

_U = np.uint64
DETERMINIZE, ROLLOUT = 101, 102   # stream purposes of one simulation (seed_keyed's ``purpose``)
# a search seat's params row, in the order simcore.family.policy.search_spec declares them
P_SIMS, P_ROLLOUT, P_MARGIN, P_TEMPERATURE, P_MIN_LEGAL = range(5)


def searching(sx):
    """Whether the round loop is the search kernel's (``sx`` a tuple): a constant of the
    compile."""
    raise NotImplementedError("compiled only")


@overload(searching, inline="always")
def _searching_typed(sx):
    found = isinstance(sx, types.BaseTuple)
    return lambda sx: found


def search_hook(module: str, name: str = "searching_decision"):
    """A function ``hook(ctx, sx)`` for an engine: in the search kernel, ``module.name(ctx,
    sx)`` (imported when numba compiles the kernel, so the engine does not import its search);
    in the policies' kernel never called."""
    def hook(ctx, sx):
        raise NotImplementedError("compiled only")

    @overload(hook)
    def typed(ctx, sx):
        if isinstance(sx, types.BaseTuple):
            decision = getattr(importlib.import_module(module), name)
            return lambda ctx, sx: decision(ctx, sx)
        return lambda ctx, sx: -1
    return hook


def scratch(policies, seats: int, n_actions: int, n_rngs: int) -> tuple:
    """The kit's part of a search's scratch, made once per simulator (``kit`` of
    :func:`search_among`): the rollout seats' policy ids and params rows, the rollout streams
    (``n_rngs`` of them), the candidates, the sums of their gains and of their squares, the
    determinization stream and every bot's default params row (by policy id)."""
    names = policies.names
    rows = policies.seat_arrays([{"policy": name} for name in names], len(names))[1]
    return (np.zeros(seats, np.int64), np.zeros((seats, policies.max_params), np.float64),
            np.zeros((n_rngs, 4), np.uint64), np.zeros(n_actions, np.int64),
            np.zeros(n_actions, np.float64), np.zeros(n_actions, np.float64),
            np.zeros(4, np.uint64), rows)


@nb.njit(cache=True, inline="always")
def legal_candidates(mask, prm, cand) -> int:
    """The legal actions of ``mask`` into ``cand``; their count, or 0 when there are fewer than
    the seat's ``min_legal`` (and at least 2): the rollout bot's choice stands."""
    n = candidates(mask, cand)
    return n if n >= max(2, np.int64(prm[P_MIN_LEGAL])) else 0


@nb.njit(cache=True, inline="always")
def search_among(deal, resume, ctx, n, choice, prm, key, rng, kit, rollouts):
    """What a search seat (params row ``prm``, stream ``rng``) plays among the first ``n``
    candidates of ``kit``'s (:func:`legal_candidates`, perhaps pruned by the family), where
    its rollout bot would play ``choice``: every rollout seat set to that bot, ``prm``'s
    ``sims`` simulations of this decision (``key``: :func:`decision_key`) by :func:`simulate`,
    then :func:`choose`. Fewer than two candidates: ``choice``. Inlined into the family's
    decision."""
    xpol, xprm, xrngs, cand, gain, gain2, det, rows = kit
    if n < 2:
        return choice
    base = base_index(cand, n, choice)
    roll = np.int64(prm[P_ROLLOUT])
    xpol[:] = roll
    for q in range(xprm.shape[0]):
        xprm[q] = rows[roll]
    sims = np.int64(prm[P_SIMS])
    simulate(deal, resume, ctx, key, sims, cand, n, base, gain, gain2, det, rollouts)
    return cand[choose(gain, gain2, base, n, sims, prm[P_MARGIN], prm[P_TEMPERATURE], rng)]


@nb.njit(cache=True, inline="always")
def closest_discard(c, after, n_kinds, rng) -> int:
    """The kind a speed-first player discards from counts ``c`` (``after[k]``: the hand's
    distance to a win once a ``k`` is discarded): the closest, ties at random (each tied kind
    alike, one draw from ``rng`` per tie). How a simulation's guessed hands are grown (emoji's,
    two-player riichi's)."""
    best, ties, k = 1 << 20, 0, -1
    for kind in range(n_kinds):
        if c[kind] > 0:
            if after[kind] < best:
                best, ties, k = after[kind], 1, kind
            elif after[kind] == best:
                ties += 1
                if randint(rng, ties) == 0:
                    k = kind
    return k


@nb.njit(cache=True)
def keep_fastest(cand, n, choice, discard_end, n_kinds, dist, safe) -> int:
    """Prune a decision's ``n`` candidates (each costs ``sims`` rollouts) to the rollout bot's
    ``choice``, every action from ``discard_end`` on (not a discard), the discards (action ``a``
    discards kind ``a % n_kinds``) whose ``dist[kind]``, the hand's distance to a win after it,
    is the least of the discards', and the discards of a kind in bit set ``safe`` (kinds a seat
    in riichi cannot ron); their count, first in ``cand``. A discard that slows the hand is
    seldom right unless it is safe. MOMOJAN's, emoji's and two-player riichi's prune."""
    best = 1 << 20
    for j in range(n):
        a = cand[j]
        if a < discard_end and dist[a % n_kinds] < best:
            best = dist[a % n_kinds]
    m = 0
    for j in range(n):
        a = cand[j]
        k = a % n_kinds
        if a >= discard_end or a == choice or dist[k] == best or (safe >> k) & 1:
            cand[m] = a
            m += 1
    return m


@nb.njit(cache=True)
def candidates(mask, out) -> int:
    """The legal actions of ``mask`` into ``out`` (ascending); their count."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            out[n] = a
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def base_index(cand, n, choice) -> int:
    """Where the rollout bot's ``choice`` is among the ``n`` candidates."""
    i = 0
    while i < n - 1 and cand[i] != choice:
        i += 1
    return i


@nb.njit(cache=True, inline="always")
def record(gain, gain2, i, j, v, v0):
    """Simulation outcome ``v`` of candidate ``i``, the ``j``-th tried in its simulation (0:
    the rollout bot's choice, whose outcome is returned: the one the others are measured
    against); the others' gains over it go to ``gain`` and ``gain2``. Returns that outcome."""
    if j == 0:
        return v
    gain[i] += v - v0
    gain2[i] += (v - v0) * (v - v0)
    return v0


@nb.njit(cache=True)
def decision_key(rng, salt):
    """The key of this decision's simulations, from the seat's stream as it stands and ``salt``
    (where the round is: two decisions of one seat differ by it), leaving the stream alone: a
    search that keeps its rollout bot's every choice (a large ``margin``) plays the very games
    of that bot (a test), and which stream the bot's own draws come from does not depend on
    the search."""
    x = rng[0] ^ _U(0x9E3779B97F4A7C15) ^ (_U(salt) * _U(0xD1342543DE82EF95))
    for i in range(1, 4):
        x = (x ^ rng[i]) * _U(0xBF58476D1CE4E5B9)
        x ^= x >> _U(29)
    return x


@nb.njit(cache=True, inline="always")
def simulate(deal, resume, ctx, key, sims, cand, n, base, gain, gain2, det, rollouts):
    """The simulations of one decision, the family's part passed in as two compiled functions:
    ``sims`` times, ``deal(ctx, det)`` deals the cards the seat cannot see again (``det`` the
    simulation's stream), then ``resume(ctx, action)`` plays each of the ``n`` candidates
    ``cand`` forward from that deal and returns the outcome for the seat, every rollout seat
    ``i`` drawing from ``rollouts[i]``, seeded alike for every candidate (common random
    numbers). The rollout bot's own choice ``cand[base]`` is played first; the others' gains
    over it are summed into ``gain`` and ``gain2`` (for :func:`choose`). Inlined into the
    family's decision, which is compiled and cached in the family's module."""
    gain[:n], gain2[:n] = 0.0, 0.0
    for k in range(sims):
        seed_keyed(key, np.int64(k), np.int64(-1), DETERMINIZE, det)
        deal(ctx, det)
        v0 = 0.0
        for j in range(n):
            i = (base + j) % n   # the rollout bot's choice first: the others' gains are over it
            for q in range(rollouts.shape[0]):
                seed_keyed(key, np.int64(k), np.int64(q), ROLLOUT, rollouts[q])
            v0 = record(gain, gain2, i, j, resume(ctx, cand[i]), v0)


@nb.njit(cache=True)
def choose(gain, gain2, base, n, sims, margin, temperature, rng) -> int:
    """The candidate to play, from each candidate's outcome less the rollout bot's own choice
    ``base``'s on the same simulation (sums ``gain``, sums of squares ``gain2`` over ``sims``):
    the one with the best mean gain when that mean is above ``margin`` standard errors of
    itself (the sample variance plus mean^2 / sims, so that a gain no simulation disagrees
    with needs more simulations than ``margin``), else ``base``: a one-step improvement of
    the rollout bot, which plays its own choice unless the simulations say clearly otherwise.
    With ``temperature`` > 0, one drawn with weight exp(mean gain / temperature) among
    ``base`` and those clearly better."""
    best, best_mean = base, 0.0
    w = np.zeros(n, np.float64)
    for i in range(n):
        if i == base:
            continue
        mean = gain[i] / sims
        # the sample variance, plus mean^2 / sims: a gain the same in every simulation is no
        # proof with a few of them (it is clear once there are more simulations than margin)
        var = max(gain2[i] - sims * mean * mean, 0.0) / max(sims - 1, 1) + mean * mean / sims
        if mean > 0.0 and mean > margin * np.sqrt(var / sims):
            w[i] = mean
            if mean > best_mean:
                best, best_mean = i, mean
    if temperature <= 0.0 or best == base:
        return best
    tot = 0.0
    for i in range(n):
        if i == base or w[i] > 0.0:
            w[i] = np.exp((w[i] - best_mean) / temperature)
            tot += w[i]
        else:
            w[i] = 0.0
    u = (next_u64(rng) >> _U(11)) * (1.0 / 9007199254740992.0) * tot
    for i in range(n):
        u -= w[i]
        if w[i] > 0.0 and u < 0.0:
            return i
    return best


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
