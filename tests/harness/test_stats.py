"""Streaming statistics: exact merges, the delta method against direct formulas, Holm, TOST."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcore.stats.moments import (MomentSums, difference, holm, ratio, tost_p, two_sided_p, games_for_power)


def _values(rng, n, k=3, variants=2):
    x = rng.integers(0, 5, size=(n, k, variants))
    y = rng.integers(1, 8, size=(n, k, variants))
    z = np.empty((n, k, 2 * variants), np.int64)
    z[:, :, 0::2], z[:, :, 1::2] = x, y
    return z


@given(st.integers(0, 2**32 - 1), st.lists(st.integers(1, 40), min_size=1, max_size=6))
@settings(max_examples=30, deadline=None)
def test_merge_of_chunks_equals_sums_of_all_in_any_order(seed, sizes):
    z = _values(np.random.default_rng(seed), sum(sizes))
    whole = MomentSums.from_values(z)
    cuts = np.cumsum([0] + sizes)
    parts = [MomentSums.from_values(z[a:b]) for a, b in zip(cuts[:-1], cuts[1:])]
    for order in (parts, parts[::-1]):
        merged = MomentSums.empty(3, 4)
        for p in order:
            merged = merged.merge(p)
        assert merged.n == whole.n
        assert np.array_equal(merged.s, whole.s) and np.array_equal(merged.c, whole.c)


def test_json_round_trip_is_exact():
    s = MomentSums.from_values(_values(np.random.default_rng(1), 50))
    back = MomentSums.from_json(s.to_json())
    assert np.array_equal(back.s, s.s) and np.array_equal(back.c, s.c) and back.n == s.n


def test_ratio_matches_the_direct_delta_method_formula():
    rng = np.random.default_rng(2)
    z = _values(rng, 500)
    s = MomentSums.from_values(z)
    x, y = z[:, 1, 0].astype(float), z[:, 1, 1].astype(float)
    r = x.sum() / y.sum()
    u = (x - r * y) / y.mean()
    se = math.sqrt((u ** 2).sum() / (len(x) * (len(x) - 1)))
    got = ratio(s, 1, 0)
    assert got.value == pytest.approx(r, rel=1e-12) and got.se == pytest.approx(se, rel=1e-9)


def test_game_rate_variance_is_binomial():
    x = np.array([1] * 30 + [0] * 70)
    z = np.stack([x, np.ones_like(x)], axis=1)[:, None, :]
    r = ratio(MomentSums.from_values(z), 0)
    assert r.value == 0.3 and r.se == pytest.approx(math.sqrt(0.3 * 0.7 / 99))


def test_paired_difference_matches_direct_formula_and_independent_drops_covariance():
    rng = np.random.default_rng(3)
    z = _values(rng, 400)
    z[:, :, 2] = z[:, :, 0] + rng.integers(0, 2, size=z[:, :, 0].shape)  # correlated b
    s = MomentSums.from_values(z)
    xa, ya, xb, yb = (z[:, 0, i].astype(float) for i in range(4))
    ra, rb = xa.sum() / ya.sum(), xb.sum() / yb.sum()
    ua, ub = (xa - ra * ya) / ya.mean(), (xb - rb * yb) / yb.mean()
    n = len(xa)
    se = math.sqrt(((ub - ua) ** 2).sum() / (n * (n - 1)))
    se_ind = math.sqrt(((ua ** 2).sum() + (ub ** 2).sum()) / (n * (n - 1)))
    d = difference(s, 0)
    assert d.diff == pytest.approx(rb - ra, rel=1e-12)
    assert d.se == pytest.approx(se, rel=1e-9) and d.se_independent == pytest.approx(se_ind, rel=1e-9)
    assert d.correlation == pytest.approx(np.corrcoef(ua, ub)[0, 1], rel=1e-9)
    assert d.narrowing > 1
    assert difference(s, 0, paired=False).se == d.se_independent


def test_identical_variants_give_exactly_zero_difference_and_variance():
    z = _values(np.random.default_rng(4), 300, variants=1)
    s = MomentSums.from_values(np.concatenate([z, z], axis=2))
    for j in range(3):
        d = difference(s, j)
        assert d.diff == 0.0 and d.se == 0.0
        assert two_sided_p(d.diff, d.se) == 1.0 and tost_p(d.diff, d.se, 0.01) == 0.0


def test_holm_against_hand_computed_values():
    # sorted p: 0.01, 0.02, 0.04 with m = 3 -> 0.03, 0.04, 0.04 (monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, None, 0.9]) == [1.0, None, 1.0]  # m = 2: None is not counted
    assert holm([]) == []


def test_tost_is_the_90_percent_interval_inside_the_margin():
    se, margin = 0.01, 0.03
    # 90% interval half-width 1.645 se: inside exactly when |diff| < margin - 1.645 se
    assert tost_p(0.0, se, margin) < 0.05
    assert tost_p(margin - 1.7 * se, se, margin) < 0.05
    assert tost_p(margin - 1.6 * se, se, margin) > 0.05


def test_games_for_power_textbook_value():
    # se of a difference of two rates near 0.5 with 1000 paired games, independent: sqrt(0.5/1000)
    n = games_for_power(math.sqrt(0.5 / 1000), 1000, 0.05, 0.05, 0.8)
    assert abs(n - 1570) <= 2  # 2 * (1.96 + 0.84)^2 * 0.25 / 0.05^2
