"""Hand analysis of emoji mahjong (spec emoji.md §2, §6): winning shape, waits, distance to a win,
and the decompositions a winning hand has. Kernels compiled with numba, on count vectors
``c``: int64[30] (:mod:`simcore.emoji.tiles`).

Shapes: a set is a triplet or a run of three consecutive ranks of one suit (honours form no runs;
with ``wrap_runs`` 8-9-1 and 9-1-2 also run); a win is 8 tiles forming 2 sets + a pair (basic) or
four pairs (four distinct kinds: only 3 copies exist).

Distance
--------
``distance(c, t) = min |W - c|`` over winning 8-tile multisets W *within the copies* (at most 3 of
a kind), ``|W - c|`` the tiles W has and the hand lacks: 0 for a winning 8-tile hand, 1 for a
7-tile hand in tenpai, and so on. So a hand that completes only with a 4th copy (``1223334``) is
not at distance 1: its waits are empty (spec §6's tenpai traps).

How the fast path works: no set or pair mixes suits, so a basic W is a choice of sets and a pair
per suit (and triplets and a pair of honours), and ``|W - c|`` is the sum over the four parts. The
table ``t`` holds, per part vector (base-4 code of its counts; 9 ranks, or the 3 honours), D[s][h]:
the fewest tiles the part lacks to become s sets (0..2) plus h pairs (0/1) within the copies
(:func:`build_tables`, once per process, compiled; about 0.3 s). The distance is the best split
of 2 sets and 1 pair over the four parts, or the four-pairs distance, whichever is smaller.
"""

from __future__ import annotations

import numba as nb
import numpy as np

N_KINDS = 30
N_RANKS = 9
N_SUITS = 3
N_NUMBER_KINDS = 27
SUIT_CODES = 4 ** 9          # part vectors of one suit
HONOUR_CODES = 4 ** 3
IMPOSSIBLE = 99
N_D = 3 * 2                  # D[s][h] at column 2 s + h
COL_DONE = N_D               # 1: the part as it is is complete (sets only, or sets + one pair)
COL_WAITS = N_D + 1          # bit r: adding kind r of the part makes it complete
COL_CLOSER = N_D + 2         # + j: bit r, one more of kind r lowers D column j
TABLE_LEN = N_D + 2 + N_D


@nb.njit(cache=True)
def _part_sets(n: int, wrap: bool, honours: bool) -> np.ndarray:
    """int64[n_sets, n]: every set of a part of ``n`` kinds, as counts."""
    n_sets = n + (0 if honours else (n if wrap else n - 2))
    out = np.zeros((n_sets, n), np.int64)
    i = 0
    for k in range(n):            # triplets
        out[i, k] = 3
        i += 1
    if not honours:
        last = n if wrap else n - 2
        for r in range(last):     # runs r, r+1, r+2 (mod 9 with wrap)
            for d in range(3):
                out[i, (r + d) % n] += 1
            i += 1
    return out


@nb.njit(cache=True)
def _fill(table, n: int, wrap: bool, honours: bool):
    """D[s][h] of every part vector of ``n`` kinds holding at most 8 tiles (the rest keep
    IMPOSSIBLE: a hand never has more)."""
    sets = _part_sets(n, wrap, honours)
    n_sets = sets.shape[0]
    n_codes = 4 ** n
    c = np.zeros(n, np.int64)
    w = np.zeros(n, np.int64)
    for code in range(n_codes):
        x = code
        total = 0
        for k in range(n):
            c[k] = x % 4
            x //= 4
            total += c[k]
        for j in range(N_D):
            table[code, j] = IMPOSSIBLE
        table[code, COL_DONE] = 0
        table[code, COL_WAITS] = 0
        if total > 8:
            continue
        for s in range(3):          # s sets: indices a (<= b for two), pair kind p (-1: none)
            for a in range(n_sets if s >= 1 else 1):
                for b in range(a if s == 2 else 0, n_sets if s == 2 else 1):
                    for p in range(-1, n):
                        h = 0 if p == -1 else 1
                        ok = True
                        lack = 0
                        for k in range(n):
                            w[k] = 2 if p == k else 0
                            if s >= 1:
                                w[k] += sets[a, k]
                            if s == 2:
                                w[k] += sets[b, k]
                            if w[k] > 3:
                                ok = False
                                break
                            if w[k] > c[k]:
                                lack += w[k] - c[k]
                        if ok and lack < table[code, 2 * s + h]:
                            table[code, 2 * s + h] = lack
    # second pass: complete as it is, and the kinds that complete it (within the copies)
    for code in range(n_codes):
        x = code
        total = 0
        for k in range(n):
            c[k] = x % 4
            x //= 4
            total += c[k]
        if total > 8:
            continue
        table[code, COL_DONE] = 1 if _complete_part(table, code, total) else 0
        if total < 8:
            mask = 0
            for r in range(n):
                if c[r] <= 2 and _complete_part(table, code + 4 ** r, total + 1):
                    mask |= 1 << r
            table[code, COL_WAITS] = mask
            for j in range(N_D):
                mask = 0
                for r in range(n):
                    if c[r] <= 2 and table[code + 4 ** r, j] < table[code, j]:
                        mask |= 1 << r
                table[code, COL_CLOSER + j] = mask


@nb.njit(cache=True)
def _complete_part(table, code, total) -> bool:
    """A part of ``total`` tiles that is sets only, or sets and one pair, as it is."""
    if total % 3 == 0:
        return table[code, 2 * (total // 3)] == 0 if total <= 6 else False
    if total % 3 == 2:
        return table[code, 2 * ((total - 2) // 3) + 1] == 0 if total <= 8 else False
    return False


def build_tables(wrap_runs: bool = False) -> np.ndarray:
    """The part table: int16 rows 0..4^9-1 for a suit, then 4^3 rows for the honours; columns
    D[s][h], ``COL_DONE``, ``COL_WAITS``, then per D column the kinds one more of which lowers
    it (``COL_CLOSER`` + j; module docstring)."""
    suit = np.zeros((SUIT_CODES, TABLE_LEN), np.int64)
    _fill(suit, N_RANKS, bool(wrap_runs), False)
    hon = np.zeros((HONOUR_CODES, TABLE_LEN), np.int64)
    _fill(hon, 3, False, True)
    return np.concatenate([suit, hon]).astype(np.int16)


_TABLES: dict = {}


def tables(wrap_runs: bool = False) -> np.ndarray:
    """:func:`build_tables`, once per process and setting."""
    key = bool(wrap_runs)
    if key not in _TABLES:
        _TABLES[key] = build_tables(key)
    return _TABLES[key]


@nb.njit(cache=True, inline="always")
def _code(c, start: int, n: int) -> int:
    x = 0
    for k in range(start + n - 1, start - 1, -1):
        x = x * 4 + c[k]
    return x


@nb.njit(cache=True, inline="always")
def _fp_counts(c):
    """(kinds held twice or more, kinds held once)."""
    pairs = 0
    singles = 0
    for k in range(N_KINDS):
        if c[k] >= 2:
            pairs += 1
        elif c[k] == 1:
            singles += 1
    return pairs, singles


@nb.njit(cache=True, inline="always")
def _fp_distance(pairs, singles) -> int:
    """Tiles lacking for four pairs from those counts: the four kinds held most (up to 2)."""
    if pairs >= 4:
        return 0
    use = min(singles, 4 - pairs)
    return use + 2 * (4 - pairs - use)


@nb.njit(cache=True)
def four_pairs_distance(c) -> int:
    """Tiles lacking for four pairs of four distinct kinds: the four kinds held most (up to 2)."""
    pairs, singles = _fp_counts(c)
    return _fp_distance(pairs, singles)


@nb.njit(cache=True, inline="always")
def _part_rows(c):
    """The four parts' rows of the table: the three suits', then the honours'."""
    return (np.int64(_code(c, 0, N_RANKS)), np.int64(_code(c, N_RANKS, N_RANKS)),
            np.int64(_code(c, 2 * N_RANKS, N_RANKS)),
            np.int64(SUIT_CODES + _code(c, N_NUMBER_KINDS, 3)))


@nb.njit(cache=True, inline="always")
def _part_tiles(c, start):
    n = np.int64(0)
    for k in range(start, start + N_RANKS):
        n += c[k]
    return n


@nb.njit(cache=True)
def basic_distance(c, t) -> int:
    """Fewest tiles lacking for 2 sets + a pair within the copies (table ``t``)."""
    rows = _part_rows(c)
    best = IMPOSSIBLE
    # 2 sets and 1 pair over the 4 parts: sets (s0..s3) summing to 2, the pair in part q
    for s0 in range(3):
        for s1 in range(3 - s0):
            for s2 in range(3 - s0 - s1):
                s3 = 2 - s0 - s1 - s2
                for q in range(4):
                    lack = 0
                    for part in range(4):
                        s = s0 if part == 0 else s1 if part == 1 else s2 if part == 2 else s3
                        h = 1 if part == q else 0
                        lack += t[rows[part], 2 * s + h]
                    if lack < best:
                        best = lack
    return best


@nb.njit(cache=True)
def distance(c, t) -> int:
    """``min |W - c|`` over winning 8-tile hands W within the copies (module docstring)."""
    return min(basic_distance(c, t), four_pairs_distance(c))


@nb.njit(cache=True)
def is_winning(c, t) -> bool:
    """8 tiles: the basic shape or four pairs."""
    return distance(c, t) == 0


@nb.njit(cache=True)
def waits(c, t) -> np.int64:
    """Bit mask of the kinds k that complete a 7-tile hand (only kinds it holds at most twice:
    a 4th copy does not exist). The basic shape: the drawn tile goes into one part, which the
    table says it completes, while the other three parts are complete as they are, with one
    pair among all four; four pairs: three pairs and a single wait on the single."""
    # the parts' table rows and tile counts (tuples: no array allocated a call)
    rows = _part_rows(c)
    tiles = (_part_tiles(c, 0), _part_tiles(c, N_RANKS), _part_tiles(c, 2 * N_RANKS),
             c[27] + c[28] + c[29])
    out = np.int64(0)
    for q in range(4):
        pairs = 1 if (tiles[q] + 1) % 3 == 2 else 0
        ok = True
        for part in range(4):
            if part != q:
                if t[rows[part], COL_DONE] == 0:
                    ok = False
                    break
                if tiles[part] % 3 == 2:
                    pairs += 1
        if ok and pairs == 1:
            out |= np.int64(t[rows[q], COL_WAITS]) << np.int64(9 * q)
    pairs = 0
    single = -1
    for k in range(N_KINDS):
        if c[k] == 2:
            pairs += 1
        elif c[k] == 1:
            single = k
        elif c[k] == 3:
            pairs = -9
    if pairs == 3 and single >= 0:
        out |= np.int64(1) << np.int64(single)
    return out


# ---------------------------------------------------------------------------------------------
# Decompositions of a winning hand (for scoring)
# ---------------------------------------------------------------------------------------------
# A decomposition row: (kind of shape, set 0 first kind, set 0 kind, set 1 first kind, set 1 kind,
# pair kind); shapes: D_BASIC, D_FOUR_PAIRS (then the four pair kinds in the set columns).
D_BASIC, D_FOUR_PAIRS = 0, 1
SET_TRIPLET, SET_RUN = 0, 1
DECOMP_COLS = 6
MAX_DECOMP = 4   # the spec measures at most 3; one spare row


@nb.njit(cache=True)
def _run_kinds(first: int, wrap: bool):
    """The three kinds of the run starting at kind ``first`` (a number tile), or -1 if none."""
    r = first % N_RANKS
    base = first - r
    if r > 6 and not wrap:
        return -1, -1, -1
    return first, base + (r + 1) % N_RANKS, base + (r + 2) % N_RANKS


@nb.njit(cache=True, inline="always")
def _lowest_held(w) -> int:
    """The lowest kind ``w`` holds (-1: none)."""
    for k in range(N_KINDS):
        if w[k] > 0:
            return k
    return -1


@nb.njit(cache=True)
def _set_through(w, first, kind, off, wrap):
    """The set of kind ``kind`` (SET_TRIPLET, SET_RUN) holding kind ``first`` at offset ``off``
    within it, if ``w`` could hold it by shape: (k0, k1, k2, its first kind), or k0 = -1."""
    if kind == SET_TRIPLET:
        if off > 0 or w[first] < 3:
            return -1, -1, -1, -1
        return first, first, first, first
    if first >= N_NUMBER_KINDS:
        return -1, -1, -1, -1
    r = first % N_RANKS
    if off > r and not wrap:
        return -1, -1, -1, -1
    start = first - r + (r - off) % N_RANKS
    a0, a1, a2 = _run_kinds(start, wrap)
    if a0 < 0 or (a0 != first and a1 != first and a2 != first):
        return -1, -1, -1, -1
    return a0, a1, a2, start


@nb.njit(cache=True)
def decompositions(c, wrap: bool, out) -> int:
    """Every decomposition of a winning 8-tile hand into ``out`` (int64[MAX_DECOMP,
    DECOMP_COLS]); returns how many. Basic rows: (D_BASIC, set kind, set first kind, set kind,
    set first kind, pair): set kind SET_TRIPLET / SET_RUN, its first kind (the run's lowest rank;
    a wrap run 8-9-1 starts at 8); the two sets in ascending (kind, first) order. Four-pairs rows:
    (D_FOUR_PAIRS, k1, k2, k3, k4, -1) ascending."""
    n = 0
    w = c.copy()
    for p in range(N_KINDS):
        if w[p] < 2:
            continue
        w[p] -= 2
        # two sets from the remaining 6: every set through the lowest kind left, then the rest
        first = _lowest_held(w)
        for kind in range(2):
            for start_off in range(3):
                a0, a1, a2, start = _set_through(w, first, kind, start_off, wrap)
                if a0 < 0:
                    continue
                w[a0] -= 1
                w[a1] -= 1
                w[a2] -= 1
                if w[a0] >= 0 and w[a1] >= 0 and w[a2] >= 0:
                    # the second set: what is left must be one set
                    rest = _lowest_held(w)
                    for kind2 in range(2):
                        for off2 in range(3):
                            b0, b1, b2, start2 = _set_through(w, rest, kind2, off2, wrap)
                            if b0 < 0 or (kind2 == SET_TRIPLET and w[rest] != 3):
                                continue
                            w[b0] -= 1
                            w[b1] -= 1
                            w[b2] -= 1
                            empty = True
                            for k in range(N_KINDS):
                                if w[k] != 0:
                                    empty = False
                                    break
                            if empty:
                                ka, fa, kb, fb = kind, start, kind2, start2
                                if kb < ka or (kb == ka and fb < fa):
                                    ka, fa, kb, fb = kb, fb, ka, fa
                                dup = False
                                for i in range(n):
                                    if (out[i, 0] == D_BASIC and out[i, 1] == ka
                                            and out[i, 2] == fa and out[i, 3] == kb
                                            and out[i, 4] == fb and out[i, 5] == p):
                                        dup = True
                                if not dup and n < MAX_DECOMP:
                                    out[n, 0] = D_BASIC
                                    out[n, 1] = ka
                                    out[n, 2] = fa
                                    out[n, 3] = kb
                                    out[n, 4] = fb
                                    out[n, 5] = p
                                    n += 1
                            w[b0] += 1
                            w[b1] += 1
                            w[b2] += 1
                w[a0] += 1
                w[a1] += 1
                w[a2] += 1
        w[p] += 2
    if four_pairs_distance(c) == 0:
        i = 1
        out[n, 0] = D_FOUR_PAIRS
        for k in range(N_KINDS):
            if c[k] == 2:
                out[n, i] = k
                i += 1
        out[n, 5] = -1
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# One tile more or less: the distance without recomputing the untouched parts (the bots' loop)
# ---------------------------------------------------------------------------------------------

# The incremental distance works on plain tuples, never on arrays: a compiled call that receives
# an array counts its owner (two atomic operations each way) and a scratch array is an
# allocation, and both cost more than the arithmetic here (issue 48: they were 38% of a greedy
# round's samples). A part's D row is a 6-tuple (s sets, h pairs at 2 s + h).

@nb.njit(cache=True, inline="always")
def _drow(t, row):
    return (np.int64(t[row, 0]), np.int64(t[row, 1]), np.int64(t[row, 2]),
            np.int64(t[row, 3]), np.int64(t[row, 4]), np.int64(t[row, 5]))


@nb.njit(cache=True)
def _comb(a, b):
    """The best split of S sets and H pairs between two parts' D rows (min-plus product)."""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 + b0,
            min(a0 + b1, a1 + b0),
            min(a0 + b2, a2 + b0),
            min(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
            min(a0 + b4, a2 + b2, a4 + b0),
            min(a0 + b5, a1 + b4, a2 + b3, a3 + b2, a4 + b1, a5 + b0))


@nb.njit(cache=True, inline="always")
def _basic_with(t, row, o) -> int:
    """The basic distance when one part's row is ``row`` and the others combine to ``o``."""
    return min(t[row, 0] + o[5], t[row, 1] + o[4], t[row, 2] + o[3],
               t[row, 3] + o[2], t[row, 4] + o[1], t[row, 5] + o[0])


@nb.njit(cache=True, inline="always")
def _rows_and_merges(c, t):
    """The four parts' table rows, their D rows, and the merges of parts 0+1 and 2+3."""
    rows = _part_rows(c)
    ds = (_drow(t, rows[0]), _drow(t, rows[1]), _drow(t, rows[2]), _drow(t, rows[3]))
    return rows, ds, _comb(ds[0], ds[1]), _comb(ds[2], ds[3])


@nb.njit(cache=True, inline="always")
def _others(part, ds, d01, d23):
    """The merge of the three parts other than ``part``."""
    if part == 0:
        return _comb(ds[1], d23)
    if part == 1:
        return _comb(ds[0], d23)
    if part == 2:
        return _comb(d01, ds[3])
    return _comb(d01, ds[2])


@nb.njit(cache=True)
def improving_kinds(c, t) -> np.int64:
    """Bit k: one more k (held at most twice) brings the hand closer, distance(c + k) <
    distance(c): the kinds a hand's useful tiles count. What distances_after(c, t, 1) would say
    for less work: one tile more lowers a part's D row by at most one in any column, so the
    basic distance can fall only through a column where the part's row and the other three
    parts' combination make the least sum, and the table holds each column's lowering kinds."""
    pairs, singles = _fp_counts(c)
    fp = _fp_distance(pairs, singles)
    rows, ds, d01, d23 = _rows_and_merges(c, t)
    basic = _basic_with(t, rows[0], _others(0, ds, d01, d23))
    d = min(basic, fp)
    out = np.int64(0)
    if fp == d:                 # four pairs: a second of a single, or a new single
        one = _fp_distance(pairs + 1, singles - 1) < d
        none = _fp_distance(pairs, singles + 1) < d
        for k in range(N_KINDS):
            if (c[k] == 1 and one) or (c[k] == 0 and none):
                out |= np.int64(1) << np.int64(k)
    if basic != d:              # the basic shape stays at least basic - 1 >= d away
        return out
    for part in range(4):
        o = _others(part, ds, d01, d23)
        row = rows[part]
        start = part * N_RANKS if part < 3 else N_NUMBER_KINDS
        m = np.int64(0)
        for j in range(N_D):
            if t[row, j] + o[N_D - 1 - j] == basic:
                m |= np.int64(t[row, COL_CLOSER + j])
        out |= m << np.int64(start)
    return out


@nb.njit(cache=True)
def distances_after(c, t, sign, out):
    """``out[k]`` = distance(c with one k more (sign 1) or one k less (sign -1)), for every
    kind the change is possible for (held at most twice / held); 99 otherwise."""
    pairs, singles = _fp_counts(c)
    rows, ds, d01, d23 = _rows_and_merges(c, t)
    for part in range(4):
        o = _others(part, ds, d01, d23)
        base = rows[part]
        n = N_RANKS if part < 3 else 3
        start = part * N_RANKS if part < 3 else N_NUMBER_KINDS
        step = 1
        for r in range(n):
            k = start + r
            ck = c[k]
            if (sign > 0 and ck >= 3) or (sign < 0 and ck == 0):
                out[k] = IMPOSSIBLE
            else:
                b = _basic_with(t, base + sign * step, o)
                p, s1 = pairs, singles
                after = ck + sign
                if ck >= 2:
                    p -= 1
                elif ck == 1:
                    s1 -= 1
                if after >= 2:
                    p += 1
                elif after == 1:
                    s1 += 1
                out[k] = min(b, _fp_distance(p, s1))
            step *= 4


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
