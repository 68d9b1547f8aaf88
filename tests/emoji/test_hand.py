"""The compiled emoji hand analysis (simcore.emoji.hand) against two oracles written from the
spec alone: the pure-Python reference (simcore.emoji.reference: decompositions, waits) and the
enumeration of every winning 8-tile multiset (a win and a wait become set lookups, so 100,000
hands take seconds). Exhaustively over one suit's hands, and on random hands of the whole deck,
dealt from a shuffled wall and grown from winning hands so that most of them are near a win
(issue 33: >= 100,000 hands in all)."""

import itertools

import numpy as np
import pytest

from simcore.emoji import hand as H
from simcore.emoji import reference as ref
from simcore.emoji.tiles import N_KINDS, counts_of, parse_hand

T = H.tables(False)
TW = H.tables(True)


def _kernel_decompositions(c, wrap):
    rows = np.zeros((H.MAX_DECOMP, H.DECOMP_COLS), np.int64)
    n = H.decompositions(np.asarray(c, np.int64), wrap, rows)
    out = set()
    for r in rows[:n]:
        if r[0] == H.D_FOUR_PAIRS:
            out.add(("four_pairs", tuple(int(k) for k in r[1:5])))
            continue
        sets = []
        for kind, first in ((r[1], r[2]), (r[3], r[4])):
            if kind == H.SET_TRIPLET:
                sets.append((int(first),) * 3)
            else:
                sets.append(tuple(sorted(int(k) for k in H._run_kinds(first, wrap))))
        out.add(("basic", tuple(sorted(sets)), int(r[5])))
    return out


def _mask_kinds(m):
    return [k for k in range(N_KINDS) if (int(m) >> k) & 1]


def _winning_set(wrap):
    """Every winning 8-tile multiset within the copies, as count tuples (built from sets and
    pairs, not from the kernels)."""
    runs = [(s * 9 + r, s * 9 + (r + 1) % 9, s * 9 + (r + 2) % 9) for s in range(3)
            for r in range(9 if wrap else 7)]
    sets = [(k,) * 3 for k in range(N_KINDS)] + runs
    out = set()
    for a, b in itertools.combinations_with_replacement(sets, 2):
        for p in range(N_KINDS):
            c = [0] * N_KINDS
            for k in a + b + (p, p):
                c[k] += 1
            if max(c) <= 3:
                out.add(tuple(c))
    for kinds in itertools.combinations(range(N_KINDS), 4):
        c = [0] * N_KINDS
        for k in kinds:
            c[k] = 2
        out.add(tuple(c))
    return out


WINNING = {False: _winning_set(False), True: _winning_set(True)}


def _oracle_waits(c, wrap):
    c = list(int(x) for x in c)
    out = []
    for k in range(N_KINDS):
        if c[k] <= 2:
            c[k] += 1
            if tuple(c) in WINNING[wrap]:
                out.append(k)
            c[k] -= 1
    return out


def _check(c, wrap=False, reference=False):
    """The kernels against the enumeration; ``reference``: against the reference module too."""
    t = TW if wrap else T
    c = np.asarray(c, np.int64)
    n = int(c.sum())
    if n == 7:
        got = _mask_kinds(H.waits(c, t))
        assert got == _oracle_waits(c, wrap), list(c)
        assert (H.distance(c, t) == 1) == bool(got), list(c)
        if reference:
            assert got == ref.waits(list(c), wrap), list(c)
    elif n == 8:
        win = tuple(int(x) for x in c) in WINNING[wrap]
        assert bool(H.is_winning(c, t)) == win, list(c)
        if win or reference:
            assert _kernel_decompositions(c, wrap) == set(ref.decompositions(list(c), wrap)), \
                list(c)


def _one_suit_hands(size, kinds):
    for combo in itertools.combinations_with_replacement(kinds, size):
        c = counts_of(list(combo))
        if c.max() <= 3:
            yield c


@pytest.mark.parametrize("wrap", [False, True])
def test_every_hand_of_one_suit_and_the_honours(wrap):
    """Every 7- and 8-tile hand of the kusa suit plus the three honours (12 kinds)."""
    kinds = list(range(9)) + [27, 28, 29]
    n = 0
    for size in (7, 8):
        for c in _one_suit_hands(size, kinds):
            _check(c, wrap)
            n += 1
    assert n > 20000


def _random_hands(rng, n, size):
    wall = np.repeat(np.arange(N_KINDS), 3)
    for _ in range(n):
        yield counts_of(rng.permutation(wall)[:size])


def _near_winning(rng, n):
    """7-tile hands one or two swaps from a winning hand (waits are common among them)."""
    wall = np.repeat(np.arange(N_KINDS), 3)
    made = 0
    while made < n:
        c = counts_of(rng.permutation(wall)[:8])
        # grow a winning hand: a random basic shape or four pairs within the copies
        if rng.random() < 0.2:
            kinds = rng.choice(N_KINDS, 4, replace=False)
            w = np.zeros(N_KINDS, np.int64)
            w[kinds] = 2
        else:
            w = np.zeros(N_KINDS, np.int64)
            for _ in range(2):
                if rng.random() < 0.4:
                    w[rng.integers(N_KINDS)] += 3
                else:
                    s, r = rng.integers(3), rng.integers(7)
                    w[s * 9 + r: s * 9 + r + 3] += 1
            w[rng.integers(N_KINDS)] += 2
        if w.max() > 3:
            continue
        tiles = list(np.repeat(np.arange(N_KINDS), w))
        drop = rng.integers(8)
        del tiles[drop]
        if rng.random() < 0.3:   # one more swap
            tiles[rng.integers(7)] = int(c.argmax())
        h = counts_of(tiles)
        if h.max() > 3:
            continue
        made += 1
        yield h


def test_random_hands_of_the_whole_deck():
    rng = np.random.default_rng(33)
    n = 0
    for size in (7, 8):
        for c in _random_hands(rng, 20000, size):
            _check(c)
            n += 1
    for i, c in enumerate(_near_winning(rng, 60000)):
        _check(c, reference=i % 50 == 0)
        if i % 50 == 1:
            _check(c, wrap=True, reference=True)
        n += 1
    assert n >= 100000


def test_complete_hands_grown_from_waits_decompose_as_the_reference():
    rng = np.random.default_rng(7)
    seen = 0
    for c in _near_winning(rng, 20000):
        for k in _mask_kinds(H.waits(np.asarray(c, np.int64), T)):
            w = c.astype(np.int64).copy()
            w[k] += 1
            _check(w)
            seen += 1
    assert seen > 5000


def _brute_distance(c, winners):
    return int(np.maximum(winners - np.asarray(c, np.int64)[None, :], 0).sum(axis=1).min())


@pytest.fixture(scope="module")
def winners():
    """Every winning 8-tile multiset within the copies, as rows."""
    return np.array(sorted(WINNING[False]), np.int64)


def test_the_winning_hands_number_62259():
    assert len(WINNING[False]) == 62259   # spec §8.4


def test_distance_is_the_fewest_tiles_a_win_lacks_within_the_copies(winners):
    rng = np.random.default_rng(5)
    hands = list(_random_hands(rng, 700, 7)) + list(_near_winning(rng, 700)) \
        + list(_random_hands(rng, 300, 8))
    for c in hands:
        assert H.distance(np.asarray(c, np.int64), T) == _brute_distance(c, winners), list(c)


@pytest.mark.parametrize("text", ["1223334k", "6777889k", "1223334m", "6777889m", "1223334h",
                                  "6777889h"])
def test_hands_that_complete_only_with_a_fourth_copy_are_not_tenpai(text):
    c = parse_hand(text, 7).astype(np.int64)
    assert H.waits(c, T) == 0 and H.distance(c, T) == 2


def test_the_most_waits_is_five():
    c = parse_hand("3334567m", 7).astype(np.int64)
    assert _mask_kinds(H.waits(c, T)) == [10, 12, 13, 15, 16]


def test_one_tile_more_or_less_gives_the_plain_distance():
    """hand.distances_after (the bots' fast loop) against distance() of each changed hand."""
    rng = np.random.default_rng(11)
    out = np.zeros(N_KINDS, np.int64)
    hands = list(_random_hands(rng, 1500, 7)) + list(_near_winning(rng, 1500)) \
        + list(_random_hands(rng, 1000, 8))
    for c in hands:
        c = np.asarray(c, np.int64)
        for sign in (1, -1):
            H.distances_after(c, T, sign, out)
            for k in range(N_KINDS):
                if (sign > 0 and c[k] >= 3) or (sign < 0 and c[k] == 0):
                    assert out[k] == H.IMPOSSIBLE
                    continue
                c[k] += sign
                assert out[k] == H.distance(c, T), (list(c), k, sign)
                c[k] -= sign


@pytest.mark.parametrize("wrap", [False, True])
def test_improving_kinds_are_the_kinds_one_more_of_which_brings_the_hand_closer(wrap):
    """hand.improving_kinds (the bots' useful tiles) against distances_after: on random and
    near-winning 7-tile hands, every 7-tile hand of one suit and the honours, and smaller hands
    (where four pairs can gain a new kind)."""
    t = H.tables(wrap)
    rng = np.random.default_rng(12)
    after = np.zeros(N_KINDS, np.int64)
    hands = list(_random_hands(rng, 1500, 7)) + list(_near_winning(rng, 1500)) \
        + list(_one_suit_hands(7, list(range(9, 18)) + [27, 28, 29])) \
        + [h for size in range(1, 7) for h in _random_hands(rng, 300, size)]
    for c in hands:
        c = np.asarray(c, np.int64)
        d = H.distance(c, t)
        H.distances_after(c, t, 1, after)
        want = sum(1 << k for k in range(N_KINDS) if c[k] <= 2 and after[k] < d)
        assert H.improving_kinds(c, t) == want, (list(c), d)
