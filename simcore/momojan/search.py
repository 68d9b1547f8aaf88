"""MOMOJAN's ``search`` bot (the kit's method: :mod:`simcore.nb.search`, docs/bots.md).

What is MOMOJAN's here: the cards a seat cannot see (the other seat's concealed hand, the stock
and the kan replacement draws, dealt again at each simulation), the outcome of a rollout (the
change of the seat's lead over the other seat: the round's payment twice and the pot, to its
winner) and the kernel that seats it: :func:`play_games_search` is :func:`engine.play_games`
compiled once more with a search's scratch ``sx`` (:func:`new_scratch`), whose round loop asks
:func:`searching_decision` where the policies' loop asks the policy. A rollout plays the
policies' loop, so a search never searches inside itself.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.momojan import P_SEARCH, POLICIES, decide
from simcore.nb.search import (P_ROLLOUT, decision_key, keep_fastest, legal_candidates, scratch,
                               search_among)
from simcore.nb.rng import shuffle
from .actions import N_ACTIONS, PH_START, TSUMO
from .cards import N_KINDS
from .shanten import discard_distances, kind_bit, kinds_present, shanten
from . import engine as E

POOL = 128   # room for the unseen cards of any deck
TRIES = 32   # deals of the other seat's hand tried for one its play explains


def new_scratch():
    """A search's scratch, once per simulator: ``(state, the simulation's dealt state, round
    record, unseen pool, distances, the kit's scratch)``."""
    return (E.new_round_state(False), E.new_round_state(False), np.zeros(E.N_RF, np.int64),
            np.zeros(POOL, np.int64), np.zeros(N_KINDS, np.int64),
            scratch(POLICIES, 2, N_ACTIONS, E.N_RNG))


@nb.njit(cache=True, inline="always")
def _unseen_wall(st, wall, pool, n, to_pool):
    """The stock and the kan replacement draws, in order, to ``pool[n:]`` (``to_pool``) or back
    from it; the pool position after them."""
    for lo, hi in ((st[E.ST_STOCK_POS], st[E.ST_STOCK_END]),
                   (st[E.ST_DEAD_POS], st[E.ST_DEAD_END])):
        for i in range(lo, hi):
            if to_pool:
                pool[n] = wall[i]
            else:
                wall[i] = pool[n]
            n += 1
    return n


@nb.njit(cache=True)
def determinize(x, seat, pool, rng, core, dist, tries):
    """Deal the cards seat ``seat`` cannot see again: the other seat's concealed hand, the stock
    and the kan replacement draws, shuffled together and put back in the same places. The other
    seat's hand is drawn again (at most ``tries`` times) until it is one its play explains: a
    riichi hand is tenpai, and its last discard is one a speed-first player would have made
    from that hand and the discard (no other card leaves it closer to a win). A hand dealt at
    random is far weaker than one a player built, and simulations against it play as if the
    other seat were no threat (measured: 29% of games against greedy, 59% with the true hand)."""
    opp = 1 - seat
    st, wall = x.st, x.wall
    n = 0
    for k in range(N_KINDS):
        for _ in range(E.count_in(x.hands[opp], k)):
            pool[n] = k
            n += 1
    in_hand = n
    n = _unseen_wall(st, wall, pool, n, True)
    nd, n_rev = x.n_disc[opp], x.n_rev[opp]
    last = x.disc[opp, nd - 1] if nd > 0 and not x.disc_called[opp, nd - 1] else -1
    for _ in range(tries):
        shuffle(rng, pool, n)
        h = np.uint64(0)
        for i in range(in_hand):
            h += E._card_unit(pool[i])
        d = shanten(h, n_rev, core)
        if x.riichi[opp] and d != 0:
            continue
        if last < 0 or x.riichi[opp]:
            break
        before = h + E._card_unit(last)
        discard_distances(before, n_rev, core, kinds_present(before), dist)
        best = d
        for k in range(N_KINDS):
            if E.count_in(before, k) and dist[k] < best:
                best = dist[k]
        if best == d:
            break
    x.hands[opp] = h
    _unseen_wall(st, wall, pool, in_hand, False)
    E.count_stock(x)   # the stock holds other cards now


@nb.njit(cache=True)
def _fastest(h, n_rev, cand, n, choice, core, dist) -> int:
    """Keep of the ``n`` candidates the rollout bot's ``choice``, every action that is not a
    discard, and the discards (with riichi or not) that leave hand ``h`` as close to a win as any
    discard does; their count. A discard that slows the hand is seldom right, and each
    candidate costs ``sims`` rollouts."""
    kinds = np.uint64(0)
    for j in range(n):
        if cand[j] < TSUMO:
            kinds |= kind_bit(cand[j] % N_KINDS)
    if kinds == 0:
        return n
    discard_distances(h, n_rev, core, kinds, dist)
    return keep_fastest(cand, n, choice, TSUMO, N_KINDS, dist, np.int64(0))


@nb.njit(cache=True)
def _deal(c, det):
    """A simulation's deal: the round as it stands, the unseen cards dealt again."""
    (rs, y, x, seat, pool, core, dist, et, ra, tables, dealer, scores, pot, total_points, xpol,
     xprm, xrngs, no, xrec, rec, phase, drawn_by, rinshan) = c
    E.copy_RoundState(y, rs)
    y.st[E.ST_LOG] = 0
    if phase == PH_START:   # the loop counts the turn again
        y.st[E.ST_TURNS] -= 1
    determinize(y, seat, pool, det, core, dist, TRIES)


@nb.njit(cache=True)
def _resume(c, action):
    """The round played on from the simulation's deal with the seat's ``action``; what the
    seat gains (the points paid and the pot, both ways)."""
    (rs, y, x, seat, pool, core, dist, et, ra, tables, dealer, scores, pot, total_points, xpol,
     xprm, xrngs, no, xrec, rec, phase, drawn_by, rinshan) = c
    E.copy_RoundState(x, y)
    xrec[:] = rec
    paid = E.play_round(x, et, ra, tables, dealer, scores, pot, total_points, xpol, xprm, xrngs,
                        no, xrec, x, seat, phase, drawn_by, rinshan, action)
    w = xrec[E.RF_WINNER]
    return 2.0 * paid + pot if w == seat else -(2.0 * paid + pot) if w >= 0 else 0.0


@nb.njit(cache=True)
def searching_decision(ctx, sx):
    """A decision of the search kernel's round loop (``ctx``: the loop's state and the
    decision): a ``search`` seat's by simulation, another seat's by its policy."""
    (rs, et, ra, tables, dealer, scores, pot, total_points, pol_ids, seat_params, seat_rng, seat,
     phase, drawn_by, rinshan, obs, mask, core, rec) = ctx
    pid, prm, rng = pol_ids[seat], seat_params[seat], seat_rng[seat]
    if pid != P_SEARCH:
        return decide(pid, obs, mask, prm, rng, core, ra)
    x, y, xrec, pool, dist, kit = sx
    xpol, xprm, xrngs, cand, rows = kit[0], kit[1], kit[2], kit[3], kit[7]
    n = legal_candidates(mask, prm, cand)
    roll = np.int64(prm[P_ROLLOUT])
    choice = decide(roll, obs, mask, rows[roll], rng, core, ra)   # the rollout bot's own
    if n:
        n = _fastest(rs.hands[seat], rs.n_rev[seat], cand, n, choice, core, dist)
    no = rec[E.RF_GAME] < 0   # False (not a constant: numba would compile play_round again)
    return search_among(_deal, _resume, (rs, y, x, seat, pool, core, dist, et, ra, tables,
                                         dealer, scores, pot, total_points, xpol, xprm, xrngs,
                                         no, xrec, rec, phase, drawn_by, rinshan),
                        n, choice, prm, decision_key(rng, rs.st[E.ST_TURNS] * 8 + phase), rng,
                        kit, xrngs[E.RNG_SEAT0:])


# nogil: a run's progress lines keep coming while a chunk of search games plays in-process
@nb.njit(cache=True, nogil=True)
def play_games_search(game_indices, seed, rs, et, ra, tables, pol_ids, params, debug,
                      rounds_out, games_out, sx):
    """:func:`simcore.momojan.engine.play_games` with ``search`` seats (``sx``:
    :func:`new_scratch`)."""
    return E.games_loop(game_indices, seed, rs, et, ra, tables, pol_ids, params, debug,
                        rounds_out, games_out, sx)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
