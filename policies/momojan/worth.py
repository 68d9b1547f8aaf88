"""What a MOMOJAN hand is worth if it wins, estimated from the scenario's rules array (issue 30).

:func:`estimated_points` reads every point value a bot can aim for: each yaku's points and
on/off (the run yaku ittsu and sanshoku, chinitsu and honitsu, tanyao, toitoi, every picture-set
yaku of the data table: dog .. moon, kerai, takaramono, oshimai and any a scenario adds), dora,
the ron bonus, the set-count bonuses and the doubling threshold and factor. A raised value pulls
the ``value`` bot's discards and calls towards it (``policies.momojan.play``).

Each yaku gets a *share* in [0, 1], how close the cards held (concealed plus revealed) are to its
condition, and adds ``points x share``:

- ittsu, sanshoku: the ranks of the three runs held (momo filling the ittsu's fruit when it is
  wild), counted above 5 of 9: 6 held give 1/4, all 9 give 1.
- chinitsu, honitsu, tanyao, toitoi: the cards that break the condition (another fruit, a
  picture, a terminal, a card with no partner of its rank), 1 - off/3 (three off: 0).
  Honitsu needs a picture: without one it counts half.
- picture-set yaku: per requirement the best picture not used by another one (a set 1, a pair
  1/2, a single card 1/5), the yaku the product of its requirements' (kerai needs all three
  animals: three pairs give 1/8); requirements only a kan meets count 0 (the bots do not
  declare kans). They depend only on how many of each picture the hand holds
  (none, one, two, three or more), so the rules array carries them for each of the 4^5 levels
  (:func:`simcore.momojan.rules_array.fill_picture_table`, whose shares they are) and a hand
  looks them up.

On a complete hand the shares of held patterns are 1, so :func:`yaku_points` with ``sure`` tells
whether a finished hand has a yaku besides riichi (the riichi decision's question).

What it leaves out: kibidango (the observation does not say which revealed sets were called),
haitei / houtei (luck, not a plan), ippatsu (counted by the riichi decision), the old edition's kan
yaku; momo standing in for sanshoku's runs.
"""

import numba as nb
import numpy as np

from simcore.momojan.cards import N_PICTURES
from simcore.momojan.hand import picture_count
from simcore.nb.bits import float_from_bits, popcount
from simcore.momojan.rules_array import (
    RA_DECK_RANKS, RA_DECK_WILD_FRUIT, RA_PICTURE_MET, RA_PICTURE_VALUE,
    RA_SCORING_DORA_PER_CARD, RA_SCORING_DOUBLE_FACTOR, RA_SCORING_DOUBLE_THRESHOLD,
    RA_SCORING_RON_BONUS, RA_SET_BONUS, RA_YAKU_ENABLED, RA_YAKU_POINTS, Y_CHINITSU, Y_HONITSU,
    Y_ITTSU, Y_RIICHI, Y_SANSHOKU, Y_TANYAO, Y_TOITOI,
)

RANKS9 = np.uint64(0x1FF)
TERMINALS = np.uint64(sum((1 << (9 * f)) | (1 << (9 * f + 8)) for f in range(4)))  # ranks 1, 9
# the yaku it leaves out (module doc), by scenario key
UNPLANNED_YAKU = ("kibidango", "haitei", "houtei", "kan", "rinshan", "yonshoku")
RON_SHARE = 0.5  # the chance a win is by ron, for the ron bonus's expected value


@nb.njit(cache=True, inline="always")
def _clamp01(x):
    return min(1.0, max(0.0, x))


@nb.njit(cache=True, inline="always")
def slot_points(ra, slot):
    """Points of score slot ``slot`` when it is enabled, else 0."""
    return ra[RA_YAKU_POINTS + slot] if ra[RA_YAKU_ENABLED + slot] else 0


@nb.njit(cache=True, inline="always")
def _data_yaku(cards, ra):
    """(points x share summed over the picture-set yaku of the data table, whether one is met):
    the rules array's entry for the five pictures' levels
    (:func:`simcore.momojan.rules_array.fill_picture_table`)."""
    key = 0
    for p in range(N_PICTURES):
        key |= min(picture_count(cards, p), 3) << (2 * p)
    return (float_from_bits(ra[RA_PICTURE_VALUE + key]),
            (ra[RA_PICTURE_MET + (key >> 6)] >> (key & 63)) & 1 != 0)


@nb.njit(cache=True)
def yaku_points(cards, ra):
    """(estimated yaku points of the cards held, hand mask ``cards`` = concealed + revealed, riichi
    left out; whether some yaku's condition is fully met): module doc."""
    nums = cards & np.uint64(0xFFFFFFFFF)
    wild = ra[RA_DECK_WILD_FRUIT] != 0
    # each fruit's ranks (a tuple: an array a call cost more than the arithmetic)
    fb = ((nums & RANKS9), (nums >> np.uint64(9)) & RANKS9, (nums >> np.uint64(18)) & RANKS9,
          (nums >> np.uint64(27)) & RANKS9)
    momo = fb[0] if wild else np.uint64(0)
    n_num = popcount(nums)
    n_pic = 0
    singles = 0
    for p in range(N_PICTURES):
        c = picture_count(cards, p)
        n_pic += c
        singles += c == 1
    v, sure = _data_yaku(cards, ra)
    share = 0.0

    pts = slot_points(ra, Y_ITTSU)
    if pts > 0 and ra[RA_DECK_RANKS] == 9:
        held = 0
        for f in range(4):
            held = max(held, popcount(fb[f] | (momo if f else np.uint64(0))))
        share = _clamp01((held - 5) / 4.0)
        v += pts * share
        sure = sure or share >= 1.0
    pts = slot_points(ra, Y_SANSHOKU)
    if pts > 0:
        held = 0
        for start in range(ra[RA_DECK_RANKS] - 2):
            w = np.uint64(7) << np.uint64(start)
            s, lowest = 0, 3
            for f in range(4):
                c = popcount(fb[f] & w)
                s += c
                lowest = min(lowest, c)
            held = max(held, s - lowest)  # the best three fruits
        share = _clamp01((held - 5) / 4.0)
        v += pts * share
        sure = sure or share >= 1.0
    p_chin, p_hon = slot_points(ra, Y_CHINITSU), slot_points(ra, Y_HONITSU)
    if (p_chin > 0 or p_hon > 0) and n_num > 0:
        most = 0
        for f in range(4):
            most = max(most, popcount(fb[f]) + (popcount(momo) if f else 0))
        off = n_num - most  # number cards of other fruits
        chin = _clamp01(1.0 - (off + n_pic) / 3.0)
        hon = _clamp01(1.0 - off / 3.0) * (1.0 if n_pic > 0 else 0.5)
        v += max(p_chin * chin, p_hon * hon)  # a hand scores one of them, never both
        sure = sure or (p_chin > 0 and chin >= 1.0) or (p_hon > 0 and hon >= 1.0)
    pts = slot_points(ra, Y_TANYAO)
    if pts > 0:
        share = _clamp01(1.0 - (n_pic + popcount(nums & TERMINALS)) / 3.0)
        v += pts * share
        sure = sure or share >= 1.0
    pts = slot_points(ra, Y_TOITOI)
    if pts > 0:
        # ranks held in exactly one fruit: an odd count that is not two or more
        a, b, c, d = fb
        two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
        singles += popcount((a ^ b ^ c ^ d) & ~two)
        share = _clamp01(1.0 - singles / 3.0)
        v += pts * share
        sure = sure or share >= 1.0
    return v, sure


@nb.njit(cache=True)
def doubled(total, ra):
    """A win's points from its sum (spec §8: the doubling threshold and factor)."""
    if total >= ra[RA_SCORING_DOUBLE_THRESHOLD]:
        return total * ra[RA_SCORING_DOUBLE_FACTOR]
    return total


@nb.njit(cache=True, inline="always")
def set_bonus(n_sets, ra):
    """The set-count bonus of a win with ``n_sets`` sets (only the highest applies)."""
    return ra[RA_SET_BONUS + min(n_sets, 7) - 4] if n_sets >= 4 else 0


@nb.njit(cache=True)
def points_before_doubling(cards, n_sets, n_dora, ra, riichi):
    """(the estimated sum of a win's points before the doubling, whether a yaku besides riichi
    is fully met): :func:`yaku_points` (plus riichi's points when ``riichi``), ``n_dora`` dora,
    the set-count bonus for ``n_sets`` sets, the ron bonus at its chance."""
    v, sure = yaku_points(cards, ra)
    v += n_dora * ra[RA_SCORING_DORA_PER_CARD] + RON_SHARE * ra[RA_SCORING_RON_BONUS] + set_bonus(n_sets, ra)
    if riichi:
        v += slot_points(ra, Y_RIICHI)
    return v, sure


@nb.njit(cache=True)
def estimated_points(cards, n_sets, n_dora, ra, riichi):
    """Estimated points of a win with the cards held (hand mask, concealed + revealed):
    :func:`points_before_doubling`, then the doubling."""
    v, _ = points_before_doubling(cards, n_sets, n_dora, ra, riichi)
    return doubled(v, ra)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
