"""P-style's ``search`` bot (the kit's method: :mod:`simcore.nb.search`, docs/bots.md).

P-style's part: the cards a seat cannot see (the other seats' concealed hands, the stock, the
replacement reserve and the ura indicator; the dora indicator is face up) dealt again each
simulation, each other seat's hand redrawn until it explains its play (tenpai under riichi,
else its last discard one that left it as close to tenpai as any other); the outcome is the
seat's change of score when the round is settled. Searched: a seat's own turns (tsumo, kans,
nukidora, discards, riichi; of the discards only the fastest and, against a riichi, the safe:
:func:`_fastest_or_safe`); its answers to the others' discards are greedy's.
:func:`play_matches_search` is the engine's matches compiled once more with a search's scratch
``sx`` (:func:`new_scratch`); a rollout plays the policies' loop, so a search never searches
inside itself.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.ptrump import P_SEARCH, POLICIES, decide
from simcore.nb.rng import shuffle
from simcore.nb.search import P_ROLLOUT, decision_key, legal_candidates, scratch, search_among
from . import engine as E
from . import rules_array as R
from .hand import shanten
from .layout import A_DISCARD, MAX_SEATS, N_ACTIONS, N_CARDS, N_RANKS

TRIES = 32   # deals of a seat's hand tried for one its play explains


def new_scratch():
    """A search's scratch, once per simulator: ``(state, the simulation's dealt state, round
    record, scores, win values, has-yaku flags, reach keys, unseen pool, the kit's scratch)``."""
    return (E.new_round_state(False), E.new_round_state(False), np.zeros(E.N_RF, np.int64),
            np.zeros(MAX_SEATS + 1, np.int64), np.zeros(MAX_SEATS, np.int64),
            np.zeros(MAX_SEATS, np.int64), np.full((MAX_SEATS, 2), -1, np.int64),
            np.zeros(N_CARDS, np.int64),
            scratch(POLICIES, MAX_SEATS, N_ACTIONS, E.N_RNG))


@nb.njit(cache=True)
def _explained(y, q, hr) -> bool:
    """Whether seat ``q``'s dealt hand explains its play: tenpai under riichi, else its last
    discard (if it has one and it was not taken by a call) one that left it as close to tenpai
    as any other card of its hand would have."""
    c, k = y.cnt[q], y.n_sets[q]
    d = shanten(c, k, hr)
    if y.riichi[q] > 0:
        return d == 0
    j = y.n_disc[q] - 1
    if j < 0 or y.disc_called[q, j]:
        return True
    last = E.rank_of(y.disc[q, j])
    c[last] += 1
    ok = True
    for r in range(N_RANKS):
        if c[r] > 0 and r != last:
            c[r] -= 1
            if shanten(c, k, hr) < d:
                ok = False
            c[r] += 1
    c[last] -= 1
    return ok


@nb.njit(cache=True)
def determinize(y, seat, pool, rng, hr):
    """Deal the cards seat ``seat`` cannot see again: the other seats' concealed hands (each
    drawn at most TRIES times until :func:`_explained`), then the stock, the reserve and the
    ura indicator (if not drawn)."""
    st, n = y.st, y.st[E.ST_N]
    m = 0
    for q in range(n):
        if q != seat:
            for i in range(y.nh[q]):
                pool[m] = y.hand[q, i]
                m += 1
    held = m
    for i in range(st[E.ST_POS], st[E.ST_STOCK_END]):
        pool[m] = y.wall[i]
        m += 1
    for i in range(st[E.ST_RES_POS], st[E.ST_RES_END]):
        pool[m] = y.wall[i]
        m += 1
    ura = st[E.ST_IND_POS] <= 52   # not drawn (indicators in the stock): unseen
    if ura:
        pool[m] = y.wall[52]
        m += 1
    used = 0
    for q in range(n):
        if q == seat:
            continue
        h = y.nh[q]
        for _ in range(TRIES):
            shuffle(rng, pool[used:], m - used)
            y.nh[q] = 0
            y.hand[q, :] = -1
            y.cnt[q, :] = 0
            for i in range(h):
                E._add_card(y, q, pool[used + i])
            if _explained(y, q, hr):
                break
        used += h
    shuffle(rng, pool[held:], m - held)
    m = held
    for i in range(st[E.ST_POS], st[E.ST_STOCK_END]):
        y.wall[i] = pool[m]
        m += 1
    for i in range(st[E.ST_RES_POS], st[E.ST_RES_END]):
        y.wall[i] = pool[m]
        m += 1
    if ura:
        y.wall[52] = pool[m]
        st[E.ST_URA_IND] = pool[m]
    for q in range(n):
        if q != seat:
            y.temp_furiten[q] = 0   # what the dealt hand let pass is not known
            y.riichi_furiten[q] = 0


@nb.njit(cache=True)
def _deal(c, det):
    """A simulation's deal: the round as it stands, the unseen cards dealt again."""
    rs, y, x, seat, phase, kuikae, scores, values, has_yaku, ra, hr, n, pool, xsc, xval, xhas, \
        xkey, xrec, rec, xpol, xprm, xrngs, no = c
    E.copy_RoundState(y, rs)
    y.st[E.ST_LOG] = 0
    determinize(y, seat, pool, det, hr)


@nb.njit(cache=True)
def _resume(c, action):
    """The round played on from the simulation's deal with the seat playing ``action`` at its
    decision; its change of score."""
    rs, y, x, seat, phase, kuikae, scores, values, has_yaku, ra, hr, n, pool, xsc, xval, xhas, \
        xkey, xrec, rec, xpol, xprm, xrngs, no = c
    E.copy_RoundState(x, y)
    xrec[:] = rec
    xsc[:] = scores
    xval[:] = values
    xhas[:] = has_yaku
    xkey[:] = -1
    E.round_from(x, ra, hr, n, xsc, xpol, xprm, xrngs, no, xrec, xval, xhas, no, xkey, seat,
                 np.int64(E.START_DRAW), kuikae, phase, action, x)
    return np.float64(xsc[seat] - scores[seat])


@nb.njit(cache=True)
def _fastest_or_safe(rs, seat, cand, n, choice, hr, ra) -> int:
    """Keep the rollout bot's choice, every action that is not a discard, the discards (with
    riichi or not) that leave the hand as close to tenpai as any, and against a riichi the
    ranks the riichi seat cannot ron (its own discards); their count."""
    c, k = rs.cnt[seat], rs.n_sets[seat]
    sh = np.full(N_RANKS, 99, np.int64)
    best = 99
    for r in range(N_RANKS):
        if c[r] > 0:
            c[r] -= 1
            sh[r] = shanten(c, k, hr)
            c[r] += 1
            best = min(best, sh[r])
    safe = np.int64(0)
    if ra[R.RA_FURITEN] != R.FURITEN_NONE:
        first = True
        for q in range(rs.st[E.ST_N]):
            if q != seat and rs.riichi[q] > 0:
                safe = rs.disc_ranks[q] if first else safe & rs.disc_ranks[q]
                first = False
    m = 0
    for j in range(n):
        a = cand[j]
        keep = a < A_DISCARD or a == choice
        if not keep:
            r = E.rank_of((a - A_DISCARD) % N_CARDS)
            keep = sh[r] == best or (safe >> r) & 1
        if keep:
            cand[m] = a
            m += 1
    return m


@nb.njit(cache=True)
def searching_decision(ctx, sx):
    """A seat's own turn in the search kernel (``ctx``: the round's state and the decision): a
    ``search`` seat's by simulation, another seat's by its policy."""
    rs, seat, phase, kuikae, scores, ra, hr, n, pol_ids, params, rngs, rec, values, has_yaku = ctx
    if pol_ids[seat] != P_SEARCH or rs.st[E.ST_N_LEGAL] == 1:
        return E._decide(rs, seat, phase, np.int64(-1), scores, ra, hr, pol_ids, params, rngs)
    prm, rng = params[seat], rngs[E.RNG_SEAT0 + seat]
    x, y, xrec, xsc, xval, xhas, xkey, pool, kit = sx
    xpol, xprm, xrngs, rows = kit[0], kit[1], kit[2], kit[7]
    E._set_obs(rs, seat, phase, np.int64(-1), scores, ra)
    roll = np.int64(prm[P_ROLLOUT])
    choice = decide(roll, rs.obs, rs.mask, rows[roll], rng, hr, ra)   # the rollout bot's own
    k = legal_candidates(rs.mask, prm, kit[3])
    if k > 2:
        k = _fastest_or_safe(rs, seat, kit[3], k, choice, hr, ra)
    no = rec[E.RF_GAME] < 0   # False, not a constant (round_from would compile again)
    return search_among(_deal, _resume, (rs, y, x, seat, phase, kuikae, scores, values, has_yaku,
                                         ra, hr, n, pool, xsc, xval, xhas, xkey, xrec, rec,
                                         xpol, xprm, xrngs, no),
                        k, choice, prm, decision_key(rng, rs.st[E.ST_TURNS] * 8 + phase), rng,
                        kit, xrngs[E.RNG_SEAT0:])


# nogil: a run's progress lines keep coming while a chunk of search games plays in-process
@nb.njit(cache=True, nogil=True)
def play_matches_search(game_indices, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out,
                        games_out, sx):
    """:func:`simcore.ptrump.engine.play_matches` with ``search`` seats (``sx``:
    :func:`new_scratch`)."""
    return E.matches(game_indices, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out,
                     games_out, sx)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
