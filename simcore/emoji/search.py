"""Emoji mahjong's ``search`` bot (the kit's method: :mod:`simcore.nb.search`, docs/bots.md).

Emoji's part: the tiles a seat cannot see (the other seats' hands, this turn's draw included,
and the wall after this turn's draws; under ``turn.wait_count_info: wall`` the seat is told what
the live wall holds, so only its order is dealt again) dealt again each simulation. Each other
seat's hand is grown as a speed-first player grows one (:func:`_build`), to tenpai under riichi,
and redrawn until it waits on no tile that would have won it (wins are automatic:
:func:`_unwon`); a seat whose tsumo stands keeps its hand. The outcome is the round's change of
the seat's chips. Searched: the discards (and riichi with them) that leave the hand as close
to a win as any (:func:`_fastest`); the decisions are simultaneous, so the other seats decide
the searched turn again in each simulation, from their dealt hands. :func:`play_games_search`
is the engine's games compiled once more with a search's scratch ``sx`` (:func:`new_scratch`);
a rollout plays the policies' loop, so a search never searches inside itself.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.emoji import P_SEARCH, POLICIES, decide
from simcore.nb.rng import randint, shuffle
from simcore.nb.search import (P_ROLLOUT, closest_discard, decision_key, keep_fastest,
                               legal_candidates, scratch, search_among)
from . import engine as E
from .hand import N_KINDS, distances_after, waits

TRIES = 32   # hands of a seat grown for one its play explains
TURNS_CAP = 15   # emoji's most turns: a riichi hand's growth stops at tenpai or 60 draws


def new_scratch():
    """A search's scratch, once per simulator: ``(state, the simulation's dealt state, round
    record, unseen pool, distances, the kit's scratch)``."""
    return (E.new_state(False), E.new_state(False), np.zeros(E.N_RF, np.int64),
            np.zeros(E.N_TILES, np.int64), np.zeros(N_KINDS, np.int64),
            scratch(POLICIES, E.N_SEATS, E.N_ACTIONS, 1 + E.N_SEATS))


@nb.njit(cache=True)
def _unwon(y, q, exact) -> int:
    """The kinds seat ``q``'s 7 tiles (its hand before this turn's draw) cannot wait on, as
    wins are automatic (under the default ``shapes.require_yaku`` and ``furiten``; else 0): any
    kind discarded since those tiles were its hand (the last turn's discards; every discard
    since its riichi, its own after the riichi turn)."""
    if not exact:
        return 0
    r, out = y.riichi_turn[q], np.int64(0)
    first = r - 1 if r > 0 else y.n_disc[q] - 1   # the discard index of that turn
    for p in range(E.N_SEATS):
        for j in range(max(first + int(p == q), 0), y.n_disc[p]):
            if p != q or r > 0:
                out |= np.int64(1) << y.disc[p, j]
    return out


@nb.njit(cache=True)
def _build(y, q, pool, lo, m, steps, riichi, rng, t, after):
    """Seat ``q``'s 7 tiles (``pool[lo:lo + 7]``, counts in ``y.hand[q]``) grown as a
    speed-first player grows a hand: 7 unseen tiles at random, then ``steps`` times a draw from
    ``pool[lo + 7:m]`` and the discard that leaves it closest to a win (ties at random),
    stopping at tenpai when ``riichi``. A hand dealt at random is far from what a player holds
    after some turns (a 7-tile hand at random is tenpai 0.6% of the time)."""
    h = y.hand[q]
    h[:] = 0
    for i in range(7):
        j = lo + i + randint(rng, m - lo - i)
        pool[lo + i], pool[j] = pool[j], pool[lo + i]
        h[pool[lo + i]] += 1
    for _ in range(steps):
        if riichi and waits(h, t) != 0:
            return
        j = lo + 7 + randint(rng, m - lo - 7)
        h[pool[j]] += 1
        distances_after(h, t, -1, after)
        k = closest_discard(h, after, N_KINDS, rng)
        h[k] -= 1
        if pool[j] != k:
            for i in range(lo, lo + 7):
                if pool[i] == k:
                    pool[i], pool[j] = pool[j], pool[i]
                    break


@nb.njit(cache=True)
def determinize(y, seat, tsumo0, pool, after, rng, ra, t):
    """Deal the tiles seat ``seat`` cannot see again: each other seat's 7 tiles grown
    (:func:`_build`) until they explain its play (at most TRIES times), then this turn's draw
    (not one that wins: it would have been a tsumo), then the wall."""
    live = E._draw_pos(ra, y.st[E.ST_TURN] + 1, 0)           # the next turn's first draw
    dead = E._draw_pos(ra, E.n_turns(ra) + 1, 0)             # past the last draw
    if ra[E.RA_TURN_WAIT_COUNT_INFO] == 1:   # the seat knows the live wall's tiles: reorder it
        shuffle(rng, y.wall[live:dead], dead - live)
        live = dead
    m = 0
    for q in range(E.N_SEATS):
        if q != seat and not (tsumo0 >> q) & 1:
            for k in range(N_KINDS):
                for _ in range(y.hand[q, k]):
                    pool[m] = k
                    m += 1
    held = m
    for pos in range(live, E.N_TILES):
        pool[m] = y.wall[pos]
        m += 1
    used = 0
    exact = ra[E.RA_SHAPES_REQUIRE_YAKU] == 0 and ra[E.RA_SHAPES_FURITEN] == 0
    for q in range(E.N_SEATS):
        if q == seat or (tsumo0 >> q) & 1:
            continue
        riichi = y.riichi_turn[q] > 0
        unwon = _unwon(y, q, exact)
        steps = 4 * TURNS_CAP if riichi else y.n_disc[q]
        w = 0
        for _ in range(TRIES):
            _build(y, q, pool, used, m, steps, riichi, rng, t, after)
            w = waits(y.hand[q], t)
            if (w & unwon) == 0 and (w != 0 or not riichi):
                break
        j = used + 7
        for _ in range(TRIES):   # this turn's draw: not a tsumo (exact)
            j = used + 7 + randint(rng, m - used - 7)
            if not exact or not (w >> pool[j]) & 1:
                break
        pool[used + 7], pool[j] = pool[j], pool[used + 7]
        y.drawn[q] = pool[used + 7]
        y.hand[q, y.drawn[q]] += 1
        used += 8
    shuffle(rng, pool[held:], m - held)   # the wall's order (all of it when no hand is dealt)
    y.wall[live:] = pool[held:m]


@nb.njit(cache=True)
def _fastest(h, cand, n, choice, t, after) -> int:
    """Keep, of the ``n`` candidates, the rollout bot's ``choice`` and the discards (riichi or
    not) that leave the hand as close to a win as any discard does: a discard that slows the
    hand is seldom right, and each candidate is ``sims`` rollouts and one more chance of a
    "gain" that is luck. Returns how many are kept (first in ``cand``)."""
    distances_after(h, t, -1, after)
    return keep_fastest(cand, n, choice, E.N_ACTIONS, N_KINDS, after, np.int64(0))  # all discards


@nb.njit(cache=True)
def _deal(c, det):
    """A simulation's deal: the round as it stands, the unseen tiles dealt again."""
    s, y, x, seat, tsumo0, pool, after, ra, sr, t, xpol, xprm, xrngs, xrec, rec, no = c
    E.copy_State(y, s)
    y.st[E.ST_LOG] = 0
    determinize(y, seat, tsumo0, pool, after, det, ra, t)


@nb.njit(cache=True)
def _resume(c, action):
    """The round played on from the simulation's deal with the seat playing ``action`` this
    turn; the seat's change of chips."""
    s, y, x, seat, tsumo0, pool, after, ra, sr, t, xpol, xprm, xrngs, xrec, rec, no = c
    E.copy_State(x, y)
    xrec[:] = rec
    E.round_from(x, ra, sr, t, xpol, xprm, xrngs, xrec, no, x.st[E.ST_TURN], tsumo0, seat,
                 action, x)
    return np.float64(x.delta[seat])


@nb.njit(cache=True)
def searching_decision(ctx, sx):
    """A discard in the search kernel: a ``search`` seat's by simulation, another seat's by its
    policy (``ctx``: the round's state, the seat, the turn, the seats whose tsumo stands...)."""
    s, seat, turn, tsumo0, ra, sr, t, pol_ids, params, rngs, rec = ctx
    pid, prm, rng = pol_ids[seat], params[seat], rngs[1 + seat]
    if pid != P_SEARCH:
        return decide(pid, s.obs[seat], s.pmask, prm, rng, t, ra)
    x, y, xrec, pool, after, kit = sx
    xpol, xprm, xrngs, rows = kit[0], kit[1], kit[2], kit[7]
    roll = np.int64(prm[P_ROLLOUT])
    choice = decide(roll, s.obs[seat], s.pmask, rows[roll], rng, t, ra)   # the rollout bot's
    if choice < 0 or choice >= E.N_ACTIONS or not s.mask[seat, choice]:
        choice = s.drawn[seat]
    n = legal_candidates(s.mask[seat], prm, kit[3])
    if n:
        n = _fastest(s.hand[seat], kit[3], n, choice, t, after)
    no = rec[E.RF_GAME] < 0   # False, not a constant (round_from would compile again)
    return search_among(_deal, _resume, (s, y, x, seat, tsumo0, pool, after, ra, sr, t, xpol,
                                         xprm, xrngs, xrec, rec, no),
                        n, choice, prm, decision_key(rng, turn), rng, kit, xrngs[1:])


# nogil: a run's progress lines keep coming while a chunk of search games plays in-process
@nb.njit(cache=True, nogil=True)
def play_games_search(game_indices, seed, s, ra, sr, t, pol_ids, params, debug, rounds_out,
                      games_out, sx):
    """:func:`simcore.emoji.engine.play_games` with ``search`` seats (``sx``:
    :func:`new_scratch`)."""
    return E.games(game_indices, seed, s, ra, sr, t, pol_ids, params, debug, rounds_out,
                   games_out, sx)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
