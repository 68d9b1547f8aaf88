"""Sparrow hands (spec sparrow.md §1, §3, §4): kinds, the distance to a win, waits, and the
points of a win, compiled.

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
# the sets, as counts: runs 1-7 (rows 0-6), then triplets of every kind (rows 7-17)
SETS = np.array([[int(k <= j < k + 3) for j in range(N_KINDS)] for k in range(7)]
                + [[3 * int(j == k) for j in range(N_KINDS)] for k in range(N_KINDS)], np.int64)
TERMINAL = np.array([int(k in (0, 8, GREEN, RED)) for k in range(N_KINDS)])   # 1, 9, dragons
GREENS = np.array([int(k in (1, 2, 3, 5, 7, GREEN)) for k in range(N_KINDS)])  # 2 3 4 6 8, G
YAKU = ("tanyao", "chanta", "chinyao", "all_green", "super_red", "dealer")


@nb.njit(cache=True)
def build_bamboo_table():
    """``t[code, m]``: bamboo tiles missing for m = 0, 1, 2 bamboo sets (127: more than six)."""
    t = np.full((5 ** N_BAMBOO, 3), 127, np.int8)
    b = SETS[:16, :N_BAMBOO]   # the bamboo sets
    c = np.zeros(N_BAMBOO, np.int64)
    for code in range(5 ** N_BAMBOO):
        for k in range(N_BAMBOO):
            c[k] = code // POW5[k] % 5
        if c.sum() <= 6:
            t[code, 0], t[code, 1], t[code, 2] = 0, 99, 99
            for i in range(16):
                t[code, 1] = min(t[code, 1], np.maximum(b[i] - c, 0).sum())
                for j in range(i, 16):
                    if (b[i] + b[j]).max() <= 4:
                        t[code, 2] = min(t[code, 2], np.maximum(b[i] + b[j] - c, 0).sum())
    return t


@nb.njit(cache=True)
def is_red(tile, red_bamboo) -> bool:
    """Whether tile id ``tile`` is red: a red dragon, or one of the first ``red_bamboo`` copies
    of a bamboo rank (``deck.red_bamboo``)."""
    return tile >> 2 == RED or (tile >> 2 < N_BAMBOO and (tile & 3) < red_bamboo)


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
def reading_points(c, i, j, reds, doras, dealer, alone, pt):
    """(points, yaku bits) of the reading: sets ``i`` and ``j`` of :data:`SETS`. ``pt``: the
    point values in the order run, triplet, tanyao, chanta, chinyao, all_green, super_red, red,
    dora, dealer_bonus; ``alone``: a hand with specials scores only them (spec §4)."""
    terminals, greens, chanta_i, chanta_j = 0, 0, False, False
    for k in range(N_KINDS):
        terminals += c[k] * TERMINAL[k]
        greens += c[k] * GREENS[k]
        chanta_i |= SETS[i, k] > 0 and TERMINAL[k]
        chanta_j |= SETS[j, k] > 0 and TERMINAL[k]
    chinyao = terminals == 6
    bits = (int(terminals == 0) | int(chanta_i and chanta_j and not chinyao) << 1
            | int(chinyao) << 2 | int(greens == 6) << 3 | int(reds == 6) << 4 | int(dealer) << 5)
    runs = int(i < 7) + int(j < 7)
    special = (bits >> 2 & 1) * pt[4] + (bits >> 3 & 1) * pt[5] + (bits >> 4 & 1) * pt[6]
    if alone and bits & 0b11100:
        return special, bits & 0b11100
    return (special + runs * pt[0] + (2 - runs) * pt[1] + reds * pt[7] + doras * pt[8]
            + (bits & 1) * pt[2] + (bits >> 1 & 1) * pt[3] + (bits >> 5 & 1) * pt[9]), bits


@nb.njit(cache=True)
def best_win(c, reds, dora_count, dealer, alone, pt):
    """(points, yaku bits, runs) of the best reading of the 6-tile hand ``c``, or (-1, 0, 0)
    when it is not two sets."""
    best, best_bits, best_runs = -1, 0, 0
    for i in range(SETS.shape[0]):
        for j in range(i, SETS.shape[0]):
            same = True
            for k in range(N_KINDS):
                same &= SETS[i, k] + SETS[j, k] == c[k]
            if same:
                p, b = reading_points(c, i, j, reds, dora_count, dealer, alone, pt)
                if p > best:
                    best, best_bits, best_runs = p, b, int(i < 7) + int(j < 7)
    return best, best_bits, best_runs


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
