"""Scoring a win (spec §8, §10): yaku, bonuses, doubling, over the best reading of the hand.

:func:`score_hand` is an njit kernel the round engine calls directly; :func:`score` wraps it for
Python callers and the ``score`` command, returning a :class:`ScoreResult` with the breakdown.

A *reading* is one decomposition of the concealed cards (sets + head, from
:func:`simcore.momojan.hand.decompositions`) together with one reading of each revealed group
(``1l 1o 1i`` may be a same-number set or, in the old edition, a sun set). Every reading is scored
and the highest total wins; a reading without a yaku is not a valid win.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba as nb
import numpy as np

from simcore.nb.stack import stack_empty, stack_empty_2d

from ..errors import InputError
from .cards import (
    N_KINDS, N_NUMBER_KINDS, N_PICTURES, MOMO, PHEASANT, SUN, MOON,
    Hand, card_str, mask_from_kinds,
)
from .actions import MAX_REVEALED
from .hand import MAX_DECOMPOSITIONS, HandTables, counts_of, decompositions, is_complete
from .tables import build_hand_tables
from .rules_array import (
    MAX_DATA_YAKU, MAX_REQUIREMENTS, N_SCORE_SLOTS, RA_DATA_YAKU_N_REQ, RA_DATA_YAKU_REQ,
    RA_DATA_YAKU_SLOT, RA_DECK_RANKS, RA_DECK_WILD_FRUIT, RA_SCORING_DORA_PER_CARD,
    RA_SCORING_DOUBLE_FACTOR, RA_SCORING_DOUBLE_THRESHOLD, RA_SCORING_RON_BONUS,
    RA_SCORING_SET_COUNT_IS_YAKU, RA_SCORING_YAKU_KIBIDANGO_KAI_COUNTS_AS_CALL,
    RA_SCORING_YAKU_KIBIDANGO_RON_MAY_COMPLETE_SET, RA_SET_BONUS, RA_YAKU_ENABLED, RA_YAKU_POINTS,
    REQ_KAN, SLOT_SET_COUNT, Y_CHINITSU, Y_HAITEI, Y_HONITSU, Y_HOUTEI, Y_IPPATSU, Y_ITTSU, Y_KAN,
    Y_KIBIDANGO, Y_RIICHI, Y_RINSHAN, Y_SANSHOKU, Y_TANYAO, Y_TOITOI, Y_YONSHOKU, build_rules_array,
)
from .rules_array import RA_KAN_RANK1_STAND_INS
from .shapes import HEAD_PICTURE, SET_PICTURE, SET_RUN, SET_SAME
from .yaku_conditions import score_slot_names

# Origins of a set (also the engine's revealed-group kinds).
ORIGIN_CONCEALED, ORIGIN_KAI, ORIGIN_PON, ORIGIN_CHI = 0, 1, 2, 3
ORIGIN_KAN_CLOSED, ORIGIN_KAN_OPEN, ORIGIN_KAN_ADDED = 4, 5, 6
ORIGIN_BY_PREFIX = {"kai": ORIGIN_KAI, "pon": ORIGIN_PON, "chi": ORIGIN_CHI, "kan": ORIGIN_KAN_CLOSED}

# Win-situation flags.
WIN_RON, WIN_RIICHI, WIN_IPPATSU, WIN_LAST_CARD, WIN_RINSHAN = 1, 2, 4, 8, 16

# Outcome codes.
VALID, INCOMPLETE, TOO_FEW_SETS, NO_YAKU = 0, 1, 2, 3
REASONS = (None, "incomplete", "too few sets", "no yaku")

MAX_READINGS = 4          # readings of one revealed group
# N_SCORE_SLOTS (from rules_array): the fixed yaku, tabi/onigashima/momotaro/nihonichi when they
# are yaku, then the scenario's new picture-set yaku.
BONUS_DORA, BONUS_RON, BONUS_SET_COUNT = 0, 1, 2
MAX_SETS = MAX_REVEALED + 2

# Columns of a set's attributes: type, fruit (runs; MOMO = all-momo run), rank, picture, origin,
# holds the winning card.
A_TYPE, A_FRUIT, A_RANK, A_PIC, A_ORIGIN, A_WIN = range(6)


@nb.njit(cache=True)
def _takes_stand_ins(T, p):
    """Do rank-1 cards stand in for picture p under these hand rules (a ``1m 1l 1o`` set of p)?"""
    for s in range(T.set_start[0], T.set_start[1]):
        row = T.sets[s]
        if row[1] < N_NUMBER_KINDS and row[2] < N_NUMBER_KINDS and row[3] == SET_PICTURE \
                and row[6] == p:
            return True
    return False


@nb.njit(cache=True)
def _group_readings(cards, n_cards, T, ra, out):
    """Attributes (type, fruit, rank, picture) of each way a revealed group reads as a set.

    A kan (4 sorted cards) is a picture kan when it holds a picture (any number cards in it are
    rank-1 stand-ins), else the four cards of one rank; four rank-1 cards also read as a sun or
    moon kan where stand-ins may fill kans (``kan.rank1_stand_ins``).
    """
    n = 0
    if n_cards == 4:
        if cards[3] >= N_NUMBER_KINDS:
            out[0, 0], out[0, 1], out[0, 2], out[0, 3] = SET_PICTURE, -1, -1, cards[3] - N_NUMBER_KINDS
            return 1
        out[0, 0], out[0, 1], out[0, 2], out[0, 3] = SET_SAME, -1, cards[0] % 9 + 1, -1
        n = 1
        if cards[0] % 9 == 0 and ra[RA_KAN_RANK1_STAND_INS]:
            for p in range(N_PICTURES):
                if n < out.shape[0] and _takes_stand_ins(T, p):
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = SET_PICTURE, -1, -1, p
                    n += 1
        return n
    for s in range(T.set_start[cards[0]], T.set_start[cards[0] + 1]):
        row = T.sets[s]
        if row[1] == cards[1] and row[2] == cards[2] and n < out.shape[0]:
            out[n, 0], out[n, 1], out[n, 2], out[n, 3] = row[3], row[4], row[5], row[6]
            n += 1
    return n


@nb.njit(cache=True)
def _stand_in_dora(cards, n_cards, pic, indicator, ranks):
    """Dora change when the rank-1 cards among ``cards[:n_cards]`` stand in for picture ``pic``:
    such a card counts as that picture for dora, not as a rank-1 card (spec §10)."""
    adj = 0
    as_pic = 1 if _dora_kind_matches(N_NUMBER_KINDS + pic, indicator, ranks) else 0
    for j in range(n_cards):
        c = cards[j]
        if c >= 0 and c < N_NUMBER_KINDS:
            adj += as_pic - (1 if _dora_kind_matches(np.int64(c), indicator, ranks) else 0)
    return adj


@nb.njit(cache=True)
def _dora_kind_matches(card, indicator, ranks):
    if indicator < N_NUMBER_KINDS:
        if card >= N_NUMBER_KINDS:
            return False
        return card % 9 + 1 == (indicator % 9 + 1) % ranks + 1
    if card < N_NUMBER_KINDS:
        return False
    p, q = indicator - N_NUMBER_KINDS, card - N_NUMBER_KINDS
    if p <= PHEASANT:
        return q == (p + 1) % 3
    return q == (SUN if p == MOON else MOON)


@nb.njit(cache=True)
def _requirements_met(ra, row, set_pics, set_is_kan, n_pic_sets, pics_held, kan_pics_held):
    """Whether the picture sets meet every requirement of data-yaku ``row``, each requirement by a
    distinct set: a bipartite matching. ``pics_held``/``kan_pics_held``: masks of the pictures of
    the sets/kans, for a quick rejection; then, for two or more requirements, a DP over the
    subsets of requirements met so far (at most MAX_REQUIREMENTS, kept as the bits of one int64)."""
    n_req = ra[RA_DATA_YAKU_N_REQ + row]
    base = RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS
    if n_req > n_pic_sets:
        return False
    for j in range(n_req):  # every requirement alone must be met by some set
        req = ra[base + j]
        if (req & (kan_pics_held if (req & REQ_KAN) != 0 else pics_held)) == 0:
            return False
    if n_req == 1:
        return True
    reach = np.int64(1)  # bit m: the requirements in m can be met by distinct sets seen so far
    for i in range(n_pic_sets):
        pic_bit = 1 << set_pics[i]
        new = reach
        for j in range(n_req):
            req = ra[base + j]
            if (req & pic_bit) == 0 or ((req & REQ_KAN) != 0 and not set_is_kan[i]):
                continue
            for m in range(1 << n_req):
                if (reach >> m) & 1 and not (m >> j) & 1:
                    new |= np.int64(1) << (m | (1 << j))
        reach = new
    return ((reach >> ((1 << n_req) - 1)) & 1) != 0


@nb.njit(cache=True)
def _evaluate(sets, n_sets, head_has_win, counts, flags, ra, yaku):
    """Yaku of one reading into ``yaku`` (int64[N_SCORE_SLOTS]: points per score slot, -1 absent;
    the set-count slots are left -1); returns (yaku points, n yaku)."""
    for i in range(yaku.shape[0]):
        yaku[i] = -1
    # scratch in this frame (simcore.nb.stack): this runs for every reading of every win
    set_pics = stack_empty(MAX_SETS, np.int64)    # picture of each picture set
    set_is_kan = stack_empty(MAX_SETS, np.bool_)  # that set is a kan
    set_is_kan[:] = False
    n_pic_sets = 0
    pics_held = 0       # bit p: a set of picture p
    kan_pics_held = 0   # bit p: a kan of picture p
    run_at = stack_empty_2d(4, 8, np.bool_)  # run of fruit f starting at rank r (f = MOMO: all momo)
    run_at[:, :] = False
    n_runs = 0
    has_kan = False
    concealed_sets = 0
    concealed_with_win = 0
    only_calls = True  # every revealed set counts as called for kibidango
    kai_is_call = ra[RA_SCORING_YAKU_KIBIDANGO_KAI_COUNTS_AS_CALL] != 0
    for i in range(n_sets):
        t, o = sets[i, A_TYPE], sets[i, A_ORIGIN]
        if t == SET_PICTURE:
            set_pics[n_pic_sets] = sets[i, A_PIC]
            set_is_kan[n_pic_sets] = o >= ORIGIN_KAN_CLOSED
            n_pic_sets += 1
            pics_held |= 1 << sets[i, A_PIC]
            if o >= ORIGIN_KAN_CLOSED:
                kan_pics_held |= 1 << sets[i, A_PIC]
        elif t == SET_RUN:
            run_at[sets[i, A_FRUIT], sets[i, A_RANK] - 1] = True
            n_runs += 1
        if o >= ORIGIN_KAN_CLOSED:
            has_kan = True
        if o == ORIGIN_CONCEALED:
            concealed_sets += 1
            concealed_with_win += sets[i, A_WIN]
        elif (o == ORIGIN_KAI or o == ORIGIN_KAN_CLOSED) and not kai_is_call:
            only_calls = False
    wild = ra[RA_DECK_WILD_FRUIT] != 0  # momo fills runs (and fruit-purity yaku) of other fruits
    # Card facts over every card the winner holds.
    n_num = 0
    n_pic = 0
    fruits_seen = 0
    all_simple = True
    for k in range(N_KINDS):
        if counts[k] == 0:
            continue
        if k < N_NUMBER_KINDS:
            n_num += counts[k]
            if k // 9 != MOMO or not wild:
                fruits_seen |= 1 << (k // 9)
            r = k % 9 + 1
            if r == 1 or r == 9:
                all_simple = False
        else:
            n_pic += counts[k]
            all_simple = False
    one_fruit = fruits_seen == 0 or (fruits_seen & (fruits_seen - 1)) == 0
    ron = (flags & WIN_RON) != 0

    cond = stack_empty(N_SCORE_SLOTS, np.bool_)
    cond[:] = False
    cond[Y_RIICHI] = (flags & WIN_RIICHI) != 0
    cond[Y_IPPATSU] = (flags & WIN_RIICHI) != 0 and (flags & WIN_IPPATSU) != 0
    for f in range(4):
        ok = True
        for start in (0, 3, 6):
            if not (run_at[f, start] or (wild and run_at[MOMO, start])):
                ok = False
        if ok:
            cond[Y_ITTSU] = True
    # Kibidango (spec §8): a ron, every revealed set called (Kai too with kai_counts_as_call), and
    # the ron card completes the head, or (ron_may_complete_set) the one concealed set.
    ron_completes_set = (ra[RA_SCORING_YAKU_KIBIDANGO_RON_MAY_COMPLETE_SET] != 0 and concealed_sets == 1
                         and concealed_with_win == 1 and not head_has_win)
    cond[Y_KIBIDANGO] = ron and only_calls and (concealed_sets == 0 or ron_completes_set)
    cond[Y_CHINITSU] = n_pic == 0 and n_num > 0 and one_fruit
    cond[Y_HONITSU] = n_pic > 0 and n_num > 0 and one_fruit
    cond[Y_TANYAO] = all_simple
    cond[Y_TOITOI] = n_runs == 0
    for start in range(7):
        distinct = 0
        for f in range(1, 4):
            distinct += run_at[f, start]
        # An all-momo run is the momo fruit's own run, and (when momo is wild) may stand for one.
        if distinct + (1 if run_at[MOMO, start] else 0) >= 3:
            cond[Y_SANSHOKU] = True
        if distinct == 3 and run_at[MOMO, start]:
            cond[Y_YONSHOKU] = True
    last = (flags & WIN_LAST_CARD) != 0
    cond[Y_HAITEI] = last and not ron
    cond[Y_HOUTEI] = last and ron
    cond[Y_KAN] = has_kan
    cond[Y_RINSHAN] = (flags & WIN_RINSHAN) != 0 and not ron
    # Picture-set yaku (dog .. moon, kerai, takaramono, oshimai, a scenario's new ones): data.
    for row in range(MAX_DATA_YAKU):
        slot = ra[RA_DATA_YAKU_SLOT + row]
        if slot < 0:
            break
        if ra[RA_YAKU_ENABLED + slot]:
            cond[slot] = _requirements_met(ra, row, set_pics, set_is_kan, np.int64(n_pic_sets),
                                           np.int64(pics_held), np.int64(kan_pics_held))

    total = 0
    n_yaku = 0
    for y in range(N_SCORE_SLOTS):
        if cond[y] and ra[RA_YAKU_ENABLED + y]:
            yaku[y] = ra[RA_YAKU_POINTS + y]
            total += yaku[y]
            n_yaku += 1
    return total, n_yaku


@nb.njit(cache=True)
def score_hand(hand, win_card, rev_cards, rev_n_cards, rev_origin, n_rev, flags, dora_indicator,
               ra, T, yaku_out, bonus_out):
    """Score a win.

    Parameters
    ----------
    hand : uint64 hand mask of the concealed cards *including* the winning card.
    win_card : int, kind of the winning card.
    rev_cards : int16[MAX_REVEALED, 4], sorted cards of each revealed group (-1 padding).
    rev_n_cards : int64[MAX_REVEALED], 3 or 4 (kan). rev_origin : int64[MAX_REVEALED], ORIGIN_*.
    n_rev : number of revealed groups. flags : WIN_* bits. dora_indicator : kind.
    ra : rules array (:mod:`simcore.momojan.rules_array`). T : HandTables.
    yaku_out : int64[N_SCORE_SLOTS], filled with points per yaku (-1 absent).
    bonus_out : int64[3], dora, ron and set-count bonuses.

    Returns
    -------
    (status, points, subtotal, n_sets): status VALID, INCOMPLETE, TOO_FEW_SETS or NO_YAKU.
    """
    for i in range(yaku_out.shape[0]):
        yaku_out[i] = -1
    for i in range(bonus_out.shape[0]):
        bonus_out[i] = 0
    if not is_complete(hand, n_rev, T.core):
        # np.int64(99), not 99: a literal argument would compile is_complete once more.
        if is_complete(hand, np.int64(99), T.core):
            return TOO_FEW_SETS, 0, 0, 0
        return INCOMPLETE, 0, 0, 0
    counts = counts_of(hand)
    for g in range(n_rev):
        for j in range(rev_n_cards[g]):
            counts[rev_cards[g, j]] += 1
    n_dora = 0
    n_conc_cards = 0
    for k in range(N_KINDS):
        if dora_indicator >= 0 and counts[k] and _dora_kind_matches(k, dora_indicator, ra[RA_DECK_RANKS]):
            n_dora += counts[k]
    conc = counts_of(hand)
    for k in range(N_KINDS):
        n_conc_cards += conc[k]
    k_conc = (n_conc_cards - 2) // 3
    n_sets = n_rev + k_conc
    # Set-count bonus: only the highest applies.
    set_bonus = 0
    set_slot = -1
    if n_sets >= 4:
        set_slot = min(n_sets, 7) - 4
        set_bonus = ra[RA_SET_BONUS + set_slot]
    set_is_yaku = ra[RA_SCORING_SET_COUNT_IS_YAKU] != 0
    bonus = n_dora * ra[RA_SCORING_DORA_PER_CARD] + (ra[RA_SCORING_RON_BONUS] if flags & WIN_RON else 0)
    if not set_is_yaku:
        bonus += set_bonus

    # Readings of the revealed groups.
    readings = np.zeros((MAX_REVEALED, MAX_READINGS, 4), np.int64)
    n_read = np.zeros(MAX_REVEALED, np.int64)
    combos = 1
    for g in range(n_rev):
        n_read[g] = _group_readings(rev_cards[g], rev_n_cards[g], T, ra, readings[g])
        combos *= max(n_read[g], 1)
    decomp = np.full((MAX_DECOMPOSITIONS, 3), -1, np.int32)
    n_dec = min(decompositions(hand, T, decomp[:, :k_conc + 1]), MAX_DECOMPOSITIONS)

    sets = np.zeros((MAX_SETS, 6), np.int64)
    yaku = np.empty(N_SCORE_SLOTS, np.int64)
    best = -1
    best_sub = 0
    best_dora_adj = 0
    for d in range(n_dec):
        row = decomp[d, :k_conc + 1]
        head = T.heads[row[k_conc]]
        head_has_win = head[0] == win_card or head[1] == win_card
        head_adj = 0  # dora of rank-1 stand-ins, per reading
        if dora_indicator >= 0 and head[2] == HEAD_PICTURE:
            head_adj = _stand_in_dora(head, np.int64(2), np.int64(head[3]), dora_indicator,
                                      ra[RA_DECK_RANKS])
        for c in range(combos):
            code = c
            adj = head_adj
            for g in range(n_rev):
                r = code % max(n_read[g], 1)
                code //= max(n_read[g], 1)
                sets[g, 0], sets[g, 1], sets[g, 2], sets[g, 3] = (
                    readings[g, r, 0], readings[g, r, 1], readings[g, r, 2], readings[g, r, 3])
                sets[g, A_ORIGIN] = rev_origin[g]
                sets[g, A_WIN] = 0
                if dora_indicator >= 0 and readings[g, r, 0] == SET_PICTURE:
                    adj += _stand_in_dora(rev_cards[g], rev_n_cards[g], readings[g, r, 3],
                                          dora_indicator, ra[RA_DECK_RANKS])
            for j in range(k_conc):
                srow = T.sets[row[j]]
                i = n_rev + j
                sets[i, 0], sets[i, 1], sets[i, 2], sets[i, 3] = srow[3], srow[4], srow[5], srow[6]
                sets[i, A_ORIGIN] = ORIGIN_CONCEALED
                if dora_indicator >= 0 and srow[3] == SET_PICTURE:
                    adj += _stand_in_dora(srow, np.int64(3), np.int64(srow[6]), dora_indicator,
                                          ra[RA_DECK_RANKS])
                sets[i, A_WIN] = 1 if (srow[0] == win_card or srow[1] == win_card
                                       or srow[2] == win_card) else 0
            ypts, n_y = _evaluate(sets, n_sets, head_has_win, counts, flags, ra, yaku)
            if set_is_yaku and set_slot >= 0:
                ypts += set_bonus
                n_y += 1
            if n_y == 0:
                continue
            dora_adj = adj * ra[RA_SCORING_DORA_PER_CARD]
            sub = ypts + bonus + dora_adj
            pts = sub * ra[RA_SCORING_DOUBLE_FACTOR] if sub >= ra[RA_SCORING_DOUBLE_THRESHOLD] else sub
            if pts > best:
                best = pts
                best_sub = sub
                best_dora_adj = dora_adj
                for y in range(N_SCORE_SLOTS):
                    yaku_out[y] = yaku[y]
                for y in range(4):
                    yaku_out[SLOT_SET_COUNT + y] = set_bonus if (set_is_yaku and y == set_slot) else -1
    if best < 0:
        return NO_YAKU, 0, 0, n_sets
    bonus_out[BONUS_DORA] = n_dora * ra[RA_SCORING_DORA_PER_CARD] + best_dora_adj
    bonus_out[BONUS_RON] = ra[RA_SCORING_RON_BONUS] if flags & WIN_RON else 0
    bonus_out[BONUS_SET_COUNT] = 0 if set_is_yaku else set_bonus
    return VALID, best, best_sub, n_sets


# ---------------------------------------------------------------------------------------------
# Python wrapper
# ---------------------------------------------------------------------------------------------

@dataclass
class ScoreResult:
    valid: bool
    reason: str | None
    yaku: dict[str, int] = field(default_factory=dict)
    bonuses: dict[str, int] = field(default_factory=dict)
    sets: int = 0
    subtotal: int = 0
    doubled: bool = False
    points: int = 0

    def to_json(self) -> dict:
        return {"valid": self.valid, "reason": self.reason, "yaku": self.yaku,
                "bonuses": self.bonuses, "sets": self.sets, "subtotal": self.subtotal,
                "doubled": self.doubled, "points": self.points}


def revealed_arrays(hand: Hand):
    if len(hand.revealed) > MAX_REVEALED:
        raise InputError(f"at most {MAX_REVEALED} revealed groups, got {len(hand.revealed)}")
    cards = np.full((MAX_REVEALED, 4), -1, np.int16)
    n_cards = np.zeros(MAX_REVEALED, np.int64)
    origin = np.zeros(MAX_REVEALED, np.int64)
    for g, grp in enumerate(hand.revealed):
        cs = sorted(grp.cards)
        cards[g, :len(cs)] = cs
        n_cards[g] = len(cs)
        origin[g] = ORIGIN_BY_PREFIX[grp.kind]
    return cards, n_cards, origin


class Scorer:
    """Scores wins under one scenario."""

    def __init__(self, scenario):
        self.scenario = scenario
        self.ra = build_rules_array(scenario)
        self.tables: HandTables = build_hand_tables(scenario.hand_rules)

    def score(self, hand: Hand, win_card: int, ron: bool, riichi=False, ippatsu=False,
              last_card=False, rinshan=False, dora_indicator: int | None = None) -> ScoreResult:
        flags = (WIN_RON * ron) | (WIN_RIICHI * riichi) | (WIN_IPPATSU * ippatsu) \
            | (WIN_LAST_CARD * last_card) | (WIN_RINSHAN * rinshan)
        cards, n_cards, origin = revealed_arrays(hand)
        yaku = np.zeros(N_SCORE_SLOTS, np.int64)
        bonus = np.zeros(3, np.int64)
        mask = np.uint64(mask_from_kinds(list(hand.concealed) + [win_card]))
        status, points, sub, n_sets = score_hand(
            mask, win_card, cards, n_cards, origin, len(hand.revealed), flags,
            -1 if dora_indicator is None else dora_indicator, self.ra, self.tables, yaku, bonus)
        names = score_slot_names(self.scenario)
        if status != VALID:
            return ScoreResult(False, REASONS[status], sets=int(n_sets))
        bonuses = {"dora": int(bonus[BONUS_DORA]), "ron": int(bonus[BONUS_RON]),
                   "set_count": int(bonus[BONUS_SET_COUNT])}
        return ScoreResult(True, None, {names[i]: int(v) for i, v in enumerate(yaku) if v >= 0},
                           bonuses, int(n_sets), int(sub), bool(points != sub), int(points))


def score_text(hand_text, win_text, by="tsumo", riichi=False, ippatsu=False, dora_text=None,
               last_card=False, rinshan=False, rules="new_edition") -> ScoreResult:
    """Score a win given in card notation (what the ``score`` command does)."""
    from . import scenario as scenario_mod
    from .analysis import parse_hand_for
    from .cards import NotationError, parse_card

    sc = scenario_mod.load(rules)
    hr = sc.hand_rules
    if rinshan and not sc.get("kan.enabled"):
        raise InputError(f"--rinshan: kan is not played under {sc.name} (kan.enabled: false), so "
                         "no win comes from a kan replacement card")
    hand = parse_hand_for(hand_text, hr, kan_allowed=sc.get("kan.enabled"))
    if not sc.get("kan.rank1_stand_ins"):
        for grp in hand.revealed:
            if grp.kind == "kan" and max(grp.cards) >= N_NUMBER_KINDS > min(grp.cards):
                raise NotationError(f"kan:{''.join(card_str(k) for k in sorted(grp.cards))}: "
                                    "rank-1 cards may not fill a kan under these rules "
                                    "(kan.rank1_stand_ins: false)")
    if len(hand.concealed) % 3 != 1:
        raise NotationError(f"{hand_text!r}: give the concealed cards without the winning card "
                            f"(3k+1 of them), got {len(hand.concealed)}")
    try:
        win = parse_card(win_text)
    except NotationError as exc:
        raise NotationError(f"--win: {exc}") from None
    held = list(hand.concealed) + [k for g in hand.revealed for k in g.cards] + [win]
    if not hr.in_deck(win):
        raise NotationError(f"--win: {card_str(win)} is not in this scenario's deck")
    deck = [1] * N_NUMBER_KINDS + list(hr.picture_copies)
    if held.count(win) > deck[win]:
        raise NotationError(f"--win: {card_str(win)} is already in the hand "
                            f"({deck[win]} in the deck)")
    dora = None
    if dora_text is not None:
        try:
            dora = parse_card(dora_text)
        except NotationError as exc:
            raise NotationError(f"--dora-indicator: {exc}") from None
        if not hr.in_deck(dora):
            raise NotationError(f"--dora-indicator: {card_str(dora)} is not in this scenario's "
                                f"deck")
        if held.count(dora) + 1 > deck[dora]:
            raise NotationError(f"--dora-indicator: {card_str(dora)} is already in the hand "
                                f"({held.count(dora)} of the deck's {deck[dora]})")
    if ippatsu and not riichi:
        raise InputError("--ippatsu needs --riichi")
    if rinshan and by == "ron":   # it scored as a ron without the yaku, silently
        raise InputError("--rinshan is a win on a kan replacement card the winner draws: not "
                         "with --by ron")
    if rinshan and not any(g.kind == "kan" for g in hand.revealed):
        # the replacement card follows the winner's own kan (spec: "winning on that card is
        # rinshan"): without one in the hand the yaku was scored all the same
        raise InputError("--rinshan: the hand holds no kan: group, and the replacement card "
                         "follows the winner's own kan")
    return Scorer(sc).score(hand, win, by == "ron", riichi, ippatsu, last_card, rinshan, dora)


def _describe(self: ScoreResult) -> str:
    if not self.valid:
        return f"not a valid win: {self.reason} ({self.sets} sets)"
    lines = [f"{'yaku':<14}points"]
    lines += [f"  {k:<12}{v:>6}" for k, v in self.yaku.items()]
    lines.append(f"{'bonuses':<14}")
    lines += [f"  {k:<12}{v:>6}" for k, v in self.bonuses.items() if v]
    lines.append(f"{'subtotal':<14}{self.subtotal:>6}   ({self.sets} sets)")
    if self.doubled:
        lines.append(f"{'doubled':<14}{'x':>5}{self.points // max(self.subtotal, 1)}")
    lines.append(f"{'points':<14}{self.points:>6}")
    return "\n".join(lines)


ScoreResult.describe = _describe


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
