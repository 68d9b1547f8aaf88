"""What declaring riichi is worth over staying silent (dama) for P-style's ``greedy``.

:func:`riichi_gain` scores the tenpai hand on each live wait with and without riichi (the
scenario's own scorer, :func:`simcore.ptrump.scoring.score_win`), so riichi's points, double
riichi, open riichi, ippatsu, ura dora, the ura joker, and the ron wins only riichi makes legal
(a hand with no other yaku) all come from the rules array. Against that stands the deposit,
lost when the round goes to someone else.

Expected points per round::

    gain = WIN_SHARE * (mean over live wait cards, ron and tsumo at their shares, of the
                        added win value + ippatsu_share * ippatsu points + expected ura)
           - (1 - WIN_SHARE) * deposit

where the added win value is the riichi win's points less the silent one's (0 where a win is
not legal: no yaku). A win counts for its points only: pricing the round it ends for the others
too (2.4 points, half the mean win) made greedy weaker, 65.6% instead of 74.7% of 4,000 matches
against riichi on every tenpai where riichi is worth nothing (seed 5).

The constants are measured on greedy against greedy (``momojan-sim run ptrump_2p`` /
``ptrump_3p``, 4,000 / 2,000 matches, seed 3): a declared riichi wins its round about half the
time (0.58 with 2 seats, 0.48 with 3); an ippatsu comes with 0.32 / 0.48 of riichi wins, about
0.16 per seat (the window is one go-around: more seats, more discards in it); a tsumo is 51% /
34% of wins, about 1 / seats.

What it simplifies: the win card of a wait is the first completing copy not in the hand (its
suit matters only to chinitsu; a one-colour paaren takes only its colour, ``waits.win_cards``); nagashi, haitei/houtei and the first-turn items add the same with or without
riichi and are left out; the frozen hand's lost chances to improve the wait are not priced
(``riichi_gain``, the policy's threshold, is where a tune puts them).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.stack import stack_empty, stack_empty_2d
from simcore.ptrump.layout import (
    JOKER, N_CARDS, N_RANKS, OBS_DISC_RANKS, OBS_DORA_RANK, OBS_HAND_MASK, OBS_K, OBS_N_SEATS,
    OBS_NUKI, OBS_SEEN, OBS_SET_RANK,
)
from simcore.ptrump.rules_array import (
    OPEN_RIICHI_ON, RA_ITEM_ENABLED, RA_ITEM_POINTS, RA_RIICHI_DEPOSIT, RA_RIICHI_OPEN_RIICHI,
    RA_SCORING_ADDITIVE_ARE_YAKU, RA_SCORING_ADDITIVE_URA_JOKER_WHEN, RA_SCORING_YAKU_REQUIRED,
    SL_IPPATSU, SL_RIICHI, SL_URA, SL_URA_JOKER, URA_JOKER_RIICHI_ONLY,
)
from simcore.ptrump.scoring import (
    F_DOUBLE_RIICHI, F_OPEN_RIICHI, F_RIICHI, F_TSUMO, MAX_REVEALED, N_SLOTS, REV_ANKAN,
    REV_NONE, score_win,
)
from simcore.ptrump.waits import win_cards

WIN_SHARE = 0.5             # a declared riichi's chance of winning its round (measured, above)
IPPATSU_SHARE_PER_SEAT = 0.16


@nb.njit(cache=True, inline="always")
def _copies(r):
    return 2 if r == JOKER else 4


@nb.njit(cache=True, inline="always")
def _item(ra, slot):
    return ra[RA_ITEM_POINTS + slot] if ra[RA_ITEM_ENABLED + slot] else 0


@nb.njit(cache=True, inline="always")
def _unseen(obs, r):
    return max(0, _copies(r) - obs[OBS_SEEN + r])


@nb.njit(cache=True)
def _ura_rank_share(obs, r, unseen):
    """Chance that rank r is ura dora: the face-down indicator is one of the ``unseen`` cards,
    of the rank before r (1->2 ... K->1; a joker indicator makes no ura dora)."""
    if r == JOKER:
        return 0.0
    return _unseen(obs, (r + 12) % 13) / unseen


@nb.njit(cache=True)
def _setup(obs, riichi_card, cnt_after, hr, ra, hand, rev_kind, rev_cards, win, left):
    """The hand after the discard as the scorer takes it, the live waits (a card id not in the
    hand and the unseen copies, per wait rank), and the per-win points that need no scoring:
    ura dora (hand, kans and each wait's own card), ippatsu, the ura joker. Written into the
    caller's ``hand`` (int64[8]), ``rev_kind`` (int64[MAX_REVEALED]), ``rev_cards``
    (int64[MAX_REVEALED, 4]), ``win`` and ``left`` (int64[N_RANKS]: per rank, a card id of a
    live wait or -1, and its unseen copies); returns (live waits' copies, fixed points)."""
    k = obs[OBS_K]
    hand[:] = -1
    hm = obs[OBS_HAND_MASK]
    n = 0
    for c in range(N_CARDS):
        if (hm >> c) & 1 and c != riichi_card:
            hand[n] = c
            n += 1
    rev_kind[:] = REV_NONE
    rev_cards[:, :] = -1
    for g in range(k):
        rev_kind[g] = REV_ANKAN
        for j in range(4):
            rev_cards[g, j] = 4 * obs[OBS_SET_RANK + g] + j
    unseen = 0
    for q in range(N_RANKS):
        unseen += _unseen(obs, q)
    unseen = max(unseen, 1)
    ura_pts = _item(ra, SL_URA)
    ura = 0.0
    for i in range(n):
        ura += _ura_rank_share(obs, hand[i] // 4, unseen)
    for g in range(k):
        ura += 4 * _ura_rank_share(obs, obs[OBS_SET_RANK + g], unseen)
    completing = win_cards(hand, n, -1, cnt_after, k, hr, ra)   # a one-colour paaren by suit
    win[:] = -1
    left[:] = 0
    live = 0
    win_ura = 0.0
    for w in range(N_RANKS):
        if _unseen(obs, w) == 0:
            continue
        for c in range(4 * w, min(4 * w + 4, N_CARDS)):
            if (completing >> c) & 1 and not (hm >> c) & 1:
                win[w] = c
                break
        if win[w] >= 0:
            left[w] = _unseen(obs, w)
            live += left[w]
            win_ura += left[w] * _ura_rank_share(obs, w, unseen)
    fixed = ura_pts * ura
    if live > 0:
        fixed += ura_pts * win_ura / live
    fixed += IPPATSU_SHARE_PER_SEAT * obs[OBS_N_SEATS] * _item(ra, SL_IPPATSU)
    if ra[RA_SCORING_ADDITIVE_URA_JOKER_WHEN] == URA_JOKER_RIICHI_ONLY:   # under any_win dama scores it too
        fixed += _item(ra, SL_URA_JOKER) * _unseen(obs, JOKER) / unseen
    return live, fixed


@nb.njit(cache=True)
def _riichi_flags(obs, ra):
    f = F_RIICHI
    if obs[OBS_DISC_RANKS] == 0:   # the first own discard: a double riichi where no call came
        f |= F_DOUBLE_RIICHI
    if ra[RA_RIICHI_OPEN_RIICHI] == OPEN_RIICHI_ON:
        f |= F_OPEN_RIICHI
    return f


@nb.njit(cache=True)
def _added(obs, hand, rev_kind, rev_cards, win, tsumo, hr, ra, bd):
    """(points riichi adds to the win on card ``win``: the riichi value where legal less the
    dama value where legal; whether both are legal)."""
    dora_ind = 4 * ((obs[OBS_DORA_RANK] + 12) % 13)
    f = F_TSUMO if tsumo else 0
    vd, _, okd = score_win(hand, rev_kind, rev_cards, obs[OBS_NUKI], win, f, dora_ind, -1, ra,
                           hr, bd)
    vr, _, okr = score_win(hand, rev_kind, rev_cards, obs[OBS_NUKI], win,
                           f | _riichi_flags(obs, ra), dora_ind, -1, ra, hr, bd)
    return (vr if okr else 0) - (vd if okd else 0), okd and okr


@nb.njit(cache=True, inline="always")
def _per_round(per_win, ra):
    return WIN_SHARE * per_win - (1.0 - WIN_SHARE) * ra[RA_RIICHI_DEPOSIT]


@nb.njit(cache=True)
def _gain_or_enough(obs, riichi_card, cnt_after, hr, ra, need, bounded):
    """:func:`riichi_gain`; with ``bounded``, +inf instead where the first live wait's tsumo
    bound (:func:`riichi_pays`) already shows it is at least ``need``. One set-up of the hand
    and its waits serves both."""
    hand, rev_kind, rev_cards = (stack_empty(8, np.int64), stack_empty(MAX_REVEALED, np.int64),
                                 stack_empty_2d(MAX_REVEALED, 4, np.int64))
    win, left = stack_empty(N_RANKS, np.int64), stack_empty(N_RANKS, np.int64)
    live, fixed = _setup(obs, riichi_card, cnt_after, hr, ra, hand, rev_kind, rev_cards, win,
                         left)
    if live == 0:
        return -1.0 * ra[RA_RIICHI_DEPOSIT]
    bd = stack_empty_2d(2, N_SLOTS, np.int64)   # scratch: every scoring clears it first
    bd[:, :] = 0
    riichi_is_enough = ra[RA_ITEM_ENABLED + SL_RIICHI] != 0 and (
        ra[RA_SCORING_ADDITIVE_ARE_YAKU] != 0 or ra[RA_SCORING_YAKU_REQUIRED] == 0)
    if bounded and riichi_is_enough:
        for w in range(N_RANKS):
            if left[w] > 0:
                own, both = _added(obs, hand, rev_kind, rev_cards, win[w], True, hr, ra, bd)
                if both and _per_round(own + fixed, ra) >= need:
                    return np.inf
                break
    tsumo_share = 1.0 / obs[OBS_N_SEATS]
    added = 0.0
    for w in range(N_RANKS):
        if left[w] == 0:
            continue
        ron, _ = _added(obs, hand, rev_kind, rev_cards, win[w], False, hr, ra, bd)
        tsumo, _ = _added(obs, hand, rev_kind, rev_cards, win[w], True, hr, ra, bd)
        added += left[w] * ((1.0 - tsumo_share) * ron + tsumo_share * tsumo)
    return _per_round(added / live + fixed, ra)


@nb.njit(cache=True)
def riichi_gain(obs, riichi_card, cnt_after, hr, ra):
    """Expected points per round riichi on discarding ``riichi_card`` adds over dama
    (module docstring). ``cnt_after``: the concealed rank counts after that discard; the hand
    is menzen, so every revealed set is a kan. No live wait: minus the deposit."""
    return _gain_or_enough(obs, riichi_card, cnt_after, hr, ra, 0.0, False)


@nb.njit(cache=True)
def riichi_pays(obs, riichi_card, cnt_after, hr, ra, need):
    """``riichi_gain(...) >= need``, mostly without scoring every wait. Where riichi makes any
    complete hand a legal win (it is a yaku, or none is required) and a tsumo on the first live
    wait is legal either way, riichi adds at least that tsumo's difference (its own items) to
    every win, so a bound that passes settles it."""
    return _gain_or_enough(obs, riichi_card, cnt_after, hr, ra, need, True) >= need


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
