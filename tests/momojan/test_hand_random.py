"""Kernels against the reference on many random 7- and 8-card hands per edition.

The count is ``MOMOJAN_DIFF_HANDS`` (default 30,000 of each size per edition: a kernel error in
one hand of 10,000 of these tenpai-rich hands is caught with probability 95%, at a third of the
100,000 run's 6 CPU minutes; set 100000 or more for a deep run); shanten, whose reference is
slower, is compared on a tenth of them. The kernels are called one hand at a time, the entry
points the engine and ``HandAnalyzer`` use (compiled at install): a batch function of its own
would compile them again, inside it, 5-7 s of CPU on a fresh clone, for 0.3 s of calls.
"""

import os

import numpy as np
from hypothesis import given, settings, strategies as st

from handgen import HandGenerator
from simcore.momojan import reference as ref
from simcore.momojan.cards import format_cards, kinds_from_kind_set, mask_from_kinds
from simcore.momojan.hand import is_complete, waits
from simcore.momojan.shanten import shanten

N_HANDS = int(os.environ.get("MOMOJAN_DIFF_HANDS", "30000"))


def _batch(gen, size, n):
    hands = [gen.hand(size) for _ in range(n)]
    masks = np.array([mask_from_kinds(c) for c, _, _ in hands], np.uint64)
    rev = np.array([mask_from_kinds(r) for _, r, _ in hands], np.uint64)
    nrev = np.array([n for _, _, n in hands], np.int64)
    return hands, masks, rev, nrev


def test_random_seven_card_waits_and_shanten(analyzer):
    rules, core = analyzer.rules, analyzer.tables.core
    hands, masks, rev, nrev = _batch(HandGenerator(rules, seed=7), 7, N_HANDS)
    tenpai = 0
    for i, (cards, revealed, n_rev) in enumerate(hands):
        expected = ref.waits_by_partition(cards, revealed, n_rev, rules)
        got = kinds_from_kind_set(int(waits(masks[i], rev[i], nrev[i], core)))
        assert got == expected, (format_cards(cards), n_rev)
        tenpai += bool(expected)
        if i % 10 == 0:
            assert shanten(masks[i], nrev[i], core) == ref.shanten(cards, n_rev, rules), \
                (format_cards(cards), n_rev)
    assert tenpai > len(hands) // 4  # the generator really does produce many tenpai hands


def test_random_eight_card_complete(analyzer):
    rules, core = analyzer.rules, analyzer.tables.core
    hands, masks, _, nrev = _batch(HandGenerator(rules, seed=8), 8, N_HANDS)
    n_complete = 0
    for i, (cards, _, n_rev) in enumerate(hands):
        expected = ref.is_complete(cards, n_rev, rules)
        assert bool(is_complete(masks[i], nrev[i], core)) == expected, (format_cards(cards), n_rev)
        n_complete += expected
    assert n_complete > len(hands) // 5


def test_the_two_reference_waits_agree(analyzer):
    gen = HandGenerator(analyzer.rules, seed=11)
    for _ in range(300):
        cards, revealed, n_rev = gen.hand(int(gen.rng.choice([4, 7])))
        assert ref.waits(cards, revealed, n_rev, analyzer.rules) == \
            ref.waits_by_partition(cards, revealed, n_rev, analyzer.rules)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 7]))
def test_properties_of_waits(new_analyzer, seed, size):
    """Every wait completes the hand; a hand with waits is at distance 0 when it needs no Kai."""
    core = new_analyzer.tables.core
    cards, revealed, n_rev = HandGenerator(new_analyzer.rules, seed).hand(size)
    m = np.uint64(mask_from_kinds(cards))
    w = kinds_from_kind_set(int(waits(m, np.uint64(mask_from_kinds(revealed)), n_rev, core)))
    for k in w:
        assert is_complete(np.uint64(mask_from_kinds(cards + [k])), n_rev, core)
        assert shanten(np.uint64(mask_from_kinds(cards + [k])), n_rev, core) == -1
    if w:
        assert shanten(m, n_rev, core) == 0
