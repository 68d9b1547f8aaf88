"""Pure-Python reference for P-style hand analysis: slow, brute force, written from the spec's words.

It shares nothing with the kernels in :mod:`simcore.ptrump.hand` but the rank indices and the
reading-row layout (so tests can compare decompositions as sets). Every question is answered by
listing the complete shapes and comparing count vectors:

* a **set** is a triplet of one rank 1..K (never jokers: they are not wild and form no sets) or a
  run of three consecutive ranks within 1..9 (no wrap); a **head** is a pair of any rank, jokers
  included (spec §2);
* a **regular** complete hand of 8 - 3k concealed cards (k = revealed pons/kans) is one head and
  2 - k sets (§5);
* with k == 0 only, each enabled in the rules: **sutoitsu** four pairs (with
  ``sutoitsu_same_pairs`` four of a rank count as two pairs; jokers make one pair only, there are
  two), **paaren** 1-8 or 2-9 one card each, **kokushi** 1, 9, 10, J, Q, K, joker once each plus one
  more of them, **chinroutou** exactly AAAA9999 (whatever ``sutoitsu_same_pairs``; spec §8).

Definitions used by the tests:

* ``is_complete(cnt, k)``: ``cnt`` equals some complete shape (shape only: copies are not checked,
  so a probe with a fifth copy is answered by shape);
* ``win_mask(cnt, k)``: bit r set iff ``cnt + e_r`` is complete;
* ``shanten(cnt, k)``: ``min |C - H| - 1`` over complete shapes C that respect the deck (at most 4
  of a rank, 2 jokers), ``|C - H|`` the cards of C the hand lacks (multiset difference). For a
  7 - 3k hand, 0 = tenpai on a wait of which a copy can exist outside the hand; for an 8 - 3k hand,
  -1 = complete, otherwise the distance after the best discard (keeping the cards C uses);
* ``useful_mask(cnt, k)``: ranks r with a copy outside the hand and
  ``shanten(cnt + e_r) < shanten(cnt)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

N_RANKS = 14
JOKER = 13
CAPS = (4,) * 13 + (2,)
YAOCHU_KOKUSHI = (0, 8, 9, 10, 11, 12, 13)

# reading kinds (the same codes as hand.READING_KINDS)
REGULAR, SUTOITSU, PAAREN, KOKUSHI, CHINROUTOU = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class ShapeRules:
    sutoitsu: bool = True
    sutoitsu_same_pairs: bool = True
    paaren: bool = True
    kokushi: bool = True
    chinroutou: bool = True


def _vec(pairs):
    v = [0] * N_RANKS
    for r, n in pairs:
        v[r] += n
    return tuple(v)


def set_vector(is_run: int, rank: int):
    return _vec([(rank, 1), (rank + 1, 1), (rank + 2, 1)] if is_run else [(rank, 3)])


# every set: (is_run, lowest rank)
SETS = [(0, r) for r in range(13)] + [(1, r) for r in range(7)]


@lru_cache(maxsize=None)
def complete_shapes(k: int, rules: ShapeRules = ShapeRules()) -> dict:
    """{count vector (tuple of 14): set of readings} of every complete 8 - 3k-card shape.

    A reading is the tuple (kind, head, set0_is_run, set0_rank, set1_is_run, set1_rank), -1 where
    unused; regular sets in (rank, is_run) order; kokushi's head is its doubled rank."""
    out: dict = {}
    n_sets = 2 - k
    for head in range(N_RANKS):
        for sets in combinations_with_replacement(sorted(SETS, key=lambda s: (s[1], s[0])), n_sets):
            v = [0] * N_RANKS
            v[head] += 2
            for s in sets:
                for r, x in enumerate(set_vector(*s)):
                    v[r] += x
            flat = [x for s in sets for x in s] + [-1] * 2 * (2 - n_sets)
            out.setdefault(tuple(v), set()).add((REGULAR, head, *flat))
    if k == 0:
        none = (-1,) * 5
        if rules.sutoitsu:
            for pairs in combinations_with_replacement(range(N_RANKS), 4):
                if any(pairs.count(r) > (2 if (rules.sutoitsu_same_pairs and r != JOKER) else 1)
                       for r in pairs):
                    continue
                out.setdefault(_vec([(r, 2) for r in pairs]), set()).add((SUTOITSU, *none))
        if rules.paaren:
            for lo in (0, 1):
                v = _vec([(r, 1) for r in range(lo, lo + 8)])
                out.setdefault(v, set()).add((PAAREN, *none))
        if rules.kokushi:
            for extra in YAOCHU_KOKUSHI:
                v = _vec([(r, 1) for r in YAOCHU_KOKUSHI] + [(extra, 1)])
                out.setdefault(v, set()).add((KOKUSHI, extra, -1, -1, -1, -1))
        if rules.chinroutou:
            out.setdefault(_vec([(0, 4), (8, 4)]), set()).add((CHINROUTOU, *none))
    return out


@lru_cache(maxsize=None)
def _capped_shapes(k: int, rules: ShapeRules) -> np.ndarray:
    """int16[14, n]: the complete shapes that respect the deck's copies, one column each."""
    return np.ascontiguousarray(np.array([v for v in complete_shapes(k, rules)
                                          if all(v[r] <= CAPS[r] for r in range(N_RANKS))],
                                         np.int16).T)


def decompositions(cnt, k: int, rules: ShapeRules = ShapeRules()) -> set:
    """Every reading of a complete 8 - 3k-card hand (empty if it is not complete)."""
    return set(complete_shapes(k, rules).get(tuple(int(x) for x in cnt), ()))


def is_complete(cnt, k: int, rules: ShapeRules = ShapeRules()) -> bool:
    return tuple(int(x) for x in cnt) in complete_shapes(k, rules)


def win_mask(cnt, k: int, rules: ShapeRules = ShapeRules()) -> int:
    m = 0
    for r in range(N_RANKS):
        v = [int(x) for x in cnt]
        v[r] += 1
        if tuple(v) in complete_shapes(k, rules):
            m |= 1 << r
    return m


def shanten(cnt, k: int, rules: ShapeRules = ShapeRules()) -> int:
    shapes = _capped_shapes(k, rules)
    lacking = np.zeros(shapes.shape[1], np.int16)
    for r in range(N_RANKS):        # lacking[j] = sum over ranks of max(0, C_j[r] - cnt[r])
        lacking += np.maximum(shapes[r] - int(cnt[r]), 0)
    return int(lacking.min()) - 1


def useful_mask(cnt, k: int, rules: ShapeRules = ShapeRules()) -> int:
    base = shanten(cnt, k, rules)
    m = 0
    for r in range(N_RANKS):
        v = [int(x) for x in cnt]
        if v[r] >= CAPS[r]:
            continue
        v[r] += 1
        if shanten(v, k, rules) < base:
            m |= 1 << r
    return m
