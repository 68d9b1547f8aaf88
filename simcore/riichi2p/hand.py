"""Hand analysis of two-player riichi mahjong (spec riichi2p.md §2, §5.1): winning shapes, waits,
distance to a win (shanten + 1). Kernels compiled with numba, on count vectors ``c``: int64[34]
(:mod:`simcore.riichi2p.tiles`), for the concealed part of a hand with ``n_melds`` calls.

Distance
--------
``distance(c, n_melds, t)`` = the fewest tiles a hand lacks for a winning shape, within the
copies (at most 4 of a kind in the concealed part): 0 for a complete 14-tile hand, 1 for a
13-tile hand in tenpai; shanten is distance - 1 (the ``mahjong`` package's number: ``1111m
234567p 789s`` is 1-shanten, a quad is not a pair and a set). The three shapes: 4 - n_melds sets
and a pair; seven pairs of different kinds; thirteen orphans (the last two closed only).

How the fast path works: no set or pair mixes suits, so the 4-sets-and-a-pair distance is the
best split of the sets and the pair over the four parts (three suits, the honours), and the
table ``t`` holds, per part vector (base-5 code of its counts), D[s][h]: the fewest tiles the
part lacks to contain s sets (0..4) plus h pairs (0/1) (:func:`build_tables`, compiled, about a
second per process). The tables are built in two sweeps: "contains" upwards (a code contains a
target if it is one, or one tile fewer contains it), "lacks" downwards (a code that contains
none lacks one more than its best one-tile extension). A third sweep stores, below the D rows
(from row 5^n, two rows a code: the low and the high byte), the part's kinds whose one tile more
lowers each D[s][h], a 9-bit mask: :func:`improving_kinds` reads a hand's useful tiles from them.
They sit apart from the D rows so that the D rows' random reads stay in 19.5 MB of cache.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from simcore.nb.stack import stack_empty

N_KINDS = 34
N_SUIT_KINDS = 9
N_HONOURS = 7
SUIT_CODES = 5 ** 9
HONOUR_CODES = 5 ** 7
N_COLS = 10                  # D[s][h] at column 2 s + h
ACC_LEN = 2 * N_COLS         # standard_distance's merge rows
IMPOSSIBLE = 99
FAR = 99                     # the distance of a shape that cannot be reached
YAOCHU = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
POW5 = np.array([5 ** i for i in range(10)], np.int64)
_YAOCHU_BITS = sum(1 << int(k) for k in YAOCHU)


@nb.njit(cache=True)
def _targets(n: int, honours: bool, exact) -> None:
    """Mark ``exact[code, 2 s + h]`` for every vector that is exactly s sets and h pairs
    (at most 4 of a kind) of a part of ``n`` kinds."""
    n_sets = n if honours else n + n - 2
    sets = np.zeros((n_sets, n), np.int64)
    for k in range(n):
        sets[k, k] = 3
    if not honours:
        for r in range(n - 2):
            for d in range(3):
                sets[n + r, r + d] = 1
    v = np.zeros(n, np.int64)
    idx = np.zeros(4, np.int64)
    for s in range(5):
        # every multiset of s set types: nondecreasing index tuples
        for i in range(4):
            idx[i] = 0
        while True:
            for k in range(n):
                v[k] = 0
            for i in range(s):
                for k in range(n):
                    v[k] += sets[idx[i], k]
            for h in range(2):
                for p in range(n if h else 1):
                    if h:
                        v[p] += 2
                    ok = True
                    code = 0
                    for k in range(n - 1, -1, -1):
                        if v[k] > 4:
                            ok = False
                        code = code * 5 + v[k]
                    if ok:
                        exact[code, 2 * s + h] = 1
                    if h:
                        v[p] -= 2
            # next nondecreasing tuple of length s
            j = s - 1
            while j >= 0 and idx[j] == n_sets - 1:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for i in range(j + 1, s):
                idx[i] = idx[j]


@nb.njit(cache=True)
def _fill(n: int, honours: bool) -> np.ndarray:
    n_codes = 5 ** n
    has = np.zeros((n_codes, N_COLS), np.uint8)
    _targets(n, honours, has)
    digits = np.zeros(n, np.int64)
    for code in range(n_codes):          # contains: upwards
        x = code
        for k in range(n):
            digits[k] = x % 5
            x //= 5
        for col in range(N_COLS):
            if has[code, col]:
                continue
            p = 1
            for k in range(n):
                if digits[k] > 0 and has[code - p, col]:
                    has[code, col] = 1
                    break
                p *= 5
    table = np.zeros((3 * n_codes, N_COLS), np.int8)
    for code in range(n_codes - 1, -1, -1):   # lacks: downwards
        x = code
        for k in range(n):
            digits[k] = x % 5
            x //= 5
        for col in range(N_COLS):
            if has[code, col]:
                table[code, col] = 0
                continue
            best = IMPOSSIBLE
            p = 1
            for k in range(n):
                if digits[k] < 4:
                    d = table[code + p, col] + 1
                    if d < best:
                        best = d
                p *= 5
            table[code, col] = best
    for code in range(n_codes):              # closer: which one tile more lowers a column
        for col in range(N_COLS):
            bits = 0
            p = 1
            for k in range(n):
                if (code // p) % 5 < 4 and table[code + p, col] < table[code, col]:
                    bits |= 1 << k
                p *= 5
            table[n_codes + 2 * code, col] = np.int8(np.uint8(bits & 0xFF))
            table[n_codes + 2 * code + 1, col] = np.int8(bits >> 8)
    return table


@functools.lru_cache(maxsize=1)
def tables() -> tuple:
    """``(suit table, honour table)``: D[s][h] per part code, then below those rows each code's
    closer-kinds masks (module docstring; built once per process)."""
    return _fill(N_SUIT_KINDS, False), _fill(N_HONOURS, True)


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------

# Each kernel keeps its loops in one function and allocates nothing it can avoid: a call that
# passes an array costs two atomic reference counts (numba's calling convention) and an array
# allocated per call a malloc and a free; with the merge and combine steps as helpers and
# their arrays allocated per call, these were over half of the greedy bots' time (perf,
# greedy vs greedy).
MERGE_A = (0, 2, 1, 0, 4, 4)      # distances_after's six merges: w[out] = w[a] (+) w[b]
MERGE_B = (1, 3, 5, 5, 3, 2)
MERGE_OUT = (4, 5, 6, 7, 8, 9)


@nb.njit(cache=True)
def standard_distance(c, n_melds: int, ts, th) -> int:
    """Tiles lacking for 4 - n_melds sets and a pair: the parts' D rows (a suit's 9 counts
    in base 5, the honours') merged part by part (the min-plus product over sets and the pair,
    visiting only the valid pairs of columns), only the last step's wanted column."""
    n_sets = 4 - n_melds
    acc = stack_empty(ACC_LEN, np.int64)      # acc[0:10] the merge so far, acc[10:20] the next
    code = 0
    for k in range(8, -1, -1):
        code = code * 5 + c[k]
    for col in range(N_COLS):
        acc[col] = ts[code, col]
    for part in range(1, 4):
        code = 0
        n = 7 if part == 3 else 9
        for k in range(n - 1, -1, -1):
            code = code * 5 + c[part * 9 + k]
        if part == 3:
            best = IMPOSSIBLE
            for sb in range(n_sets + 1):
                for hb in range(2):
                    v = acc[2 * (n_sets - sb) + 1 - hb] + th[code, 2 * sb + hb]
                    if v < best:
                        best = v
            return best
        for col in range(N_COLS):
            acc[N_COLS + col] = IMPOSSIBLE
        for sa in range(n_sets + 1):
            va0 = acc[2 * sa]
            va1 = acc[2 * sa + 1]
            for sb in range(n_sets - sa + 1):
                col = N_COLS + 2 * (sa + sb)
                b0 = np.int64(ts[code, 2 * sb])
                b1 = np.int64(ts[code, 2 * sb + 1])
                acc[col] = min(acc[col], va0 + b0)
                acc[col + 1] = min(acc[col + 1], min(va0 + b1, va1 + b0))
        for col in range(N_COLS):
            acc[col] = acc[N_COLS + col]
    return IMPOSSIBLE


@nb.njit(cache=True)
def pairs_distance(c) -> int:
    """Tiles lacking for seven pairs of different kinds."""
    pairs = 0
    kinds = 0
    for k in range(N_KINDS):
        if c[k] >= 2:
            pairs += 1
        if c[k] >= 1:
            kinds += 1
    d = 7 - pairs
    if kinds < 7:
        d += 7 - kinds
    return d


@nb.njit(cache=True)
def orphans_distance(c) -> int:
    """Tiles lacking for thirteen orphans."""
    kinds = 0
    pair = 0
    for i in range(13):
        k = YAOCHU[i]
        if c[k] >= 1:
            kinds += 1
        if c[k] >= 2:
            pair = 1
    return 14 - kinds - pair


@nb.njit(cache=True)
def distance(c, n_melds: int, ts, th) -> int:
    """The fewest tiles lacking for any winning shape (shanten + 1)."""
    d = standard_distance(c, n_melds, ts, th)
    if n_melds == 0:
        d2 = pairs_distance(c)
        if d2 < d:
            d = d2
        d3 = orphans_distance(c)
        if d3 < d:
            d = d3
    return d


@nb.njit(cache=True)
def shape_bits(c, n_melds: int, ts, th) -> int:
    """Which shapes a 14 - 3 n_melds tile hand completes: bit 0 sets and a pair, bit 1 seven
    pairs, bit 2 thirteen orphans (0: not a winning hand)."""
    out = 0
    if standard_distance(c, n_melds, ts, th) == 0:
        out |= 1
    if n_melds == 0:
        if pairs_distance(c) == 0:
            out |= 2
        if orphans_distance(c) == 0:
            out |= 4
    return out


@nb.njit(cache=True)
def is_complete(c, n_melds: int, ts, th) -> bool:
    return shape_bits(c, n_melds, ts, th) != 0


# ---- one tile more or less: every kind at once ------------------------------------------------
# The four parts' rows and, per part, the merge of the other three: a hand with one kind changed
# is then one table lookup and one small combine (the bots' discards and useful tiles).
AFTER_LEN = N_KINDS                 # distances_after's out: the answers
WORK_LEN = 10 * N_COLS + 4          # its work space (on the stack)


@nb.njit(cache=True, inline="always")
def _parts_and_merges(c, n_sets: int, ts, th, wk) -> None:
    """distances_after's and improving_kinds' work rows (N_COLS each) in ``wk`` (inlined, so
    ``wk`` stays the caller's stack array): 0-3 the parts' D rows, 4 parts 0+1, 5 parts 2+3,
    6 + p the merge of the three parts other than p; from ``wk[10 N_COLS]`` the four parts'
    codes."""
    W = 0
    C = 10 * N_COLS
    for part in range(4):
        code = 0
        n = 7 if part == 3 else 9
        for k in range(n - 1, -1, -1):
            code = code * 5 + c[part * 9 + k]
        wk[C + part] = code
        tab = th if part == 3 else ts
        for col in range(N_COLS):
            wk[W + part * N_COLS + col] = tab[code, col]
    for m in range(6):
        ia = W + MERGE_A[m] * N_COLS
        ib = W + MERGE_B[m] * N_COLS
        io = W + MERGE_OUT[m] * N_COLS
        for col in range(N_COLS):
            wk[io + col] = IMPOSSIBLE
        for sa in range(n_sets + 1):
            va0 = wk[ia + 2 * sa]
            va1 = wk[ia + 2 * sa + 1]
            for sb in range(n_sets - sa + 1):
                col = io + 2 * (sa + sb)
                b0 = wk[ib + 2 * sb]
                b1 = wk[ib + 2 * sb + 1]
                wk[col] = min(wk[col], va0 + b0)
                wk[col + 1] = min(wk[col + 1], min(va0 + b1, va1 + b0))


@nb.njit(cache=True)
def distances_after(c, n_melds: int, ts, th, delta: int, out):
    """``out[k]`` = distance(c with one tile of kind k added (delta +1) or removed (-1)) for
    every kind where that is possible, FAR elsewhere (``out``: AFTER_LEN values). The work rows
    sit on the stack, apart from ``out``: stores to ``out`` then cannot alias them, so the
    compiled loops keep them in registers (+35% against rows kept in ``out``'s tail)."""
    n_sets = 4 - n_melds
    wk = stack_empty(WORK_LEN, np.int64)
    e = stack_empty(N_COLS, np.int64)
    W = 0
    C = 10 * N_COLS
    _parts_and_merges(c, n_sets, ts, th, wk)
    pairs, kinds, y_kinds, y_pair = _closed_shape_counts(c, n_melds)
    for p in range(4):
        tab = th if p == 3 else ts
        n = 7 if p == 3 else 9
        ex = W + (6 + p) * N_COLS
        base = wk[C + p]
        for sb in range(n_sets + 1):
            e[2 * sb] = wk[ex + 2 * (n_sets - sb) + 1]
            e[2 * sb + 1] = wk[ex + 2 * (n_sets - sb)]
        for r in range(n):
            k = 9 * p + r
            x = c[k] + delta
            if x < 0 or x > 4:
                out[k] = FAR
                continue
            code = base + delta * POW5[r]
            d = IMPOSSIBLE
            for j in range(2 * n_sets + 2):
                d = min(d, e[j] + tab[code, j])
            if n_melds == 0:
                pk = pairs + (1 if x >= 2 else 0) - (1 if c[k] >= 2 else 0)
                kk = kinds + (1 if x >= 1 else 0) - (1 if c[k] >= 1 else 0)
                d2 = 7 - pk + (7 - kk if kk < 7 else 0)
                if d2 < d:
                    d = d2
                if k >= 27 or r == 0 or r == 8:
                    yk = y_kinds + (1 if x >= 1 else 0) - (1 if c[k] >= 1 else 0)
                    yp = y_pair + (1 if x >= 2 else 0) - (1 if c[k] >= 2 else 0)
                else:
                    yk, yp = y_kinds, y_pair
                d3 = 14 - yk - (1 if yp > 0 else 0)
                if d3 < d:
                    d = d3
            out[k] = d
    return out


@nb.njit(cache=True)
def improving_kinds(c, n_melds: int, ts, th, at: int):
    """``(bits, d)``: ``d`` = distance(c), and bit k set where one more tile of kind k (at most
    4 in ``c``) brings the hand closer, distance(c + k) < d: the kinds a hand's ukeire counts,
    and a tenpai hand's waits (``d`` 1). With ``at`` >= 0 the bits are found only where ``d``
    is ``at`` (0 otherwise). What distances_after(+1) would say, for less work: one tile more
    lowers a part's D row by at most one in any column, so the 4-sets-and-a-pair distance can
    fall only through a column where the part's row and the other three parts' merge make the
    least sum (a tight column), and only where that sum is ``d``; the table holds, in its mask
    rows below the D rows, the part's kinds that lower each column."""
    n_sets = 4 - n_melds
    wk = stack_empty(WORK_LEN, np.int64)
    _parts_and_merges(c, n_sets, ts, th, wk)
    s = IMPOSSIBLE                      # part 0's row against the other three: every split
    for sb in range(n_sets + 1):
        for hb in range(2):
            v = wk[2 * sb + hb] + wk[6 * N_COLS + 2 * (n_sets - sb) + 1 - hb]
            if v < s:
                s = v
    d = s
    bits = 0
    if n_melds == 0:            # seven pairs and thirteen orphans: which kinds bring them closer
        pairs, kinds, y_kinds, y_pair = _closed_shape_counts(c, n_melds)
        d2 = 7 - pairs + (7 - kinds if kinds < 7 else 0)
        d3 = 14 - y_kinds - (1 if y_pair > 0 else 0)
        d = min(d, d2, d3)
        if at >= 0 and d != at:
            return 0, d
        for k in range(N_KINDS):
            x = c[k]
            if d2 == d and (x == 1 or (x == 0 and kinds < 7)):
                bits |= np.int64(1) << k
            if d3 == d and (x == 0 or (x == 1 and y_pair == 0)) and _YAOCHU_BITS >> k & 1:
                bits |= np.int64(1) << k
    elif at >= 0 and d != at:
        return 0, d
    if s != d:                  # sets and a pair stay at least s - 1 >= d away
        return bits, d
    for p in range(4):
        tab = th if p == 3 else ts
        row = p * N_COLS
        ex = (6 + p) * N_COLS
        at_mask = (HONOUR_CODES if p == 3 else SUIT_CODES) + 2 * wk[10 * N_COLS + p]
        for sb in range(n_sets + 1):
            for hb in range(2):
                col = 2 * sb + hb
                if wk[row + col] + wk[ex + 2 * (n_sets - sb) + 1 - hb] == s:
                    m = (np.int64(tab[at_mask, col]) & 0xFF) | \
                        ((np.int64(tab[at_mask + 1, col]) & 0xFF) << 8)
                    bits |= m << (9 * p)
    return bits, d


@nb.njit(cache=True, inline="always")
def _closed_shape_counts(c, n_melds: int):
    """(pairs, kinds, terminal and honour kinds, their pairs) of a closed hand; zeros with
    calls made (seven pairs and thirteen orphans are closed shapes)."""
    pairs = 0
    kinds = 0
    y_kinds = 0
    y_pair = 0
    if n_melds == 0:
        for k in range(N_KINDS):
            if c[k] >= 2:
                pairs += 1
            if c[k] >= 1:
                kinds += 1
        for i in range(13):
            k = YAOCHU[i]
            if c[k] >= 1:
                y_kinds += 1
            if c[k] >= 2:
                y_pair += 1
    return pairs, kinds, y_kinds, y_pair


@nb.njit(cache=True)
def waits(c, n_melds: int, held, all_four: bool, ts, th) -> int:
    """Bit k: kind k completes the 13 - 3 n_melds tile hand ``c`` in some shape. ``held``: the
    player's tiles of each kind (concealed and called); without ``all_four``
    (``tenpai_all_four_in_hand: false``) a kind the player holds all four of is no wait. With
    it, a fifth copy of a kind held four times concealed counts too (1111m 234567p 789s waits
    on 1m), which the tables (0-4 of a kind) cannot see: :func:`_fifth_completes`."""
    out = 0
    if all_four:
        for k in range(N_KINDS):
            if c[k] == 4 and _fifth_completes(c, n_melds, k, ts, th):
                out |= 1 << k
    bits, d = improving_kinds(c, n_melds, ts, th, 1)
    if d != 1:
        return out
    for k in range(N_KINDS):
        if (bits >> k) & 1 and (all_four or held[k] < 4):
            out |= 1 << k
    return out


@nb.njit(cache=True)
def _fifth_completes(c, n_melds: int, k: int, ts, th) -> bool:
    """c (four of kind k) plus a fifth k is sets and a pair: five copies cannot all sit in the
    pair, so some set holds k, a triplet or a run; take it out and the rest must complete."""
    if n_melds >= 4:
        return False
    done = False
    c[k] -= 2                               # the triplet: four held + the fifth - 3
    if is_complete(c, n_melds + 1, ts, th):
        done = True
    c[k] += 2
    if k < 27 and not done:
        r = k % 9
        for low in range(max(0, r - 2), min(r, 6) + 1):
            a, b = k - r + low, k - r + low + 2
            ok = True
            for j in range(a, b + 1):
                if j != k and c[j] == 0:
                    ok = False
            if not ok:
                continue
            for j in range(a, b + 1):
                if j != k:
                    c[j] -= 1               # the run: its k is the fifth copy
            if is_complete(c, n_melds + 1, ts, th):
                done = True
            for j in range(a, b + 1):
                if j != k:
                    c[j] += 1
            if done:
                break
    return done


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
