"""The numba hand analysis (distance, waits, completeness, distances after one tile) against the
pure-Python reference of simcore/riichi2p/reference.py: exhaustively on every hand of 4 tiles
(three calls made), on random hands near completion, and as hypothesis properties."""

import itertools
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.riichi2p import hand as H
from simcore.riichi2p import reference as R

TS, TH = H.tables()
FAR = 1 << 20


def _counts(kinds):
    c = np.zeros(34, np.int64)
    for k in kinds:
        c[k] += 1
    return c


def _kernel_waits(kinds, n_melds, all_four=False):
    c = _counts(kinds)
    w = int(H.waits(c, n_melds, c.copy(), all_four, TS, TH))
    return {k for k in range(34) if (w >> k) & 1}


def _near_complete(rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn from a few kinds around a random centre, so tenpai and complete hands
    are common (uniform hands are almost never near a win)."""
    suits = rng.sample(range(4), rng.choice((1, 2, 2, 3)))
    pool = [k for s in suits for k in (range(27, 34) if s == 3 else range(9 * s, 9 * s + 9))]
    out, c = [], [0] * 34
    while len(out) < n:
        k = rng.choice(pool)
        if c[k] < 4:
            c[k] += 1
            out.append(k)
    return sorted(out)


def test_every_four_tile_hand_exhaustively():
    """Three calls made: 66,045 hands of 4 tiles: distance, waits (all four counted or not)."""
    for kinds in itertools.combinations_with_replacement(range(34), 4):
        if max(kinds.count(k) for k in set(kinds)) > 4:
            continue
        counts = [kinds.count(k) for k in range(34)]
        c = _counts(kinds)
        assert H.distance(c, 3, TS, TH) - 1 == R.shanten(counts, 3), kinds
        assert _kernel_waits(kinds, 3) == R.waits(counts, 3), kinds


def test_random_hands_near_completion():
    rng = random.Random(34)
    tenpai = complete = 0
    for i in range(4000):
        n_melds = rng.choice((0, 0, 0, 1, 2))
        n = 13 - 3 * n_melds + (i % 2)
        kinds = _near_complete(rng, n)
        counts = [kinds.count(k) for k in range(34)]
        c = _counts(kinds)
        d = int(H.distance(c, n_melds, TS, TH))
        assert d - 1 == R.shanten(counts, n_melds), (kinds, n_melds)
        if n % 3 == 1:
            want = R.waits(counts, n_melds)
            assert _kernel_waits(kinds, n_melds) == want, (kinds, n_melds)
            assert _kernel_waits(kinds, n_melds, True) == R.waits(counts, n_melds, True)
            tenpai += bool(want)
        else:
            ok = R.is_complete(counts, n_melds)
            assert bool(H.is_complete(c, n_melds, TS, TH)) == ok, (kinds, n_melds)
            complete += ok
    assert tenpai > 100 and complete > 20       # the generator reaches the cases that matter


def test_distances_after_one_tile_match_recomputing():
    rng = random.Random(35)
    out = np.empty(H.AFTER_LEN, np.int64)
    for i in range(1500):
        n_melds = rng.choice((0, 0, 1, 2, 3))
        delta = 1 if i % 2 else -1
        n = 13 - 3 * n_melds + (0 if delta == 1 else 1)
        c = _counts(_near_complete(rng, n))
        H.distances_after(c, n_melds, TS, TH, delta, out)
        for k in range(34):
            if (delta == 1 and c[k] < 4) or (delta == -1 and c[k] > 0):
                c[k] += delta
                assert out[k] == H.distance(c, n_melds, TS, TH), (c, k, delta)
                c[k] -= delta
            else:
                assert out[k] >= FAR or out[k] > 20, (c, k, delta)


hands = st.lists(st.integers(0, 33), min_size=13, max_size=13).filter(
    lambda ks: max(ks.count(k) for k in ks) <= 4)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_uniform_hands_property(kinds):
    counts = [kinds.count(k) for k in range(34)]
    c = _counts(kinds)
    assert H.distance(c, 0, TS, TH) - 1 == R.shanten(counts, 0)
    # a wait completes the hand and a non-wait does not
    w = _kernel_waits(kinds, 0, True)
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            assert bool(H.is_complete(c, 0, TS, TH)) == (k in w)
            c[k] -= 1


def _improving_by_recomputing(c, n_melds, after):
    d = int(H.distance(c, n_melds, TS, TH))
    H.distances_after(c, n_melds, TS, TH, 1, after)
    return sum(1 << k for k in range(34) if c[k] < 4 and after[k] < d), d


def test_improving_kinds_are_the_kinds_one_tile_of_which_brings_the_hand_closer():
    """improving_kinds (the bots' ukeire, the engine's waits) against distances_after on hands
    near completion and uniform ones, every number of calls, with and without ``at``."""
    rng = random.Random(36)
    after = np.empty(H.AFTER_LEN, np.int64)
    seen_at = set()
    for i in range(6000):
        n_melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        n = 13 - 3 * n_melds
        if i % 2:
            c = _counts(_near_complete(rng, n))
        else:
            c = _counts(rng.sample([k for k in range(34) for _ in range(4)], n))
        want, d = _improving_by_recomputing(c, n_melds, after)
        at = rng.choice((-1, -1, 1, 2, 3))
        bits, got_d = H.improving_kinds(c, n_melds, TS, TH, at)
        assert got_d == d, (c, n_melds)
        assert bits == (want if at < 0 or at == d else 0), (c, n_melds, at)
        seen_at.add(d)
    assert {1, 2, 3, 4} <= seen_at


def test_improving_kinds_on_every_four_tile_hand():
    """Three calls made: every hand of 4 tiles, exhaustively."""
    after = np.empty(H.AFTER_LEN, np.int64)
    for kinds in itertools.combinations_with_replacement(range(34), 4):
        c = _counts(kinds)
        if c.max() > 4:
            continue
        want, d = _improving_by_recomputing(c, 3, after)
        assert H.improving_kinds(c, 3, TS, TH, -1) == (want, d), kinds


def test_the_tables_closer_masks_match_their_rows():
    """Below each part's D rows: per code and column, the kinds one tile more of which lowers
    that column (checked on random codes of both tables)."""
    rng = np.random.default_rng(37)
    for tab, n in ((TS, 9), (TH, 7)):
        n_codes = 5 ** n
        assert tab.shape == (3 * n_codes, H.N_COLS)
        for code in rng.integers(0, n_codes, 3000):
            digits = [(int(code) // 5 ** r) % 5 for r in range(n)]
            for col in range(H.N_COLS):
                want = sum(1 << r for r in range(n) if digits[r] < 4
                           and tab[code + 5 ** r, col] < tab[code, col])
                got = (int(tab[n_codes + 2 * code, col]) & 0xFF) | \
                    ((int(tab[n_codes + 2 * code + 1, col]) & 0xFF) << 8)
                assert got == want, (code, col)
