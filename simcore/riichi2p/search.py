"""Two-player riichi's ``search`` bot (the kit's method: :mod:`simcore.nb.search`, docs/bots.md).

What is riichi2p's here: the tiles a seat cannot see (the other seat's concealed hand, the live
wall, the tiles out of play, the replacement tiles not drawn, the indicators not turned, the ura
indicators), dealt again at each simulation, the other seat's hand grown as a speed-first player
grows one (:func:`_grow`) until it explains its play (tenpai after a riichi, else its last
discard one a speed-first player would make); the outcome of a rollout (the change of the seat's
lead over the other seat when the hand is settled); the decisions searched (a seat's own turn:
tsumo, kans, kyuushu, discards and riichi); and the kernel that seats it:
:func:`play_games_search` is :func:`engine.games_loop` compiled once more with a search's
scratch ``sx`` (:func:`new_scratch`). A rollout plays the policies' loop, so a search never
searches inside itself.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.riichi2p import P_SEARCH, POLICIES, decide
from simcore.nb.rng import randint, shuffle
from simcore.nb.search import (P_ROLLOUT, closest_discard, decision_key, keep_fastest,
                               legal_candidates, scratch, search_among)
from . import engine as E
from .hand import distance, distances_after
from .layout import A_ANKAN

TRIES = 32   # deals of the other seat's hand tried for one its play explains
GROW_CAP = 80   # draws a hand in riichi is grown by at most, to tenpai


def new_scratch():
    """A search's scratch, once per simulator: ``(state, the simulation's dealt state, round
    record, reach keys, unseen pool, wall positions, the kit's scratch)``."""
    return (E.new_state(False), E.new_state(False), np.zeros(E.N_RF, np.int64),
            np.full((E.N_SEATS, 4), -1, np.int64), np.zeros(E.N_TILES, np.int64),
            np.zeros(E.N_TILES, np.int64),
            scratch(POLICIES, E.N_SEATS, E.N_ACTIONS, 1 + E.N_SEATS))


@nb.njit(cache=True)
def _unseen_positions(s, where) -> int:
    """The wall positions whose tiles no seat has seen: the live wall left and the tiles out of
    play, the replacement tiles not drawn, the dora indicators not turned and every ura
    indicator; their count (positions in ``where``)."""
    m = 0
    for i in range(s.st[E.ST_LIVE_POS], E.DEAD):
        where[m] = i
        m += 1
    for i in range(E.RINSHAN0 + s.st[E.ST_N_KANS], E.DORA0):
        where[m] = i
        m += 1
    for i in range(E.DORA0 + s.st[E.ST_N_IND], E.N_TILES):
        where[m] = i
        m += 1
    return m


@nb.njit(cache=True)
def _explained(x, q, ts, th) -> bool:
    """Whether seat ``q``'s dealt hand explains its play: tenpai after a riichi, else its last
    discard one that left it as close to a win as any other would have."""
    if x.riichi[q] > 0:
        return x.waits[q] != 0
    if x.n_disc[q] == 0:
        return True
    last, c = x.disc[q, x.n_disc[q] - 1] // 4, x.hand[q]
    c[last] += 1
    distances_after(c, x.n_melds[q], ts, th, -1, x.after)
    ok = True
    for k in range(E.N_KINDS):
        if c[k] > 0 and x.after[k] < x.after[last]:
            ok = False
    c[last] -= 1
    return ok


@nb.njit(cache=True)
def _grow(x, q, pool, n, held, steps, riichi, rng, ts, th):
    """``pool[:held]`` made seat ``q``'s concealed tiles grown as a speed-first player grows a
    hand: ``held`` of the ``n`` tiles at random, then ``steps`` times a draw from the rest and
    the discard that leaves it closest to a win (ties at random), stopping at tenpai when
    ``riichi`` (counts in ``x.hand[q]``, scratch). A hand dealt at random is far from what a
    player holds after a dozen turns, and a 13-tile hand at random is almost never tenpai, so
    a hand in riichi redrawn at random until tenpai seldom was."""
    c, nm = x.hand[q], x.n_melds[q]
    c[:] = 0
    for i in range(held):
        j = i + randint(rng, n - i)
        pool[i], pool[j] = pool[j], pool[i]
        c[pool[i] // 4] += 1
    for _ in range(steps):
        if riichi and distance(c, nm, ts, th) <= 1:
            return
        j = held + randint(rng, n - held)
        c[pool[j] // 4] += 1
        distances_after(c, nm, ts, th, -1, x.after)
        k = closest_discard(c, x.after, E.N_KINDS, rng)
        c[k] -= 1
        if pool[j] // 4 != k:
            for i in range(held):
                if pool[i] // 4 == k:
                    pool[i], pool[j] = pool[j], pool[i]
                    break


@nb.njit(cache=True)
def determinize(x, seat, pool, where, rng, ra, ts, th):
    """Deal the tiles seat ``seat`` cannot see again (:func:`_unseen_positions` and the other
    seat's concealed hand, its red five kept as a red tile), the other seat's hand grown
    (:func:`_grow`, at most TRIES times) until it explains its play (:func:`_explained`)."""
    q = 1 - seat
    m = _unseen_positions(x, where)
    for j in range(m):
        pool[j] = x.wall[where[j]]
    n = m
    for k in range(E.N_KINDS):
        red = k < 27 and k % 9 == 4 and (x.red_conc[q] & E._suit_bit(k)) != 0
        for c in range(x.hand[q, k]):
            pool[n] = 4 * k if red and c == 0 else 4 * k + 1
            n += 1
    held = n - m
    steps = GROW_CAP if x.riichi[q] > 0 else x.n_disc[q]
    for _ in range(TRIES):
        _grow(x, q, pool, n, held, steps, x.riichi[q] > 0, rng, ts, th)
        x.hand[q, :] = 0
        x.red_conc[q] = 0
        for j in range(held):
            E._add_tile(x, q, pool[j], ra)
        E._update_waits(x, q, ra, ts, th)
        if _explained(x, q, ts, th):
            break
    shuffle(rng, pool[held:], n - held)   # the unseen positions' tiles, in a new order
    for j in range(m):
        x.wall[where[j]] = pool[held + j]
    x.furiten[q] = 0   # what the dealt hand let pass is not known


@nb.njit(cache=True)
def _deal(c, det):
    """A simulation's deal: the hand as it stands, the unseen tiles dealt again."""
    s, y, x, seat, pool, where, ra, ts, th, sr, xpol, xprm, xrngs, xrec, rec, keys, no, drawn, \
        rinshan = c
    E.copy_State(y, s)
    y.st[E.ST_LOG] = 0
    determinize(y, seat, pool, where, det, ra, ts, th)


@nb.njit(cache=True)
def _resume(c, action):
    """The hand played on from the simulation's deal with the seat's ``action``; the change of
    its lead over the other seat."""
    s, y, x, seat, pool, where, ra, ts, th, sr, xpol, xprm, xrngs, xrec, rec, keys, no, drawn, \
        rinshan = c
    E.copy_State(x, y)
    xrec[:] = rec
    E.hand_from(x, sr, ra, ts, th, xpol, xprm, xrngs, no, xrec, no, keys, seat, drawn, rinshan,
                action, x)
    return np.float64(x.scores[seat] - x.scores[1 - seat])


@nb.njit(cache=True)
def _fastest_or_safe(s, seat, cand, n, choice, after, ts, th) -> int:
    """Keep of the ``n`` candidates the rollout bot's ``choice``, every action that is not a
    discard, the discards (with riichi or not) that leave the seat's hand as close to a win as
    any discard does, and, against a riichi, the discards of kinds the riichi seat cannot ron
    (its own discards, and what passed it since its riichi); their count. Each candidate costs
    ``sims`` rollouts, and a slow discard is seldom right unless it is safe."""
    c = s.hand[seat]
    distances_after(c, s.n_melds[seat], ts, th, -1, after)
    q = 1 - seat
    safe = (s.disc_kinds[q] | s.safe_kinds[q]) if s.riichi[q] > 0 else np.int64(0)
    return keep_fastest(cand, n, choice, A_ANKAN, E.N_KINDS, after, safe)


@nb.njit(cache=True)
def searching_decision(ctx, sx):
    """A seat's own turn in the search kernel (``ctx``: the hand's state and the decision): a
    ``search`` seat's by simulation."""
    s, sr, ra, ts, th, pol_ids, params, rngs, rec, seat, drawn, rinshan, fallback = ctx
    prm, rng = params[seat], rngs[1 + seat]
    x, y, xrec, keys, pool, where, kit = sx
    xpol, xprm, xrngs, rows = kit[0], kit[1], kit[2], kit[7]
    E._observe(s, seat, E.D_OWN_TURN, drawn, ra)
    s.pmask[:] = s.mask
    roll = np.int64(prm[P_ROLLOUT])
    choice = decide(roll, s.obs, s.pmask, rows[roll], rng, ts, th)   # the rollout bot's own
    if choice < 0 or choice >= E.N_ACTIONS or not s.mask[choice]:
        choice = fallback
    n = legal_candidates(s.mask, prm, kit[3])
    if n > 2:
        n = _fastest_or_safe(s, seat, kit[3], n, choice, y.after, ts, th)
    no = rec[E.RF_GAME] < 0   # False, not a constant (numba would compile hand_from again)
    return search_among(_deal, _resume, (s, y, x, seat, pool, where, ra, ts, th, sr, xpol, xprm,
                                         xrngs, xrec, rec, keys, no, drawn, rinshan),
                        n, choice, prm, decision_key(rng, s.st[E.ST_LIVE_POS] * 8
                                                     + s.st[E.ST_N_KANS]), rng, kit, xrngs[1:])


# nogil: a run's progress lines keep coming while a chunk of search games plays in-process
@nb.njit(cache=True, nogil=True)
def play_games_search(game_indices, seed, s, sr, ra, ts, th, pol_ids, params, debug,
                      rounds_out, games_out, sx):
    """:func:`simcore.riichi2p.engine.play_games` with ``search`` seats (``sx``:
    :func:`new_scratch`)."""
    return E.games_loop(game_indices, seed, s, sr, ra, ts, th, pol_ids, params, debug,
                        rounds_out, games_out, sx)


_ = P_SEARCH


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
