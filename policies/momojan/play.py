"""Decision kernels shared by the bots that play the whole game (``greedy``, ``value``, ``defensive``).

One kernel, :func:`play`, takes every decision; the bots differ only in the style values they pass
(their declared parameters, ``policies/momojan/greedy.py`` etc.):

- Ron and tsumo whenever offered (the engine offers them only for valid, scoring wins).
- Turn start: a Pon/Chi is taken, with probability ``call``, when the hand after it is closer to a
  win than before (distance to tenpai, :mod:`simcore.momojan.shanten`, which counts the sets still
  to be revealed); with ``value_weight > 0`` also when it keeps the distance and adds value (a
  picture set with a yaku). Never while folding.
- After a draw: Kai the set that leaves the hand closest to a win, unless every Kai leaves it
  further (Kai is how a MOMOJAN hand gets the revealed sets it needs; old-edition kans are not taken).
- After a Kai/Pon/Chi: draw three when the mean distance over ``DRAW3_SAMPLES`` sampled draws of
  three unseen cards is below the distance after the best discard now plus ``draw_three``.
- Discard: the card that leaves the hand closest to a win, ties broken by the number of unseen
  useful cards (a furiten wait counts half; more than ``EXACT_USEFUL_MAX_DISTANCE`` from tenpai, by
  the unseen cards sharing a partial set or head with the hand, a cheap stand-in); minus ``value_weight / 4`` per point of estimated value
  (:func:`hand_value`); plus Gumbel noise times ``temperature``. Folding (the opponent is a threat,
  :mod:`policies.momojan.defence`, and the hand is at least ``fold`` from tenpai): the least dangerous card,
  then the closest to a win.
- Riichi on a discard that allows it, with probability ``riichi``; a hand that already holds a
  yaku (a picture set with points) when ``value_weight > 0`` declares with probability ``riichi``,
  and one without always declares (riichi is then its only yaku).

What this implementation simplifies: yaku other than picture sets, dora and the set-count bonus are
not valued (ittsu, chinitsu, kibidango...); no kans; no reading of the opponent beyond
:mod:`policies.momojan.defence`.
"""

import sys

import numba as nb
import numpy as np

from simcore.momojan.actions import (
    CALL, DISCARD, DISCARD_RIICHI, DRAW, DRAW_THREE, KAI, MAX_SET_ROWS, N_ACTIONS, N_KIND,
    OBS_DORA_INDICATOR,
    OBS_HAND, OBS_LAST_DISCARD, OBS_OPP_HAND_SIZE, OBS_OPP_N_REVEALED, OBS_OPP_REVEALED,
    OBS_OPP_RIICHI, OBS_OWN_DISCARDS, OBS_OWN_N_REVEALED, OBS_OWN_REVEALED, OBS_OWN_RIICHI,
    OBS_PHASE, OBS_WORK,
    OBS_SEEN, PH_AFTER_REVEAL, PH_START, RON, TSUMO,
)
from simcore.momojan.cards import N_NUMBER_KINDS
from simcore.momojan.hand import CORE_SET_ROWS, hand_size, picture_count
from simcore.momojan.rules_array import (
    RA_DECK_RANKS, RA_RIICHI_ENABLED, RA_SCORING_DORA_PER_CARD, Y_IPPATSU, Y_RIICHI,
)
from simcore.nb.bits import bits_from_float, float_from_bits, load_u64, popcount
from simcore.momojan.shanten import (
    candidate_kinds, discard_distances, shanten, unit, unseen_copies, unseen_in, useful_at_tenpai,
    useful_cards_from,
)

from policies.random_policy import uniform

from .defence import danger, threatened
from .worth import doubled, estimated_points, points_before_doubling, set_bonus, slot_points

DRAW3_SAMPLES = 6
_SCORE = OBS_WORK + N_KIND   # _choose_discard's scores in the observation's scratch
EXACT_USEFUL_MAX_DISTANCE = 1  # ties further from tenpai use the connectivity proxy
VALUE_PER_STEP = 4.0   # points of estimated value worth one step of distance at value_weight 1
CALL_GAIN = 0.5        # estimated points a call must add to be taken without bringing the win closer
IPPATSU_SHARE = 0.15   # the chance a riichi wins before its next discard, for ippatsu's value
# a three-card draw's set-count bonus, in steps, at this fraction of a discard's value: a bigger
# hand is slower than its distance says (measured: at 1, value won 45% of its games against greedy
# instead of 55%)
DRAW3_VALUE_SCALE = 0.25
BIG = 1e9
UNKNOWN = -99  # a distance to tenpai not computed yet
U0, U1 = np.uint64(0), np.uint64(1)
ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@nb.njit(cache=True, inline="always")
def _word(mask, end, at):
    """The eight entries ``mask[at:at + 8]`` as a uint64 word (entry ``at + j`` is byte j,
    little-endian; one load, :func:`simcore.nb.bits.load_u64`), the bytes from ``end`` on
    cleared. Walking the 256 Kai or call rows, mostly empty, with a byte loop cost ~0.5 us a
    decision; by words ~40 ns. ``at + 8`` stays within the mask (the assert below)."""
    w = load_u64(mask, at)
    if at + 8 > end:
        w &= ALL_ONES >> np.uint64(8 * (at + 8 - end))
    return w


@nb.njit(cache=True, inline="always")
def _next_legal(mask, first, n, r):
    """The lowest r' >= r with ``mask[first + r']`` set, r' < n, or -1: the Kai and call rows'
    walk (``r = _next_legal(mask, KAI, MAX_SET_ROWS, r + 1)``), by words aligned as the mask's
    eight-entry words (``first & ~7`` onwards)."""
    if r >= n:
        return -1
    at = (first + r) & ~7   # the bytes below first + r cleared here, so none below first
    end = first + n
    w = _word(mask, end, at) & (ALL_ONES << np.uint64(8 * (first + r - at)))
    while not w:
        at += 8
        if at >= end:
            return -1
        w = _word(mask, end, at)
    return at + (popcount((w & (~w + U1)) - U1) >> 3) - first


assert ((max(KAI, CALL) + MAX_SET_ROWS + 7) & ~7) <= N_ACTIONS and sys.byteorder == "little"


@nb.njit(cache=True, inline="always")
def _dora_count(cards, indicator, ra):
    """Dora among the cards of hand mask ``cards`` (spec §8: the card after the indicator)."""
    if indicator < 0:
        return 0
    if indicator < N_NUMBER_KINDS:
        rank = (indicator % 9 + 1) % ra[RA_DECK_RANKS]  # 0-based rank of the dora
        n = 0
        for f in range(4):
            n += np.int64((np.uint64(cards) >> np.uint64(9 * f + rank)) & U1)
        return n
    p = indicator - N_NUMBER_KINDS
    q = (p + 1) % 3 if p <= 2 else (7 - p)  # dog -> monkey -> pheasant -> dog, sun <-> moon
    return picture_count(cards, q)


@nb.njit(cache=True)
def hand_value(hand, revealed, n_sets, dora_indicator, ra):
    """Estimated points of a hand if it wins with ``n_sets`` sets, read from the rules array
    (:func:`policies.momojan.worth.estimated_points`: every yaku's points, dora, the ron and
    set-count bonuses, the doubling), riichi counted where the rules have it (most wins do)."""
    cards = np.uint64(hand) + np.uint64(revealed)
    return estimated_points(cards, n_sets, _dora_count(cards, dora_indicator, ra), ra,
                            ra[RA_RIICHI_ENABLED] != 0)


@nb.njit(cache=True, inline="always")
def _sets_at_win(hand_after_discard, n_rev):
    return n_rev + (hand_size(hand_after_discard) - 1) // 3


@nb.njit(cache=True)
def _call_gain(obs, hand, after, row, n_rev, ra):
    """Estimated points a call adds (its set ``row`` revealed, ``after`` left in hand)."""
    rev = np.uint64(obs[OBS_OWN_REVEALED])
    n = _sets_at_win(hand, n_rev)  # a call keeps the number of sets at the win
    dora = obs[OBS_DORA_INDICATOR]
    return hand_value(after, rev + row, n, dora, ra) - hand_value(hand, rev, n, dora, ra)


@nb.njit(cache=True)
def _set_bonus_gain(hand, n_rev, ra):
    """The set-count bonus a three-card draw adds (one more set at the win) to a hand that
    must still discard (3k+2 cards)."""
    n = _sets_at_win(hand, n_rev)  # 3k+2 cards: the same count as after the discard
    return set_bonus(n + 1, ra) - set_bonus(n, ra)


@nb.njit(cache=True)
def _riichi_pays(obs, core, ra, k, rng, riichi, riichi_gain):
    """Whether ``value`` declares riichi with discard k (the hand is tenpai after it): always when
    no wait gives another yaku (riichi is the only way to win); else when riichi adds at least
    ``riichi_gain`` points on average over the unseen waits (its own points, ippatsu at its chance,
    and the doubling it may reach), or with probability ``riichi``."""
    after = np.uint64(obs[OBS_HAND]) - unit(k)
    rev = np.uint64(obs[OBS_OWN_REVEALED])
    n_rev = obs[OBS_OWN_N_REVEALED]
    n_sets = _sets_at_win(after, n_rev)
    dora = obs[OBS_DORA_INDICATOR]
    _, waits = useful_at_tenpai(after, rev, n_rev, np.uint64(obs[OBS_SEEN]), core)
    extra = slot_points(ra, Y_RIICHI) + IPPATSU_SHARE * slot_points(ra, Y_IPPATSU)
    any_yaku = False
    gain = 0.0
    weight = 0.0
    while waits:
        low = waits & (~waits + U1)
        waits ^= low
        w = popcount(low - U1)
        cards = after + unit(w) + rev
        base, sure = points_before_doubling(cards, n_sets, _dora_count(cards, dora, ra), ra, False)
        n = unseen_copies(core, np.uint64(obs[OBS_SEEN]), w)
        gain += n * (doubled(base + extra, ra) - (doubled(base, ra) if sure else 0.0))
        weight += n
        any_yaku = any_yaku or sure
    if not any_yaku or weight == 0:
        return True
    return gain / weight >= riichi_gain or uniform(rng) < riichi


@nb.njit(cache=True)
def _fold_by_value(obs, ra, s_hand, caution):
    """Whether a deal-in would cost more than pushing can win: the opponent's estimated points
    (its revealed sets, riichi) times ``caution`` against this hand's estimated points times its
    chance, halved per step of distance to tenpai."""
    opp = np.uint64(obs[OBS_OPP_REVEALED])
    opp_sets = obs[OBS_OPP_N_REVEALED] + (obs[OBS_OPP_HAND_SIZE] - 1) // 3
    dora = obs[OBS_DORA_INDICATOR]
    threat = estimated_points(opp, opp_sets, _dora_count(opp, dora, ra), ra, obs[OBS_OPP_RIICHI] != 0)
    hand = np.uint64(obs[OBS_HAND])
    n_rev = obs[OBS_OWN_N_REVEALED]
    mine = hand_value(hand, np.uint64(obs[OBS_OWN_REVEALED]), _sets_at_win(hand, n_rev), dora, ra)
    return caution * threat > 0.5 ** s_hand * mine


@nb.njit(cache=True)
def _best_call(obs, mask, core, ra, call, value_weight, rng, s0):
    """The Pon/Chi to take, or -1 (module doc). ``s0``: the hand's distance to tenpai, or
    ``UNKNOWN`` (then computed here, only when some call is legal)."""
    hand = np.uint64(obs[OBS_HAND])
    n_rev = obs[OBS_OWN_N_REVEALED]
    d = obs[OBS_LAST_DISCARD]
    best_a = -1
    best_s = 0
    found = False
    r = _next_legal(mask, CALL, MAX_SET_ROWS, 0)
    while r >= 0:  # the legal rows in order
        if not found:
            found = True
            if s0 == UNKNOWN:
                s0 = shanten(hand, n_rev, core)
            best_s = s0 + 1
        row = core[CORE_SET_ROWS + r]
        after = hand - (row - unit(d))
        s = shanten(after, n_rev + 1, core)
        if s < s0 or (value_weight > 0 and s == s0
                      and _call_gain(obs, hand, after, row, n_rev, ra) >= CALL_GAIN):
            if s < best_s:
                best_s = s
                best_a = CALL + r
        r = _next_legal(mask, CALL, MAX_SET_ROWS, r + 1)
    if best_a >= 0 and uniform(rng) < call:
        return best_a
    return -1


@nb.njit(cache=True)
def _best_kai(obs, mask, core):
    """(the Kai leaving the hand closest to a win, or -1 if none is legal or all make it worse,
    and the hand's own distance if it was needed here, else ``UNKNOWN``). The bot may decline a
    Kai; when Kai is compulsory, discards are not legal and the best row is taken."""
    hand = np.uint64(obs[OBS_HAND])
    n_rev = obs[OBS_OWN_N_REVEALED]
    best_a = -1
    best_s = 1 << 30
    r = _next_legal(mask, KAI, MAX_SET_ROWS, 0)
    while r >= 0:  # the legal rows in order
        s = shanten(hand - core[CORE_SET_ROWS + r], n_rev + 1, core)
        if s < best_s:
            best_s = s
            best_a = KAI + r
        r = _next_legal(mask, KAI, MAX_SET_ROWS, r + 1)
    if best_a < 0:
        return -1, UNKNOWN
    can_discard = False
    for k in range(N_KIND):
        if mask[DISCARD + k]:
            can_discard = True
            break
    if not can_discard:
        return best_a, UNKNOWN
    s_hand = shanten(hand, n_rev, core)
    if best_s > s_hand:
        return -1, s_hand
    return best_a, s_hand


@nb.njit(cache=True)
def _mean_after_draw_three(obs, core, rng):
    """Mean distance to tenpai over DRAW3_SAMPLES draws of three cards from the unseen ones."""
    hand = np.uint64(obs[OBS_HAND])
    n_rev = obs[OBS_OWN_N_REVEALED]
    seen = np.uint64(obs[OBS_SEEN])
    left = obs[OBS_WORK:OBS_WORK + N_KIND]   # the observation's scratch
    upto = obs[OBS_WORK + N_KIND:OBS_WORK + 2 * N_KIND]  # unseen copies of kinds 0..k
    total = 0
    for k in range(N_KIND):
        left[k] = unseen_copies(core, seen, k)
        total += left[k]
        upto[k] = total
    if total < 3:
        return 1e9
    acc = 0.0
    for _ in range(DRAW3_SAMPLES):
        h = hand
        taken0, taken1 = -1, -1
        for j in range(3):
            while True:  # a card not taken already in this sample (pictures: a copy left)
                # the kind holding the pick-th unseen card: the first k with upto[k] > pick
                k = np.searchsorted(upto, np.int64(uniform(rng) * total), side="right")
                n_taken = (1 if taken0 == k else 0) + (1 if taken1 == k else 0)
                if n_taken < left[k]:
                    break
            if j == 0:
                taken0 = k
            elif j == 1:
                taken1 = k
            h += unit(k)
        acc += shanten(h, n_rev, core)
    return acc / DRAW3_SAMPLES


@nb.njit(cache=True, inline="always")
def _connected_unseen(hand, seen, core):
    """Unseen copies of the kinds sharing a partial set or a head with a card in ``hand``: a cheap
    stand-in for the useful cards of a hand far from tenpai."""
    return unseen_in(core, seen, candidate_kinds(core, hand))


@nb.njit(cache=True, inline="always")
def _score(obs, k):
    """Discard k's score in :func:`_choose_discard` (float64 bits in the observation's scratch)."""
    return float_from_bits(obs[_SCORE + k])


@nb.njit(cache=True, inline="always")
def _set_score(obs, k, sc):
    obs[_SCORE + k] = bits_from_float(sc)


@nb.njit(cache=True, inline="always")
def _lower_score(obs, k, by):
    """Lower discard k's score by ``by``; the new score."""
    sc = _score(obs, k) - by
    _set_score(obs, k, sc)
    return sc


@nb.njit(cache=True)
def _choose_discard(obs, mask, core, ra, rng, folding, value_weight, temperature):
    """(discard kind, distance to tenpai after it) by the rules in the module doc."""
    hand = np.uint64(obs[OBS_HAND])
    rev = np.uint64(obs[OBS_OWN_REVEALED])
    n_rev = obs[OBS_OWN_N_REVEALED]
    seen = np.uint64(obs[OBS_SEEN])
    # the observation's scratch: the distances, then the scores (float64 bits), both read only
    # at legal kinds, written first
    dist = obs[OBS_WORK:OBS_WORK + N_KIND]
    best = BIG
    kinds = U0
    for k in range(N_KIND):
        if mask[DISCARD + k]:
            kinds |= U1 << np.uint64(k)
    discard_distances(hand, n_rev, core, kinds, dist)
    # Every loop below walks the legal kinds' bits in increasing kind order (a tie goes to the
    # lowest kind, and the noise is drawn in that order).
    rest = kinds
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        k = popcount(low - U1)
        s = dist[k]
        sc = np.float64(s)
        if value_weight > 0:
            after = hand - unit(k)
            # whole points: discards worth about the same stay tied, for the useful cards to break
            sc -= value_weight / VALUE_PER_STEP * np.floor(0.5 + hand_value(
                after, rev, _sets_at_win(after, n_rev), obs[OBS_DORA_INDICATOR], ra))
        if folding:
            sc = 100.0 * danger(obs, core, ra, k) + sc
        _set_score(obs, k, sc)
        best = min(best, sc)
    # Ties (within a hair) are broken by the unseen useful cards.
    ties = U0
    rest = kinds
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        if _score(obs, popcount(low - U1)) <= best + 1e-9:
            ties |= low
    if ties & (ties - U1):  # two or more
        # Without noise only the winner matters: a tie whose score minus an upper bound of its
        # count (the unseen copies of the kinds that could help it) cannot beat the best score
        # found so far (an earlier kind wins a tie) is skipped; its score stays higher, so the
        # pick is the one counting every tie would make.
        prune = temperature <= 0
        found = BIG
        while ties:
            low = ties & (~ties + U1)
            ties ^= low
            k = popcount(low - U1)
            after = hand - unit(k)
            if dist[k] > EXACT_USEFUL_MAX_DISTANCE:  # far from tenpai: the cheap proxy
                found = min(found, _lower_score(obs, k, _connected_unseen(after, seen, core)
                                                / 1000.0))
                continue
            if prune and _score(obs, k) - _connected_unseen(after, seen, core) / 1000.0 >= found:
                continue
            if dist[k] == 0:  # tenpai: the useful cards are the waits
                n_useful, useful = useful_at_tenpai(after, rev, n_rev, seen, core)
            else:
                n_useful, useful = useful_cards_from(after, dist[k], n_rev, seen, core)
            if dist[k] == 0 and (useful & (np.uint64(obs[OBS_OWN_DISCARDS]) | low)
                                 & ~np.uint64(0x1FF)):
                n_useful = n_useful // 2  # furiten: tsumo only (momo exempt)
            found = min(found, _lower_score(obs, k, n_useful / 1000.0))
    if temperature > 0:
        rest = kinds
        while rest:
            low = rest & (~rest + U1)
            rest ^= low
            k = popcount(low - U1)
            u = max(uniform(rng), 1e-300)
            _lower_score(obs, k, temperature * -np.log(-np.log(u) + 1e-300))
    pick = -1
    lowest = BIG
    rest = kinds
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        k = popcount(low - U1)
        sc = _score(obs, k)
        if sc < lowest:
            lowest = sc
            pick = k
    return pick, dist[pick]


@nb.njit(cache=True)
def play(obs, mask, rng, core, ra, call, draw_three, riichi, fold, value_weight, temperature,
         riichi_gain, caution):
    """Choose an action (module doc). ``obs``, ``mask``, ``rng``, ``core``, ``ra`` as in the policy
    signature (``simcore.family.policy``); the rest are the style values, floats."""
    if mask[RON]:
        return RON
    if mask[TSUMO]:
        return TSUMO
    hand = np.uint64(obs[OBS_HAND])
    n_rev = obs[OBS_OWN_N_REVEALED]
    threat = threatened(obs)
    phase = obs[OBS_PHASE]
    if phase == PH_START:
        s_hand = UNKNOWN
        if mask[DRAW] and call <= 0:
            return DRAW
        if mask[DRAW] and threat:
            s_hand = shanten(hand, n_rev, core)
            if s_hand >= fold:
                return DRAW
        a = _best_call(obs, mask, core, ra, call, value_weight, rng, s_hand)
        return a if a >= 0 else DRAW
    a, s_hand = _best_kai(obs, mask, core)
    if a >= 0:
        return a
    if obs[OBS_OWN_RIICHI]:  # frozen: the drawn card is the only legal discard
        for k in range(N_KIND):
            if mask[DISCARD + k]:
                return DISCARD + k
    # A 3k+2 hand's distance is the one after its best discard, so it compares with ``fold``.
    folding = False
    if threat:
        if s_hand == UNKNOWN:
            s_hand = shanten(hand, n_rev, core)
        folding = s_hand >= fold or (caution > 0 and _fold_by_value(obs, ra, s_hand, caution))
    k, s_now = _choose_discard(obs, mask, core, ra, rng, folding, value_weight, temperature)
    if phase == PH_AFTER_REVEAL and mask[DRAW_THREE] and not folding:
        margin = draw_three
        if value_weight > 0:  # three more cards: one more set at the win, its set-count bonus
            margin += (DRAW3_VALUE_SCALE * value_weight / VALUE_PER_STEP
                       * _set_bonus_gain(hand, n_rev, ra))
        if _mean_after_draw_three(obs, core, rng) < s_now + margin:
            return DRAW_THREE
    if k < 0:  # nothing to discard (cannot happen with a legal mask); draw three if allowed
        return DRAW_THREE
    if mask[DISCARD_RIICHI + k]:
        if value_weight > 0:
            if _riichi_pays(obs, core, ra, k, rng, riichi, riichi_gain):
                return DISCARD_RIICHI + k
        elif uniform(rng) < riichi:
            return DISCARD_RIICHI + k
    return DISCARD + k


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
