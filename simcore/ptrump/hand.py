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
* then the lookup tables the kernels read (``HR_NUM_W`` ..): they are the same for every rules
  setting, built once per process (about 0.3 s) and copied in, so a kernel needs just ``cnt``,
  ``k`` and ``hr`` (one array argument: cheap to pass, as momojan's ``core``).

How the fast path works
-----------------------
No set mixes the number ranks A..9 with the honour ranks T J Q K X, so a hand splits into a
*number part* (ranks 0..8) and an *honour part* (ranks 9..13). Each part of at most 8 cards has a
dense index (lexicographic rank of its count vector among all vectors within the copies and of
total <= 8: 43,758 number vectors (less the over-copy ones), 1,150 honour vectors; the index is a
sum of 9 or 5 small-table entries) and one int64 table word:

* bits ``4 * (2 s + h)`` (s = 0..2 sets, h = 0/1 head): D[s][h], the fewest cards the part lacks
  to become s sets (+ a head if h) within the copies;
* bit ``F_SETS``: the part is sets only (the empty part too); ``F_HEAD``: sets + one head;
* bits ``WS_SHIFT``..: the ranks that make it sets only if added (shape only: a fifth copy counts);
  ``WH_SHIFT``..: ranks that make it sets + head.

Then a 7 - 3k hand's waits are the number part's WH when the honour part is sets only, its WS when
the honours are sets + head, and the same the other way round; completeness is
``(num sets & hon head) | (num head & hon sets)``; and the distance is
``min over s, h of D_num[s][h] + D_hon[2 - k - s][1 - h] - 1`` (the lacking cards of a shape are
the sum over its two parts). Special shapes are short formulas over the 14 counts.

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

from .cards import JOKER, N_RANKS, RANK_COPIES

# ---------------------------------------------------------------------------------------------
# The hand rules array
# ---------------------------------------------------------------------------------------------

HR_NAMES = ("sutoitsu", "sutoitsu_same_pairs", "paaren", "kokushi", "chinroutou")
HR_SUTOITSU, HR_SUTOITSU_SAME_PAIRS, HR_PAAREN, HR_KOKUSHI, HR_CHINROUTOU = range(len(HR_NAMES))
HR_N_FLAGS = 8                      # slots reserved for switches (HR_NAMES and future ones)

MAX_CARDS = 8                       # the largest concealed hand (7 + the drawn card)
N_NUM = 9                           # number part: ranks 0..8
N_HON = N_RANKS - N_NUM             # honour part: ranks 9..13 (T J Q K X)
W_WIDTH = MAX_CARDS + 1             # index weights per (position, cards left): counts 0..8


def _part_vectors(caps):
    """int64[n, len(caps)]: every count vector within ``caps`` of total <= MAX_CARDS, in
    lexicographic order (the first rank most significant): row j has dense index j."""
    rows = np.zeros((1, 0), np.int64)
    for cap in caps:                  # append a column: each row, then each count, in order
        rows = np.hstack([np.repeat(rows, cap + 1, axis=0),
                          np.tile(np.arange(cap + 1), rows.shape[0])[:, None]])
        rows = rows[rows.sum(axis=1) <= MAX_CARDS]
    return rows


def _index_weights(caps):
    """int64[len(caps) * W_WIDTH * W_WIDTH]: ``w[(i * W + left) * W + c]`` = how many valid vectors
    precede, at position i with ``left`` cards still allowed, those having count c there; a count
    over the copies gets a large negative weight, so the index of such a vector is negative."""
    L = len(caps)
    below = np.zeros((L + 1, W_WIDTH), np.int64)   # below[i][t]: vectors of positions i.. with total <= t
    below[L, :] = 1
    for i in range(L - 1, -1, -1):
        for t in range(W_WIDTH):
            below[i, t] = sum(below[i + 1, t - c] for c in range(min(caps[i], t) + 1))
    w = np.full((L, W_WIDTH, W_WIDTH), -(1 << 40), np.int64)
    for i in range(L):
        for left in range(W_WIDTH):
            acc = 0
            for c in range(min(caps[i], left) + 1):
                w[i, left, c] = acc
                acc += below[i + 1, left - c]
    return w.reshape(-1)


NUM_CAPS = RANK_COPIES[:N_NUM]
HON_CAPS = RANK_COPIES[N_NUM:]
N_NUM_VECTORS = int(_part_vectors(NUM_CAPS).shape[0])
N_HON_VECTORS = int(_part_vectors(HON_CAPS).shape[0])

HR_NUM_W = HR_N_FLAGS                                # index weights of the number part
HR_HON_W = HR_NUM_W + N_NUM * W_WIDTH * W_WIDTH      # ... of the honour part
HR_NUM_TAB = HR_HON_W + N_HON * W_WIDTH * W_WIDTH    # number-part table words
HR_HON_TAB = HR_NUM_TAB + N_NUM_VECTORS              # honour-part table words
HR_LEN = HR_HON_TAB + N_HON_VECTORS

# Table word layout (module docstring).
D_BITS = 4
F_SETS = np.int64(1) << np.int64(24)
F_HEAD = np.int64(1) << np.int64(25)
WS_SHIFT = 32
WH_SHIFT = 48
PART_MASK_BITS = 9

# Rank masks (bit r = rank index r).
NUM_RANKS_MASK = (1 << N_NUM) - 1
KOKUSHI_MASK = (1 << 0) | (1 << 8) | (((1 << N_HON) - 1) << N_NUM)   # A 9 T J Q K X
PAAREN_LOW = 0xFF                    # A..8
PAAREN_HIGH = 0x1FE                  # 2..9
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


@nb.njit(cache=True)
def _vector_index(v, lo, n, hr, w_off):
    """Dense index of ``v[lo:lo + n]`` among the part's vectors; negative if a count is over the
    copies or the part holds more than MAX_CARDS cards."""
    left = MAX_CARDS
    idx = 0
    for i in range(n):
        c = v[lo + i]
        if c > left:
            return -1
        idx += hr[w_off + (i * W_WIDTH + left) * W_WIDTH + c]
        left -= c
    return idx


@nb.njit(cache=True)
def _fill_part_table(vecs, shapes, slots, caps, weights, out):
    """Fill ``out[j]`` (table words) for every part vector ``vecs[j]``.

    D[s][h] = min over the shapes within ``caps`` of that slot of the cards the vector lacks;
    the complete flags; and the wait masks from every shape one card above a valid vector."""
    n, L = vecs.shape
    m = shapes.shape[0]
    inf = 15
    capped = np.ones(m, np.bool_)
    for j in range(m):
        for r in range(L):
            if shapes[j, r] > caps[r]:
                capped[j] = False
    for i in range(n):
        best = np.full(6, inf, np.int64)
        total = 0
        for r in range(L):
            total += vecs[i, r]
        for j in range(m):
            if not capped[j]:
                continue
            cost = 0
            for r in range(L):
                d = shapes[j, r] - vecs[i, r]
                if d > 0:
                    cost += d
            if cost < best[slots[j]]:
                best[slots[j]] = cost
        word = np.int64(0)
        for s in range(6):
            word |= best[s] << np.int64(D_BITS * s)
        if total % 3 == 0 and best[2 * (total // 3)] == 0:
            word |= F_SETS
        if total % 3 == 2 and best[2 * (total // 3) + 1] == 0:
            word |= F_HEAD
        out[i] = word
    # waits: a shape (copies not checked) minus one card of rank r that is a valid vector
    tmp = np.zeros(L, np.int64)
    for j in range(m):
        total = 0
        for r in range(L):
            total += shapes[j, r]
        for r in range(L):
            if shapes[j, r] == 0:
                continue
            for q in range(L):
                tmp[q] = shapes[j, q]
            tmp[r] -= 1
            idx = 0
            left = MAX_CARDS
            ok = True
            for q in range(L):
                c = tmp[q]
                if c > caps[q] or c > left:
                    ok = False
                    break
                idx += weights[(q * W_WIDTH + left) * W_WIDTH + c]
                left -= c
            if not ok:
                continue
            shift = WH_SHIFT if slots[j] % 2 == 1 else WS_SHIFT
            out[idx] |= np.int64(1) << np.int64(shift + r)


@lru_cache(maxsize=None)
def _tables() -> np.ndarray:
    """int64[HR_LEN - HR_N_FLAGS]: the index weights and part tables (rules-independent)."""
    out = np.zeros(HR_LEN, np.int64)
    for caps, runs, w_off, t_off, n_vec in ((NUM_CAPS, True, HR_NUM_W, HR_NUM_TAB, N_NUM_VECTORS),
                                            (HON_CAPS, False, HR_HON_W, HR_HON_TAB, N_HON_VECTORS)):
        L = len(caps)
        weights = _index_weights(caps)
        out[w_off:w_off + L * W_WIDTH * W_WIDTH] = weights
        heads = [True] * L
        sets = _part_sets(L, runs)
        if not runs:            # honour part: no joker triplet
            sets = [v for v in sets if v[L - 1] == 0]
        shapes, slots = _part_shapes(sets, heads)
        vecs = _part_vectors(caps)
        assert vecs.shape[0] == n_vec
        _fill_part_table(vecs, shapes, slots, np.array(caps, np.int64), weights,
                         out[t_off:t_off + n_vec])
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

@nb.njit(cache=True)
def _part_words(cnt, hr):
    """(number word, honour word, ok): the two table words; ok False if the hand is over the
    copies or bigger than MAX_CARDS in a part."""
    a = _vector_index(cnt, 0, N_NUM, hr, HR_NUM_W)
    b = _vector_index(cnt, N_NUM, N_HON, hr, HR_HON_W)
    if a < 0 or b < 0:
        return np.int64(0), np.int64(0), False
    return hr[HR_NUM_TAB + a], hr[HR_HON_TAB + b], True


@nb.njit(cache=True)
def _special_complete(cnt, hr):
    """Is the 8-card count vector one of the enabled special shapes?"""
    total = 0
    present = 0
    odd = False
    over = False          # a count other than 0, 2 (4 with same pairs)
    maxc = 0
    for r in range(N_RANKS):
        c = cnt[r]
        total += c
        if c > 0:
            present |= 1 << r
        if c > maxc:
            maxc = c
        if c & 1:
            odd = True
        elif c == 4 and (hr[HR_SUTOITSU_SAME_PAIRS] == 0 or r == JOKER):
            over = True
        elif c > 4:
            over = True
    if total != 8:
        return False
    if hr[HR_SUTOITSU] != 0 and not odd and not over:
        return True
    if hr[HR_PAAREN] != 0 and maxc == 1 and (present == PAAREN_LOW or present == PAAREN_HIGH):
        return True
    if hr[HR_KOKUSHI] != 0 and present == KOKUSHI_MASK and maxc == 2:
        return True
    if hr[HR_CHINROUTOU] != 0 and cnt[0] == 4 and cnt[8] == 4:
        return True
    return False


@nb.njit(cache=True)
def _regular_complete(cnt, hr):
    a, b, ok = _part_words(cnt, hr)
    if not ok:
        return False
    return ((a & F_SETS) != 0 and (b & F_HEAD) != 0) or ((a & F_HEAD) != 0 and (b & F_SETS) != 0)


@nb.njit(cache=True)
def _regular_waits(cnt, hr):
    a, b, ok = _part_words(cnt, hr)
    if not ok:
        return np.int64(0)
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
def _special_waits(cnt, hr):
    """Ranks completing a 7-card hand as an enabled special shape (shape only)."""
    present = 0
    n_present = 0
    maxc = 0
    n_odd = 0
    odd = -1
    bad_pairs = False     # some count that no pair reading allows (4 without same pairs, joker 4)
    total = 0
    for r in range(N_RANKS):
        c = cnt[r]
        total += c
        if c > 0:
            present |= 1 << r
            n_present += 1
        if c > maxc:
            maxc = c
        if c & 1:
            n_odd += 1
            odd = r
        if c >= 4 and (hr[HR_SUTOITSU_SAME_PAIRS] == 0 or r == JOKER or c > 4):
            bad_pairs = True
    m = np.int64(0)
    if total != 7:
        return m
    if hr[HR_SUTOITSU] != 0 and n_odd == 1 and not bad_pairs:
        c = cnt[odd]
        if c == 1 or (c == 3 and hr[HR_SUTOITSU_SAME_PAIRS] != 0 and odd != JOKER):
            m |= np.int64(1) << odd
    if hr[HR_PAAREN] != 0 and maxc == 1:
        if (present & ~PAAREN_LOW) == 0:
            m |= PAAREN_LOW & ~present
        if (present & ~PAAREN_HIGH) == 0:
            m |= PAAREN_HIGH & ~present
    if hr[HR_KOKUSHI] != 0 and maxc <= 2 and (present & ~KOKUSHI_MASK) == 0:
        if present == KOKUSHI_MASK:
            m |= KOKUSHI_MASK
        elif n_present == 6:          # one rank doubled, one missing
            m |= KOKUSHI_MASK & ~present
    if hr[HR_CHINROUTOU] != 0 and cnt[0] + cnt[8] == 7 and cnt[0] >= 3 and cnt[8] >= 3:
        m |= np.int64(1) << (0 if cnt[0] == 3 else 8)
    return m


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
    over = -1
    for r in range(N_RANKS):
        if cnt[r] > (2 if r == JOKER else 4):
            over = r
    if over >= 0:                          # shape-only probe with a copy too many
        tmp = cnt.copy()
        tmp[over] -= 1
        return (win_mask(tmp, k, hr) >> over) & 1 == 1
    if _regular_complete(cnt, hr):
        return True
    return k == 0 and _special_complete(cnt, hr)


@nb.njit(cache=True)
def win_mask(cnt, k, hr):
    """int64 rank mask: bit r set if one more card of rank r completes the 7 - 3k-card hand
    (shape only: it ignores whether a copy is left; mask with :func:`held_out_mask` for live
    waits). 0 = not tenpai."""
    m = _regular_waits(cnt, hr)
    if k == 0:
        m |= _special_waits(cnt, hr)
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
def _special_lacking(cnt, hr):
    """Fewest cards the hand lacks to become an enabled special shape (99 if none is enabled)."""
    best = 99
    if hr[HR_SUTOITSU] != 0:
        # pair slots: each rank's first pair costs max(0, 2 - c); a second pair of a non-joker
        # rank (same pairs) costs max(0, 4 - c) - that; take the 4 cheapest (costs 0, 1, 2;
        # second pairs never cost less than first ones, so the greedy choice is feasible)
        zeros = 0
        ones = 0
        same = hr[HR_SUTOITSU_SAME_PAIRS] != 0
        for r in range(N_RANKS):
            c = cnt[r]
            first = 2 - c if c < 2 else 0
            if first == 0:
                zeros += 1
            elif first == 1:
                ones += 1
            if same and r != JOKER:
                second = (4 - c if c < 4 else 0) - first
                if second == 0:
                    zeros += 1
                elif second == 1:
                    ones += 1
        if zeros >= 4:
            cost = 0
        elif zeros + ones >= 4:
            cost = 4 - zeros
        else:
            cost = ones + 2 * (4 - zeros - ones)
        best = min(best, cost)
    if hr[HR_PAAREN] != 0:
        for lo in range(2):
            miss = 0
            for r in range(lo, lo + 8):
                if cnt[r] == 0:
                    miss += 1
            best = min(best, miss)
    if hr[HR_KOKUSHI] != 0:
        miss = 0
        pair = False
        for r in range(N_RANKS):
            if (KOKUSHI_MASK >> r) & 1:
                if cnt[r] == 0:
                    miss += 1
                elif cnt[r] >= 2:
                    pair = True
        best = min(best, miss + (0 if pair else 1))
    if hr[HR_CHINROUTOU] != 0:
        best = min(best, max(0, 4 - cnt[0]) + max(0, 4 - cnt[8]))
    return best


@nb.njit(cache=True)
def shanten(cnt, k, hr):
    """Distance to tenpai (module docstring): a 7 - 3k-card hand gives 0 = tenpai, 1, 2, ...;
    an 8 - 3k-card hand gives -1 = complete, else the value after its best discard.

    Parameters as :func:`is_complete` (``cnt`` within the copies). Returns an int; 98 for a hand
    over the copies or with more than 8 cards."""
    a, b, ok = _part_words(cnt, hr)
    if not ok:
        return 98
    n_sets = 2 - k
    best = 99
    for s in range(n_sets + 1):
        for h in range(2):
            da = (a >> (D_BITS * (2 * s + h))) & 15
            db = (b >> (D_BITS * (2 * (n_sets - s) + 1 - h))) & 15
            if da + db < best:
                best = da + db
    if k == 0:
        sp = _special_lacking(cnt, hr)
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
    """
    n = 0
    n_sets = 2 - k
    row = np.full(READING_W, -1, np.int64)
    rest = cnt.copy()
    total = 0
    for r in range(N_RANKS):
        total += cnt[r]
    if total == 3 * n_sets + 2:
        for head in range(N_RANKS):
            if rest[head] < 2:
                continue
            rest[head] -= 2
            # sets by the lowest rank left: a triplet of it or a run starting at it
            n = _sets_readings(rest, n_sets, head, out, n, row)
            rest[head] += 2
    if k == 0 and total == 8:
        for r in range(READING_W):
            row[r] = -1
        sp = hr[HR_SUTOITSU]
        if sp != 0:
            ok = True
            for r in range(N_RANKS):
                c = cnt[r]
                if c & 1 or c > 4 or (c == 4 and (hr[HR_SUTOITSU_SAME_PAIRS] == 0 or r == JOKER)):
                    ok = False
            if ok:
                row[RD_KIND] = RK_SUTOITSU
                n = _add_reading(out, n, row)
        present = 0
        maxc = 0
        for r in range(N_RANKS):
            if cnt[r] > 0:
                present |= 1 << r
            if cnt[r] > maxc:
                maxc = cnt[r]
        if hr[HR_PAAREN] != 0 and maxc == 1 and (present == PAAREN_LOW or present == PAAREN_HIGH):
            row[RD_KIND] = RK_PAAREN
            n = _add_reading(out, n, row)
        if hr[HR_KOKUSHI] != 0 and present == KOKUSHI_MASK and maxc == 2:
            row[RD_KIND] = RK_KOKUSHI
            for r in range(N_RANKS):
                if cnt[r] == 2:
                    row[RD_HEAD] = r
            n = _add_reading(out, n, row)
            row[RD_HEAD] = -1
        if hr[HR_CHINROUTOU] != 0 and cnt[0] == 4 and cnt[8] == 4:
            row[RD_KIND] = RK_CHINROUTOU
            n = _add_reading(out, n, row)
    return n


@nb.njit(cache=True)
def _sets_readings(rest, n_sets, head, out, n, row):
    """Add every reading of ``rest`` as ``n_sets`` (0..2) sets, with ``head``."""
    lo = -1
    for r in range(N_RANKS):
        if rest[r] > 0:
            lo = r
            break
    if n_sets == 0:
        if lo < 0:
            for j in range(READING_W):
                row[j] = -1
            row[RD_KIND] = RK_REGULAR
            row[RD_HEAD] = head
            n = _add_reading(out, n, row)
        return n
    if lo < 0:
        return n
    # first set: at the lowest rank (triplet or run); the second then at the new lowest rank
    for first_run in range(2):
        if not _can_take(rest, lo, first_run):
            continue
        _take(rest, lo, first_run, -1)
        if n_sets == 1:
            if _is_empty(rest):
                for j in range(READING_W):
                    row[j] = -1
                row[RD_KIND] = RK_REGULAR
                row[RD_HEAD] = head
                row[RD_SET0_RUN] = first_run
                row[RD_SET0_RANK] = lo
                n = _add_reading(out, n, row)
        else:
            lo2 = -1
            for r in range(N_RANKS):
                if rest[r] > 0:
                    lo2 = r
                    break
            for second_run in range(2):
                if lo2 < 0 or not _can_take(rest, lo2, second_run):
                    continue
                _take(rest, lo2, second_run, -1)
                if _is_empty(rest):
                    # sets in (rank, is_run) order
                    a_run, a_rank, b_run, b_rank = first_run, lo, second_run, lo2
                    if (b_rank, b_run) < (a_rank, a_run):
                        a_run, a_rank, b_run, b_rank = b_run, b_rank, a_run, a_rank
                    for j in range(READING_W):
                        row[j] = -1
                    row[RD_KIND] = RK_REGULAR
                    row[RD_HEAD] = head
                    row[RD_SET0_RUN] = a_run
                    row[RD_SET0_RANK] = a_rank
                    row[RD_SET1_RUN] = b_run
                    row[RD_SET1_RANK] = b_rank
                    n = _add_reading(out, n, row)
                _take(rest, lo2, second_run, 1)
        _take(rest, lo, first_run, 1)
    return n


@nb.njit(cache=True)
def _can_take(rest, r, is_run):
    if is_run:
        return r + 2 < N_NUM and rest[r] > 0 and rest[r + 1] > 0 and rest[r + 2] > 0
    return r != JOKER and rest[r] >= 3


@nb.njit(cache=True)
def _take(rest, r, is_run, sign):
    if is_run:
        rest[r] += sign
        rest[r + 1] += sign
        rest[r + 2] += sign
    else:
        rest[r] += 3 * sign


@nb.njit(cache=True)
def _is_empty(rest):
    for r in range(N_RANKS):
        if rest[r] != 0:
            return False
    return True


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
