"""The table-driven distance to tenpai (``simcore.momojan.shanten``) against the reference.

- Exhaustively against ``reference.shanten``: every hand of 1-3 cards (any revealed count that
  changes the target), every 4- and 5-card hand from a reduced deck.
- Random hands (``MOMOJAN_DIFF_HANDS`` per size and edition, default 30,000, the standard of
  ``test_hand_random``: a kernel error in one hand of 10,000 is caught with probability 95%), sizes
  1-9: against the depth-first kernel ``hand.shanten_counts`` (itself checked against the reference
  in ``test_hand_small``/``test_hand_random``) on all of them, and against ``reference.shanten``
  on one in 30 (one in 120 for 8 and 9 cards: the Python reference takes 1-5 ms a hand).
- ``useful_cards`` against trying every kind; ``useful_at_tenpai`` (waits) and ``useful_cards_from`` on
  number-heavy hands against ``useful_cards``; ``discard_distances`` against ``shanten`` of the hand
  minus each card; both on hands heavy in rank-1 cards and pictures (the old edition's readings).
"""

import itertools
import os

import numba as nb
import numpy as np
import pytest

from simcore.momojan import reference as ref
from simcore.momojan.cards import N_KINDS, N_NUMBER_KINDS, format_cards, kinds_from_mask, mask_from_kinds
from simcore.momojan.hand import counts_of, shanten_counts
from simcore.momojan.shanten import (
    MAX_CARDS, discard_distances, shanten, shanten_batch, unit, unseen_copies, unseen_in,
    useful_at_tenpai, useful_cards, useful_cards_from,
)
from simcore.momojan.shapes import build_heads, build_sets, parse_new_edition_hand as parse_hand

N_HANDS = int(os.environ.get("MOMOJAN_DIFF_HANDS", "30000"))


def _multisets(pool, size):
    kinds = [k for k in range(N_KINDS) if pool[k] > 0]
    for combo in itertools.combinations_with_replacement(kinds, size):
        if all(combo.count(k) <= pool[k] for k in set(combo)):
            yield list(combo)


def _check_against_reference(analyzer, cards, n_revs):
    m = np.uint64(mask_from_kinds(cards))
    for n_rev in n_revs:
        assert shanten(m, n_rev, analyzer.tables.core) == ref.shanten(cards, n_rev, analyzer.rules), \
            (format_cards(cards), n_rev)


@pytest.mark.parametrize("size", [1, 2, 3])
def test_every_small_hand(analyzer, size):
    deck = ref.deck_counts(analyzer.rules)
    # G = max(n // 3, 3 - revealed): these revealed counts cover every target for n <= 3.
    for cards in _multisets(deck, size):
        _check_against_reference(analyzer, cards, [0, 1, 2, 3] if size < 3 else [0, 2])


def _reduced_deck(rules):
    """Ranks 1-4 of every fruit plus dogs and suns (rank-1 stand-ins matter in the old edition)."""
    deck = [0] * N_KINDS
    for fruit in range(4):
        for rank in range(1, 5):
            deck[fruit * 9 + rank - 1] = 1
    deck[36] = rules.picture_copies[0]
    deck[39] = rules.picture_copies[3]
    return deck


@pytest.mark.parametrize("size", [4, 5])
def test_every_hand_from_a_reduced_deck(analyzer, size):
    for cards in _multisets(_reduced_deck(analyzer.rules), size):
        _check_against_reference(analyzer, cards, [0, 2])


# ---------------------------------------------------------------------------------------------
# Random hands: a compiled generator, biased towards near-complete hands, momo and pictures
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def _random_kind(left, bias):
    """A kind drawn with weight = copies left (x4 for momo or pictures when biased towards them)."""
    total = 0
    for k in range(left.shape[0]):
        w = left[k] * (4 if (bias == 1 and k < 9) or (bias == 2 and k >= N_NUMBER_KINDS) else 1)
        total += w
    r = np.random.randint(0, total)
    for k in range(left.shape[0]):
        w = left[k] * (4 if (bias == 1 and k < 9) or (bias == 2 and k >= N_NUMBER_KINDS) else 1)
        if r < w:
            return k
        r -= w
    return -1


@nb.njit(cache=True)
def _take_group(rows, left, bias, cards, n):
    """Append a random catalogue row whose cards are still left (biased); returns the new count."""
    for _ in range(40):
        row = rows[np.random.randint(0, rows.shape[0])]
        if bias == 1 and row.min() >= 9 and np.random.random() < 0.7:
            continue
        if bias == 2 and row.max() < N_NUMBER_KINDS and np.random.random() < 0.7:
            continue
        ok = True
        for j in range(row.shape[0]):
            left[row[j]] -= 1
            if left[row[j]] < 0:
                ok = False
        if ok:
            for j in range(row.shape[0]):
                cards[n + j] = row[j]
            return n + row.shape[0]
        for j in range(row.shape[0]):
            left[row[j]] += 1
    return n


@nb.njit(cache=True)
def random_hands(sets, heads, deck, size, n_hands, seed, masks, n_rev):
    """Fill ``masks`` (uint64[n_hands]) with hands of ``size`` cards and ``n_rev`` with 0-3."""
    np.random.seed(seed)
    cards = np.zeros(16, np.int64)
    for i in range(n_hands):
        left = deck.copy()
        bias = np.random.randint(0, 3)
        n = 0
        if np.random.random() > 0.2:  # sets and a head, then trimmed or perturbed
            if np.random.random() < 0.8:
                n = _take_group(heads, left, bias, cards, n)
            while n + 3 <= size + 1:
                m = _take_group(sets, left, bias, cards, n)
                if m == n:
                    break
                n = m
            for j in range(n - 1, 0, -1):  # shuffle, so trimming drops random cards
                t = np.random.randint(0, j + 1)
                cards[j], cards[t] = cards[t], cards[j]
            while n > size:
                n -= 1
                left[cards[n]] += 1
            if n > 0 and np.random.random() < 0.3:
                n -= 1
                left[cards[n]] += 1
        while n < size:
            k = _random_kind(left, bias)
            left[k] -= 1
            cards[n] = k
            n += 1
        m = np.uint64(0)
        for j in range(n):
            m += unit(cards[j])
        masks[i] = m
        n_rev[i] = np.random.randint(0, 4)


@nb.njit   # not cached: numba's cache knows this file only and would keep an old shanten_counts
def _slow_batch(masks, n_rev, T, out):
    for i in range(masks.shape[0]):
        out[i] = shanten_counts(counts_of(masks[i]), n_rev[i], T)


def _random_batch(rules, size, n, seed):
    sets = build_sets(rules)[:, :3].astype(np.int64)
    heads = build_heads(rules)[:, :2].astype(np.int64)
    deck = np.array(ref.deck_counts(rules), np.int64)
    masks = np.zeros(n, np.uint64)
    n_rev = np.zeros(n, np.int64)
    random_hands(sets, heads, deck, size, n, seed, masks, n_rev)
    return masks, n_rev


@pytest.mark.parametrize("size", range(1, MAX_CARDS + 1))
def test_random_hands_against_the_search_and_the_reference(analyzer, size):
    masks, n_rev = _random_batch(analyzer.rules, size, N_HANDS, seed=size)
    fast = np.zeros(N_HANDS, np.int64)
    shanten_batch(masks, n_rev, analyzer.tables.core, fast)
    slow = np.zeros(N_HANDS, np.int64)
    _slow_batch(masks, n_rev, analyzer.tables, slow)
    bad = np.flatnonzero(fast != slow)
    assert len(bad) == 0, [(format_cards(kinds_from_mask(int(masks[i]))), int(n_rev[i]),
                            int(fast[i]), int(slow[i])) for i in bad[:5]]
    for i in range(0, N_HANDS, 30 if size <= 7 else 120):
        cards = kinds_from_mask(int(masks[i]))
        assert fast[i] == ref.shanten(cards, int(n_rev[i]), analyzer.rules), (format_cards(cards), n_rev[i])
    # the generator produces the whole range, tenpai and complete shapes included
    if size >= 4:
        assert fast.min() <= (-1 if size % 3 == 2 else 0) and fast.max() >= 2


def test_worked_examples(new_analyzer):
    core = new_analyzer.tables.core
    cases = [("123l 456l 7l", 2),            # nothing revealed: a third set must be formed
             ("kai:111z 23o 44z 1l", 2),     # 4 cards, one revealed: 2 more sets needed
             ("kai:111z kai:456o 23o 44z", 0),
             ("kai:111z kai:456o chi:789o 23o 44z", 0),
             ("kai:111z kai:456o 123o 44z", -1)]
    for text, expected in cases:
        h = parse_hand(text)
        assert shanten(np.uint64(h.concealed_mask), h.n_revealed, core) == expected, text


def test_old_edition_rank1_cards_read_as_sun(new_analyzer, old_analyzer):
    # 1l 1o and a sun make a sun set only in the old edition
    h = parse_hand("kai:111z kai:222z 1l1o 4z 5i5o")
    m = np.uint64(h.concealed_mask)
    assert shanten(m, h.n_revealed, old_analyzer.tables.core) == -1
    assert shanten(m, h.n_revealed, new_analyzer.tables.core) == 0


# ---------------------------------------------------------------------------------------------
# Useful cards
# ---------------------------------------------------------------------------------------------

def test_useful_cards_match_trying_every_kind(analyzer):
    core = analyzer.tables.core
    rng = np.random.default_rng(3)
    for size in (1, 4, 7):
        masks, n_rev = _random_batch(analyzer.rules, size, 3000, seed=100 + size)
        for m, r in zip(masks, n_rev):
            seen = m
            for _ in range(int(rng.integers(0, 8))):  # some cards seen elsewhere
                q = int(rng.integers(0, N_KINDS))
                if unseen_copies(core, seen, q) > 0:
                    seen += unit(q)
            base = shanten(m, r, core)
            want_set, want_total = 0, 0
            for q in range(N_KINDS):
                n = unseen_copies(core, seen, q)
                if n > 0 and shanten(m + unit(q), r, core) < base:
                    want_set |= 1 << q
                    want_total += n
            total, kset = useful_cards(m, r, seen, core)
            assert (int(total), int(kset)) == (want_total, want_set), format_cards(kinds_from_mask(int(m)))


def _seen_elsewhere(core, hand, rng, most):
    """A hand mask of up to ``most`` cards besides ``hand`` (its revealed sets or discards)."""
    extra = np.uint64(0)
    for _ in range(int(rng.integers(0, most + 1))):
        q = int(rng.integers(0, N_KINDS))
        if unseen_copies(core, hand + extra, q) > 0:
            extra += unit(q)
    return extra


def test_useful_at_tenpai_matches_useful_cards(analyzer):
    # the bots' tie-break at distance 0: the waits with their unseen copies
    core = analyzer.tables.core
    rng = np.random.default_rng(11)
    n_checked = 0
    for size in (1, 4, 7):
        masks, n_rev = _random_batch(analyzer.rules, size, 3000, seed=500 + size)
        for m, r in zip(masks, n_rev):
            if shanten(m, r, core) != 0:
                continue
            revealed = _seen_elsewhere(core, m, rng, 6)
            seen = m + revealed + _seen_elsewhere(core, m + revealed, rng, 6)
            got = useful_at_tenpai(m, revealed, r, seen, core)
            assert got == useful_cards(m, r, seen, core), (format_cards(kinds_from_mask(int(m))), int(r))
            n_checked += 1
    assert n_checked > 1000


def test_unseen_in_sums_unseen_copies(analyzer):
    # the bots' bound and stand-in for useful cards: one popcount for the number kinds
    core = analyzer.tables.core
    rng = np.random.default_rng(13)
    for _ in range(3000):
        seen = _seen_elsewhere(core, np.uint64(0), rng, 30)
        kinds = [int(q) for q in range(N_KINDS) if rng.random() < 0.3]
        kset = sum(1 << q for q in kinds)
        assert unseen_in(core, seen, np.uint64(kset)) == sum(unseen_copies(core, seen, q) for q in kinds)


def test_useful_cards_from_on_number_heavy_hands(analyzer):
    # number parts of 6-8 cards: the paths past the number table (peeling the added card)
    core = analyzer.tables.core
    rng = np.random.default_rng(12)
    pictures = [N_NUMBER_KINDS + p for p in range(5)]
    for _ in range(1500):
        size = int(rng.integers(6, 9))
        n_num = int(rng.integers(6, size + 1))
        nums = [int(k) for k in rng.choice(N_NUMBER_KINDS, n_num, replace=False)]
        cards = nums + [int(k) for k in rng.choice(pictures, size - n_num)]
        m = np.uint64(mask_from_kinds(cards))
        r = int(rng.integers(0, 4))
        seen = m + _seen_elsewhere(core, m, rng, 8)
        base = shanten(m, r, core)
        assert useful_cards_from(m, base, r, seen, core) == useful_cards(m, r, seen, core), \
            (format_cards(cards), r)


# ---------------------------------------------------------------------------------------------
# Distances after each discard (the bots' discard loop)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", range(2, MAX_CARDS + 1))
def test_discard_distances_match_shanten_of_each_discard(analyzer, size):
    core = analyzer.tables.core
    rng = np.random.default_rng(size)
    masks, n_rev = _random_batch(analyzer.rules, size, 2000, seed=300 + size)
    out = np.zeros(N_KINDS, np.int64)
    for m, r in zip(masks, n_rev):
        held = sorted(set(kinds_from_mask(int(m))))
        tried = [k for k in held if rng.random() < 0.8] or held[:1]  # a subset too: only those
        out[:] = 99
        discard_distances(m, r, core, np.uint64(sum(1 << k for k in tried)), out)
        want = [int(shanten(m - unit(k), r, core)) if k in tried else 99 for k in range(N_KINDS)]
        assert out.tolist() == want, (format_cards(kinds_from_mask(int(m))), int(r), tried)


@pytest.mark.parametrize("size", range(1, MAX_CARDS + 1))
def test_useful_cards_and_discard_distances_on_rank1_rich_hands(analyzer, size):
    # the old edition's fast paths run once per reading of the hand's rank-1 cards (an added or
    # taken card that is not rank-1 keeps the readings; a rank-1 one is tried whole): hands
    # heavy in rank-1 cards and pictures, so several readings and both kinds of card occur
    core = analyzer.tables.core
    deck = ref.deck_counts(analyzer.rules)
    rng = np.random.default_rng(400 + size)
    ones = [k for k in range(N_NUMBER_KINDS) if k % 9 == 0]
    pools = (ones, list(range(N_NUMBER_KINDS, N_KINDS)), list(range(N_KINDS)))
    out = np.zeros(N_KINDS, np.int64)
    for _ in range(1500):
        left, cards = list(deck), []
        while len(cards) < size:
            k = int(rng.choice(pools[min(int(rng.integers(0, 4)), 2)]))
            if left[k] > 0:
                left[k] -= 1
                cards.append(k)
        m = np.uint64(mask_from_kinds(cards))
        r = int(rng.integers(0, 4))
        if size < MAX_CARDS:
            seen = m + _seen_elsewhere(core, m, rng, 8)
            assert useful_cards_from(m, shanten(m, r, core), r, seen, core) == \
                useful_cards(m, r, seen, core), (format_cards(cards), r)
        held = sorted(set(cards))
        tried = [k for k in held if rng.random() < 0.8] or held[:1]
        out[:] = 99
        discard_distances(m, r, core, np.uint64(sum(1 << k for k in tried)), out)
        want = [int(shanten(m - unit(k), r, core)) if k in tried else 99 for k in range(N_KINDS)]
        assert out.tolist() == want, (format_cards(cards), r, tried)
