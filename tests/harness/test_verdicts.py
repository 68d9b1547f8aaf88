"""compare's intervals and verdicts (issue 27): checked against plain references and by their
coverage on simulated data with pinned seeds.

The score interval, exact test and two one-sided tests of paired 0/1 rates are simulated from
their multinomial model (cheap, so 2,000 repetitions per case: a 95% coverage is measured to
+-0.01); the delta-method rows are checked on synthetic per-game values against a direct
computation. compare's coverage on played games is in tests/harness/test_compare.py (and, by metric
kind, in benchmarks/bench_coverage.py).
"""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import minimize_scalar
from scipy.stats import beta, binomtest, norm

from simcore.errors import InputError
from simcore.family.metrics import Metric
from simcore.stats.moments import MomentSums, combination_se, differing_counts, log_ratio
from simcore.stats.proportions import (_restricted_only_a, discordant_upper, mcnemar_exact_p, newcombe_interval, paired_equivalence_p, paired_p, paired_score, paired_score_interval)
from simcore.stats.verdicts import FLOOR, binary_table, compare_rows
from simcore.studies.compare import parse_margins

Z = norm.ppf(0.975)


# ---------------------------------------------------------------------------------------------
# Tango's interval and the exact test
# ---------------------------------------------------------------------------------------------

def _nll(q, only_a, only_b, n, d):
    out = 0.0
    for count, prob in ((only_b, q + d), (only_a, q), (n - only_a - only_b, 1 - 2 * q - d)):
        if count:
            out -= count * math.log(max(prob, 1e-300))
    return out


def test_restricted_estimate_maximises_the_likelihood():
    rng = np.random.default_rng(11)
    for _ in range(1500):
        n = int(rng.integers(1, 500))
        only_a = int(rng.integers(0, n + 1))
        only_b = int(rng.integers(0, n - only_a + 1))
        d = float(rng.uniform(-0.98, 0.98))
        lo, hi = max(0.0, -d), (1 - d) / 2
        q = _restricted_only_a(only_a, only_b, n, d)
        assert lo - 1e-12 <= q <= hi + 1e-12
        best = minimize_scalar(_nll, bounds=(lo, hi), method="bounded",
                               args=(only_a, only_b, n, d), options={"xatol": 1e-13})
        assert _nll(q, only_a, only_b, n, d) <= best.fun + 1e-6


@pytest.mark.parametrize("only_a,only_b,n", [(0, 0, 300), (3, 0, 300), (7, 12, 300),
                                             (0, 300, 300), (40, 10, 3000), (1, 1, 2)])
def test_score_interval_is_where_the_score_test_accepts(only_a, only_b, n):
    lo, hi = paired_score_interval(only_a, only_b, n)
    est = (only_b - only_a) / n
    assert lo <= est <= hi and hi - lo > 0
    for end, target in ((lo, Z), (hi, -Z)):
        if -1 < end < 1:
            assert abs(paired_score(only_a, only_b, n, end) - target) < 1e-6
    if only_a == only_b == 0:   # about +-z^2 / n, never zero width
        assert hi == pytest.approx(Z * Z / (n + Z * Z), rel=1e-6)


@pytest.mark.parametrize("n,pa,pb", [(300, 0.005, 0.01), (300, 0.02, 0.03), (300, 0.1, 0.1),
                                     (300, 0.001, 0.0), (3000, 0.002, 0.004),
                                     (1000, 0.05, 0.02)])
def test_score_interval_covers_at_every_count_of_differing_games(n, pa, pb):
    rng = np.random.default_rng(int(1e6 * pa + 1e4 * pb + n))
    reps, covered = 2000, 0
    for c in rng.multinomial(n, [pa, pb, 1 - pa - pb], size=reps):
        lo, hi = paired_score_interval(int(c[0]), int(c[1]), n)
        covered += lo <= pb - pa <= hi
    assert covered / reps >= 0.93, covered / reps


@pytest.mark.parametrize("n,pa,pb", [(300, 0.0, 0.01), (300, 0.005, 0.015),
                                     (3000, 0.01, 0.02), (1000, 0.03, 0.05)])
def test_two_one_sided_score_tests_hold_their_size_at_the_margin(n, pa, pb):
    """True difference exactly the margin: `equivalent` at most 5% of the time (+ 3 se)."""
    margin = pb - pa
    rng = np.random.default_rng(int(1e5 * pb + n))
    reps = 2000
    eq = sum(paired_equivalence_p(int(c[0]), int(c[1]), n, margin) < 0.05
             for c in rng.multinomial(n, [pa, pb, 1 - pa - pb], size=reps))
    assert eq / reps <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps), eq / reps


@given(st.integers(0, 60), st.integers(0, 60))
def test_exact_mcnemar_is_the_two_sided_binomial_test(a, b):
    expected = 1.0 if a + b == 0 else binomtest(a, a + b, 0.5).pvalue
    assert mcnemar_exact_p(a, b) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_exact_below_25_differing_games_score_test_above():
    assert paired_p(3, 10, 300)[1] == "exact McNemar"
    p, how = paired_p(10, 30, 300)
    assert how == "McNemar score" and p == pytest.approx(2 * norm.sf(20 / math.sqrt(40)))


def test_discordant_bound_is_clopper_pearson_and_the_rule_of_three_at_zero():
    assert discordant_upper(0, 300) == pytest.approx(1 - 0.05 ** (1 / 300))
    assert abs(discordant_upper(0, 3000) - 3 / 3000) < 1e-5
    assert discordant_upper(4, 300) == pytest.approx(beta.ppf(0.95, 5, 296))


def test_newcombe_interval_from_the_wilson_bounds():
    def wilson(x, n):
        p = x / n
        c = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
        h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
        return c - h, c + h
    for xa, na, xb, nb in [(10, 300, 20, 300), (0, 300, 0, 300), (300, 300, 290, 300)]:
        la, ua = wilson(xa, na)
        lb, ub = wilson(xb, nb)
        pa, pb = xa / na, xb / nb
        lo, hi = newcombe_interval(xa, na, xb, nb)
        assert lo == pytest.approx(pb - pa - math.hypot(pb - lb, ua - pa))
        assert hi == pytest.approx(pb - pa + math.hypot(ub - pb, pa - la))
        assert hi > lo


# ---------------------------------------------------------------------------------------------
# Streamed counts and the delta method
# ---------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 3), st.integers(1, 4), st.integers(0, 2 ** 31))
def test_differing_counts_count_games_by_direction(n, k, v, seed):
    rng = np.random.default_rng(seed)
    z = rng.integers(0, 4, size=(n, k, 2 * v))
    z[:, :, 1::2] += z[:, :, 0::2]        # denominators at least the numerators
    g = differing_counts(z)
    for j in range(k):
        for a in range(v):
            for b in range(v):
                x = [(z[i, j, 2 * b] > z[i, j, 2 * a]) for i in range(n)]
                comp = [(z[i, j, 2 * b + 1] - z[i, j, 2 * b] > z[i, j, 2 * a + 1] - z[i, j, 2 * a])
                        for i in range(n)]
                den = [(z[i, j, 2 * b + 1] > z[i, j, 2 * a + 1]) for i in range(n)]
                assert list(g[j, :, a, b]) == [sum(x), sum(comp), sum(den)]
    halves = MomentSums.from_values(z[: n // 2]).merge(MomentSums.from_values(z[n // 2:]))
    assert np.array_equal(halves.g, g)


def _delta_reference(z, wa, wb, log=False):
    """se of wa R_a + wb R_b (or of log R_b - log R_a) from per-game values, directly."""
    x, y = z[:, 0, 0::2].astype(float), z[:, 0, 1::2].astype(float)
    n = len(z)
    r = x.sum(0) / y.sum(0)
    u = (x - r * y) / y.mean(0)               # linearised contributions per game
    if log:
        d = u[:, 1] / r[1] - u[:, 0] / r[0]
    else:
        d = wa * u[:, 0] + wb * u[:, 1]
    return math.sqrt(np.sum((d - d.mean()) ** 2) / (n * (n - 1)))


def test_log_ratio_and_combination_match_a_direct_computation():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(1, 9, size=(n, 1))
    xa = rng.binomial(y, 0.1)
    xb = np.minimum(xa + rng.binomial(1, 0.05, size=(n, 1)), y)
    z = np.stack([np.hstack([xa, y, xb, y])], axis=1)
    s = MomentSums.from_values(z)
    lr, se = log_ratio(s, 0, 0, 1)
    assert lr == pytest.approx(math.log(xb.sum() / xa.sum()))
    assert se == pytest.approx(_delta_reference(z, 0, 0, log=True), rel=1e-9)
    for wa, wb in ((-1, 1), (1, 1), (-1, -1)):
        assert combination_se(s, 0, 0, 1, wa, wb) == pytest.approx(
            _delta_reference(z, wa, wb), rel=1e-9)


# ---------------------------------------------------------------------------------------------
# Rows and verdicts on synthetic games
# ---------------------------------------------------------------------------------------------

CAT = (
    Metric("won", "game_rate", "won", "games", "games won", 0.01, fair_per_seat=True),
    Metric("rare", "round_rate", "rare", "rounds", "a rare round event", 0.2,
           margin_relative=True),
    Metric("points", "per_win", "pts", "wins", "points per win", 0.25, unit="points"),
)


def _sums(per_game):
    """per_game: list over metrics of int[n, 4] (x_a, y_a, x_b, y_b)."""
    return MomentSums.from_values(np.stack(per_game, axis=1))


def _game_rate(n, only_a, only_b, both, rng=None):
    z = np.zeros((n, 4), np.int64)
    z[:, 1] = z[:, 3] = 1
    z[:only_a, 0] = 1
    z[only_a:only_a + only_b, 2] = 1
    z[only_a + only_b:only_a + only_b + both, [0, 2]] = 1
    return z


def test_a_game_rate_where_no_game_differs_gets_a_score_interval_not_zero_width():
    n = 600
    won = _game_rate(n, 0, 0, 300)
    other = np.tile([0, 5, 0, 5], (n, 1))
    s = _sums([won, other, other])
    assert binary_table(s, 0, 0, 1) == (0, 0, n)
    r = compare_rows(CAT, s, [(0, 1)], ["won"])[0]
    lo, hi = r["ci"]
    assert lo < 0 < hi and hi - lo > 2 * 3 / n
    assert r["differing"]["games"] == 0 and r["p"] == 1.0


def test_few_differing_games_give_no_interval_and_an_exact_bound():
    n = 300
    rare = np.tile([0, 6, 0, 6], (n, 1))
    rare[:4, 0] = 1                    # a has the event in 4 games, b in 1 of them
    rare[0, 2] = 1
    rare[:50, [0]] += 0
    won = _game_rate(n, 20, 40, 100)
    pts = np.tile([10, 1, 10, 1], (n, 1))
    s = _sums([won, rare, pts])
    rows = {r["metric"]: r for r in compare_rows(CAT, s, [(0, 1)])}
    r = rows["rare"]
    assert r["verdict"] == "too few differing games" and r["ci"] == [None, None]
    assert r["p"] is None and r["p_equivalence"] is None
    assert r["differing"]["games"] == 3 < FLOOR
    assert r["differing_bound"] == pytest.approx(discordant_upper(3, n), abs=1e-6)
    assert rows["points"]["verdict"] == "identical"
    assert rows["won"]["verdict"] == "different"  # 40 vs 20 differing games


def test_holm_leaves_out_tests_that_cannot_reject():
    """A 0/1 rate on 5 differing games has p >= 0.0625 whatever happens: not in the family."""
    n = 300
    won = _game_rate(n, 0, 5, 100)
    s = _sums([won, np.tile([0, 5, 0, 5], (n, 1)), np.tile([1, 1, 1, 1], (n, 1))])
    r = compare_rows(CAT, s, [(0, 1)], ["won"])[0]
    assert r["p"] == pytest.approx(0.0625) and r["p_adj"] is None
    assert r["verdict"] == "inconclusive"


@pytest.mark.parametrize("a_wins,b_wins,words", [(180, 150, "closer to fair"),
                                                 (150, 180, "further from fair"),
                                                 (130, 170, "no detectable change")])
def test_fairness_says_closer_further_or_no_change(a_wins, b_wins, words):
    n = 300
    won = np.zeros((n, 4), np.int64)
    won[:, 1] = won[:, 3] = 1
    won[:a_wins, 0] = 1
    won[:b_wins, 2] = 1
    s = _sums([won, np.tile([0, 5, 0, 5], (n, 1)), np.tile([1, 1, 1, 1], (n, 1))])
    r = compare_rows(CAT, s, [(0, 1)], ["won"], n_seats=2)[0]
    f = r["fair"]
    assert f["value"] == 0.5
    assert f["distance_change"] == pytest.approx(abs(b_wins / n - 0.5) - abs(a_wins / n - 0.5))
    assert f["verdict"].startswith(words)
    assert f["ci"][0] <= f["distance_change"] <= f["ci"][1]


def test_a_relative_margin_does_not_call_a_halving_negligible():
    rng = np.random.default_rng(5)
    n = 5000
    rare = np.zeros((n, 4), np.int64)
    rare[:, 1] = rare[:, 3] = 8
    rare[:, 0] = rng.binomial(8, 0.02, n)
    rare[:, 2] = rng.binomial(rare[:, 0], 0.5)     # b keeps half of a's events
    s = _sums([_game_rate(n, 10, 10, 100), rare, np.tile([1, 1, 1, 1], (n, 1))])
    r = compare_rows(CAT, s, [(0, 1)], ["rare"])[0]
    assert r["verdict"] == "different" and not r["negligible"]
    rel = r["relative"]
    assert rel["value"] == pytest.approx(rare[:, 2].sum() / rare[:, 0].sum() - 1, abs=1e-6)
    assert rel["ci"][0] < rel["value"] < rel["ci"][1] < -0.2


def test_margins_take_pp_and_relative_values():
    assert parse_margins(["won=1pp", "rare=20%", "points=0.5"], CAT) == {
        "won": (0.01, False), "rare": (0.2, True), "points": (0.5, False)}
    for bad, what in [("points=1pp", "pp (percentage points) is for rates"),
                      ("won=5", "a rate's margin must be below 1"), ("won=1_0pp", "not a number"),
                      ("won=1pp won=2pp", "a second margin"),
                      ("won=-1", "positive"), ("won=x%", "not a number")]:
        with pytest.raises(InputError, match=what.replace("(", r"\(").replace(")", r"\)")):
            parse_margins(bad.split(), CAT)


def test_plans_sample_size_achieves_its_power():
    """plan's formula (z-test, pilot standard error) against compare's own test (the score
    test on paired 0/1 games): at the planned games, a true difference of D is found at least
    80% of the time (400 repetitions: 0.8 - 3 se)."""
    from simcore.stats.moments import difference, games_for_power
    pa, pb, d = 0.04, 0.07, 0.03
    rng = np.random.default_rng(27)

    def sums(n):
        c = rng.multinomial(1, [pa, pb, 1 - pa - pb], size=n)
        z = np.zeros((n, 4), np.int64)
        z[:, 1] = z[:, 3] = 1
        z[:, 0], z[:, 2] = c[:, 0], c[:, 1]
        pad = np.tile([1, 1, 1, 1], (n, 1))
        return _sums([z, pad, pad])
    pilot = sums(4000)
    n = games_for_power(difference(pilot, 0).se, pilot.n, d, 0.05, 0.8, paired_binary=True)
    reps = 400
    found = sum(compare_rows(CAT, sums(n), [(0, 1)], ["won"])[0]["verdict"] == "different"
                for _ in range(reps))
    assert found / reps >= 0.8 - 3 * math.sqrt(0.16 / reps), (n, found / reps)


def test_plan_refuses_a_rate_difference_outside_0_1_and_reads_pp():
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["plan", "new_edition", "no_ron_bonus", "--detect", "5"])
    assert r.exit_code == 2 and "lies in (0, 1)" in r.output
    r = CliRunner().invoke(main, ["plan", "new_edition", "no_ron_bonus", "--detect", "1pp",
                                  "--equivalence", "1pp"])
    assert r.exit_code == 2 and "one of them" in r.output
    r = CliRunner().invoke(main, ["plan", "new_edition", "--metric", "mean_winning_points",
                                  "--detect", "0.5pp"])
    assert r.exit_code == 2 and "pp (percentage points) is for rates" in r.output
    from simcore.family.metrics import by_name
    from simcore.momojan.family import FAMILY
    from simcore.studies.plan import parse_size
    assert parse_size("0.5pp", by_name(FAMILY.CATALOGUE)["draw_rate"], "--detect") == 0.005
    # a rate's levels in %, its differences and widths in pp, as every other command prints
    # them (a QA trial: "a 44.50pp, b 44.50pp")
    from simcore.studies.plan import plan_text
    text = plan_text({"variants": ["a", "b"], "metric": "draw_rate", "is_rate": True,
                      "detect": 0.01, "power": 0.8, "alpha": 0.05, "pilot_games": 100,
                      "pilot": {"a": 0.445, "b": 0.4475, "diff": 0.0025},
                      "pilot_half_width": 0.011, "games_needed": 900,
                      "games_per_second": 5000.0, "workers": 1, "seconds_needed": 1.0})
    assert "a 44.50%, b 44.75%, diff 0.25 pp, 95% half-width 1.10 pp" in text, text


def test_a_metric_with_no_denominator_in_one_variant_is_not_defined_there():
    """No wins at all under b: a per-win metric is 'not defined in b', not 'never happened'."""
    n = 200
    pts = np.tile([5, 1, 0, 0], (n, 1))
    s = _sums([_game_rate(n, 5, 5, 50), np.tile([0, 5, 0, 5], (n, 1)), pts])
    r = compare_rows(CAT, s, [(0, 1)], ["points"])[0]
    assert r["verdict"] == "not defined in b" and r["ci"] == [None, None]


def test_across_fair_the_distance_interval_stays_within_the_difference():
    n = 1000
    won = np.zeros((n, 4), np.int64)
    won[:, 1] = won[:, 3] = 1
    won[:505, 0] = 1              # a: 50.5%, b: 49.7% (the other side of 50%)
    won[:497, 2] = 1
    won[600:700, 0] = 1 - won[600:700, 0]
    won[600:700, 2] = 1 - won[600:700, 2]
    s = _sums([won, np.tile([0, 5, 0, 5], (n, 1)), np.tile([1, 1, 1, 1], (n, 1))])
    r = compare_rows(CAT, s, [(0, 1)], ["won"], n_seats=2)[0]
    reach = max(abs(r["ci"][0]), abs(r["ci"][1]))
    assert -reach - 1e-9 <= r["fair"]["ci"][0] <= r["fair"]["ci"][1] <= reach + 1e-9


def test_a_relative_margin_applies_while_the_share_is_rare():
    """A common share (30%) is tested against 1 pp, not against 20% of itself (+-6 pp)."""
    n = 2000
    rare = np.zeros((n, 4), np.int64)
    rare[:, 1] = rare[:, 3] = 10
    rare[:, 0] = rare[:, 2] = 3
    rare[:40, 2] = 4
    s = _sums([_game_rate(n, 10, 10, 100), rare, np.tile([1, 1, 1, 1], (n, 1))])
    r = compare_rows(CAT, s, [(0, 1)], ["rare"])[0]
    assert r["margin"] == 0.01 and r["margin_relative"] is False


@pytest.mark.plays("ptrump")
def test_ptrump_lists_rules_off_that_count_nothing():
    from simcore.family import registry as families
    fam, sc = families.load("ptrump_confirmed_only")
    off = fam.metrics_off(sc)
    assert {"yakuless_win_share", "multiple_ron_rate", "yaku_open_riichi_share"} <= set(off)


def test_plan_equivalence_sizes_a_different_question_than_detect():
    """plan --equivalence M answers 'games until equivalent within +-M', not --detect's."""
    from click.testing import CliRunner
    from simcore.cli import main
    out = {}
    for opt in ("--detect", "--equivalence"):
        r = CliRunner().invoke(main, ["plan", "new_edition", "no_ron_bonus", "--metric",
                                      "mean_winning_points", opt, "0.1", "--pilot-games", "400",
                                      "--workers", "1", "--quiet", "--json"])
        assert r.exit_code == 0, r.output
        out[opt] = json.loads(r.output)
    assert out["--equivalence"]["equivalence"] == 0.1 and out["--detect"]["equivalence"] is None
    assert out["--equivalence"]["games_needed"] != out["--detect"]["games_needed"]
    assert out["--detect"]["games_needed_holm"] > out["--detect"]["games_needed_one_metric"]
