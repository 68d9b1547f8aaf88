"""Pure-Python reference for hand analysis: slow, brute force, written from the spec's words.

It shares nothing with the kernels but the card ids: sets and heads are predicates over concrete
cards (spec §2), winning shapes are found by trying every partition of the hand. The searches
are memoized on the cards left (pure functions of them; caching changes only the time). Tests compare the
kernels in :mod:`simcore.momojan.hand` with these functions.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement

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


@lru_cache(maxsize=None)
def _sets_and_heads(rules: HandRules) -> tuple[frozenset, frozenset]:
    """Every set (sorted triple of kinds) and head (sorted pair) by the predicates above: the
    searches below look groups up here instead of asking the predicates again and again."""
    return (frozenset(t for t in combinations_with_replacement(range(N_KINDS), 3)
                      if _is_set(t, rules)),
            frozenset(p for p in combinations_with_replacement(range(N_KINDS), 2)
                      if _is_head(p, rules)))


def _all_sets(cards, rules) -> bool:
    """Can the list of cards be split into sets only? Plain recursion on the predicates, apart
    from the memoized searches below: :func:`waits` (by definition) and
    :func:`waits_by_partition` (by those searches) are two references checked against each
    other, so they share nothing but the predicates."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for i, j in combinations(range(len(rest)), 2):
        if is_set([first, rest[i], rest[j]], rules):
            if _all_sets([c for n, c in enumerate(rest) if n not in (i, j)], rules):
                return True
    return False


# The searches' caches are bounded: a deep run (MOMOJAN_DIFF_HANDS=10**6) meets new hands for ever.
SEARCH_CACHE = 1 << 18


@lru_cache(maxsize=SEARCH_CACHE)  # pure: the same few cards recur in hand after hand
def _splits(cards: tuple, need_head: bool, rules: HandRules) -> bool:
    """Can the sorted cards be split into sets, and exactly one head if ``need_head``?"""
    if not cards:
        return not need_head
    sets, heads = _sets_and_heads(rules)
    first, rest = cards[0], cards[1:]
    for i, j in combinations(range(len(rest)), 2):
        if (first, rest[i], rest[j]) in sets and _splits(_without2(rest, i, j), need_head, rules):
            return True
    return need_head and any((first, rest[i]) in heads and
                             _splits(_without(rest, i), False, rules)
                             for i in range(len(rest)))


def _without(cards: tuple, i: int) -> tuple:
    return cards[:i] + cards[i + 1:]


def _without2(cards: tuple, i: int, j: int) -> tuple:  # i < j
    return cards[:i] + cards[i + 1:j] + cards[j + 1:]


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


@lru_cache(maxsize=SEARCH_CACHE)
def _one_short(cards: tuple, need_head: bool, rules: HandRules) -> frozenset:
    """The kinds that complete the deficient group of some split of the sorted cards into sets,
    a head if ``need_head``, and exactly one *deficient* group: a single card (a head short of
    one) or two cards (a set short of one)."""
    if not cards:
        return frozenset()
    sets, heads = _sets_and_heads(rules)
    first, rest = cards[0], cards[1:]
    found = set()
    for i, j in combinations(range(len(rest)), 2):  # first in a set
        if (first, rest[i], rest[j]) in sets:
            found |= _one_short(_without2(rest, i, j), need_head, rules)
    for i in range(len(rest)):
        left = _without(rest, i)
        if need_head and (first, rest[i]) in heads:  # first in the head
            found |= _one_short(left, False, rules)
        if _splits(left, need_head, rules):  # first with rest[i]: a set short of one
            found |= _set_completions(first, rest[i], rules)
    if need_head and _splits(rest, False, rules):  # first alone: a head short of one
        found |= _head_completions(first, rules)
    return frozenset(found)


def waits_by_partition(concealed, revealed_cards, n_revealed, rules: HandRules) -> list[int]:
    """The same answer as :func:`waits`, found as "one group short": split the hand into sets, a
    head and one deficient group, and collect the cards that complete the deficient group."""
    n = len(concealed)
    if n % 3 != 1 or (n - 1) // 3 + n_revealed < 3:
        return []
    found = _one_short(tuple(sorted(concealed)), True, rules)
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
    return _fewest_missing(tuple(cards), 0, 0, 0, G, rules)


@lru_cache(maxsize=SEARCH_CACHE)  # pure: the same rest is reached by many orders of grouping
def _fewest_missing(rest: tuple, m: int, t: int, h: int, G: int, rules: HandRules) -> int:
    """The least 2 (G - m) - t - h over every way to group ``rest`` (sorted) on top of m sets,
    t partials and h heads already formed, with at most G sets and partials, at most one head."""
    if not rest:
        return 2 * (G - m) - t - h
    sets, heads = _sets_and_heads(rules)
    first, others = rest[0], rest[1:]
    best = _fewest_missing(others, m, t, h, G, rules)  # first stays a single
    for i in range(len(others)):
        left = _without(others, i)
        if h == 0 and (first, others[i]) in heads:
            best = min(best, _fewest_missing(left, m, t, 1, G, rules))
        if m + t < G and _is_partial(first, others[i], rules):
            best = min(best, _fewest_missing(left, m, t + 1, h, G, rules))
    if m + t < G:
        for i, j in combinations(range(len(others)), 2):
            if (first, others[i], others[j]) in sets:
                best = min(best, _fewest_missing(_without2(others, i, j), m + 1, t, h, G, rules))
    return best


@lru_cache(maxsize=None)
def _is_partial(a, b, rules: HandRules) -> bool:
    """Some third card (ignoring availability) makes a set with a and b."""
    return any(is_set([a, b, k], rules) for k in range(N_KINDS))


def is_furiten(wait_kinds, discard_kinds) -> bool:
    """A winning card other than momo lies in the player's own discards (§6)."""
    return any(w in discard_kinds and not (_num(w) and _fruit(w) == 0) for w in wait_kinds)
