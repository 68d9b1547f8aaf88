"""Hand-analysis kernels for P-style trump mahjong (spec §2, §5, §8 shapes): complete shape, waits,
distance to tenpai, useful draws, every reading of a complete hand.

Everything works on rank counts ``cnt``: int64[14], rank index r = card id // 4 (0..8 = A..9,
9 = T, 10..12 = J Q K, 13 = joker; :mod:`simcore.ptrump.cards`), of the concealed hand (plus the
win or drawn card where the question is about an 8 - 3k-card hand). ``k`` = revealed pons/kans
(0..2); a concealed hand holds 7 - 3k cards between turns. Shapes (spec §2, §5):

* set: a triplet of a rank A..K (jokers form no sets: they are not wild) or a run of three
  consecutive ranks within A..9; head: a pair of any rank, jokers included;
* regular: 2 - k sets + one head;
* k == 0 only, each switched by the hand rules ``hr``: sutoitsu (four pairs; four of a rank are two
  pairs with ``sutoitsu_same_pairs``, jokers are one pair), paaren (A-8 or 2-9, one each),
  kokushi (A 9 T J Q K X once each + one more of them), chinroutou (exactly AAAA9999).

``hr`` -- the hand rules array (int64[HR_LEN], built by :func:`hand_rules_array`)
----------------------------------------------------------------------------------
* ``hr[HR_SUTOITSU .. HR_CHINROUTOU]``: 0/1 shape switches (names in :data:`HR_NAMES`);
* then the lookup tables the kernels read (``HR_NUM_START`` ..): they are the same for every rules
  setting, built once per process with NumPy (about 0.1 s; nothing to compile) and copied in, so
  a kernel needs just ``cnt``, ``k`` and ``hr`` (one array argument: cheap to pass, as momojan's
  ``core``). A table change is tested against the reference (tests/ptrump/test_hand.py); the
  builder is :func:`_fill_part_table`.

How the fast path works
-----------------------
No set mixes the number ranks A..9 with the honour ranks T J Q K X, so a hand splits into a
*number part* (ranks 0..8) and an *honour part* (ranks 9..13). Every part vector within the copies
and of at most 8 cards has a table entry: the 22,330 number vectors by dense index (lexicographic;
found as ``START[code of A..5] + SUB[8 - cards in A..5][code of 6..9]``, codes in base 5), the
honour vectors directly by their base-5 code (1,875 slots). An entry is two int64 words:

* word 0, bits ``4 * (2 s + h)`` (s = 0..2 sets, h = 0/1 head): D[s][h], the fewest cards the part
  lacks to become s sets (+ a head if h) within the copies; bit ``F_SETS``: the part is sets only
  (the empty part too); ``F_HEAD``: sets + one head; bits ``WS_SHIFT``..: the ranks that make it
  sets only if added (shape only: a fifth copy counts); ``WH_SHIFT``..: ranks that make it sets +
  head;
* word 1: bit ``16 (c - 1) + r`` set if the part holds exactly c (1..4) cards of rank r. The two
  parts' masks together give the special shapes as a few bit tests.

Then a 7 - 3k hand's waits are the number part's WH when the honour part is sets only, its WS when
the honours are sets + head, and the same the other way round; completeness is
``(num sets & hon head) | (num head & hon sets)``; and the distance is
``min over s, h of D_num[s][h] + D_hon[2 - k - s][1 - h] - 1`` (the lacking cards of a shape are
the sum over its two parts). Special shapes are short formulas over the count masks.

Distance to tenpai (``shanten``)
--------------------------------
``shanten = min |C - H| - 1`` over complete 8 - 3k-card shapes C within the copies (at most 4 of a
rank, 2 jokers), ``|C - H|`` the cards C has and the hand lacks. For a 7 - 3k-card hand, 0 = tenpai
on a wait of which a copy exists outside the hand (the spec's ``tenpai_needs_live_wait`` as far as
the concealed hand goes), 1 = one useful draw away, ...; for an 8 - 3k-card hand, -1 = complete,
otherwise the value after the best discard (no discard loop is needed: C keeps what it uses).
``win_mask`` is shape only (a wait on a fifth copy is reported), so ``shanten == 0`` implies
``win_mask != 0`` but not always the converse.

What this implementation simplifies
-----------------------------------
* Ranks only: the one-colour conditions (``paaren_one_colour``, kokushi_double, chinitsu) need the
  card ids and are the caller's (scoring, engine) to check; a paaren reading or wait here is by rank.
* The kernels assume a hand of at most 8 cards within the copies; ``is_complete`` also answers a
  probe with one rank one copy over (shape only). Other inputs give unspecified results.
* Nukidora jokers are outside the hand: never pass them in ``cnt``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

import numba as nb
import numpy as np

from simcore.nb.bits import popcount
from simcore.nb.stack import stack_empty
from .cards import JOKER, N_RANKS, RANK_CHARS, RANK_COPIES, format_rank_mask

# ---------------------------------------------------------------------------------------------
# The hand rules array
# ---------------------------------------------------------------------------------------------

HR_NAMES = ("sutoitsu", "sutoitsu_same_pairs", "paaren", "kokushi", "chinroutou")
HR_SUTOITSU, HR_SUTOITSU_SAME_PAIRS, HR_PAAREN, HR_KOKUSHI, HR_CHINROUTOU = range(len(HR_NAMES))
HR_N_FLAGS = 8                      # slots reserved for switches (HR_NAMES and future ones)

MAX_CARDS = 8                       # the largest concealed hand (7 + the drawn card)
N_NUM = 9                           # number part: ranks 0..8
N_HON = N_RANKS - N_NUM             # honour part: ranks 9..13 (T J Q K X)
W_WIDTH = MAX_CARDS + 1             # rows of SUB: cards left for ranks 6..9 (0..8)


def _part_vectors(caps):
    """int64[n, len(caps)]: every count vector within ``caps`` of total <= MAX_CARDS, in
    lexicographic order (the first rank most significant): row j has dense index j."""
    rows = np.zeros((1, 0), np.int64)
    for cap in caps:                  # append a column: each row, then each count, in order
        rows = np.hstack([np.repeat(rows, cap + 1, axis=0),
                          np.tile(np.arange(cap + 1), rows.shape[0])[:, None]])
        rows = rows[rows.sum(axis=1) <= MAX_CARDS]
    return rows


NUM_CAPS = RANK_COPIES[:N_NUM]
HON_CAPS = RANK_COPIES[N_NUM:]
N_NUM_VECTORS = int(_part_vectors(NUM_CAPS).shape[0])
N_HON_VECTORS = int(_part_vectors(HON_CAPS).shape[0])

# Lookup: the number part's dense index is START[base-5 code of ranks A..5] + SUB[8 - cards in
# A..5][base-5 code of ranks 6..9] (the vectors sharing ranks A..5 are consecutive in
# lexicographic order; SUB ranks the rest among those of at most 8 - t cards). The honour part
# is small enough to index directly by its code cT + 5 cJ + 25 cQ + 125 cK + 625 cX.
N_LOW = 5                                            # ranks A..5: the START half
LOW_CODES = 5 ** N_LOW                               # 3125
HIGH_CODES = 5 ** (N_NUM - N_LOW)                    # 625 codes of ranks 6..9
HON_CODES = 5 ** 4 * 3                               # 1875 codes of T J Q K (0..4) and X (0..2)
ENTRY_W = 2                                          # table words per part vector
HR_NUM_START = HR_N_FLAGS                            # int64[3125]
HR_NUM_SUB = HR_NUM_START + LOW_CODES                # int64[9 * 625]
HR_NUM_TAB = HR_NUM_SUB + W_WIDTH * HIGH_CODES       # number-part table (ENTRY_W words each)
HR_HON_TAB = HR_NUM_TAB + ENTRY_W * N_NUM_VECTORS    # honour-part table, by code
HR_LEN = HR_HON_TAB + ENTRY_W * HON_CODES

# Table word layout (module docstring).
D_BITS = 4
F_SETS = np.int64(1) << np.int64(24)
F_HEAD = np.int64(1) << np.int64(25)
WS_SHIFT = 32
WH_SHIFT = 48
PART_MASK_BITS = 9
COUNT_SHIFT = 16    # second word: bit 16 * (c - 1) + r set if the part holds exactly c of rank r

# Rank masks (bit r = rank index r).
NUM_RANKS_MASK = (1 << N_NUM) - 1
KOKUSHI_MASK = (1 << 0) | (1 << 8) | (((1 << N_HON) - 1) << N_NUM)   # A 9 T J Q K X
PAAREN_LOW = 0xFF                    # A..8
PAAREN_HIGH = 0x1FE                  # 2..9
CHINROUTOU_MASK = (1 << 0) | (1 << 8)  # A, 9
ALL_RANKS_MASK = (1 << N_RANKS) - 1

# ---------------------------------------------------------------------------------------------
# Readings (decompositions)
# ---------------------------------------------------------------------------------------------

READING_KINDS = ("regular", "sutoitsu", "paaren", "kokushi", "chinroutou")
RK_REGULAR, RK_SUTOITSU, RK_PAAREN, RK_KOKUSHI, RK_CHINROUTOU = range(len(READING_KINDS))
READING_FIELDS = ("kind", "head", "set0_is_run", "set0_rank", "set1_is_run", "set1_rank")
RD_KIND, RD_HEAD, RD_SET0_RUN, RD_SET0_RANK, RD_SET1_RUN, RD_SET1_RANK = range(len(READING_FIELDS))
READING_W = len(READING_FIELDS)
MAX_READINGS = 16
# A row: kind (RK_*); head rank (regular; kokushi: its doubled rank; else -1); then one (is_run,
# lowest rank) pair per concealed set, sets in (rank, is_run) order, (-1, -1) where unused
# (k revealed sets leave 2 - k concealed ones; the special shapes have none).


# ---------------------------------------------------------------------------------------------
# Table building (once per process)
# ---------------------------------------------------------------------------------------------

def _part_sets(n_ranks, runs):
    """Count vectors of the part's sets: a triplet of each rank, and runs if ``runs``."""
    sets = []
    for r in range(n_ranks):
        v = np.zeros(n_ranks, np.int64)
        v[r] = 3
        sets.append(v)
    if runs:
        for r in range(n_ranks - 2):
            v = np.zeros(n_ranks, np.int64)
            v[r:r + 3] = 1
            sets.append(v)
    return sets


def _part_shapes(sets, heads):
    """int64[m, L] shapes and int64[m] slots (2 * n_sets + has_head): every choice of 0..2 sets
    (with repetition) and at most one head, copies not checked."""
    L = len(heads)
    shapes, slots = [], []
    for s in range(3):
        for combo in combinations_with_replacement(range(len(sets)), s):
            base = np.zeros(L, np.int64)
            for j in combo:
                base = base + sets[j]
            shapes.append(base)
            slots.append(2 * s)
            for h in range(L):
                if heads[h]:
                    v = base.copy()
                    v[h] += 2
                    shapes.append(v)
                    slots.append(2 * s + 1)
    return np.array(shapes, np.int64), np.array(slots, np.int64)


def _fill_part_table(caps, sets):
    """int64[n, ENTRY_W]: the table entries of the part's vectors (:func:`_part_vectors` order).

    Plain NumPy, level by level over the number of cards (nothing to compile):

    * ``below[slot, v]``: v fits inside some shape of the slot within ``caps``: the shapes, then
      any vector one card under a vector that fits (from 8 cards down);
    * ``fit[slot, v]``: the most cards of v one shape holds: |v| if v fits, else the best over
      v less one card (from 0 cards up); D = the slot's size - fit;
    * the flags, the wait bits (every shape, copies unchecked, less one card of rank r, that is a
      vector of the table waits on r) and the exact-count masks.
    """
    L = len(caps)
    caps = np.array(caps, np.int64)
    vecs = _part_vectors(caps)
    n = len(vecs)
    pw = 5 ** np.arange(L)
    codes = vecs @ pw
    dense = np.full(5 ** L, -1, np.int64)
    dense[codes] = np.arange(n)
    totals = vecs.sum(axis=1)
    shapes, slots = _part_shapes(sets, [True] * L)
    capped = (shapes <= caps).all(axis=1)
    below = np.zeros((6, n), np.bool_)
    below[slots[capped], dense[shapes[capped] @ pw]] = True
    for t in range(MAX_CARDS - 1, -1, -1):
        lvl = np.flatnonzero(totals == t)
        for i in range(L):
            src = lvl[vecs[lvl, i] < caps[i]]
            below[:, src] |= below[:, dense[codes[src] + pw[i]]]
    fit = np.zeros((6, n), np.int64)
    for t in range(1, MAX_CARDS + 1):
        lvl = np.flatnonzero(totals == t)
        best = np.zeros((6, len(lvl)), np.int64)
        for i in range(L):
            has = vecs[lvl, i] > 0
            pred = dense[codes[lvl[has]] - pw[i]]
            best[:, has] = np.maximum(best[:, has], fit[:, pred])
        fit[:, lvl] = np.where(below[:, lvl], t, best)
    size = np.array([3 * (sl // 2) + 2 * (sl % 2) for sl in range(6)], np.int64)
    word = np.zeros(n, np.int64)
    for sl in range(6):
        word |= (size[sl] - fit[sl]) << (D_BITS * sl)
    n_sets = totals // 3
    word |= np.where((totals % 3 == 0) & (fit[2 * n_sets, np.arange(n)] == totals), F_SETS, 0)
    head_fit = fit[np.minimum(2 * n_sets + 1, 5), np.arange(n)]
    word |= np.where((totals % 3 == 2) & (head_fit == totals), F_HEAD, 0)
    for r in range(L):
        has = shapes[:, r] > 0
        v = shapes[has].copy()
        v[:, r] -= 1
        ok = (v <= caps).all(axis=1) & (v.sum(axis=1) <= MAX_CARDS)
        shift = np.where(slots[has][ok] % 2 == 1, WH_SHIFT, WS_SHIFT)
        np.bitwise_or.at(word, dense[v[ok] @ pw], np.int64(1) << (shift + r))
    counts = np.zeros(n, np.int64)
    for c in range(1, 5):
        for r in range(L):
            counts |= np.where(vecs[:, r] == c, np.int64(1) << (COUNT_SHIFT * (c - 1) + r), 0)
    return np.stack([word, counts], axis=1)


def _codes(vecs):
    """Base-5 code of each row (the first column least significant)."""
    return (vecs * (5 ** np.arange(vecs.shape[1]))).sum(axis=1)


@lru_cache(maxsize=None)
def _tables() -> np.ndarray:
    """int64[HR_LEN - HR_N_FLAGS]: the lookup tables (the same for every rules setting)."""
    out = np.zeros(HR_LEN, np.int64)
    for caps, runs in ((NUM_CAPS, True), (HON_CAPS, False)):
        L = len(caps)
        sets = _part_sets(L, runs)
        if not runs:            # honour part: no joker triplet
            sets = [v for v in sets if v[L - 1] == 0]
        vecs = _part_vectors(caps)
        table = _fill_part_table(caps, sets).reshape(-1)
        if runs:
            assert len(vecs) == N_NUM_VECTORS
            out[HR_NUM_TAB:HR_NUM_TAB + len(table)] = table
            low, high = _codes(vecs[:, :N_LOW]), _codes(vecs[:, N_LOW:])
            left = MAX_CARDS - vecs[:, :N_LOW].sum(axis=1)
            j = np.arange(len(vecs))
            start = np.full(LOW_CODES, len(vecs), np.int64)     # codes of no vector: unused
            np.minimum.at(start, low, j)
            out[HR_NUM_START:HR_NUM_START + LOW_CODES] = start
            sub = np.zeros(W_WIDTH * HIGH_CODES, np.int64)
            sub[left * HIGH_CODES + high] = j - start[low]
            out[HR_NUM_SUB:HR_NUM_SUB + len(sub)] = sub
        else:
            code = _codes(vecs)
            for w in range(ENTRY_W):
                out[HR_HON_TAB + ENTRY_W * code + w] = table[w::ENTRY_W]
    out.setflags(write=False)
    return out[HR_N_FLAGS:]


def hand_rules_array(sutoitsu_same_pairs=True, sutoitsu=True, paaren=True, kokushi=True,
                     chinroutou=True) -> np.ndarray:
    """int64[HR_LEN]: the shape switches (HR_*) followed by the lookup tables.

    Parameters
    ----------
    sutoitsu_same_pairs : bool
        Four of a rank count as two pairs of a sutoitsu (spec §5, default True).
    sutoitsu, paaren, kokushi, chinroutou : bool
        The menzen-only special shapes (k == 0) that complete a hand. chinroutou (AAAA9999) is
        complete whatever ``sutoitsu_same_pairs`` (spec §8).
    """
    hr = np.zeros(HR_LEN, np.int64)
    hr[HR_SUTOITSU] = bool(sutoitsu)
    hr[HR_SUTOITSU_SAME_PAIRS] = bool(sutoitsu_same_pairs)
    hr[HR_PAAREN] = bool(paaren)
    hr[HR_KOKUSHI] = bool(kokushi)
    hr[HR_CHINROUTOU] = bool(chinroutou)
    hr[HR_N_FLAGS:] = _tables()
    return hr


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------

# A hand's table codes: ranks 0-4, 5-8 and 9-13 (the joker) as base-5 numbers, the count of
# ranks 0-4 and of all. One card of rank r more or less moves them by :func:`code_step`.
_POW5 = (1, 5, 25, 125, 625)


@nb.njit(cache=True, inline="always")
def hand_codes(cnt):
    """(low, high, hon, n_low, total) of a hand's rank counts: what :func:`_part_words` reads
    the tables by. For a hand within the copies (see :func:`shanten_of_codes`)."""
    low = cnt[0] + 5 * (cnt[1] + 5 * (cnt[2] + 5 * (cnt[3] + 5 * cnt[4])))
    high = cnt[5] + 5 * (cnt[6] + 5 * (cnt[7] + 5 * cnt[8]))
    hon = cnt[9] + 5 * (cnt[10] + 5 * (cnt[11] + 5 * (cnt[12] + 5 * cnt[13])))
    n_low = cnt[0] + cnt[1] + cnt[2] + cnt[3] + cnt[4]
    total = (n_low + cnt[5] + cnt[6] + cnt[7] + cnt[8] + cnt[9] + cnt[10] + cnt[11] + cnt[12]
             + cnt[13])
    return low, high, hon, n_low, total


@nb.njit(cache=True, inline="always")
def code_step(low, high, hon, n_low, total, r, d):
    """The codes of :func:`hand_codes` with ``d`` (+1 or -1) cards of rank r."""
    if r < 5:
        return low + d * _POW5[r], high, hon, n_low + d, total + d
    if r < 9:
        return low, high + d * _POW5[r - 5], hon, n_low, total + d
    return low, high, hon + d * _POW5[r - 9], n_low, total + d


@nb.njit(cache=True, inline="always")
def _words_of_codes(low, high, hon, n_low, hr):
    pa = HR_NUM_TAB + ENTRY_W * (hr[HR_NUM_START + low]
                                 + hr[HR_NUM_SUB + (MAX_CARDS - n_low) * HIGH_CODES + high])
    pb = HR_HON_TAB + ENTRY_W * hon
    masks = hr[pa + 1] | ((hr[pb + 1] & HON_COUNT_BITS) << N_NUM)
    return hr[pa], hr[pb], masks


@nb.njit(cache=True)
def _part_words(cnt, hr):
    """(number word, honour word, count masks, ok) of a hand: the two parts' first table words and
    the exact-count rank masks m1..m4 of the whole hand packed as ``m_c << (16 * (c - 1))``
    (14 bits each); ok False if the hand is over the copies or holds more than 8 cards."""
    low, high, hon, n_low, total = hand_codes(cnt)
    over = 0                      # (c + 3) & 8: set for c = 5..12, so 0 iff every c <= 4
    for r in range(N_RANKS):
        over |= (cnt[r] + 3) & 8
    if over != 0 or cnt[JOKER] > 2 or total > MAX_CARDS:
        return np.int64(0), np.int64(0), np.int64(0), False
    a, b, masks = _words_of_codes(low, high, hon, n_low, hr)
    return a, b, masks, True


HON_COUNT_BITS = np.int64(sum(((1 << N_HON) - 1) << (COUNT_SHIFT * c) for c in range(4)))
RANK_BITS = np.int64((1 << N_RANKS) - 1)
JOKER_BIT = np.int64(1) << JOKER


@nb.njit(cache=True)
def _regular_waits(a, b):
    """Regular waits of a 7 - 3k-card hand from its part words."""
    pm = np.int64((1 << PART_MASK_BITS) - 1)
    m = np.int64(0)
    if b & F_SETS:
        m |= (a >> WH_SHIFT) & pm
    if b & F_HEAD:
        m |= (a >> WS_SHIFT) & pm
    if a & F_SETS:
        m |= ((b >> WH_SHIFT) & pm) << N_NUM
    if a & F_HEAD:
        m |= ((b >> WS_SHIFT) & pm) << N_NUM
    return m


@nb.njit(cache=True)
def _special_waits(masks, hr):
    """Ranks completing a 7-card hand (count masks ``masks``) as an enabled special shape."""
    m1 = masks & RANK_BITS
    m2 = (masks >> COUNT_SHIFT) & RANK_BITS
    m3 = (masks >> (2 * COUNT_SHIFT)) & RANK_BITS
    m4 = (masks >> (3 * COUNT_SHIFT)) & RANK_BITS
    present = m1 | m2 | m3 | m4
    same = hr[HR_SUTOITSU_SAME_PAIRS] != 0
    m = np.int64(0)
    if hr[HR_SUTOITSU] != 0:
        odd = m1 | m3
        if odd != 0 and (odd & (odd - 1)) == 0 and (m4 == 0 or same):   # one odd rank
            if m1 != 0:
                m |= m1                      # a single: its pair
            elif same:
                m |= m3                      # three: the fourth makes two pairs
    if hr[HR_PAAREN] != 0 and (m2 | m3 | m4) == 0:
        if (present & ~PAAREN_LOW) == 0:
            m |= PAAREN_LOW & ~present
        if (present & ~PAAREN_HIGH) == 0:
            m |= PAAREN_HIGH & ~present
    if hr[HR_KOKUSHI] != 0 and (m3 | m4) == 0 and (present & ~KOKUSHI_MASK) == 0:
        if m2 == 0:
            m |= KOKUSHI_MASK                # all seven once: any of them
        elif (m2 & (m2 - 1)) == 0:
            m |= KOKUSHI_MASK & ~present     # one doubled: the missing one
    if hr[HR_CHINROUTOU] != 0 and present == CHINROUTOU_MASK:
        if (m4 & 1) != 0 and (m3 >> 8) & 1 != 0:
            m |= np.int64(1) << 8
        elif (m3 & 1) != 0 and (m4 >> 8) & 1 != 0:
            m |= np.int64(1)
    return m


@nb.njit(cache=True)
def _special_complete(masks, hr):
    """Is the 8-card hand (count masks ``masks``) one of the enabled special shapes?"""
    m1 = masks & RANK_BITS
    m2 = (masks >> COUNT_SHIFT) & RANK_BITS
    m3 = (masks >> (2 * COUNT_SHIFT)) & RANK_BITS
    m4 = (masks >> (3 * COUNT_SHIFT)) & RANK_BITS
    present = m1 | m2 | m3 | m4
    if hr[HR_SUTOITSU] != 0 and (m1 | m3) == 0 and (m4 == 0 or hr[HR_SUTOITSU_SAME_PAIRS] != 0):
        return True
    if hr[HR_PAAREN] != 0 and (m2 | m3 | m4) == 0 and (present == PAAREN_LOW
                                                       or present == PAAREN_HIGH):
        return True
    if (hr[HR_KOKUSHI] != 0 and present == KOKUSHI_MASK and (m3 | m4) == 0 and m2 != 0
            and (m2 & (m2 - 1)) == 0):
        return True
    return hr[HR_CHINROUTOU] != 0 and m4 == CHINROUTOU_MASK and (m1 | m2 | m3) == 0


@nb.njit(cache=True)
def is_complete(cnt, k, hr):
    """Is the 8 - 3k-card concealed hand (win card included) complete?

    Parameters
    ----------
    cnt : int64[14]
        Rank counts; within the copies, or one rank one copy over (a shape-only probe).
    k : int
        Revealed pons/kans (0..2); special shapes only when 0.
    hr : int64[HR_LEN]
        :func:`hand_rules_array`.
    """
    a, b, masks, ok = _part_words(cnt, hr)
    if not ok:
        return _over_copies_complete(cnt, k, hr)
    if ((a & F_SETS) != 0 and (b & F_HEAD) != 0) or ((a & F_HEAD) != 0 and (b & F_SETS) != 0):
        return True
    return k == 0 and _special_complete(masks, hr)


@nb.njit(cache=True)
def _over_copies_complete(cnt, k, hr):
    """is_complete for a shape-only probe with one rank a copy over: the hand less that card
    waits on its rank."""
    for r in range(N_RANKS):
        if cnt[r] > (2 if r == JOKER else 4):
            tmp = cnt.copy()
            tmp[r] -= 1
            return (win_mask(tmp, k, hr) >> r) & 1 == 1
    return False


@nb.njit(cache=True)
def win_mask(cnt, k, hr):
    """int64 rank mask: bit r set if one more card of rank r completes the 7 - 3k-card hand
    (shape only: it ignores whether a copy is left; mask with :func:`held_out_mask` for live
    waits). 0 = not tenpai."""
    a, b, masks, ok = _part_words(cnt, hr)
    if not ok:
        return np.int64(0)
    m = _regular_waits(a, b)
    if k == 0:
        m |= _special_waits(masks, hr)
    return m


@nb.njit(cache=True)
def held_out_mask(held):
    """int64 rank mask of the ranks whose every copy is in ``held`` (int64[14] counts of what a
    player holds, revealed sets included): no live wait (spec §2 ``tenpai_needs_live_wait``)."""
    m = np.int64(0)
    for r in range(N_RANKS):
        if held[r] >= (2 if r == JOKER else 4):
            m |= np.int64(1) << r
    return m


@nb.njit(cache=True)
def _special_lacking(masks, hr):
    """Fewest cards a hand (count masks ``masks``) lacks to become an enabled special shape (99 if
    none is enabled)."""
    m1 = masks & RANK_BITS
    m2 = (masks >> COUNT_SHIFT) & RANK_BITS
    m3 = (masks >> (2 * COUNT_SHIFT)) & RANK_BITS
    m4 = (masks >> (3 * COUNT_SHIFT)) & RANK_BITS
    present = m1 | m2 | m3 | m4
    best = 99
    if hr[HR_SUTOITSU] != 0:
        # pair slots: a rank's first pair lacks max(0, 2 - c) cards; with same pairs a second
        # pair of a non-joker rank lacks max(0, 4 - c) - that more (0 for 4, 1 for 3, else 2).
        # Take the 4 cheapest slots (costs 0, 1, 2; a second pair never costs less than the
        # first of its rank, so the cheapest four are always a valid choice).
        zeros = popcount(m2 | m3 | m4)
        ones = popcount(m1)
        if hr[HR_SUTOITSU_SAME_PAIRS] != 0:
            zeros += popcount(m4 & ~JOKER_BIT)
            ones += popcount(m3 & ~JOKER_BIT)
        if zeros >= 4:
            cost = 0
        elif zeros + ones >= 4:
            cost = 4 - zeros
        else:
            cost = ones + 2 * (4 - zeros - ones)
        best = min(best, cost)
    if hr[HR_PAAREN] != 0:
        best = min(best, 8 - max(popcount(present & PAAREN_LOW), popcount(present & PAAREN_HIGH)))
    if hr[HR_KOKUSHI] != 0:
        best = min(best, 7 - popcount(present & KOKUSHI_MASK)
                   + (0 if ((m2 | m3 | m4) & KOKUSHI_MASK) != 0 else 1))
    if hr[HR_CHINROUTOU] != 0:
        held = 0
        for c in range(4):          # cards of rank A and 9 held (at most 4 count)
            held += (c + 1) * (((masks >> (COUNT_SHIFT * c)) & 1)
                               + ((masks >> (COUNT_SHIFT * c + 8)) & 1))
        best = min(best, 8 - held)
    return best


@nb.njit(cache=True)
def shanten(cnt, k, hr):
    """Distance to tenpai (module docstring): a 7 - 3k-card hand gives 0 = tenpai, 1, 2, ...;
    an 8 - 3k-card hand gives -1 = complete, else the value after its best discard.

    Parameters as :func:`is_complete` (``cnt`` within the copies). Returns an int; 98 for a hand
    over the copies or with more than 8 cards."""
    a, b, masks, ok = _part_words(cnt, hr)
    if not ok:
        return 98
    return _shanten_of_words(a, b, masks, k, hr)


@nb.njit(cache=True)
def shanten_of_codes(low, high, hon, n_low, total, k, hr):
    """:func:`shanten` of the hand whose :func:`hand_codes` these are, for a hand no rank of
    which is over its copies (the caller's to know: a hand less a card it holds, or plus one of
    a rank it holds fewer than the copies of); 98 past ``MAX_CARDS`` cards as there."""
    if total > MAX_CARDS:
        return 98
    a, b, masks = _words_of_codes(low, high, hon, n_low, hr)
    return _shanten_of_words(a, b, masks, k, hr)


@nb.njit(cache=True, inline="always")
def _shanten_of_words(a, b, masks, k, hr):
    n_sets = 2 - k
    best = 99
    for s in range(n_sets + 1):
        for h in range(2):
            da = (a >> (D_BITS * (2 * s + h))) & 15
            db = (b >> (D_BITS * (2 * (n_sets - s) + 1 - h))) & 15
            if da + db < best:
                best = da + db
    if k == 0:
        sp = _special_lacking(masks, hr)
        if sp < best:
            best = sp
    return best - 1


@nb.njit(cache=True)
def useful_mask(cnt, k, hr):
    """int64 rank mask: ranks whose draw lowers the 7 - 3k-card hand's :func:`shanten` (only ranks
    of which the hand does not hold every copy)."""
    base = shanten(cnt, k, hr)
    tmp = cnt.copy()
    m = np.int64(0)
    for r in range(N_RANKS):
        if tmp[r] >= (2 if r == JOKER else 4):
            continue
        tmp[r] += 1
        if shanten(tmp, k, hr) < base:
            m |= np.int64(1) << r
        tmp[r] -= 1
    return m


@nb.njit(cache=True)
def discard_shanten(cnt, k, hr, out):
    """For an 8 - 3k-card hand: ``out[r]`` (int64[14]) = :func:`shanten` of the 7 - 3k cards left
    after discarding a card of rank r, 99 where the hand holds none. Returns the minimum."""
    tmp = cnt.copy()
    best = 99
    for r in range(N_RANKS):
        if tmp[r] == 0:
            out[r] = 99
            continue
        tmp[r] -= 1
        out[r] = shanten(tmp, k, hr)
        tmp[r] += 1
        if out[r] < best:
            best = out[r]
    return best


@nb.njit(cache=True)
def _add_reading(out, n, row):
    for i in range(n):
        same = True
        for j in range(READING_W):
            if out[i, j] != row[j]:
                same = False
                break
        if same:
            return n
    if n < out.shape[0]:
        for j in range(READING_W):
            out[n, j] = row[j]
        return n + 1
    return n


@nb.njit(cache=True)
def decompositions(cnt, k, hr, out):
    """Every reading of a complete 8 - 3k-card hand.

    Parameters
    ----------
    cnt : int64[14]
        Rank counts of the concealed hand with the win card.
    k : int
        Revealed pons/kans; their sets are not part of a reading.
    hr : int64[HR_LEN]
    out : int64[MAX_READINGS, READING_W]
        Filled with one row per distinct reading (layout at RD_*).

    Returns
    -------
    n : int
        Rows written (0: not complete).

    Regular readings: for each head, the sets are taken one by one at the lowest rank left (a
    triplet of it or a run starting at it: the lowest card of any reading is in such a set), each
    way (bit i of ``choice`` = set i is a run), duplicates dropped.
    """
    n = np.int64(0)
    n_sets = 2 - k
    row = stack_empty(READING_W, np.int64)
    row[:] = -1
    rest = stack_empty(N_RANKS, np.int64)
    for r in range(N_RANKS):   # a loop: an array assignment compiles its shape error's text
        rest[r] = cnt[r]
    total = 0
    for r in range(N_RANKS):
        total += cnt[r]
    if total == 3 * n_sets + 2:
        for head in range(N_RANKS):
            if cnt[head] < 2:
                continue
            for choice in range(1 << n_sets):
                for r in range(N_RANKS):
                    rest[r] = cnt[r]
                rest[head] -= 2
                for j in range(READING_W):
                    row[j] = -1
                ok = True
                for i in range(n_sets):
                    lo = 0
                    while lo < N_RANKS and rest[lo] == 0:
                        lo += 1
                    is_run = (choice >> i) & 1
                    if lo == N_RANKS:
                        ok = False
                    elif is_run == 1:
                        if lo + 2 < N_NUM and rest[lo + 1] > 0 and rest[lo + 2] > 0:
                            rest[lo] -= 1
                            rest[lo + 1] -= 1
                            rest[lo + 2] -= 1
                        else:
                            ok = False
                    elif lo != JOKER and rest[lo] >= 3:
                        rest[lo] -= 3
                    else:
                        ok = False
                    if not ok:
                        break
                    row[RD_SET0_RUN + 2 * i] = is_run
                    row[RD_SET0_RANK + 2 * i] = lo
                if not ok:
                    continue
                for r in range(N_RANKS):
                    if rest[r] != 0:
                        ok = False
                if not ok:
                    continue
                row[RD_KIND] = RK_REGULAR
                row[RD_HEAD] = head
                # sets in (rank, is_run) order: rank * 2 + is_run compares both at once
                if n_sets == 2 and (2 * row[RD_SET1_RANK] + row[RD_SET1_RUN]
                                    < 2 * row[RD_SET0_RANK] + row[RD_SET0_RUN]):
                    a_run, a_rank = row[RD_SET0_RUN], row[RD_SET0_RANK]
                    row[RD_SET0_RUN], row[RD_SET0_RANK] = row[RD_SET1_RUN], row[RD_SET1_RANK]
                    row[RD_SET1_RUN], row[RD_SET1_RANK] = a_run, a_rank
                n = _add_reading(out, n, row)
    if k == 0 and total == 8:
        a, b, masks, ok = _part_words(cnt, hr)
        if ok and _special_complete(masks, hr):
            m2 = (masks >> COUNT_SHIFT) & RANK_BITS
            m4 = (masks >> (3 * COUNT_SHIFT)) & RANK_BITS
            present = (masks | (masks >> COUNT_SHIFT) | (masks >> (2 * COUNT_SHIFT))
                       | (masks >> (3 * COUNT_SHIFT))) & RANK_BITS
            for j in range(READING_W):
                row[j] = -1
            if (hr[HR_SUTOITSU] != 0 and (present & ~(m2 | m4)) == 0
                    and (m4 == 0 or hr[HR_SUTOITSU_SAME_PAIRS] != 0)):
                row[RD_KIND] = RK_SUTOITSU
                n = _add_reading(out, n, row)
            if hr[HR_PAAREN] != 0 and present == masks & RANK_BITS and (
                    present == PAAREN_LOW or present == PAAREN_HIGH):
                row[RD_KIND] = RK_PAAREN
                n = _add_reading(out, n, row)
            if (hr[HR_KOKUSHI] != 0 and present == KOKUSHI_MASK and m2 != 0
                    and (m2 & (m2 - 1)) == 0 and (present & ~(m2 | (masks & RANK_BITS))) == 0):
                row[RD_KIND] = RK_KOKUSHI
                for r in range(N_RANKS):
                    if (m2 >> r) & 1:
                        row[RD_HEAD] = r
                n = _add_reading(out, n, row)
                row[RD_HEAD] = -1
            if hr[HR_CHINROUTOU] != 0 and m4 == CHINROUTOU_MASK and present == CHINROUTOU_MASK:
                row[RD_KIND] = RK_CHINROUTOU
                n = _add_reading(out, n, row)
    return n


# ---------------------------------------------------------------------------------------------
# Batch kernels (benchmarks, bulk checks) and Python helpers
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def win_mask_batch(cnts, ks, hr, out):
    """out[i] = win_mask(cnts[i], ks[i], hr) for int64[n, 14] cnts, int64[n] ks."""
    for i in range(cnts.shape[0]):
        out[i] = win_mask(cnts[i], ks[i], hr)


@nb.njit(cache=True)
def shanten_batch(cnts, ks, hr, out):
    """out[i] = shanten(cnts[i], ks[i], hr)."""
    for i in range(cnts.shape[0]):
        out[i] = shanten(cnts[i], ks[i], hr)


@nb.njit(cache=True)
def complete_batch(cnts, ks, hr, out):
    """out[i] = is_complete(cnts[i], ks[i], hr)."""
    for i in range(cnts.shape[0]):
        out[i] = is_complete(cnts[i], ks[i], hr)


def readings(cnt, k, hr) -> list[tuple[int, ...]]:
    """Python convenience: the rows of :func:`decompositions` as tuples."""
    out = np.zeros((MAX_READINGS, READING_W), np.int64)
    n = decompositions(np.asarray(cnt, np.int64), int(k), hr, out)
    return [tuple(int(x) for x in out[i]) for i in range(n)]


def mask_ranks(mask: int) -> list[int]:
    """The rank indices of a rank bit mask, in order."""
    return [r for r in range(N_RANKS) if int(mask) >> r & 1]


def reading_text(row) -> str:
    """A reading row in notation: ``55 234 234``, ``sutoitsu``, ``kokushi XX``."""
    kind = int(row[RD_KIND])
    if kind == RK_KOKUSHI:
        return "kokushi " + RANK_CHARS[int(row[RD_HEAD])] * 2
    if kind != RK_REGULAR:
        return READING_KINDS[kind]
    parts = [RANK_CHARS[int(row[RD_HEAD])] * 2]
    for i in range(2):
        is_run, rank = int(row[RD_SET0_RUN + 2 * i]), int(row[RD_SET0_RANK + 2 * i])
        if rank >= 0:
            parts.append(RANK_CHARS[rank:rank + 3] if is_run else RANK_CHARS[rank] * 3)
    return " ".join(parts)


def analyse(hand, hr) -> dict:
    """JSON-able shape facts of a :class:`simcore.ptrump.cards.ParsedHand` (for ``waits`` and
    reports). A 7 - 3k-card hand without a win card: ``shanten``, ``waits`` (shape), ``live_waits``
    (less the ranks whose every copy the hand and its revealed sets hold), ``useful`` (draws that
    lower shanten). With the win card (or an 8 - 3k-card hand): ``complete``, ``shanten``,
    ``readings``. Ranks are written as in the notation (``58X``)."""
    k = hand.k
    cnt = hand.full_counts
    held = cnt.copy()
    for g in hand.revealed:
        held[g.rank] += len(g.cards)
    out = {"hand": str(hand), "revealed_sets": k, "concealed_cards": int(cnt.sum())}
    if int(cnt.sum()) == 7 - 3 * k:
        wm = int(win_mask(cnt, k, hr))
        out.update(shanten=int(shanten(cnt, k, hr)), waits=format_rank_mask(wm),
                   live_waits=format_rank_mask(wm & ~int(held_out_mask(held))),
                   useful=format_rank_mask(int(useful_mask(cnt, k, hr))))
    else:
        out.update(complete=bool(is_complete(cnt, k, hr)), shanten=int(shanten(cnt, k, hr)),
                   readings=[reading_text(r) for r in readings(cnt, k, hr)])
    return out


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
