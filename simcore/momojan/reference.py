"""Pure-Python reference for hand analysis: slow, brute force, written from the spec's words.

It shares nothing with the kernels but the card ids: sets and heads are predicates over concrete
cards (spec §2), winning shapes are found by trying every partition of the hand. Tests compare the
kernels in :mod:`simcore.momojan.hand` with these functions.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .cards import N_KINDS, N_NUMBER_KINDS, FIRST_PICTURE_KIND
from .shapes import HandRules


def _num(k):
    return k < N_NUMBER_KINDS


def _fruit(k):
    return k // 9


def _rank(k):
    return k % 9 + 1


def _picture(k):
    return k - FIRST_PICTURE_KIND


def stands_for_picture(k, p, rules: HandRules) -> bool:
    """Card k can be used as picture p: it is p, or a rank-1 card and p may be substituted."""
    if not _num(k):
        return _picture(k) == p
    return _rank(k) == 1 and p in rules.rank1_substitutes


def is_run(cards, rules: HandRules) -> bool:
    if len(cards) != 3 or not all(_num(k) for k in cards):
        return False
    r = sorted(_rank(k) for k in cards)
    if r != [r[0], r[0] + 1, r[0] + 2]:
        return False
    fruits = {_fruit(k) for k in cards}
    if rules.momo_wild:
        fruits.discard(0)  # momo fills any place
    return len(fruits) <= 1


def is_set(cards, rules: HandRules) -> bool:
    return _is_set(tuple(sorted(cards)), rules)


@lru_cache(maxsize=None)  # a pure predicate; caching only saves time
def _is_set(cards, rules: HandRules) -> bool:
    if len(cards) != 3:
        return False
    if is_run(cards, rules):
        return True
    if all(_num(k) for k in cards) and len({_rank(k) for k in cards}) == 1:
        return True  # same-number set (cards are distinct, so distinct fruits)
    return any(all(stands_for_picture(k, p, rules) for k in cards) for p in range(5))


def is_head(cards, rules: HandRules) -> bool:
    return _is_head(tuple(sorted(cards)), rules)


@lru_cache(maxsize=None)
def _is_head(cards, rules: HandRules) -> bool:
    a, b = cards
    if _num(a) and _num(b) and _rank(a) == _rank(b):
        return True
    return any(stands_for_picture(a, p, rules) and stands_for_picture(b, p, rules) for p in range(5))


def _all_sets(cards, rules) -> bool:
    """Can the list of cards be split into sets only?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for i, j in combinations(range(len(rest)), 2):
        if is_set([first, rest[i], rest[j]], rules):
            if _all_sets([c for n, c in enumerate(rest) if n not in (i, j)], rules):
                return True
    return False


def is_complete_shape(concealed, rules: HandRules) -> bool:
    """Sets + exactly one head using every card (no set-count condition)."""
    cards = sorted(concealed)
    if len(cards) % 3 != 2:
        return False
    for i, j in combinations(range(len(cards)), 2):
        if is_head([cards[i], cards[j]], rules):
            if _all_sets([c for n, c in enumerate(cards) if n not in (i, j)], rules):
                return True
    return False


def is_complete(concealed, n_revealed, rules: HandRules) -> bool:
    n = len(concealed)
    return n % 3 == 2 and (n - 2) // 3 + n_revealed >= 3 and is_complete_shape(concealed, rules)


def deck_counts(rules: HandRules) -> list[int]:
    return list(_deck_counts(rules))


@lru_cache(maxsize=None)
def _deck_counts(rules: HandRules) -> tuple[int, ...]:
    numbers = [1 if (_fruit(k) in rules.fruits and _rank(k) <= rules.ranks) else 0
               for k in range(N_NUMBER_KINDS)]
    return tuple(numbers + list(rules.picture_copies))


def available(kind, concealed, revealed_cards, rules: HandRules) -> bool:
    held = list(concealed).count(kind) + list(revealed_cards).count(kind)
    return held < _deck_counts(rules)[kind]


def waits(concealed, revealed_cards, n_revealed, rules: HandRules) -> list[int]:
    """By definition: every available card that completes the hand."""
    n = len(concealed)
    if n % 3 != 1 or (n - 1) // 3 + n_revealed < 3:
        return []
    return [k for k in range(N_KINDS)
            if available(k, concealed, revealed_cards, rules)
            and is_complete_shape(list(concealed) + [k], rules)]


def _partitions(cards, rules, need_head):
    """Yield lists of groups (tuples) that split ``cards`` into sets and, if need_head, one head,
    allowing exactly one *deficient* group: a single card (a head short of one) or two cards (a set
    short of one). Used for the fast reference of waits."""
    if not cards:
        return
    yield from _partitions_rec(sorted(cards), rules, need_head, False)


def _partitions_rec(cards, rules, need_head, used_deficient):
    if not cards:
        if not need_head and used_deficient:
            yield []
        return
    first, rest = cards[0], cards[1:]
    for i, j in combinations(range(len(rest)), 2):
        if is_set([first, rest[i], rest[j]], rules):
            left = [c for n, c in enumerate(rest) if n not in (i, j)]
            for p in _partitions_rec(left, rules, need_head, used_deficient):
                yield [("set", first, rest[i], rest[j])] + p
    for i in range(len(rest)):
        left = rest[:i] + rest[i + 1:]
        if need_head and is_head([first, rest[i]], rules):
            for p in _partitions_rec(left, rules, False, used_deficient):
                yield [("head", first, rest[i])] + p
        if not used_deficient:
            for p in _partitions_rec(left, rules, need_head, True):
                yield [("short_set", first, rest[i])] + p
    if not used_deficient and need_head:
        for p in _partitions_rec(rest, rules, False, True):
            yield [("short_head", first)] + p


def waits_by_partition(concealed, revealed_cards, n_revealed, rules: HandRules) -> list[int]:
    """The same answer as :func:`waits`, found as "one group short": split the hand into sets, a
    head and one deficient group, and collect the cards that complete the deficient group."""
    n = len(concealed)
    if n % 3 != 1 or (n - 1) // 3 + n_revealed < 3:
        return []
    found = set()
    for groups in _partitions(list(concealed), rules, True):
        for g in groups:
            if g[0] == "short_set":
                found |= _set_completions(g[1], g[2], rules)
            elif g[0] == "short_head":
                found |= _head_completions(g[1], rules)
    return sorted(k for k in found if available(k, concealed, revealed_cards, rules))


@lru_cache(maxsize=None)  # pure, like the predicates; caching only saves time
def _set_completions(a, b, rules: HandRules) -> frozenset:
    """Every kind k that makes a set with the cards a and b."""
    return frozenset(k for k in range(N_KINDS) if is_set([a, b, k], rules))


@lru_cache(maxsize=None)
def _head_completions(a, rules: HandRules) -> frozenset:
    """Every kind k that makes a head with the card a."""
    return frozenset(k for k in range(N_KINDS) if is_head([a, k], rules))


def shanten(concealed, n_revealed, rules: HandRules) -> int:
    """Distance to tenpai as defined in :mod:`simcore.momojan.hand`, by trying every way to group
    the cards into sets, partials (two cards some third card makes a set), one head and singles."""
    cards = sorted(concealed)
    G = max(len(cards) // 3, 3 - n_revealed)
    best = [2 * G + 1]

    def is_partial(a, b):
        return _is_partial(min(a, b), max(a, b), rules)

    def rec(rest, m, t, h):
        if not rest:
            best[0] = min(best[0], 2 * (G - m) - t - h)
            return
        first, others = rest[0], rest[1:]
        rec(others, m, t, h)  # first stays a single
        for i in range(len(others)):
            left = others[:i] + others[i + 1:]
            if h == 0 and is_head([first, others[i]], rules):
                rec(left, m, t, 1)
            if m + t < G and is_partial(first, others[i]):
                rec(left, m, t + 1, h)
        if m + t < G:
            for i, j in combinations(range(len(others)), 2):
                if is_set([first, others[i], others[j]], rules):
                    rec([c for n, c in enumerate(others) if n not in (i, j)], m + 1, t, h)

    rec(cards, 0, 0, 0)
    return best[0]


@lru_cache(maxsize=None)
def _is_partial(a, b, rules: HandRules) -> bool:
    """Some third card (ignoring availability) makes a set with a and b."""
    return any(is_set([a, b, k], rules) for k in range(N_KINDS))


def is_furiten(wait_kinds, discard_kinds) -> bool:
    """A winning card other than momo lies in the player's own discards (§6)."""
    return any(w in discard_kinds and not (_num(w) and _fruit(w) == 0) for w in wait_kinds)
