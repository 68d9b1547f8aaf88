"""Hand-analysis kernels (spec §2, §5, §6): complete shape, waits, distance to tenpai, furiten.

All kernels are module-level ``@njit(cache=True)`` functions over uint64 hand masks (layout in
:mod:`simcore.momojan.cards`) and a :class:`HandTables` tuple built once per rules setting by
:func:`simcore.momojan.tables.build_hand_tables`; :class:`simcore.momojan.tables.HandAnalyzer`
wraps them for Python callers.

How the fast path works
-----------------------
A hand splits into its number part (36 bits) and its picture counts. In the new edition the two
parts form sets independently (no set mixes a number card and a picture), so a 3k+2 hand is complete
iff one part is "sets only" and the other "sets + one head". The number part is looked up in a hash
table built from the set and head catalogues (every number mask that is complete, or one card short
of complete, with the cards that complete it); the picture part is five counters, checked
directly. Old-edition rank-1 substitution is handled by trying each way of reading the hand's rank-1
cards as numbers, suns or moons (at most 3^4 readings) over the same table.

Distance to tenpai (``shanten``)
--------------------------------
For a concealed hand of n cards with r revealed sets, let k = n // 3 (the concealed sets a winning
hand of this size holds) and G = max(k, 3 - r): the sets still to be formed in hand. A hand with too
few revealed sets (k + r < 3) must form extra sets and reveal them by Kai (or call) before it can
win, so its target is G > k sets and the measure stays >= 1 until it has revealed enough.
Over every way to pick from the hand m sets, t partial sets (two cards a single card turns into a
set) and h <= 1 head, with m + t <= G::

    shanten = min(2 * (G - m) - t - h)

For G == k this is riichi mahjong's standard measure: -1 for a complete 3k+2 shape, 0 for a 3k+1
shape one card from complete. It counts shape only: a partial whose completing cards are all out of
reach still counts, so shanten 0 does not guarantee waits (``waits`` is availability-aware).

The fast, table-driven kernel is :func:`simcore.momojan.shanten.shanten` (hands of up to 9 cards;
its tables live in the core array, ``CORE_SH_*``). ``shanten_counts`` here is the depth-first search
over the catalogues: the slow path, kept as a second implementation the tests compare against.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from simcore.nb.bits import popcount
from simcore.nb.stack import stack_empty
from simcore.nb.hashtable import FILTER_LOG2_BITS, insert_or, lookup_filtered_at
from .cards import (
    MOMO_KIND_SET, N_KINDS, N_NUMBER_KINDS, N_PICTURES, NUMBER_MASK, PICTURE_SHIFT,
)

NUM = np.uint64(NUMBER_MASK)
COMPLETE_SETS = np.uint64(1) << np.uint64(40)  # number part is sets only (size % 3 == 0)
COMPLETE_HEAD = np.uint64(1) << np.uint64(41)  # number part is sets + one head (size % 3 == 2)
RANK1_BITS = np.uint64((1 << 0) | (1 << 9) | (1 << 18) | (1 << 27))
PIC_SHIFT = PICTURE_SHIFT
TABLE_LOG2 = 19  # 512k slots (8 MiB) for the ~250k canonical entries
MAX_DECOMPOSITIONS = 512

# hand rules vector (int64):
# [momo_wild, n_substitutes, substitute_0, substitute_1, copies_0..4, number cards in the deck (mask)]
HR_MOMO_WILD, HR_N_SUBS, HR_SUB0, HR_SUB1, HR_COPIES = 0, 1, 2, 3, 4
HR_DECK_NUMBERS = HR_COPIES + N_PICTURES
HAND_RULES_LEN = HR_DECK_NUMBERS + 1

# The hand core: everything the hot kernels (waits, is_complete) and the bots need, in ONE uint64
# array. numba increfs and decrefs every array a function receives (each member of a tuple too),
# atomically, on every call; with one array instead of six that cost, which dominated the round
# loop, all but disappears. Layout (offsets in words):
CORE_TABLE = 0                                         # number-part hash table (2 words a slot)
CORE_FILTER = CORE_TABLE + (2 << TABLE_LOG2)           # its presence filter
CORE_PIC_INFO = CORE_FILTER + (1 << (FILTER_LOG2_BITS - 6))  # picture-counter facts, 2**15 words
CORE_RELATED = CORE_PIC_INFO + (1 << 15)               # kinds sharing a partial/head with kind k
CORE_RULES = CORE_RELATED + N_KINDS                    # the hand rules vector (HR_* above)
# Distance-to-tenpai regions (kernels and the layout of their words in simcore.momojan.shanten):
SH_SMALL = 6               # number parts of up to this many cards have a table entry
SH_NUM_ENTRIES = 2391496   # number masks of 0..6 of the 36 cards (sum of C(36, k))
SH_MAX_GROUPS = 2048
CORE_SH_RANK = CORE_RULES + HAND_RULES_LEN             # colex ranks: size offsets, binomials
CORE_SH_NUM = CORE_SH_RANK + 8 + 37 * 8                # number-part frontier ids, one byte each
CORE_SH_NUM_PALETTE = CORE_SH_NUM + (SH_NUM_ENTRIES + 7) // 8  # frontier of each id (32 words)
CORE_SH_PIC = CORE_SH_NUM_PALETTE + 32                 # picture-part frontiers and ids, 2**15 words
CORE_SH_BEST = CORE_SH_PIC + (1 << 15)                 # best value per (number id, picture id)
CORE_SH_GROUP_START = CORE_SH_BEST + 32 * 128          # number groups by card held: offsets
CORE_SH_GROUPS = CORE_SH_GROUP_START + N_NUMBER_KINDS + 1  # ... and the groups (mask | flags)
CORE_SET_ROWS = CORE_SH_GROUPS + SH_MAX_GROUPS         # hand mask of each shape_sets row (the
SET_ROW_SLOTS = 256                                    # engine's Kai/call rows), for the bots
CORE_LEN = CORE_SET_ROWS + SET_ROW_SLOTS

HandTables = namedtuple("HandTables", [
    "rules",                        # int64[HAND_RULES_LEN], layout above
    "sets", "set_start",            # set catalogue (shapes.py) and its first-card index
    "heads", "head_start",
    "shape_sets", "shape_set_start",  # distinct set multisets, for shanten
    "partials", "partial_start",
    "core",                         # uint64[CORE_LEN]: number-part hash table, its presence
                                    # filter, picture facts, related kinds, hand rules (CORE_*)
])


# ---------------------------------------------------------------------------------------------
# Fruit symmetry: lemon, mikan and ichigo play identical roles in every shape (momo does not), so
# the table stores only number masks whose three non-momo 9-bit rows are in descending order, and
# lookups sort the rows first and map the answer back. This cuts the table about sixfold, so it
# stays in cache.
# ---------------------------------------------------------------------------------------------

ROW = np.uint64(0x1FF)


@nb.njit(cache=True)
def _row(x, f):
    return (np.uint64(x) >> np.uint64(9 * f)) & ROW


@nb.njit(cache=True)
def canonical_rows(n_part):
    """(canonical mask, fruit in canonical row 1, row 2, row 3)."""
    a, b, c = _row(n_part, np.int64(1)), _row(n_part, np.int64(2)), _row(n_part, np.int64(3))
    fa, fb, fc = 1, 2, 3
    if a < b:
        a, b, fa, fb = b, a, fb, fa
    if b < c:
        b, c, fb, fc = c, b, fc, fb
    if a < b:
        a, b, fa, fb = b, a, fb, fa
    key = (np.uint64(n_part) & ROW) | (a << np.uint64(9)) | (b << np.uint64(18)) | (c << np.uint64(27))
    return key, fa, fb, fc


@nb.njit(cache=True)
def _uncanonical(v, fa, fb, fc):
    """Map a table value's wait rows from canonical order back to the hand's fruits."""
    flags = v & ~NUM
    return (flags | (v & ROW) | (_row(v, np.int64(1)) << np.uint64(9 * fa))
            | (_row(v, np.int64(2)) << np.uint64(9 * fb))
            | (_row(v, np.int64(3)) << np.uint64(9 * fc)))


@nb.njit(cache=True)
def number_value(core, n_part):
    """Table value (wait bits, COMPLETE_* flags) of a number part, in the hand's own fruits."""
    key, fa, fb, fc = canonical_rows(n_part)
    return _uncanonical(lookup_filtered_at(core, CORE_TABLE, CORE_FILTER, TABLE_LOG2, key),
                        fa, fb, fc)


# ---------------------------------------------------------------------------------------------
# Table building
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def _add_complete(table, shift, mask, flag):
    """Register ``mask`` as complete and every mask one card short of it as waiting on that card."""
    if canonical_rows(mask)[0] == mask:
        insert_or(table, mask, flag, shift)
    rest = mask
    while rest:
        low = rest & (~rest + np.uint64(1))
        if canonical_rows(mask ^ low)[0] == mask ^ low:
            insert_or(table, mask ^ low, low, shift)
        rest ^= low


@nb.njit(cache=True)
def _add_sets_and_heads(table, shift, sets_mask, head_masks):
    _add_complete(table, shift, sets_mask, COMPLETE_SETS)
    for j in range(head_masks.shape[0]):
        if not (sets_mask & head_masks[j]):
            _add_complete(table, shift, sets_mask | head_masks[j], COMPLETE_HEAD)


@nb.njit(cache=True)
def fill_number_table(table, shift, set_masks, head_masks):
    """Every number mask of 0, 1 or 2 disjoint sets, with or without one head (a concealed hand
    holds at most 8 cards), and every mask one card short of one."""
    ns = set_masks.shape[0]
    _add_sets_and_heads(table, shift, np.uint64(0), head_masks)
    for a in range(ns):
        _add_sets_and_heads(table, shift, set_masks[a], head_masks)
        for b in range(a + 1, ns):
            if not (set_masks[a] & set_masks[b]):
                _add_sets_and_heads(table, shift, set_masks[a] | set_masks[b], head_masks)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def picture_count(mask, p):
    return np.int64((np.uint64(mask) >> np.uint64(PIC_SHIFT + 3 * p)) & np.uint64(7))


@nb.njit(cache=True)
def hand_size(mask):
    n = popcount(np.uint64(mask) & NUM)
    for p in range(N_PICTURES):
        n += picture_count(mask, p)
    return n


@nb.njit(cache=True)
def kind_bit(kind):
    return np.uint64(1) << np.uint64(kind)


PICTURE_FIELD_BITS = 3 * N_PICTURES  # the picture counters: hand >> 36, 15 bits
PI_SETS_ONLY = np.uint64(1)          # every counter is 0 or 3
PI_HEAD = np.uint64(2)               # one counter is 2, the rest 0 or 3
PI_TO_SETS_SHIFT = np.uint64(2)      # bits 2-6: pictures whose addition leaves sets only
PI_TO_HEAD_SHIFT = np.uint64(7)      # bits 7-11: pictures whose addition leaves sets + one head
PI_COUNT_SHIFT = np.uint64(12)       # bits 12-17: number of picture cards


def _picture_state(counts):
    """(sets only, sets and one head) for rows of picture counters (last axis: the pictures)."""
    clean = np.isin(counts, (0, 2, 3)).all(axis=-1)
    twos = (counts == 2).sum(axis=-1)
    return clean & (twos == 0), clean & (twos == 1)


def picture_info_table() -> np.ndarray:
    """For every value of the 15-bit picture-counter field, the PI_* facts above (pictures form
    sets and heads among themselves, so this is rules-independent). Vectorised: every worker and
    every CLI start builds it."""
    field = np.arange(1 << PICTURE_FIELD_BITS, dtype=np.int64)
    counts = (field[:, None] >> (3 * np.arange(N_PICTURES))) & 7
    sets_only, head = _picture_state(counts)
    info = (sets_only.astype(np.uint64) | head.astype(np.uint64) << np.uint64(1)
            | counts.sum(axis=1).astype(np.uint64) << PI_COUNT_SHIFT)
    for q in range(N_PICTURES):
        plus = counts.copy()
        plus[:, q] += 1
        after_sets, after_head = _picture_state(plus)
        info |= after_sets.astype(np.uint64) << (PI_TO_SETS_SHIFT + np.uint64(q))
        info |= after_head.astype(np.uint64) << (PI_TO_HEAD_SHIFT + np.uint64(q))
    return info


@nb.njit(cache=True)
def _info(core, hand):
    return core[CORE_PIC_INFO + np.int64(np.uint64(hand) >> np.uint64(PIC_SHIFT))]


@nb.njit(cache=True)
def _rule(core, i):
    return np.int64(core[CORE_RULES + i])


@nb.njit(cache=True)
def _size(info, n_part):
    return popcount(n_part) + np.int64(info >> PI_COUNT_SHIFT)


@nb.njit(cache=True)
def _split_waits(core, n_part, info):
    """Kind set of cards completing (number part ``n_part``) + (pictures described by ``info``),
    ignoring availability. The whole hand has 3k+1 cards. The picture facts are checked first, so
    the table is only consulted when the pictures allow a win."""
    r = popcount(n_part) % 3
    if r == 1:  # the number part takes the card and the head; pictures must be sets only
        if info & PI_SETS_ONLY:
            return number_value(core, n_part) & NUM
        return np.uint64(0)
    if r == 2:  # pictures hold the head: the number part completes, or the pictures' pair does
        if not (info & PI_HEAD):
            return np.uint64(0)
        v = number_value(core, n_part)
        out = v & NUM
        if v & COMPLETE_HEAD:
            out |= ((info >> PI_TO_SETS_SHIFT) & np.uint64(31)) << np.uint64(N_NUMBER_KINDS)
        return out
    to_head = (info >> PI_TO_HEAD_SHIFT) & np.uint64(31)  # r == 0: pictures take card and head
    if to_head and (number_value(core, n_part) & COMPLETE_SETS):
        return to_head << np.uint64(N_NUMBER_KINDS)
    return np.uint64(0)


@nb.njit(cache=True)
def _split_complete(core, n_part, info):
    r = popcount(n_part) % 3
    if r == 0:
        return (info & PI_HEAD) != 0 and (number_value(core, n_part) & COMPLETE_SETS) != 0
    if r == 2:
        return (info & PI_SETS_ONLY) != 0 and (number_value(core, n_part) & COMPLETE_HEAD) != 0
    return False


@nb.njit(cache=True)
def n_readings(hand, core):
    """Readings of the hand's rank-1 cards: each stays a number or becomes a substitute picture."""
    n1 = popcount(np.uint64(hand) & RANK1_BITS)
    base = 1 + _rule(core, np.int64(HR_N_SUBS))
    total = 1
    for _ in range(n1):
        total *= base
    return total


@nb.njit(cache=True)
def apply_reading(hand, code, core):
    """Apply reading ``code`` (base 1 + n_subs digits, one per rank-1 card in the hand); return
    the hand with the substituted cards moved from the number bits to the picture counters."""
    hand = np.uint64(hand)
    base = 1 + _rule(core, np.int64(HR_N_SUBS))
    rest = hand & RANK1_BITS
    while rest:
        low = rest & (~rest + np.uint64(1))
        rest ^= low
        digit = code % base
        code //= base
        if digit > 0:
            hand ^= low
            hand += np.uint64(1) << np.uint64(PIC_SHIFT + 3 * _rule(core, HR_SUB0 + digit - 1))
    return hand


# ---------------------------------------------------------------------------------------------
# Public kernels
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def is_complete(hand, n_revealed, T):
    """Is a 3k+2 concealed hand, with ``n_revealed`` revealed sets, a winning shape (§5.1)?
    ``T`` is the hand core array (``HandTables.core``)."""
    hand = np.uint64(hand)
    core = T
    n_part = hand & NUM
    info = _info(core, hand)
    n = _size(info, n_part)
    if n % 3 != 2 or (n - 2) // 3 + n_revealed < 3:
        return False
    if _rule(core, np.int64(HR_N_SUBS)) == 0:
        return _split_complete(core, n_part, info)
    for code in range(n_readings(hand, core)):
        h = apply_reading(hand, code, core)
        if _split_complete(core, h & NUM, _info(core, h)):
            return True
    return False


@nb.njit(cache=True)
def waits(hand, revealed, n_revealed, T):
    """Kind set of the winning cards of a 3k+1 concealed hand (§5; yaku and furiten ignored).

    A card is a wait if it exists in the deck, is not among the player's own hand and revealed cards
    (a picture counts while the player holds fewer than all its copies), and completes the shape with
    at least 3 sets in all. ``revealed`` is the hand mask of the player's revealed cards.
    ``T`` is the hand core array (``HandTables.core``).
    """
    hand = np.uint64(hand)
    revealed = np.uint64(revealed)
    core = T
    n_part = hand & NUM
    info = _info(core, hand)
    n = _size(info, n_part)
    if n % 3 != 1 or (n - 1) // 3 + n_revealed < 3:
        return np.uint64(0)
    n_subs = _rule(core, np.int64(HR_N_SUBS))
    if n_subs == 0:
        out = _split_waits(core, n_part, info)
    else:
        out = np.uint64(0)
        for code in range(n_readings(hand, core)):
            h = apply_reading(hand, code, core)
            w = _split_waits(core, h & NUM, _info(core, h))
            for i in range(n_subs):  # a rank-1 card can be the substitute that wins
                if w & kind_bit(N_NUMBER_KINDS + _rule(core, HR_SUB0 + i)):
                    w |= RANK1_BITS
            out |= w
    if out == 0:
        return out
    # Availability: number cards in the deck and not held or revealed; pictures while copies remain.
    out &= ~((hand | revealed) & NUM) & (core[CORE_RULES + HR_DECK_NUMBERS] | ~NUM)
    for p in range(N_PICTURES):
        if picture_count(hand, p) + picture_count(revealed, p) >= _rule(core, HR_COPIES + p):
            out &= ~kind_bit(N_NUMBER_KINDS + p)
    return out


@nb.njit(cache=True)
def _take(c, row, width):
    ok = True
    for j in range(width):
        c[row[j]] -= 1
        if c[row[j]] < 0:
            ok = False
    if not ok:
        for j in range(width):
            c[row[j]] += 1
    return ok


@nb.njit(cache=True)
def _give(c, row, width):
    for j in range(width):
        c[row[j]] += 1


MODE_SHANTEN, MODE_DECOMPOSE = 0, 1
MAX_DEPTH = 16  # one level per group or skipped card; a concealed hand holds at most 8 cards


@nb.njit(cache=True)
def _next_kind(c, k):
    while k < N_KINDS and c[k] == 0:
        k += 1
    return k


@nb.njit(cache=True)
def _group_search(c, G, T, mode, out):
    """Depth-first search over the ways to split kind counts ``c`` into groups, always taking the
    lowest remaining card first (so every group containing it starts with it in the catalogues).

    MODE_SHANTEN: groups are sets, one head, partials (m + t <= G) or a skipped single card;
    returns min(2 (G - m) - t - h). MODE_DECOMPOSE: sets and exactly one head, no card left over;
    writes each reading to ``out`` (see :func:`decompositions`) and returns how many there are.
    Iterative rather than recursive: numba's on-disk cache cannot hold recursive functions.
    """
    # the levels' scratch in this frame (simcore.nb.stack): scoring runs this at every win
    kk = stack_empty(MAX_DEPTH, np.int64)     # lowest remaining kind at each level
    opt = stack_empty(MAX_DEPTH, np.int64)    # next option to try at each level
    opt[:] = 0
    took = stack_empty(MAX_DEPTH, np.int64)   # option taken at each level (-1 none)
    took[:] = -1
    mm = stack_empty(MAX_DEPTH, np.int64)
    mm[:] = 0
    tt = stack_empty(MAX_DEPTH, np.int64)
    tt[:] = 0
    hh = stack_empty(MAX_DEPTH, np.int64)     # head row id taken so far (-1 none)
    hh[:] = -1
    rows = stack_empty(MAX_DEPTH, np.int64)   # set row taken at each level (decompose mode)
    best = 2 * G + 1
    n_out = 0
    d = 0
    kk[0] = _next_kind(c, np.int64(0))
    while d >= 0:
        k = kk[d]
        if k == N_KINDS:  # everything placed
            if mode == MODE_SHANTEN:
                best = min(best, 2 * (G - mm[d]) - tt[d] - (1 if hh[d] >= 0 else 0))
            elif hh[d] >= 0:
                if n_out < out.shape[0]:
                    j = 0
                    for e in range(d):
                        if took[e] >= 0 and took[e] < 1000000:
                            if j < out.shape[1] - 1:
                                out[n_out, j] = rows[e]
                            j += 1
                    for e in range(j, out.shape[1] - 1):
                        out[n_out, e] = -1
                    out[n_out, out.shape[1] - 1] = hh[d]
                n_out += 1
            d -= 1
            continue
        # Undo what this level took last time round.
        o = took[d]
        if o >= 0:
            if o < 1000000:
                _give(c, T.sets[o] if mode == MODE_DECOMPOSE else T.shape_sets[o], np.int64(3))
            elif o < 2000000:
                _give(c, T.heads[o - 1000000], np.int64(2))
            elif o < 3000000:
                _give(c, T.partials[o - 2000000], np.int64(2))
            else:
                c[k] += 1
            took[d] = -1
        # Find the next applicable option: sets, head, partials, skip.
        placed = False
        room = mode == MODE_DECOMPOSE or mm[d] + tt[d] < G
        if mode == MODE_DECOMPOSE:
            s0, s1 = T.set_start[k], T.set_start[k + 1]
        else:
            s0, s1 = T.shape_set_start[k], T.shape_set_start[k + 1]
        h0, h1 = T.head_start[k], T.head_start[k + 1]
        p0, p1 = T.partial_start[k], T.partial_start[k + 1]
        n_s, n_h, n_p = s1 - s0, h1 - h0, p1 - p0
        i = opt[d]
        while not placed:
            if i < n_s:
                row = s0 + i
                i += 1
                if room and d < MAX_DEPTH - 1:
                    if _take(c, T.sets[row] if mode == MODE_DECOMPOSE else T.shape_sets[row],
                             np.int64(3)):
                        took[d] = row
                        rows[d] = row
                        mm[d + 1], tt[d + 1], hh[d + 1] = mm[d] + 1, tt[d], hh[d]
                        placed = True
            elif i < n_s + n_h:
                row = h0 + i - n_s
                i += 1
                if hh[d] < 0 and _take(c, T.heads[row], np.int64(2)):
                    took[d] = 1000000 + row
                    mm[d + 1], tt[d + 1], hh[d + 1] = mm[d], tt[d], row
                    placed = True
            elif mode == MODE_SHANTEN and i < n_s + n_h + n_p:
                row = p0 + i - n_s - n_h
                i += 1
                if room and _take(c, T.partials[row], np.int64(2)):
                    took[d] = 2000000 + row
                    mm[d + 1], tt[d + 1], hh[d + 1] = mm[d], tt[d] + 1, hh[d]
                    placed = True
            elif mode == MODE_SHANTEN and i == n_s + n_h + n_p:
                i += 1
                c[k] -= 1
                took[d] = 3000000
                mm[d + 1], tt[d + 1], hh[d + 1] = mm[d], tt[d], hh[d]
                placed = True
            else:
                break
        opt[d] = i
        if not placed:
            opt[d] = 0
            d -= 1
            continue
        d += 1
        kk[d] = _next_kind(c, k)
        opt[d] = 0
        took[d] = -1
    return best if mode == MODE_SHANTEN else n_out


@nb.njit(cache=True)
def shanten_counts(c, n_revealed, T):
    """Distance to tenpai of a concealed hand given as kind counts (definition in module doc)."""
    n = 0
    for k in range(N_KINDS):
        n += c[k]
    k_sets = n // 3
    G = max(k_sets, 3 - n_revealed)
    return _group_search(c, G, T, MODE_SHANTEN, np.empty((0, 1), np.int32))


@nb.njit(cache=True)
def counts_of(hand):
    c = np.zeros(N_KINDS, np.int64)
    rest = np.uint64(hand) & NUM
    while rest:
        low = rest & (~rest + np.uint64(1))
        c[popcount(low - np.uint64(1))] = 1
        rest ^= low
    for p in range(N_PICTURES):
        c[N_NUMBER_KINDS + p] = picture_count(hand, p)
    return c


@nb.njit(cache=True)
def shanten(hand, n_revealed, T):
    return shanten_counts(counts_of(hand), n_revealed, T)


@nb.njit(cache=True)
def useful_cards(hand, n_revealed, unseen, T):
    """Cards that lower the distance to tenpai of a 3k+1 hand: (number of unseen copies, kind set).

    ``unseen[k]`` is how many copies of kind k the player cannot see (not in own hand, own or
    opponent's revealed sets, discard piles or the dora indicator).
    """
    c = counts_of(hand)
    base = shanten_counts(c, n_revealed, T)
    total = 0
    kset = np.uint64(0)
    for q in range(N_KINDS):
        if unseen[q] > 0:
            c[q] += 1
            if shanten_counts(c, n_revealed, T) < base:
                total += unseen[q]
                kset |= kind_bit(q)
            c[q] -= 1
    return total, kset


@nb.njit(cache=True)
def is_furiten(wait_set, discard_set, momo_exempt=True):
    """Furiten (§6): a current winning card lies in the player's own discards. With
    ``momo_exempt`` (the rule) momo cards in the discards never count. The engine uses this too:
    the momo exemption lives here only."""
    bad = np.uint64(wait_set) & np.uint64(discard_set)
    if momo_exempt:
        bad &= ~np.uint64(MOMO_KIND_SET)
    return bad != 0


@nb.njit(cache=True)
def can_ron_on(card, wait_set, discard_set, momo_exempt=True, other_furiten=False):
    """May a player with these waits and discards ron ``card``?

    With ``momo_exempt`` a momo card always may, furiten or not (§6: exempt both ways).
    ``other_furiten`` is furiten from another source (furiten.declined_ron: a riichi player who
    passed a winning discard).
    """
    if not (np.uint64(wait_set) >> np.uint64(card)) & np.uint64(1):
        return False
    if momo_exempt and (np.uint64(MOMO_KIND_SET) >> np.uint64(card)) & np.uint64(1):
        return True
    return not other_furiten and not is_furiten(wait_set, discard_set, momo_exempt)


@nb.njit(cache=True)
def decompositions(hand, T, out):
    """Every reading of a 3k+2 concealed hand as sets + one head.

    Fills ``out`` (int32, shape (max, k + 1)): row i holds set-catalogue row ids of the concealed
    sets (-1 past k) and, in the last column, the head-catalogue row id. Returns the number of
    readings (which may exceed ``out``'s rows; only the first rows are written). Readings through
    different catalogue rows of the same cards (``1l 1o 1i`` as same-number or as a sun set) are
    distinct, since they score differently.
    """
    return _group_search(counts_of(hand), 0, T, MODE_DECOMPOSE, out)


# ---------------------------------------------------------------------------------------------
# Batched kernels
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def waits_batch(hands, revealed, n_revealed, T, out):
    H = T.core
    for i in range(hands.shape[0]):
        out[i] = waits(hands[i], revealed[i], n_revealed[i], H)


@nb.njit(cache=True)
def complete_batch(hands, n_revealed, T, out):
    H = T.core
    for i in range(hands.shape[0]):
        out[i] = is_complete(hands[i], n_revealed[i], H)


@nb.njit(cache=True)
def shanten_batch(hands, n_revealed, T, out):
    for i in range(hands.shape[0]):
        out[i] = shanten(hands[i], n_revealed[i], T)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
