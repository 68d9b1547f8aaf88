"""Scoring a P-style trump mahjong win (spec §5, §8): yaku, additive items, deductions, yakuman,
over the best reading of the hand.

:func:`score_win` is the njit kernel the engine calls; :func:`score_parsed` and
:func:`score_text` wrap it for Python callers and the CLI (a JSON-able dict).

Value of a reading = its 1-point yaku + the additive items − the pon deduction; a yakuman
reading (paaren, chinroutou, kokushi) is worth exactly 13 (26 for double kokushi) under
``yakuman.exclusive``, else 13 plus everything else. Every reading from
:func:`simcore.ptrump.hand.decompositions` is scored and the highest legal one wins
(``best_decomposition``; legal = has a yaku when ``yaku_required``); then ``negative_win`` applies
(``floor_zero``: the ``floor`` slot adds back what lies below zero).

Inputs (card ids as in :mod:`simcore.ptrump.cards`: rank = id // 4, suit = id % 4, 52/53 jokers):

* ``hand``: int64[:] the winner's concealed cards without the win card, -1 entries ignored;
* ``rev_kind``: int64[2] revealed set kinds (``REV_PON/KAN/KAKAN/ANKAN``, -1 unused) and
  ``rev_cards``: int64[2, 4] their card ids (-1 unused; a pon has 3);
* ``n_nuki``: jokers set aside; ``win``: the winning card id;
* ``flags``: the situation, an OR of ``F_*`` below (the engine judges windows: ippatsu, first,
  last, nagashi);
* ``dora_ind``, ``ura_ind``: indicator card ids (-1: none);
* ``ra``: :func:`simcore.ptrump.rules_array.build_rules_array`; ``hr``: ``build_hand_rules``.

Output: ``bd`` int64[2, N_SLOTS] (row ``BD_POINTS``: points per slot, the pon slot negative;
row ``BD_COUNT``: how many: 1 for a flag item, cards for dora, sets for yakuhai and pon; 0 =
absent), and ``(value, has_yaku, ok)``: ``ok`` is whether this is a legal win (complete, a
one-colour paaren where required, a yaku where required, not below zero under
``negative_win: forbidden``). Ask ``ok`` before offering a win: ``is_complete`` is by rank only.

What this implementation simplifies
-----------------------------------
* ``pon_penalty: always``: the pons are charged when called (the engine's job), so the win
  deducts nothing; ``kakan_keeps_pon_penalty: false`` there means a refund at the kakan (engine).
* A suit-less card (text input only, ``F_NO_COLOUR``) breaks one colour under ``suit`` and
  ``red_black``; under ``numbers`` colour is the rank, so it does not.
* ``nukidora.in_content_checks: true`` lets tanyao and jqk see the set-aside jokers (a joker
  breaks both), and chinitsu under ``one_colour: numbers`` (a joker is no number 1-9; under
  ``suit``/``red_black`` jokers never break a colour); chanta (sets and head only) and the shapes
  are unaffected either way.
* Chankan adds no yaku (spec): a robbed card is an ordinary ron.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.stack import stack_empty, stack_empty_2d
from .cards import (
    FIRST_JOKER, JACK, JOKER, KING, N_RANKS, REVEALED_KINDS, TEN, CardError, format_cards,
    parse_hand, rank_char,
)
from .hand import (
    MAX_READINGS, RD_HEAD, RD_KIND, RD_SET0_RANK, RD_SET0_RUN, RD_SET1_RANK, RD_SET1_RUN,
    READING_W, RK_CHINROUTOU, RK_KOKUSHI, RK_PAAREN, RK_REGULAR, RK_SUTOITSU, decompositions,
)
from .rules_array import (  # noqa: F401  (RA_* names are made from a tuple in rules_array)
    N_SLOTS, NEGATIVE_FLOOR_ZERO, NEGATIVE_FORBIDDEN, NOT_YAKU_ADDITIVE, ONE_COLOUR_NUMBERS,
    ONE_COLOUR_OFF, ONE_COLOUR_SUIT, PON_PENALTY_WIN_ONLY, RA_SCORING_ADDITIVE_ARE_YAKU,
    RA_SCORING_BEST_DECOMPOSITION, RA_SCORING_YAKU_CHANTA_NEEDS_TERMINAL, RA_SCORING_YAKU_CHANTA_ON_PAIRS, RA_SCORING_ADDITIVE_DOUBLE_RIICHI_STACKS,
    RA_SCORING_ADDITIVE_CHIIHOU_EXCLUDES_REPLACEMENT, RA_SCORING_ADDITIVE_HAITEI_ON_REPLACEMENT, RA_ITEM_ENABLED, RA_ITEM_POINTS,
    RA_SCORING_DEDUCTIONS_KAKAN_KEEPS_PON_PENALTY, RA_HAND_KOUTSU_COUNTS_KANS, RA_SCORING_NEGATIVE_WIN, RA_NUKIDORA_IN_CONTENT_CHECKS,
    RA_CARDS_ONE_COLOUR, RA_HAND_OPEN_KAN_BREAKS_MENZEN, RA_SCORING_YAKUMAN_PAAREN_ONE_COLOUR, RA_SCORING_DEDUCTIONS_PON_PENALTY,
    RA_SCORING_YAKU_RINSHAN_ON_NUKIDORA, RA_SCORING_YAKU_RYANKANTSU_STACKS, RA_SCORING_ADDITIVE_URA_JOKER_WHEN, RA_SCORING_YAKU_REQUIRED, RA_SCORING_YAKUMAN_EXCLUSIVE,
    RA_SCORING_YAKU_YAKUHAI_PER_SET, RA_CARDS_YAOCHU_HONOURS, SL_CHANTA, SL_CHIIHOU, SL_CHINITSU, SL_CHINROUTOU,
    SL_DORA, SL_DOUBLE_RIICHI, SL_FLOOR, SL_HAITEI, SL_HOUTEI, SL_IIPEIKOU, SL_IPPATSU, SL_JQK,
    SL_KOKUSHI, SL_KOKUSHI_DOUBLE, SL_NAGASHI, SL_NUKIDORA, SL_OPEN_RIICHI, SL_PAAREN, SL_PINFU,
    SL_PON, SL_RENHOU, SL_RIICHI, SL_RINSHAN, SL_RYANKANTSU, SL_RYANKOUTSU, SL_SUTOITSU,
    SL_TANYAO, SL_TENHOU, SL_TSUMO, SL_URA, SL_URA_JOKER, SL_YAKUHAI, SLOT, SLOTS,
    URA_JOKER_ANY_WIN, YAKU_KEYS, YAKU_SLOTS, YAKUMAN_KEYS, build_hand_rules, build_rules_array,
)

# Revealed set kinds: the index in cards.REVEALED_KINDS ("pon", "kan", "kakan", "ankan").
REV_PON, REV_KAN, REV_KAKAN, REV_ANKAN = (REVEALED_KINDS.index(n)
                                          for n in ("pon", "kan", "kakan", "ankan"))
REV_NONE = -1
MAX_REVEALED = 2
_REV_ROWS = 4    # revealed rows score_readings keeps in its frame (the engine passes MAX_SETS)
_CARDS = 9 + 4 * _REV_ROWS   # hand, win card and revealed cards

# Situation flags (bits of ``flags``).
FLAG_NAMES = ("tsumo", "riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan",
              "nuki_replacement", "last", "first", "nagashi", "dealer", "no_colour")
F_TSUMO, F_RIICHI, F_DOUBLE_RIICHI, F_OPEN_RIICHI, F_IPPATSU, F_RINSHAN, F_NUKI_REPLACEMENT, \
    F_LAST, F_FIRST, F_NAGASHI, F_DEALER, F_NO_COLOUR = (1 << i for i in range(len(FLAG_NAMES)))
# F_RINSHAN: the win card is a kan replacement; F_NUKI_REPLACEMENT: a nukidora replacement;
# F_LAST: the last stock card (tsumo) or the last discard (ron); F_FIRST: a first-draw tsumo
# (tenhou/chiihou) or a ron inside the renhou window; F_DOUBLE_RIICHI implies a riichi;
# F_NO_COLOUR: some card has no known suit (text input).

# The names H-engine's round driver uses (same values).
CTX_TSUMO, CTX_RIICHI, CTX_DOUBLE_RIICHI, CTX_OPEN_RIICHI, CTX_IPPATSU, CTX_RINSHAN = (
    F_TSUMO, F_RIICHI, F_DOUBLE_RIICHI, F_OPEN_RIICHI, F_IPPATSU, F_RINSHAN)
CTX_NUKI_REPLACEMENT, CTX_LAST, CTX_FIRST, CTX_NAGASHI, CTX_DEALER = (
    F_NUKI_REPLACEMENT, F_LAST, F_FIRST, F_NAGASHI, F_DEALER)
SK_PON, SK_KAN, SK_KAKAN, SK_ANKAN = REV_PON, REV_KAN, REV_KAKAN, REV_ANKAN

# Breakdown rows.
BD_POINTS, BD_COUNT = 0, 1

# Which slots satisfy the yaku requirement: always (the 1-point yaku, the yakuman) and when
# scoring.additive_are_yaku (the additive items but dora, ura, ura_joker, nukidora, nagashi).
YAKU_ALWAYS = np.array([s in YAKU_KEYS or s in YAKUMAN_KEYS for s in SLOTS], np.bool_)
YAKU_IF_ADDITIVE = np.array([SLOT[s] >= SLOT["riichi"] and SLOT[s] < SLOT["pon"]
                             and s not in NOT_YAKU_ADDITIVE for s in SLOTS], np.bool_)

SUIT_COLOUR = np.array([0, 1, 1, 0], np.int64)   # red_black: s c black (0), h d red (1)
# _reading_items walks the two concealed sets of a reading as (RD_SET0_RUN + 2j, RD_SET0_RANK + 2j)
assert RD_SET1_RUN == RD_SET0_RUN + 2 and RD_SET1_RANK == RD_SET0_RANK + 2


@nb.njit(cache=True)
def dora_rank(indicator):
    """Rank index the indicator card points to (1→2 … 9→10→J→Q→K→1); -1 for none or a joker."""
    if indicator < 0 or indicator >= FIRST_JOKER:
        return -1
    return (indicator // 4 + 1) % 13


@nb.njit(cache=True)
def _one_colour(cards, n, flags, mode):
    """Are the n card ids one colour under cards.one_colour ``mode``? Under ``suit`` and
    ``red_black`` jokers (no suit) never break it; under ``numbers`` every card must be a number
    1-9, so a joker breaks it, a joker head included (spec §1)."""
    if mode == ONE_COLOUR_OFF:
        return False
    if flags & F_NO_COLOUR and mode != ONE_COLOUR_NUMBERS:
        return False
    first = -1
    for i in range(n):
        c = cards[i]
        if mode == ONE_COLOUR_NUMBERS:
            if c // 4 > 8:                    # 10, J, Q, K and the jokers (rank 13)
                return False
            continue
        if c >= FIRST_JOKER:
            continue
        col = c % 4 if mode == ONE_COLOUR_SUIT else SUIT_COLOUR[c % 4]
        if first < 0:
            first = col
        elif col != first:
            return False
    return True


@nb.njit(cache=True)
def _is_yaochu(rank, ra):
    if rank == 0 or rank == 8:
        return True
    return rank >= TEN and ra[RA_CARDS_YAOCHU_HONOURS] != 0


# Explicit signatures: called with a constant slot at some 30 places, each would otherwise be a
# literal specialisation of its own (54 compiles); LLVM still inlines and folds the constant.
@nb.njit("int64(int64[:, ::1], int64[::1], int64, int64, int64)", cache=True)
def _put(bd, ra, slot, count, points):
    """Record item ``slot`` (count, points) if enabled and present; returns the points added."""
    if count <= 0 or ra[RA_ITEM_ENABLED + slot] == 0:
        return 0
    bd[BD_COUNT, slot] = count
    bd[BD_POINTS, slot] = points
    return points


@nb.njit("int64(int64[::1], int64)", cache=True)
def _pts(ra, slot):
    return ra[RA_ITEM_POINTS + slot]


@nb.njit(cache=True)
def _fixed_items(cards, n_cards, rev_kind, n_nuki, flags, dora_ind, ura_ind, ra, bd):
    """Items that do not depend on the reading (additive items, tanyao, jqk, tsumo, rinshan,
    ryankantsu, pons) into ``bd``; returns their points."""
    total = 0
    menzen = True
    n_kans = 0
    n_pons = 0
    k = 0
    for g in range(rev_kind.shape[0]):
        kd = rev_kind[g]
        if kd >= 0:
            k += 1
        if kd == REV_PON or kd == REV_KAKAN:
            menzen = False
        if kd == REV_KAN and ra[RA_HAND_OPEN_KAN_BREAKS_MENZEN] != 0:
            menzen = False
        if kd == REV_KAN or kd == REV_KAKAN or kd == REV_ANKAN:
            n_kans += 1
        if kd == REV_PON or (kd == REV_KAKAN and ra[RA_SCORING_DEDUCTIONS_KAKAN_KEEPS_PON_PENALTY] != 0):
            n_pons += 1
    tsumo = (flags & F_TSUMO) != 0
    replacement = (flags & (F_RINSHAN | F_NUKI_REPLACEMENT)) != 0
    # content: every card of hand, revealed sets and win card (+ nuki jokers if seen)
    tanyao = True
    jqk = True
    for i in range(n_cards):
        r = cards[i] // 4
        if r < 1 or r > 7:
            tanyao = False
        if r < JACK or r > KING:
            jqk = False
    if n_nuki > 0 and ra[RA_NUKIDORA_IN_CONTENT_CHECKS] != 0:
        tanyao = False
        jqk = False
    if menzen and tsumo:
        total += _put(bd, ra, SL_TSUMO, 1, _pts(ra, SL_TSUMO))
    if tanyao:
        total += _put(bd, ra, SL_TANYAO, 1, _pts(ra, SL_TANYAO))
    if n_kans >= 2:
        total += _put(bd, ra, SL_RYANKANTSU, 1, _pts(ra, SL_RYANKANTSU))
    if tsumo and ((flags & F_RINSHAN) != 0 or
                  ((flags & F_NUKI_REPLACEMENT) != 0 and ra[RA_SCORING_YAKU_RINSHAN_ON_NUKIDORA] != 0)):
        total += _put(bd, ra, SL_RINSHAN, 1, _pts(ra, SL_RINSHAN))
    # riichi family
    riichi = (flags & (F_RIICHI | F_DOUBLE_RIICHI)) != 0
    if (flags & F_DOUBLE_RIICHI) != 0 and ra[RA_ITEM_ENABLED + SL_DOUBLE_RIICHI] != 0:
        total += _put(bd, ra, SL_DOUBLE_RIICHI, 1, _pts(ra, SL_DOUBLE_RIICHI))
        stacks = ra[RA_SCORING_ADDITIVE_DOUBLE_RIICHI_STACKS] != 0
    else:
        stacks = True
    if riichi and stacks:
        if (flags & F_OPEN_RIICHI) != 0 and ra[RA_ITEM_ENABLED + SL_OPEN_RIICHI] != 0:
            total += _put(bd, ra, SL_OPEN_RIICHI, 1, _pts(ra, SL_OPEN_RIICHI))
        else:
            total += _put(bd, ra, SL_RIICHI, 1, _pts(ra, SL_RIICHI))
    if riichi and (flags & F_IPPATSU) != 0:
        total += _put(bd, ra, SL_IPPATSU, 1, _pts(ra, SL_IPPATSU))
    seen_nuki_breaks = (n_nuki > 0 and ra[RA_NUKIDORA_IN_CONTENT_CHECKS] != 0
                        and ra[RA_CARDS_ONE_COLOUR] == ONE_COLOUR_NUMBERS)   # a seen joker: not 1-9
    if _one_colour(cards, n_cards, flags, ra[RA_CARDS_ONE_COLOUR]) and not seen_nuki_breaks:
        total += _put(bd, ra, SL_CHINITSU, 1, _pts(ra, SL_CHINITSU))
    first = (flags & F_FIRST) != 0 and k == 0       # no pon/kan of one's own yet
    if first and not tsumo:
        total += _put(bd, ra, SL_RENHOU, 1, _pts(ra, SL_RENHOU))
    if first and tsumo and not (replacement and ra[RA_SCORING_ADDITIVE_CHIIHOU_EXCLUDES_REPLACEMENT] != 0):
        slot = SL_TENHOU if (flags & F_DEALER) != 0 else SL_CHIIHOU
        total += _put(bd, ra, slot, 1, _pts(ra, slot))
    if jqk:
        total += _put(bd, ra, SL_JQK, 1, _pts(ra, SL_JQK))
    if (flags & F_NAGASHI) != 0:
        total += _put(bd, ra, SL_NAGASHI, 1, _pts(ra, SL_NAGASHI))
    if (flags & F_LAST) != 0:
        if tsumo and not (replacement and ra[RA_SCORING_ADDITIVE_HAITEI_ON_REPLACEMENT] == 0):
            total += _put(bd, ra, SL_HAITEI, 1, _pts(ra, SL_HAITEI))
        elif not tsumo:
            total += _put(bd, ra, SL_HOUTEI, 1, _pts(ra, SL_HOUTEI))
    # dora / ura / ura_joker / nukidora
    d = dora_rank(dora_ind)
    u = dora_rank(ura_ind)
    n_dora = 0
    n_ura = 0
    for i in range(n_cards):
        r = cards[i] // 4
        if r == d:
            n_dora += 1
        if r == u:
            n_ura += 1
    total += _put(bd, ra, SL_DORA, n_dora, n_dora * _pts(ra, SL_DORA))
    ura_joker = ura_ind >= FIRST_JOKER
    if riichi and not ura_joker:
        total += _put(bd, ra, SL_URA, n_ura, n_ura * _pts(ra, SL_URA))
    if ura_joker and (riichi or ra[RA_SCORING_ADDITIVE_URA_JOKER_WHEN] == URA_JOKER_ANY_WIN):
        total += _put(bd, ra, SL_URA_JOKER, 1, _pts(ra, SL_URA_JOKER))
    total += _put(bd, ra, SL_NUKIDORA, n_nuki, n_nuki * _pts(ra, SL_NUKIDORA))
    # deduction
    if ra[RA_SCORING_DEDUCTIONS_PON_PENALTY] == PON_PENALTY_WIN_ONLY and n_pons > 0 and _pts(ra, SL_PON) > 0:
        bd[BD_COUNT, SL_PON] = n_pons
        bd[BD_POINTS, SL_PON] = -n_pons * _pts(ra, SL_PON)
        total += bd[BD_POINTS, SL_PON]
    return total


@nb.njit(cache=True)
def _reading_items(rd, rev_kind, rev_rank, win_rank, menzen, ra, bd):
    """Reading-dependent 1-point yaku of regular or sutoitsu reading ``rd`` into ``bd``."""
    total = 0
    kind = rd[RD_KIND]
    if kind == RK_SUTOITSU:
        total += _put(bd, ra, SL_SUTOITSU, 1, _pts(ra, SL_SUTOITSU))
        return total
    # sets: up to 2 concealed (from the reading) + the revealed ones
    head = rd[RD_HEAD]
    n_trip = 0
    n_honour_sets = 0
    chanta = _is_yaochu(head, ra)
    terminal = head == 0 or head == 8
    n_runs = 0
    for j in range(2):
        is_run = rd[RD_SET0_RUN + 2 * j]
        r = rd[RD_SET0_RANK + 2 * j]
        if r < 0:
            continue
        if is_run == 1:
            n_runs += 1
            if r == 0 or r == 6:
                terminal = True
            else:
                chanta = False
        else:
            n_trip += 1
            if r >= TEN:
                n_honour_sets += 1
            if r == 0 or r == 8:
                terminal = True
            if not _is_yaochu(r, ra):
                chanta = False
    for g in range(rev_kind.shape[0]):
        kd = rev_kind[g]
        if kd < 0:
            continue
        r = rev_rank[g]
        if kd == REV_PON or ra[RA_HAND_KOUTSU_COUNTS_KANS] != 0:
            n_trip += 1
        if r >= TEN:
            n_honour_sets += 1
        if r == 0 or r == 8:
            terminal = True
        if not _is_yaochu(r, ra):
            chanta = False
    # pinfu: menzen, two concealed runs, head not J/Q/K, the win card at a two-sided end
    if menzen and n_runs == 2 and not (head >= JACK and head <= KING):
        two_sided = False
        for j in range(2):
            r = rd[RD_SET0_RANK + 2 * j]
            if (win_rank == r and r < 6) or (win_rank == r + 2 and r > 0):
                two_sided = True
        if two_sided:
            total += _put(bd, ra, SL_PINFU, 1, _pts(ra, SL_PINFU))
    if menzen and n_runs == 2 and rd[RD_SET0_RANK] == rd[RD_SET1_RANK]:
        total += _put(bd, ra, SL_IIPEIKOU, 1, _pts(ra, SL_IIPEIKOU))
    if n_trip >= 2 and (bd[BD_COUNT, SL_RYANKANTSU] == 0 or ra[RA_SCORING_YAKU_RYANKANTSU_STACKS] != 0):
        total += _put(bd, ra, SL_RYANKOUTSU, 1, _pts(ra, SL_RYANKOUTSU))
    if chanta and (terminal or ra[RA_SCORING_YAKU_CHANTA_NEEDS_TERMINAL] == 0):
        total += _put(bd, ra, SL_CHANTA, 1, _pts(ra, SL_CHANTA))
    if n_honour_sets > 0:
        per = ra[RA_SCORING_YAKU_YAKUHAI_PER_SET] != 0
        total += _put(bd, ra, SL_YAKUHAI, n_honour_sets,
                      _pts(ra, SL_YAKUHAI) * (n_honour_sets if per else 1))
    return total


@nb.njit(cache=True)
def _sutoitsu_chanta(cnt, ra, bd):
    """chanta_on_pairs: every pair of a four-pairs hand yaochu (and a 1 or 9 if needed)."""
    terminal = cnt[0] > 0 or cnt[8] > 0
    for r in range(N_RANKS):
        if cnt[r] > 0 and not _is_yaochu(r, ra):
            return 0
    if terminal or ra[RA_SCORING_YAKU_CHANTA_NEEDS_TERMINAL] == 0:
        return _put(bd, ra, SL_CHANTA, 1, _pts(ra, SL_CHANTA))
    return 0


@nb.njit(cache=True)
def _has_yaku(bd, ra):
    for s in range(N_SLOTS):
        if bd[BD_COUNT, s] > 0:
            if YAKU_ALWAYS[s] or (YAKU_IF_ADDITIVE[s] and ra[RA_SCORING_ADDITIVE_ARE_YAKU] != 0):
                return True
    return False


@nb.njit(cache=True)
def score_readings(hand, rev_kind, rev_cards, n_nuki, win, flags, dora_ind, ura_ind, ra, hr,
                   bd, readings):
    """:func:`score_win` that also returns which reading scored.

    ``readings``: int64[MAX_READINGS, READING_W], filled by
    :func:`simcore.ptrump.hand.decompositions`. Returns (value, has_yaku, ok, best): ``best`` is
    the row of ``readings`` that scored, -1 if the hand is not complete.
    """
    for s in range(N_SLOTS):
        bd[BD_POINTS, s] = 0
        bd[BD_COUNT, s] = 0
    # scratch in this frame, not the heap (simcore.nb.stack): this runs at every win offered
    # and every wait a bot values
    n_rev = rev_kind.shape[0]
    if n_rev <= _REV_ROWS:
        cards, rev_rank = stack_empty(_CARDS, np.int64), stack_empty(_REV_ROWS, np.int64)
    else:   # more revealed rows than any caller has today
        cards, rev_rank = np.empty(9 + 4 * n_rev, np.int64), np.empty(n_rev, np.int64)
    # every card of the win: hand, win card, revealed sets
    n_cards = 0
    cnt = stack_empty(N_RANKS, np.int64)
    cnt[:] = 0
    for i in range(hand.shape[0]):
        if hand[i] >= 0:
            cards[n_cards] = hand[i]
            n_cards += 1
            cnt[hand[i] // 4] += 1
    cards[n_cards] = win
    n_cards += 1
    cnt[win // 4] += 1
    concealed_cards = n_cards
    k = np.int64(0)
    rev_rank[:] = -1
    menzen = np.bool_(True)
    for g in range(rev_kind.shape[0]):
        if rev_kind[g] < 0:
            continue
        k += 1
        for j in range(4):
            if rev_cards[g, j] >= 0:
                cards[n_cards] = rev_cards[g, j]
                n_cards += 1
                rev_rank[g] = rev_cards[g, j] // 4
        kd = rev_kind[g]
        if kd == REV_PON or kd == REV_KAKAN or (kd == REV_KAN and
                                                ra[RA_HAND_OPEN_KAN_BREAKS_MENZEN] != 0):
            menzen = False
    n = decompositions(cnt, k, hr, readings)
    if n == 0:
        return np.int64(0), False, False, -1
    fixed_bd = stack_empty_2d(2, N_SLOTS, np.int64)
    fixed_bd[:, :] = 0
    fixed = _fixed_items(cards, n_cards, rev_kind, n_nuki, flags, dora_ind, ura_ind, ra,
                         fixed_bd)
    mode = ra[RA_CARDS_ONE_COLOUR]
    colour = _one_colour(cards, concealed_cards, flags, mode)
    tmp = stack_empty_2d(2, N_SLOTS, np.int64)
    tmp[:, :] = 0
    best = -1
    best_raw = np.int64(0)
    best_legal = False
    best_yaku = False
    need_yaku = ra[RA_SCORING_YAKU_REQUIRED] != 0
    first_only = ra[RA_SCORING_BEST_DECOMPOSITION] == 0
    win_rank = win // 4
    for i in range(n):
        rd = readings[i]
        kind = rd[RD_KIND]
        for s in range(N_SLOTS):
            tmp[0, s] = 0
            tmp[1, s] = 0
        yakuman_slot = -1
        if kind == RK_PAAREN:
            if ra[RA_SCORING_YAKUMAN_PAAREN_ONE_COLOUR] != 0 and mode != ONE_COLOUR_OFF and not colour:
                continue                      # a mixed-colour 1-8 is no win at all
            yakuman_slot = SL_PAAREN
        elif kind == RK_CHINROUTOU:
            yakuman_slot = SL_CHINROUTOU
        elif kind == RK_KOKUSHI:
            yakuman_slot = SL_KOKUSHI
            if rd[RD_HEAD] == JOKER and ra[RA_ITEM_ENABLED + SL_KOKUSHI_DOUBLE] != 0 \
                    and mode != ONE_COLOUR_OFF and colour:
                yakuman_slot = SL_KOKUSHI_DOUBLE
        if yakuman_slot >= 0:
            if ra[RA_ITEM_ENABLED + yakuman_slot] == 0:
                continue                      # the shape exists only as this yakuman
            raw = _put(tmp, ra, yakuman_slot, 1, _pts(ra, yakuman_slot))
            if ra[RA_SCORING_YAKUMAN_EXCLUSIVE] == 0:
                for s in range(N_SLOTS):
                    if fixed_bd[1, s] != 0 and s != SL_RYANKANTSU:
                        tmp[0, s] = fixed_bd[0, s]
                        tmp[1, s] = fixed_bd[1, s]
                        raw += fixed_bd[0, s]
        else:
            raw = fixed
            for s in range(N_SLOTS):
                tmp[0, s] = fixed_bd[0, s]
                tmp[1, s] = fixed_bd[1, s]
            if kind == RK_SUTOITSU or kind == RK_REGULAR:
                raw += _reading_items(rd, rev_kind, rev_rank, win_rank, menzen, ra, tmp)
            if kind == RK_SUTOITSU and ra[RA_SCORING_YAKU_CHANTA_ON_PAIRS] != 0:
                raw += _sutoitsu_chanta(cnt, ra, tmp)
        yaku = _has_yaku(tmp, ra)
        legal = yaku or not need_yaku
        better = best < 0 or (legal and not best_legal) or \
            (legal == best_legal and raw > best_raw and not (first_only and best_legal))
        if better:
            best = i
            best_raw = raw
            best_legal = legal
            best_yaku = yaku
            for s in range(N_SLOTS):
                bd[0, s] = tmp[0, s]
                bd[1, s] = tmp[1, s]
    if best < 0:
        return np.int64(0), False, False, -1
    value = best_raw
    ok = best_legal
    neg = ra[RA_SCORING_NEGATIVE_WIN]
    if value < 0:
        if neg == NEGATIVE_FLOOR_ZERO:
            bd[BD_POINTS, SL_FLOOR] = -value
            bd[BD_COUNT, SL_FLOOR] = 1
            value = np.int64(0)
        elif neg == NEGATIVE_FORBIDDEN:
            ok = False
    return value, best_yaku, ok, best


@nb.njit(cache=True)
def score_win(hand, rev_kind, rev_cards, n_nuki, win, flags, dora_ind, ura_ind, ra, hr, bd):
    """Score a win (module docstring: inputs, ``bd`` layout). Returns (value, has_yaku, ok)."""
    readings = stack_empty_2d(MAX_READINGS, READING_W, np.int64)
    value, has_yaku, ok, _ = score_readings(hand, rev_kind, rev_cards, n_nuki, win, flags,
                                            dora_ind, ura_ind, ra, hr, bd, readings)
    return value, has_yaku, ok


@nb.njit(cache=True)
def score_win_ctx(conc, sets, set_kind, n_sets, n_nuki, win, flags, dora_ind, ura_ind, ra, hr,
                  breakdown):
    """:func:`score_win` in the round driver's terms.

    Parameters
    ----------
    conc : int64[:]
        The concealed cards without the win card (every entry a card id).
    sets, set_kind : int64[MAX_SETS, 4], int64[MAX_SETS]
        The revealed sets' card ids (-1 padding) and kinds (``SK_*`` = ``REV_*``); rows from
        ``n_sets`` on are ignored.
    breakdown : int64[N_SLOTS]
        Written: points per slot (``SLOTS``), 0 where absent.

    Returns
    -------
    (value, raw, has_yaku)
        ``raw``: the value before ``negative_win`` (``floor_zero`` lifts a negative ``raw`` to a
        0 ``value``). A hand whose ranks look complete but that is no win (a mixed-colour paaren
        under ``paaren_one_colour``) gives (0, 0, False): check :func:`score_win`'s ``ok`` where
        ``scoring.yaku_required`` is off.
    """
    rev_kind = stack_empty(MAX_REVEALED, np.int64)
    rev_kind[:] = REV_NONE
    rev_cards = stack_empty_2d(MAX_REVEALED, 4, np.int64)
    rev_cards[:, :] = -1
    for g in range(min(n_sets, MAX_REVEALED)):
        rev_kind[g] = set_kind[g]
        for j in range(4):
            rev_cards[g, j] = sets[g, j]
    bd = stack_empty_2d(2, N_SLOTS, np.int64)
    bd[:, :] = 0
    readings = stack_empty_2d(MAX_READINGS, READING_W, np.int64)
    value, has_yaku, ok, best = score_readings(conc, rev_kind, rev_cards, n_nuki, win, flags,
                                               dora_ind, ura_ind, ra, hr, bd, readings)
    for s in range(N_SLOTS):
        breakdown[s] = bd[BD_POINTS, s]
    raw = value - bd[BD_POINTS, SL_FLOOR]
    return value, raw, has_yaku


# ---------------------------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------------------------

_FLAG_OF_WORD = {"tsumo": F_TSUMO, "riichi": F_RIICHI, "wriichi": F_RIICHI | F_DOUBLE_RIICHI,
                 "ippatsu": F_IPPATSU, "rinshan": F_RINSHAN, "last": F_LAST, "first": F_FIRST,
                 "nagashi": F_NAGASHI, "dealer": F_DEALER}


class Scorer:
    """Scores wins under one scenario (the rules and shape arrays built once)."""

    def __init__(self, sc):
        self.scenario = sc
        self.ra = build_rules_array(sc)
        self.hr = build_hand_rules(sc)

    def score(self, parsed, dealer: bool = False, open_riichi: bool = False,
              nuki_replacement: bool = False) -> dict:
        """Score a :class:`simcore.ptrump.cards.ParsedHand` that has a win card and says tsumo
        or ron; the JSON-able result of :func:`score_text`."""
        if parsed.win is None:
            raise CardError("no winning card: write it last as +CARD (e.g. +8)")
        words = set(parsed.flags)
        if "rinshan" in words:
            if parsed.ron:
                raise CardError("'rinshan' is a tsumo on a replacement card: not with 'ron'")
            words.add("tsumo")
            if not any(g.kind in ("kan", "kakan", "ankan") for g in parsed.revealed):
                if not parsed.nuki:
                    raise CardError("'rinshan': no kan or nukidora gave a replacement card")
                words.discard("rinshan")        # the replacement came after a nukidora
                nuki_replacement = True
        if not ({"tsumo", "ron"} & words):
            raise CardError("say how the hand won: tsumo or ron")
        if "ippatsu" in words and not ({"riichi", "wriichi"} & words):
            raise CardError("'ippatsu' needs 'riichi' or 'wriichi'")
        if parsed.dora is not None and parsed.dora >= FIRST_JOKER:
            raise CardError("dora:X: a joker dora indicator is reshuffled away (spec §3)")
        flags = 0
        for word in words:
            flags |= _FLAG_OF_WORD.get(word, 0)
        if dealer:
            flags |= F_DEALER
        if open_riichi:
            flags |= F_OPEN_RIICHI
        if nuki_replacement:
            flags |= F_NUKI_REPLACEMENT
        if any(parsed.is_suited(c) is False and c < FIRST_JOKER for c in parsed.all_cards
               if c not in (parsed.dora, parsed.ura)):
            flags |= F_NO_COLOUR
        hand = np.array(parsed.concealed, np.int64)
        rev_kind = np.full(MAX_REVEALED, REV_NONE, np.int64)
        rev_cards = np.full((MAX_REVEALED, 4), -1, np.int64)
        for g, rs in enumerate(parsed.revealed):
            rev_kind[g] = REVEALED_KINDS.index(rs.kind)
            rev_cards[g, :len(rs.cards)] = rs.cards
        bd = np.zeros((2, N_SLOTS), np.int64)
        readings = np.full((MAX_READINGS, READING_W), -1, np.int64)
        value, has_yaku, ok, best = score_readings(
            hand, rev_kind, rev_cards, len(parsed.nuki), parsed.win, flags,
            -1 if parsed.dora is None else parsed.dora, -1 if parsed.ura is None else parsed.ura,
            self.ra, self.hr, bd, readings)
        return self._result(parsed, int(value), bool(has_yaku), bool(ok), int(best), bd, readings)

    def _result(self, parsed, value, has_yaku, ok, best, bd, readings) -> dict:
        items = {}
        counts = {}
        deductions = {}
        for s, name in enumerate(SLOTS):
            if bd[BD_COUNT, s] == 0:
                continue
            if name == "pon":
                deductions[name] = int(bd[BD_POINTS, s])
            elif name != "floor":
                items[name] = int(bd[BD_POINTS, s])
            counts[name] = int(bd[BD_COUNT, s])
        raw = sum(items.values()) + sum(deductions.values())
        if best < 0:
            reason = "not a winning shape"
        elif not ok and not has_yaku and self.scenario.get("scoring.yaku_required"):
            reason = "no yaku"
        elif not ok:
            reason = "below zero (scoring.negative_win: forbidden)"
        else:
            reason = None
        return {
            "hand": str(parsed),
            "valid": ok,
            "reason": reason,
            "has_yaku": has_yaku,
            "reading": reading_text(readings[best], parsed) if best >= 0 else None,
            "items": items,
            "deductions": deductions,
            "counts": counts,
            "subtotal": raw,
            "total": value,
        }


def reading_text(rd, parsed=None) -> str:
    """A reading row as text: ``22 345 345``, ``sutoitsu``, ``kokushi (XX)``; revealed sets
    of ``parsed`` appended as written."""
    kind = int(rd[RD_KIND])
    rev = [f"{g.kind}:{rank_char(g.rank) * len(g.cards)}" for g in parsed.revealed] \
        if parsed is not None else []
    if kind == RK_REGULAR:
        parts = [rank_char(int(rd[RD_HEAD])) * 2]
        for j in range(2):
            is_run, r = int(rd[RD_SET0_RUN + 2 * j]), int(rd[RD_SET0_RANK + 2 * j])
            if r >= 0:
                parts.append("".join(rank_char(r + i) for i in range(3)) if is_run
                             else rank_char(r) * 3)
        return " ".join(parts + rev)
    name = {RK_SUTOITSU: "sutoitsu", RK_PAAREN: "paaren", RK_CHINROUTOU: "chinroutou",
            RK_KOKUSHI: "kokushi"}[kind]
    if kind == RK_KOKUSHI:
        name += f" ({rank_char(int(rd[RD_HEAD])) * 2})"
    if parsed is not None and kind != RK_KOKUSHI:
        name += f" ({format_cards(parsed.concealed + (parsed.win,), parsed.suitless, '')})"
    return name


_SCORERS: dict = {}


def scorer_for(sc) -> Scorer:
    """A cached :class:`Scorer` per scenario (keyed by its resolved data)."""
    key = sc.data_key
    if key not in _SCORERS:
        _SCORERS[key] = Scorer(sc)
    return _SCORERS[key]


def score_parsed(parsed, sc, **opts) -> dict:
    return scorer_for(sc).score(parsed, **opts)


def score_text(text: str, sc, dealer: bool | None = None, open_riichi: bool = False,
               nuki_replacement: bool = False) -> dict:
    """Score a win written in the spec's notation (``"234 67 55 +8 tsumo dora:K"``) under
    scenario ``sc`` (a loaded Scenario: ``simcore.ptrump.scenario.load``; importing it here
    would close an import cycle through the bots, which score with this module's kernel).
    JSON-able result: ``valid``,
    ``reason``, ``has_yaku``, ``reading`` (the decomposition that scored), ``items`` (yaku and
    bonuses: points), ``deductions`` (``pon``: negative points), ``counts`` (how many of each),
    ``subtotal`` (before ``negative_win``), ``total`` (the win's value).

    ``dealer`` (or the context word ``dealer``, if the notation has it) names a first-draw tsumo
    tenhou rather than chiihou; ``open_riichi`` marks the riichi open; ``nuki_replacement``: the
    win card came after a nukidora (``rinshan_on_nukidora``)."""
    parsed = parse_hand(text)
    return score_parsed(parsed, sc, dealer=bool(dealer), open_riichi=open_riichi,
                        nuki_replacement=nuki_replacement)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
