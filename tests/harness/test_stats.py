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


@pytest.mark.parametrize("expected_events", [0.2, 0.5, 1, 2, 3, 5, 12, 30])
def test_a_rare_rate_of_wins_keeps_its_coverage(expected_events):
    """A rate of wins (rounds) is clustered in games: the delta method's normal interval, clipped
    at 0, covered a rare yaku's share 83-88% of the time at 3-10 expected wins with it (300 runs
    of 300 games of new_edition); the modified Wilson interval on the effective count
    (:func:`simcore.stats.moments.rate_bounds`) holds. Synthetic games with an exact truth:
    1 + Poisson(1.5) wins a game, each with the yaku at a game's own chance (gamma-spread
    around p, so games cluster), pinned seed, 1,000 runs (one Monte Carlo error: 0.007)."""
    from simcore.stats.summary import clustered_wilson
    rng = np.random.default_rng(int(expected_events * 100))
    n, runs = 300, 1000
    p = expected_events / (n * 2.5)
    covered = covered_normal = 0
    width = 0.0
    for _ in range(runs):
        y = 1 + rng.poisson(1.5, n)
        x = rng.binomial(y, np.minimum(p * rng.gamma(2.0, 0.5, n), 1.0))
        r = ratio(MomentSums.from_values(np.stack([x, y], axis=1)[:, None, :]), 0)
        lo, hi = clustered_wilson(r)["ci"]
        assert 0.0 <= lo <= r.value <= hi <= 1.0 and hi > lo
        covered += lo <= p <= hi
        width += (hi - lo) / runs
        if r.se:
            covered_normal += max(0.0, r.value - 1.96 * r.se) <= p <= r.value + 1.96 * r.se
    assert 0.935 <= covered / runs <= 0.99, covered / runs
    if 2 <= expected_events <= 5:
        assert covered_normal / runs < 0.92, covered_normal / runs   # what it replaced
    if expected_events >= 12:   # many events: about the delta method's width, not wider
        assert width < 2 * 1.96 * math.sqrt(p * 1.05 / (n * 2.5)) * 1.1


def test_the_modified_wilson_bounds():
    """Brown, Cai & DasGupta's Poisson ends: 1-3 successes (1-2 up to 50 trials) lower Wilson's
    lower bound to chi2_{2x}(0.05) / 2n, as few failures raise the upper; elsewhere Wilson's."""
    from scipy.stats import chi2
    from simcore.stats.moments import wilson_bounds, wilson_bounds_modified
    for x in (1, 2, 3):
        lo, hi = wilson_bounds_modified(x, 1000)
        assert lo == pytest.approx(chi2.ppf(0.05, 2 * x) / 2000) and lo < wilson_bounds(x, 1000)[0]
        assert hi == wilson_bounds(x, 1000)[1]
        lo2, hi2 = wilson_bounds_modified(1000 - x, 1000)
        assert hi2 == pytest.approx(1 - lo) and lo2 == wilson_bounds(1000 - x, 1000)[0]
    for x, n in ((0, 1000), (4, 1000), (3, 40), (500, 1000)):
        assert wilson_bounds_modified(x, n) == wilson_bounds(x, n)


@settings(max_examples=300)
@given(q=st.floats(1e-9, 1 - 1e-9), df=st.integers(1, 12), t_df=st.floats(1, 1e4),
       x=st.floats(-40, 40))
def test_the_quantiles_taken_from_scipy_special_are_scipy_stats_bit_for_bit(q, df, t_df, x):
    """The run's path takes its few quantiles from scipy.special (scipy.stats costs 0.6 s of every
    command's start-up): each is the distribution's own value to the last bit."""
    from scipy import stats
    from simcore.stats import verdicts
    from simcore.stats.moments import _chi2_ppf, _norm_ppf, _norm_sf
    assert _chi2_ppf(q, 2 * df) == float(stats.chi2.ppf(q, 2 * df))
    assert _norm_ppf(q) == float(stats.norm.ppf(q))
    assert _norm_sf(x) == float(stats.norm.sf(x))
    assert verdicts._t(2 * min(q, 1 - q), t_df) == float(stats.t.ppf(1 - min(q, 1 - q), t_df))
    assert verdicts._sf(x, t_df) == float(stats.t.sf(x, t_df))


def test_a_run_does_not_import_scipy_stats():
    import subprocess
    import sys
    code = ("import sys; from simcore.cli import main\n"
            "try: main(['run', 'new_edition', '--games', '3', '--no-save', '--quiet'])\n"
            "except SystemExit as e: assert e.code in (0, None), e.code\n"
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout
