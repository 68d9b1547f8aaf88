"""Sparrow mahjong's ``search`` bot (the kit's method: :mod:`simcore.nb.search`).

Sparrow's part: the tiles a seat cannot see (the other seats' hands and the wall after the
current draw) dealt again each simulation, each other seat's hand redrawn until its last discard
is one the rollout bot could have made (no other tile left it closer to two sets); the outcome
is the round's payments to the seat. Searched: discards.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.sparrow import POLICIES, P_SEARCH, decide
from simcore.nb.rng import shuffle
from simcore.nb.search import P_ROLLOUT, decision_key, legal_candidates, scratch, search_among
from . import engine as E
from .hand import N_KINDS, distance, waits

TRIES = 32   # deals of a seat's hand tried for one its last discard explains


def new_scratch():
    """A search's scratch, once per simulator: ``(state, the simulation's dealt state, round
    record, reach keys, unseen pool, the kit's scratch)``."""
    return (E.new_state(False), E.new_state(False), np.zeros(E.N_RF, np.int64),
            np.zeros(E.MAX_SEATS, np.int64), np.zeros(E.N_TILES, np.int64),
            scratch(POLICIES, E.MAX_SEATS, E.N_ACTIONS, 1 + E.MAX_SEATS))


@nb.njit(cache=True)
def _explained(c, last, t) -> bool:
    """Whether discarding kind ``last`` from counts ``c`` plus that tile left the hand as close
    to two sets as any other discard would have."""
    d = distance(c, t)
    c[last] += 1
    ok = True
    for k in range(N_KINDS):
        if c[k] > 0 and k != last:
            c[k] -= 1
            if distance(c, t) < d:
                ok = False
            c[k] += 1
    c[last] -= 1
    return ok


@nb.njit(cache=True)
def _deal(c, rng):
    """A simulation's deal: the round as it stands, the tiles the seat cannot see (the other
    seats' hands and the wall after its draw) dealt again, each other seat's hand drawn (at most
    TRIES times) until its last discard is explained (:func:`_explained`)."""
    s, y, x, seat, pos, pool, t, ra, xpol, xprm, xrngs, xrec, rec, keys, no = c
    E.copy_State(y, s)
    y.st[E.ST_LOG] = 0
    n, m, rest = y.st[E.ST_N], 0, E.N_TILES - pos - 1
    for q in range(n):
        if q != seat:
            pool[m:m + E.HAND] = y.hand[q, :E.HAND]
            m += E.HAND
    pool[m:m + rest] = y.wall[pos + 1:]
    m, used = m + rest, 0   # pool[:used] is dealt
    for q in range(n):
        if q == seat:
            continue
        h = y.counts[q]
        for _ in range(TRIES):
            shuffle(rng, pool[used:], m - used)
            h[:] = 0
            for j in range(E.HAND):
                y.hand[q, j] = pool[used + j]
                h[pool[used + j] >> 2] += 1
            if y.last[q] < 0 or _explained(h, y.last[q], t):
                break
        y.waits[q] = waits(h, t)
        used += E.HAND
    y.wall[pos + 1:] = pool[used:used + rest]


@nb.njit(cache=True)
def _resume(c, action):
    """The round played on from the simulation's deal with the seat discarding slot
    ``action``; the seat's payments."""
    s, y, x, seat, pos, pool, t, ra, xpol, xprm, xrngs, xrec, rec, keys, no = c
    E.copy_State(x, y)
    xrec[:] = rec
    keys[:] = 0
    E.round_from(x, ra, t, xpol, xprm, xrngs, xrec, no, keys, seat, pos, action, x)
    return np.float64(x.delta[seat])


@nb.njit(cache=True)
def searching_decision(ctx, sx):
    """A discard in the search kernel: a ``search`` seat's by simulation, another seat's by its
    policy (``ctx``: the round's state, the seat, the wall position of its draw...)."""
    s, seat, pos, ra, t, pol_ids, params, rngs, rec = ctx
    pid, prm, rng = pol_ids[seat], params[seat], rngs[1 + seat]
    if pid != P_SEARCH:
        return decide(pid, s.obs, s.mask, prm, rng, t, ra)
    x, y, xrec, keys, pool, kit = sx
    xpol, xprm, xrngs, rows = kit[0], kit[1], kit[2], kit[7]
    roll = np.int64(prm[P_ROLLOUT])
    choice = decide(roll, s.obs, s.mask, rows[roll], rng, t, ra)   # the rollout bot's own
    n = legal_candidates(s.mask, prm, kit[3])
    no = rec[E.RF_GAME] < 0   # False, not a constant (engine._ask)
    return search_among(_deal, _resume, (s, y, x, seat, pos, pool, t, ra, xpol, xprm, xrngs,
                                         xrec, rec, keys, no), n, choice, prm,
                        decision_key(rng, pos), rng, kit, xrngs[1:])


# nogil: a run's progress lines keep coming while a chunk of search games plays in-process
@nb.njit(cache=True, nogil=True)
def play_games_search(game_indices, seed, s, n, ra, t, pol_ids, params, rounds_out, games_out,
                      sx):
    """:func:`simcore.sparrow.engine.play_games` with ``search`` seats (``sx``:
    :func:`new_scratch`)."""
    return E.play_games(game_indices, seed, s, n, ra, t, pol_ids, params, rounds_out,
                        games_out, sx)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
