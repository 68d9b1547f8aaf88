"""Kernels against the reference: exhaustively on small hands, plus the spec's worked cases."""

import itertools

import numpy as np
import pytest

from simcore.momojan import reference as ref
from simcore.momojan.cards import N_KINDS, counts_from_kinds, format_cards, mask_from_kinds
from simcore.momojan.hand import (
    can_ron_on, counts_of, is_complete, is_furiten, shanten_counts, waits,
)
from simcore.momojan.cards import kinds_from_kind_set
from simcore.momojan.shapes import parse_new_edition_hand as parse_hand


def _multisets(pool_counts, size):
    """Every multiset of ``size`` kinds with kind k used at most pool_counts[k] times."""
    kinds = [k for k in range(N_KINDS) if pool_counts[k] > 0]
    for combo in itertools.combinations_with_replacement(kinds, size):
        if all(combo.count(k) <= pool_counts[k] for k in set(combo)):
            yield list(combo)


def _check(analyzer, cards, revealed, n_rev):
    T, rules = analyzer.tables, analyzer.rules
    m = np.uint64(mask_from_kinds(cards))
    label = f"{format_cards(cards)} +{n_rev} revealed"
    if len(cards) % 3 == 1:
        got = kinds_from_kind_set(int(waits(m, np.uint64(mask_from_kinds(revealed)), n_rev, T.core)))
        assert got == ref.waits(cards, revealed, n_rev, rules), label
    if len(cards) % 3 == 2:
        assert bool(is_complete(m, n_rev, T.core)) == ref.is_complete(cards, n_rev, rules), label
    c = counts_from_kinds(cards).astype(np.int64)
    assert shanten_counts(c, n_rev, T) == ref.shanten(cards, n_rev, rules), label


@pytest.mark.parametrize("size", [1, 2])
def test_every_one_and_two_card_hand(analyzer, size):
    deck = ref.deck_counts(analyzer.rules)
    for cards in _multisets(deck, size):
        for n_rev in range(5):
            _check(analyzer, cards, [], n_rev)


def _reduced_deck(rules):
    """Ranks 1-4 of all four fruits, plus dogs and suns (rank-1 stand-ins matter in the old edition)."""
    deck = [0] * N_KINDS
    for fruit in range(4):
        for rank in range(1, 5):
            deck[fruit * 9 + rank - 1] = 1
    deck[36] = rules.picture_copies[0]
    deck[39] = rules.picture_copies[3]
    return deck


@pytest.mark.parametrize("size", [4, 5])
def test_every_small_hand_from_a_reduced_deck(analyzer, size):
    deck = _reduced_deck(analyzer.rules)
    n = 0
    for cards in _multisets(deck, size):
        _check(analyzer, cards, [], 2 if size == 4 else 3)
        n += 1
    assert n > 2000


def test_revealed_cards_are_not_waits(new_analyzer):
    # 23o waits on 1o/4o and momo 1/4; 4o revealed elsewhere and 4m too: only 1m, 1o remain.
    h = parse_hand("kai:111z chi:4o5o6o chi:4m5m6m 23o 44z")
    assert [ref for ref in new_analyzer.waits(h)] == [0, 18]


def test_full_picture_copies_are_not_waits(new_analyzer):
    assert new_analyzer.waits(parse_hand("kai:123l kai:456l kai:789l 1z")) == [36]
    # a single dog waits on a dog, but all four are held
    assert new_analyzer.waits(parse_hand("kai:111z kai:456l kai:789l 1z")) == []


def test_nothing_revealed_never_wins(new_analyzer):
    h = parse_hand("123l 456l 7l")
    assert new_analyzer.waits(h) == []
    assert new_analyzer.shanten(h) == 2
    assert not new_analyzer.is_complete(parse_hand("123l 456l 7l7o"))


def test_spec_furiten_example():
    # Waiting on lemon 2/5 or momo 2/5 with 34l + moon pair, having discarded lemon 2.
    wait_set = sum(1 << k for k in (1, 4, 10, 13))
    discards = 1 << 10  # 2l
    assert is_furiten(wait_set, discards)
    assert not can_ron_on(13, wait_set, discards)  # lemon 5: furiten
    assert can_ron_on(4, wait_set, discards)       # momo 5: always
    assert not is_furiten(wait_set, 1 << 1)        # a discarded momo 2 never causes furiten
    assert ref.is_furiten([1, 4, 10, 13], [10]) and not ref.is_furiten([1, 4, 10, 13], [1])


def test_counts_of_matches_python(new_analyzer):
    cards = [0, 5, 36, 36, 40]
    assert list(counts_of(np.uint64(mask_from_kinds(cards)))) == list(counts_from_kinds(cards))
