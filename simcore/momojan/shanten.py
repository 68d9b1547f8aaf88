"""Fast distance to tenpai (``shanten``, defined in :mod:`simcore.momojan.hand`) from frontier tables.

How it works
------------
Sets, partial sets and heads never mix number cards and pictures (new edition), so a grouping of a
hand is a grouping of its number part plus one of its picture part. Of each part only its
*frontier* matters: for every count of sets m (0..3) and heads h (0 or 1), the most partial sets t
it can hold beside them. With G the sets the hand must still form (module doc of ``hand``)::

    best = max over (m1, h1) of one part and (m2, h2) of the other, h1 + h2 <= 1, of
           2 (m1 + m2) + min(t1 + t2, G - m1 - m2) + h1 + h2
    shanten = 2 G - best

Capping t at G - m is exact because a partial can always be dropped (its cards become singles);
m1 + m2 <= G always holds, since a hand of n cards holds at most n // 3 sets and G >= n // 3.

Frontier word (uint64, bits 0-31): nibble ``2 m + h`` holds ``t + 1``; 0 means no grouping of the
part has m sets and h heads. Few frontiers occur (29 for number parts of up to 6 cards, 65 for
picture parts), so the tables store small ids into palettes:

- Number part of at most ``SH_SMALL`` (6) cards: one byte per number mask (2.4 MB), indexed by the
  mask's colexicographic rank among the masks of its size (``CORE_SH_RANK`` holds the size offsets
  and the binomials), giving the id of its frontier in ``CORE_SH_NUM_PALETTE``. The table is built
  bottom-up from the number groups: the frontier of S is the best of "its lowest card stays single"
  and "its lowest card is in a group g" (the frontier of S - g, shifted by g).
- Picture part: a 2**15-word table indexed by the five picture counters: frontier in bits 0-31,
  its id in bits 32-39.
- ``CORE_SH_BEST[32 * picture id + number id]``: ``best`` for G = 0..3, a byte each. So a hand with
  a small number part costs a rank, three loads and no search.
- Number parts of 7-9 cards peel groups off one card (the one with the fewest partners), one level
  per extra card, down to table entries, and combine frontiers directly.
- Old edition: each reading of the hand's rank-1 cards (number, sun or moon) is a new-edition split;
  the best reading wins. Every group of the reference is a number group or a picture group under
  one reading, so this is exact.

What this implementation simplifies: concealed hands of at most ``MAX_CARDS`` cards (8 after a draw,
plus one card for :func:`useful_cards`). Every table is checked against ``reference.shanten`` by
``tests/momojan/test_shanten.py``.
"""

from __future__ import annotations

from math import comb

import numba as nb
import numpy as np

from simcore.nb.bits import popcount
from .cards import N_NUMBER_KINDS, N_PICTURES
from .hand import (
    CORE_RELATED, CORE_RULES, CORE_SH_BEST, CORE_SH_GROUP_START, CORE_SH_GROUPS, CORE_SH_NUM,
    CORE_SH_NUM_PALETTE, CORE_SH_PIC, CORE_SH_RANK, HR_COPIES, HR_DECK_NUMBERS, HR_N_SUBS, NUM,
    PIC_SHIFT, RANK1_BITS, SH_MAX_GROUPS, SH_NUM_ENTRIES, SH_SMALL, n_readings, apply_reading, hand_size, kind_bit,
    picture_count, waits,
)

MAX_CARDS = 9
U0, U1 = np.uint64(0), np.uint64(1)
LOW32 = np.uint64(0xFFFFFFFF)
NIBBLE_ONES = np.uint64(0x11111111)
NIBBLE_HIGH = np.uint64(0x88888888)
HEADLESS = np.uint64(0x0F0F0F0F)   # the nibbles with h = 0
EMPTY_FRONTIER = np.uint64(1)      # no cards: m = h = t = 0 only
MASK36 = np.uint64((1 << 36) - 1)
N_NUMBER_IDS, N_PICTURE_IDS = 32, 128  # palette capacities (CORE_SH_BEST is 32 x 128)
# Number-group entries (CORE_SH_GROUPS): the group's hand mask plus what it may count as.
G_SET = np.uint64(1) << np.uint64(40)
G_HEAD = np.uint64(1) << np.uint64(41)
G_PARTIAL = np.uint64(1) << np.uint64(42)


# ---------------------------------------------------------------------------------------------
# Frontier arithmetic (SWAR on the eight nibbles)
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def add_set(f):
    """Every grouping gains a set: (m, h, t) -> (m + 1, h, t)."""
    return (f << np.uint64(8)) & LOW32


@nb.njit(cache=True)
def add_head(f):
    """Every headless grouping gains the head: (m, 0, t) -> (m, 1, t)."""
    return (f & HEADLESS) << np.uint64(4)


@nb.njit(cache=True)
def add_partial(f):
    """Every grouping gains a partial set: t -> t + 1 where feasible."""
    nz = (f | (f >> U1) | (f >> np.uint64(2)) | (f >> np.uint64(3))) & NIBBLE_ONES
    return f + nz


@nb.njit(cache=True)
def frontier_max(a, b):
    """Nibble-wise maximum (nibbles <= 7: bit 3 of each nibble guards the subtraction)."""
    ge = ((((a | NIBBLE_HIGH) - b) >> np.uint64(3)) & NIBBLE_ONES) * np.uint64(15)
    return (a & ge) | (b & ~ge & LOW32)


@nb.njit(cache=True)
def _shifted(f, dm, dh, dt):
    """``f`` after adding dm sets, dh (0/1) heads and dt partials to every grouping."""
    f = (f << np.uint64(8 * dm)) & LOW32
    if dh:
        f = add_head(f)
    for _ in range(dt):
        f = add_partial(f)
    return f


@nb.njit(cache=True)
def best_value(fa, fb, G):
    """max 2 m + min(t, G - m) + h over the groupings of two parts taken together (module doc)."""
    best = -1
    for i in range(8):
        ta = np.int64((fa >> np.uint64(4 * i)) & np.uint64(15))
        if ta == 0:
            continue
        ma, ha = i >> 1, i & 1
        for j in range(8 - 2 * ma):
            if ha and (j & 1):
                continue
            tb = np.int64((fb >> np.uint64(4 * j)) & np.uint64(15))
            if tb == 0:
                continue
            m = ma + (j >> 1)
            v = 2 * m + min(ta + tb - 2, G - m) + ha + (j & 1)
            if v > best:
                best = v
    return best


# ---------------------------------------------------------------------------------------------
# The number-part table: a byte per mask of <= SH_SMALL cards, indexed by colex rank
# ---------------------------------------------------------------------------------------------

def rank_tables() -> np.ndarray:
    """``[offset of size k for k in 0..7] + [C(c, j) at 8 + 8 c + j]`` (the CORE_SH_RANK region)."""
    out = np.zeros(8 + 37 * 8, np.uint64)
    for k in range(8):
        out[k] = sum(comb(N_NUMBER_KINDS, i) for i in range(k))
    for c in range(37):
        for j in range(8):
            out[8 + 8 * c + j] = comb(c, j)
    return out


@nb.njit(cache=True)
def _rank(arr, base, s):
    """Index of number mask ``s`` (<= 7 cards): the offset of its size plus its colex rank."""
    idx = arr[base + popcount(s)]
    j = 1
    while s:
        low = s & (~s + U1)
        idx += arr[base + 8 + 8 * popcount(low - U1) + j]
        s ^= low
        j += 1
    return np.int64(idx)


@nb.njit(cache=True)
def small_number_id(core, n_part):
    """Frontier id (into CORE_SH_NUM_PALETTE) of a number part of at most SH_SMALL cards."""
    i = _rank(core, np.int64(CORE_SH_RANK), n_part)
    return np.int64((core[CORE_SH_NUM + (i >> 3)] >> np.uint64(8 * (i & 7))) & np.uint64(255))


@nb.njit(cache=True)
def _palette_id(palette, n_used, f):
    for i in range(n_used[0]):
        if palette[i] == f:
            return i
    if n_used[0] == palette.shape[0]:
        raise AssertionError("frontier palette full")
    palette[n_used[0]] = f
    n_used[0] += 1
    return n_used[0] - 1


@nb.njit(cache=True)
def _fill_number_ids(ids, palette, n_used, ranks, groups, group_start, max_cards):
    """Frontier id of every number mask of 0..max_cards cards, smallest first (Gosper's hack walks
    the masks of one size in increasing order), from the ids of masks already filled."""
    ids[_rank(ranks, np.int64(0), U0)] = _palette_id(palette, n_used, EMPTY_FRONTIER)
    limit = U1 << np.uint64(N_NUMBER_KINDS)
    for size in range(1, max_cards + 1):
        s = (U1 << np.uint64(size)) - U1
        while s < limit:
            low = s & (~s + U1)
            x = popcount(low - U1)
            f = palette[ids[_rank(ranks, np.int64(0), s ^ low)]]
            for e in range(group_start[x], group_start[x + 1]):
                g = groups[e] & MASK36
                if (g & s) != g:
                    continue
                sub = palette[ids[_rank(ranks, np.int64(0), s ^ g)]]
                if groups[e] & G_SET:
                    f = frontier_max(f, add_set(sub))
                if groups[e] & G_HEAD:
                    f = frontier_max(f, add_head(sub))
                if groups[e] & G_PARTIAL:
                    f = frontier_max(f, add_partial(sub))
            ids[_rank(ranks, np.int64(0), s)] = _palette_id(palette, n_used, f)
            r = s + low
            s = (((r ^ s) >> np.uint64(2)) // low) | r


def number_groups(sets: np.ndarray, heads: np.ndarray, partials: np.ndarray):
    """Number-only sets, heads and partials as (entries, start): the entries holding kind x are
    ``entries[start[x]:start[x + 1]]``, each a hand mask OR-ed with G_* flags (a pair of one rank
    is both a head and a partial)."""
    flags: dict[int, int] = {}
    for rows, width, flag in ((sets, 3, G_SET), (heads, 2, G_HEAD), (partials, 2, G_PARTIAL)):
        for row in rows:
            cards = [int(k) for k in row[:width]]
            if all(k < N_NUMBER_KINDS for k in cards):
                m = sum(1 << k for k in cards)
                flags[m] = flags.get(m, 0) | int(flag)
    entries, start = [], [0]
    for x in range(N_NUMBER_KINDS):
        entries += [m | flags[m] for m in sorted(flags) if m >> x & 1]
        start.append(len(entries))
    return np.array(entries, np.uint64), np.array(start, np.int64)


# ---------------------------------------------------------------------------------------------
# The picture table and the best-value table
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def _one_picture(c):
    """Frontier of c copies of one picture: a sets, b heads, the rest in pairs (partials)."""
    f = U0
    for a in range(min(c // 3, 3) + 1):
        for b in range(2):
            if 3 * a + 2 * b <= c:
                t1 = min((c - 3 * a - 2 * b) // 2 + 1, 7)
                i = np.uint64(4 * (2 * a + b))
                if np.uint64(t1) > (f >> i) & np.uint64(15):
                    f = (f & ~(np.uint64(15) << i)) | (np.uint64(t1) << i)
    return f


@nb.njit(cache=True)
def _combine(fa, fb):
    """Frontier of two parts taken together (m <= 3 and t + 1 <= 7 kept)."""
    out = U0
    for i in range(8):
        ta = np.int64((fa >> np.uint64(4 * i)) & np.uint64(15))
        if ta == 0:
            continue
        for j in range(8):
            tb = np.int64((fb >> np.uint64(4 * j)) & np.uint64(15))
            if tb == 0 or ((i & 1) and (j & 1)) or (i >> 1) + (j >> 1) > 3:
                continue
            k = np.uint64(4 * (2 * ((i >> 1) + (j >> 1)) + ((i | j) & 1)))
            t1 = np.uint64(min(ta + tb - 1, 7))
            if t1 > (out >> k) & np.uint64(15):
                out = (out & ~(np.uint64(15) << k)) | (t1 << k)
    return out


@nb.njit(cache=True)
def _fill_picture_frontiers(out, palette, n_used):
    for field in range(out.shape[0]):
        f = EMPTY_FRONTIER
        for p in range(N_PICTURES):
            f = _combine(f, _one_picture((field >> (3 * p)) & 7))
        out[field] = f | (np.uint64(_palette_id(palette, n_used, f)) << np.uint64(32))


@nb.njit(cache=True)
def _fill_best(out, number_palette, n_number, picture_palette, n_picture):
    for p in range(n_picture):
        for n in range(n_number):
            w = U0
            for G in range(4):
                w |= np.uint64(best_value(number_palette[n], picture_palette[p], G)) << np.uint64(8 * G)
            out[N_NUMBER_IDS * p + n] = w


def shanten_core_regions(sets, heads, partials) -> np.ndarray:
    """The core's shanten regions, in layout order (CORE_SH_RANK .. CORE_SH_GROUPS)."""
    ranks = rank_tables()
    entries, start = number_groups(sets, heads, partials)
    assert len(entries) <= SH_MAX_GROUPS
    ids = np.zeros(8 * ((SH_NUM_ENTRIES + 7) // 8), np.uint8)
    number_palette = np.zeros(N_NUMBER_IDS, np.uint64)
    n_number = np.zeros(1, np.int64)
    _fill_number_ids(ids, number_palette, n_number, ranks, entries, start, SH_SMALL)
    pic = np.zeros(1 << (3 * N_PICTURES), np.uint64)
    picture_palette = np.zeros(N_PICTURE_IDS, np.uint64)
    n_picture = np.zeros(1, np.int64)
    _fill_picture_frontiers(pic, picture_palette, n_picture)
    best = np.zeros(N_NUMBER_IDS * N_PICTURE_IDS, np.uint64)
    _fill_best(best, number_palette, n_number[0], picture_palette, n_picture[0])
    groups = np.zeros(SH_MAX_GROUPS, np.uint64)
    groups[:len(entries)] = entries
    return np.concatenate([ranks, ids.view(np.uint64), number_palette, pic, best,
                           start.astype(np.uint64), groups])


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def _small_frontier(core, n_part):
    return core[CORE_SH_NUM_PALETTE + small_number_id(core, n_part)]


@nb.njit(cache=True, inline="always")  # takes a function: inlined, else uncacheable
def _peel(core, s, below):
    """Frontier of number mask ``s`` from the options of one of its cards, ``below(core, rest)``
    giving the frontier of what is left (rests have fewer cards than ``s``). The card peeled is the
    one with the fewest partners in ``s``: a card with none is a single in every grouping, which
    costs one lookup instead of one per group."""
    x = -1
    fewest = 99
    rest = s
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        k = popcount(low - U1)
        n = popcount(core[CORE_RELATED + k] & s)
        if n < fewest:
            fewest, x = n, k
    f = below(core, s ^ (U1 << np.uint64(x)))
    if fewest == 0:
        return f
    for e in range(np.int64(core[CORE_SH_GROUP_START + x]),
                   np.int64(core[CORE_SH_GROUP_START + x + 1])):
        entry = core[CORE_SH_GROUPS + e]
        g = entry & MASK36
        if (g & s) != g:
            continue
        sub = below(core, s ^ g)
        if entry & G_SET:
            f = frontier_max(f, add_set(sub))
        if entry & G_HEAD:
            f = frontier_max(f, add_head(sub))
        if entry & G_PARTIAL:
            f = frontier_max(f, add_partial(sub))
    return f


@nb.njit(cache=True)
def _peel_card(core, s, x, f_without):
    """Frontier of number mask ``s`` of SH_SMALL + 1 or + 2 cards by its card ``x``: ``f_without``
    (the frontier of ``s`` less ``x``, x single) joined with every group holding x within ``s``
    (a group has at least 2 cards, so the rest has at most SH_SMALL: a table entry). Any card of
    ``s`` gives the frontier (:func:`_peel` picks the one with the fewest partners); the bots'
    useful-card count peels the card it adds, whose single case is the same for every card
    added."""
    f = f_without
    for e in range(np.int64(core[CORE_SH_GROUP_START + x]),
                   np.int64(core[CORE_SH_GROUP_START + x + 1])):
        entry = core[CORE_SH_GROUPS + e]
        g = entry & MASK36
        if (g & s) != g:
            continue
        sub = _small_frontier(core, s ^ g)
        if entry & G_SET:
            f = frontier_max(f, add_set(sub))
        if entry & G_HEAD:
            f = frontier_max(f, add_head(sub))
        if entry & G_PARTIAL:
            f = frontier_max(f, add_partial(sub))
    return f


@nb.njit(cache=True)
def _upto7(core, s):
    if popcount(s) <= SH_SMALL:
        return _small_frontier(core, s)
    return _peel(core, s, _small_frontier)


@nb.njit(cache=True)
def _upto8(core, s):
    if popcount(s) <= 7:
        return _upto7(core, s)
    return _peel(core, s, _upto7)


@nb.njit(cache=True)
def _upto9(core, s):
    if popcount(s) <= 8:
        return _upto8(core, s)
    return _peel(core, s, _upto8)


@nb.njit(cache=True)
def picture_word(core, hand):
    """Picture-part frontier (bits 0-31) and its id (bits 32-39)."""
    return core[CORE_SH_PIC + np.int64(np.uint64(hand) >> np.uint64(PIC_SHIFT))]


@nb.njit(cache=True)
def _split_best(core, hand, G):
    """``best`` (module doc) of one reading of the hand: number part plus picture part."""
    n_part = hand & NUM
    pw = picture_word(core, hand)
    if popcount(n_part) <= SH_SMALL:
        w = core[CORE_SH_BEST + N_NUMBER_IDS * np.int64(pw >> np.uint64(32))
                 + small_number_id(core, n_part)]
        return np.int64((w >> np.uint64(8 * G)) & np.uint64(255))
    return best_value(_upto9(core, n_part), pw & LOW32, G)


@nb.njit(cache=True)
def shanten(hand, n_revealed, core):
    """Distance to tenpai of a concealed hand (definition in :mod:`simcore.momojan.hand`).

    Parameters
    ----------
    hand : uint64 hand mask, at most MAX_CARDS cards.
    n_revealed : int, the player's revealed sets.
    core : uint64[CORE_LEN], ``HandTables.core``.

    Returns
    -------
    int: -1 for a complete 3k+2 shape, 0 for tenpai in shape, larger further away.
    """
    hand = np.uint64(hand)
    G = max(hand_size(hand) // 3, 3 - n_revealed)
    if core[CORE_RULES + HR_N_SUBS] == 0:
        return 2 * G - _split_best(core, hand, G)
    best = -1
    for code in range(n_readings(hand, core)):
        best = max(best, _split_best(core, apply_reading(hand, code, core), G))
    return 2 * G - best


@nb.njit(cache=True)
def unit(k):
    """Hand mask of one card of kind k."""
    if k < N_NUMBER_KINDS:
        return U1 << np.uint64(k)
    return U1 << np.uint64(PIC_SHIFT + 3 * (k - N_NUMBER_KINDS))


@nb.njit(cache=True)
def kinds_present(hand):
    """Kind set of the kinds in hand mask ``hand``."""
    out = np.uint64(hand) & NUM
    for p in range(N_PICTURES):
        if picture_count(hand, p):
            out |= kind_bit(N_NUMBER_KINDS + p)
    return out


@nb.njit(cache=True)
def unseen_copies(core, seen, k):
    """Copies of kind k in the deck that are not in hand mask ``seen`` (what a seat can see)."""
    if k < N_NUMBER_KINDS:
        in_deck = (core[CORE_RULES + HR_DECK_NUMBERS] >> np.uint64(k)) & U1
        return np.int64(in_deck & ~(np.uint64(seen) >> np.uint64(k)) & U1)
    p = k - N_NUMBER_KINDS
    return max(np.int64(core[CORE_RULES + HR_COPIES + p]) - picture_count(seen, p), 0)


@nb.njit(cache=True)
def unseen_in(core, seen, kset):
    """Sum of :func:`unseen_copies` over the kinds in kind set ``kset``: one popcount for the
    number kinds (one copy each in the deck), a counter per picture kind."""
    kset = np.uint64(kset)
    n = popcount(kset & unseen_numbers(core, seen))
    pics = kset >> np.uint64(N_NUMBER_KINDS)
    p = 0
    while pics:
        if pics & U1:
            n += max(np.int64(core[CORE_RULES + HR_COPIES + p]) - picture_count(seen, p), 0)
        pics >>= U1
        p += 1
    return n


@nb.njit(cache=True)
def unseen_numbers(core, seen):
    """Kind set of the number kinds in the deck that are not in hand mask ``seen``."""
    return core[CORE_RULES + HR_DECK_NUMBERS] & ~np.uint64(seen) & NUM


@nb.njit(cache=True)
def candidate_kinds(core, hand):
    """Kinds that can lower a hand's distance to tenpai when added: those sharing a partial set
    or a head with a card in hand (a card alone is a single and changes nothing)."""
    present = kinds_present(hand)
    out = U0
    rest = present
    while rest:
        low = rest & (~rest + U1)
        out |= core[CORE_RELATED + popcount(low - U1)]
        rest ^= low
    return out


@nb.njit(cache=True)
def useful_cards(hand, n_revealed, seen, core):
    """Cards that lower the distance to tenpai of ``hand`` when added to it.

    Parameters
    ----------
    hand : uint64 hand mask (at most MAX_CARDS - 1 cards).
    n_revealed : int.
    seen : uint64 hand mask of every card the player can see (``OBS_SEEN``: own hand, revealed
        sets, discards, dora indicator); unseen copies are the deck's minus those.
    core : uint64[CORE_LEN].

    Returns
    -------
    (int, uint64): unseen copies of the useful kinds, and their kind set.
    """
    hand = np.uint64(hand)
    base = shanten(hand, n_revealed, core)
    total = 0
    kset = U0
    rest = candidate_kinds(core, hand)
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        q = popcount(low - U1)
        n = unseen_copies(core, seen, q)
        if n > 0 and shanten(hand + unit(q), n_revealed, core) < base:
            total += n
            kset |= low
    return total, kset


@nb.njit(cache=True)
def _best_byte(core, pid, nid, G):
    w = core[CORE_SH_BEST + N_NUMBER_IDS * pid + nid]
    return np.int64((w >> np.uint64(8 * G)) & np.uint64(255))


@nb.njit(cache=True)
def useful_cards_from(hand, base, n_revealed, seen, core):
    """:func:`useful_cards` of ``hand`` whose distance ``base`` is known, with the same results.

    The hand's number and picture parts are looked up once, and each added card changes one of
    them only (:func:`_useful_in_reading`). Old edition: an added card that is not rank-1 leaves
    the hand's readings as they are, so it is useful when it is useful in one of them (each a
    new-edition hand: :func:`_useful_in_reading` on each); an added rank-1 card brings readings
    of its own and is tried with :func:`shanten`, as :func:`useful_cards` tries every card.
    """
    hand = np.uint64(hand)
    rest = candidate_kinds(core, hand)
    G = max((hand_size(hand) + 1) // 3, 3 - n_revealed)
    need = 2 * G - base + 1  # useful: best value of hand + q at least this (shanten below base)
    if core[CORE_RULES + HR_N_SUBS] == 0:
        return _useful_in_reading(hand, rest, need, G, seen, core)
    kset = U0
    for code in range(n_readings(hand, core)):
        kset |= _useful_in_reading(apply_reading(hand, code, core), rest & ~RANK1_BITS, need,
                                   G, seen, core)[1]
    ones = rest & RANK1_BITS
    while ones:
        low = ones & (~ones + U1)
        ones ^= low
        if unseen_copies(core, seen, popcount(low - U1)) > 0 and \
                shanten(hand + low, n_revealed, core) < base:
            kset |= low
    return unseen_in(core, seen, kset), kset


@nb.njit(cache=True)
def _useful_in_reading(hand, rest, need, G, seen, core):
    """(unseen copies, kind set) of the kinds of ``rest`` that, added to ``hand`` (a hand of one
    reading: its rank-1 cards numbers or pictures for good), give a best value (module doc) of
    at least ``need`` for ``G`` sets.

    An added picture costs one picture-word load and one best-value load; an added number card
    re-ranks the number part incrementally (colex rank, walking the candidates in increasing
    order) when it stays within the table, and otherwise (up to two cards past it) joins the
    groups holding the added card with the number part's own frontier; larger number parts are
    searched (:func:`_upto9`)."""
    total = 0
    kset = U0
    n_part = hand & NUM
    m = popcount(n_part)
    pw = picture_word(core, hand)
    pid = np.int64(pw >> np.uint64(32))
    small = m <= SH_SMALL
    nid = small_number_id(core, n_part) if small else 0
    fnum = U0 if small else _upto9(core, n_part)
    # Frontier of n_part when n_part + q is one or two cards past the table (peeled by q).
    fnum_small = core[CORE_SH_NUM_PALETTE + nid] if m == SH_SMALL else fnum
    # Incremental colex rank of n_part + q (m + 1 <= SH_SMALL): with c_1 < ... < c_m the cards
    # of n_part and r of them below q, rank = off[m + 1] + A + C(q, r + 1) + B where
    # A = sum_{j <= r} C(c_j, j) and B = sum_{j > r} C(c_j, j + 1).
    grow = m + 1 <= SH_SMALL
    rb = CORE_SH_RANK + 8
    off = np.int64(core[CORE_SH_RANK + m + 1]) if grow else 0
    A = 0
    B = 0
    if grow:
        s = n_part
        j = 1
        while s:
            low = s & (~s + U1)
            s ^= low
            B += np.int64(core[rb + 8 * popcount(low - U1) + j + 1])
            j += 1
    r = 0
    above = n_part  # cards of n_part not yet passed
    # Number kinds: one copy each in the deck, so only the unseen ones count, one card each.
    nums = rest & unseen_numbers(core, seen)
    while nums:
        low = nums & (~nums + U1)
        nums ^= low
        q = popcount(low - U1)
        n = 1
        if low & n_part:  # a kind already held (not unseen when seen holds the hand)
            better = _split_best(core, hand + low, G) >= need
        elif grow:
            while above and (above & (~above + U1)) < low:
                c_low = above & (~above + U1)
                above ^= c_low
                c = popcount(c_low - U1)
                r += 1
                A += np.int64(core[rb + 8 * c + r])
                B -= np.int64(core[rb + 8 * c + r + 1])
            i = off + A + np.int64(core[rb + 8 * q + r + 1]) + B
            nid2 = np.int64((core[CORE_SH_NUM + (i >> 3)] >> np.uint64(8 * (i & 7))) & np.uint64(255))
            better = _best_byte(core, pid, nid2, G) >= need
        elif m <= SH_SMALL + 1:  # n_part + q is 1-2 cards past the table: peel q itself
            better = best_value(_peel_card(core, n_part | low, q, fnum_small), pw & LOW32,
                                G) >= need
        else:
            better = best_value(_upto9(core, n_part | low), pw & LOW32, G) >= need
        if better:
            total += n
            kset |= low
    pics = rest & ~NUM
    while pics:
        low = pics & (~pics + U1)
        pics ^= low
        q = popcount(low - U1)
        n = unseen_copies(core, seen, q)
        if n <= 0:
            continue
        pw2 = picture_word(core, hand + unit(q))
        if small:
            better = _best_byte(core, np.int64(pw2 >> np.uint64(32)), nid, G) >= need
        else:
            better = best_value(fnum, pw2 & LOW32, G) >= need
        if better:
            total += n
            kset |= low
    return total, kset


@nb.njit(cache=True)
def useful_at_tenpai(hand, revealed, n_revealed, seen, core):
    """:func:`useful_cards` of a hand at distance 0 (tenpai), with the same results: its useful
    cards are the ones that complete it, i.e. its waits (one table lookup instead of a distance
    per candidate card). ``revealed``: hand mask of the player's revealed cards; other
    parameters as in :func:`useful_cards`. (Distance 0 implies hand size 3k+1 with k plus the
    revealed sets at least 3, the condition under which ``waits`` answers.)"""
    w = waits(np.uint64(hand), np.uint64(revealed), n_revealed, core)
    total = 0
    kset = U0
    while w:
        low = w & (~w + U1)
        w ^= low
        n = unseen_copies(core, seen, popcount(low - U1))
        if n > 0:
            total += n
            kset |= low
    return total, kset


@nb.njit(cache=True)
def discard_distances(hand, n_revealed, core, kinds, out):
    """:func:`shanten` of ``hand`` minus one card, for every kind in kind set ``kinds``.

    Parameters
    ----------
    hand : uint64 hand mask (at most MAX_CARDS cards); every kind in ``kinds`` is held.
    n_revealed : int.
    core : uint64[CORE_LEN].
    kinds : uint64 kind set (bit k: kind k, as ``cards.kind_bit``) of the cards to try.
    out : int64[N_KINDS]; ``out[k]`` is written for every k in ``kinds``, nothing else.

    Same results as ``shanten(hand - unit(k), n_revealed, core)`` for each k (the bots' discard
    loop), with the shared work done once (:func:`_discard_values`). Old edition: taking a card
    that is not rank-1 leaves the hand's readings as they are, so its distance is the least over
    the readings, each a new-edition hand; taking a rank-1 card changes the readings, and
    :func:`shanten` gives it.
    """
    hand = np.uint64(hand)
    G = max((hand_size(hand) - 1) // 3, 3 - n_revealed)
    if core[CORE_RULES + HR_N_SUBS] == 0:
        _discard_values(hand, G, core, kinds, out, False)
        return
    ones = kinds & RANK1_BITS
    for code in range(n_readings(hand, core)):   # the first reading's, then the least
        _discard_values(apply_reading(hand, code, core), G, core, kinds & ~RANK1_BITS, out,
                        code > 0)
    while ones:
        low = ones & (~ones + U1)
        ones ^= low
        out[popcount(low - U1)] = shanten(hand - low, n_revealed, core)


@nb.njit(cache=True, inline="always")
def _put(out, k, d, least):
    if not least or d < out[k]:
        out[k] = d


@nb.njit(cache=True)
def _discard_values(hand, G, core, kinds, out, least):
    """The distance (``2 G`` less the best value, module doc) of ``hand`` (one reading: its
    rank-1 cards numbers or pictures for good) minus one card, for every kind in ``kinds``, into
    ``out`` (the least of it and what ``out`` holds when ``least``). Taking a picture changes
    only the picture word; taking a number card re-ranks the number part in O(1) from prefix
    and suffix sums of its colex rank (when the rest is within the table); larger number parts
    are searched (:func:`_upto9`)."""
    n_part = hand & NUM
    m = popcount(n_part)
    pw = picture_word(core, hand)
    pid = np.int64(pw >> np.uint64(32))
    pics = kinds & ~NUM
    if pics:
        small = m <= SH_SMALL
        nid = small_number_id(core, n_part) if small else 0
        fnum = U0 if small else _upto9(core, n_part)
        while pics:
            low = pics & (~pics + U1)
            pics ^= low
            k = popcount(low - U1)
            pw2 = picture_word(core, hand - unit(k))
            if small:
                _put(out, k, 2 * G - _best_byte(core, np.int64(pw2 >> np.uint64(32)), nid, G),
                     least)
            else:
                _put(out, k, 2 * G - best_value(fnum, pw2 & LOW32, G), least)
    nums = kinds & NUM
    if not nums:
        return
    if m - 1 > SH_SMALL:
        while nums:
            low = nums & (~nums + U1)
            nums ^= low
            _put(out, popcount(low - U1),
                 2 * G - best_value(_upto9(core, n_part ^ low), pw & LOW32, G), least)
        return
    # n_part = c_1 < ... < c_m; without c_r its colex rank is off[m - 1] + A + S with
    # A = sum_{j < r} C(c_j, j) and S = sum_{j > r} C(c_j, j - 1).
    rb = CORE_SH_RANK + 8
    off = np.int64(core[CORE_SH_RANK + m - 1])
    S = 0
    s = n_part
    j = 1
    while s:
        low = s & (~s + U1)
        s ^= low
        S += np.int64(core[rb + 8 * popcount(low - U1) + j - 1])
        j += 1
    A = 0
    s = n_part
    j = 1
    while s:
        low = s & (~s + U1)
        s ^= low
        c = popcount(low - U1)
        S -= np.int64(core[rb + 8 * c + j - 1])
        if low & nums:
            i = off + A + S
            nid2 = np.int64((core[CORE_SH_NUM + (i >> 3)] >> np.uint64(8 * (i & 7))) & np.uint64(255))
            _put(out, c, 2 * G - _best_byte(core, pid, nid2, G), least)
        A += np.int64(core[rb + 8 * c + j])
        j += 1


@nb.njit(cache=True)
def shanten_batch(hands, n_revealed, core, out):
    for i in range(hands.shape[0]):
        out[i] = shanten(hands[i], n_revealed[i], core)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
