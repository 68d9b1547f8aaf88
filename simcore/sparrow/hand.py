"""Sparrow hands (spec sparrow.md §1, §3, §4): kinds, the distance to a win, waits, and the points
of a win, compiled.

Kinds 0-8 are bamboo 1-9, 9 the green dragon, 10 the red dragon; tile ids 0-43 are kind x 4 +
copy. A win is six tiles in two sets (three consecutive bamboo, or three of a kind). The distance
is the fewest tiles a hand must draw (discarding as many) to win: with dragons only in triplets it
is the best split of the two sets between bamboo and dragons, the bamboo side read from a table
of every bamboo hand of up to six tiles (``BAMBOO[code, m]``: tiles missing for m bamboo sets;
``code`` is the counts in base 5), so a distance is three lookups.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

N_KINDS, N_BAMBOO, GREEN, RED = 11, 9, 9, 10
POW5 = np.array([5 ** k for k in range(N_BAMBOO)], np.int64)
# the sets: runs 1-7 (0-6), then triplets of every kind (7-17); a set's kind and whether a run
SETS = np.array([(k, 1) for k in range(7)] + [(k, 0) for k in range(N_KINDS)], np.int64)
YAKU = ("tanyao", "chanta", "chinyao", "all_green", "super_red", "dealer")


@nb.njit(cache=True)
def build_bamboo_table():
    """``t[code, m]``: bamboo tiles missing for m = 0, 1, 2 bamboo sets (127: more than six)."""
    t = np.full((5 ** N_BAMBOO, 3), 127, np.int8)
    c = np.zeros(N_BAMBOO, np.int64)
    for code in range(5 ** N_BAMBOO):
        x, n = code, 0
        for k in range(N_BAMBOO):
            c[k] = x % 5
            x //= 5
            n += c[k]
        if n > 6:
            continue
        t[code, 0] = 0
        best1, best2 = 99, 99
        for i in range(16):   # bamboo sets: runs 0-6, triplets 7-15
            need = np.zeros(N_BAMBOO, np.int64)
            _add_set(need, i)
            best1 = min(best1, _deficit(c, need))
            for j in range(i, 16):
                need2 = need.copy()
                _add_set(need2, j)
                if need2.max() <= 4:
                    best2 = min(best2, _deficit(c, need2))
        t[code, 1] = best1
        t[code, 2] = best2
    return t


@nb.njit(cache=True)
def _add_set(need, i):
    k, run = SETS[i, 0], SETS[i, 1]
    if run == 1:
        need[k] += 1
        need[k + 1] += 1
        need[k + 2] += 1
    else:
        need[k] += 3


@nb.njit(cache=True)
def _deficit(c, need) -> int:
    d = 0
    for k in range(need.shape[0]):
        d += max(need[k] - c[k], 0)
    return d


@functools.lru_cache(maxsize=1)
def tables() -> np.ndarray:
    """The bamboo table, built once per process (well under a second)."""
    return build_bamboo_table()


@nb.njit(cache=True)
def distance(c, t) -> int:
    """Tiles a hand of counts ``c`` (5 or 6 tiles) must draw to be two sets; 0: a win."""
    code = 0
    for k in range(N_BAMBOO):
        code += c[k] * POW5[k]
    dg, dr = max(3 - c[GREEN], 0), max(3 - c[RED], 0)
    return min(t[code, 2], t[code, 1] + min(dg, dr), t[code, 0] + dg + dr)


@nb.njit(cache=True)
def waits(c, t) -> int:
    """Bit k: a fifth-to-sixth tile of kind k completes the 5-tile hand ``c`` (a kind held four
    times is no wait)."""
    w = 0
    for k in range(N_KINDS):
        if c[k] < 4:
            c[k] += 1
            if distance(c, t) == 0:
                w |= 1 << k
            c[k] -= 1
    return w


@nb.njit(cache=True)
def _terminal(k) -> bool:
    return k == 0 or k == 8 or k >= GREEN


@nb.njit(cache=True)
def reading_points(c, i, j, reds, dora_count, dealer, alone, pt):
    """(points, yaku bits) of the reading: sets ``i`` and ``j`` of :data:`SETS`. ``pt``: the
    point values in the order run, triplet, tanyao, chanta, chinyao, all_green, super_red, red,
    dora, dealer_bonus; ``alone``: a hand with specials scores only them."""
    runs = SETS[i, 1] + SETS[j, 1]
    base = runs * pt[0] + (2 - runs) * pt[1] + reds * pt[7] + dora_count * pt[8]
    bits = 0
    tanyao, chinyao, green = True, True, True
    for k in range(N_KINDS):
        if c[k] > 0:
            tanyao &= not _terminal(k)
            chinyao &= _terminal(k)
            green &= k == 1 or k == 2 or k == 3 or k == 5 or k == 7 or k == GREEN
    chanta = True
    for s in (i, j):
        k = SETS[s, 0]
        chanta &= _terminal(k) or (SETS[s, 1] == 1 and k + 2 == 8)
    special = 0
    if chinyao:
        bits |= 1 << 2
        special += pt[4]
    elif chanta:
        bits |= 1 << 1
        base += pt[3]
    if tanyao:
        bits |= 1
        base += pt[2]
    if green:
        bits |= 1 << 3
        special += pt[5]
    if reds == 6:
        bits |= 1 << 4
        special += pt[6]
    if dealer:
        bits |= 1 << 5
        base += pt[9]
    if alone and bits & 0b11100:
        return special, bits & 0b11100
    return base + special, bits


@nb.njit(cache=True)
def best_win(c, reds, dora_count, dealer, alone, pt):
    """(points, yaku bits, runs) of the best reading of the 6-tile hand ``c``, or (-1, 0, 0)
    when it is not two sets."""
    best, best_bits, best_runs = -1, 0, 0
    for i in range(SETS.shape[0]):
        if not _fits(c, i):
            continue
        _take(c, i, -1)
        for j in range(i, SETS.shape[0]):
            if _fits(c, j):
                _take(c, j, -1)
                empty = True
                for k in range(N_KINDS):
                    empty &= c[k] == 0
                _take(c, j, 1)
                if empty:
                    _take(c, i, 1)
                    p, b = reading_points(c, i, j, reds, dora_count, dealer, alone, pt)
                    _take(c, i, -1)
                    if p > best:
                        best, best_bits, best_runs = p, b, SETS[i, 1] + SETS[j, 1]
        _take(c, i, 1)
    return best, best_bits, best_runs


@nb.njit(cache=True)
def _fits(c, i) -> bool:
    k = SETS[i, 0]
    if SETS[i, 1] == 1:
        return c[k] > 0 and c[k + 1] > 0 and c[k + 2] > 0
    return c[k] >= 3


@nb.njit(cache=True)
def _take(c, i, sign):
    k = SETS[i, 0]
    if SETS[i, 1] == 1:
        c[k] += sign
        c[k + 1] += sign
        c[k + 2] += sign
    else:
        c[k] += 3 * sign


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
