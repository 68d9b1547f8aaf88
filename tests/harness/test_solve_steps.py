"""solve on a whole-number rule whose metric moves in steps (issue 46): the design plays every
whole value of its window, and the 95% interval covers the true root.

The truth is synthetic and step-shaped like MOMOJAN's first dealer against komi (51.24% at 0,
49.11% at 1, 49.02% at 2: one big step, then almost flat), so the true root of 50% is 0.58 on
the line through the whole values, and a design that skips komi 1 puts it at about 1.1. The
games are drawn here (no engine): game i of every value shares the same random numbers half the
time (common random numbers, as the study plays them), and the pilot's rounds their own
seeds; the real pilot/design code (:func:`simcore.studies.solve_design.place_design`, :func:`solution`) runs on
them.
"""

import importlib

import numpy as np
import pytest

from simcore.errors import InputError
from simcore.studies.solve_design import Curve, RuleParam, place_design, solution

sv = importlib.import_module("simcore.studies.solve_design")   # the module (simcore.studies.solve_design is also a function)

KOMI = RuleParam("compensation.komi", True, -10, 10, 0)


class Rate:
    name = "first_dealer_win_rate"
    is_rate = True
    unit = ""


def step_truth(k):
    """The first dealer's win rate at komi ``k`` (whole values): a step of 2.1 pp from 0 to 1,
    a slope of 0.1 pp per komi elsewhere."""
    k = np.asarray(k, float)
    return np.where(k <= 0, 0.5124 - 0.001 * k, 0.4911 - 0.0009 * (k - 1))


def true_root(target=0.5):
    ks = np.arange(KOMI.lo, KOMI.hi + 1)
    p = step_truth(ks)
    i = int(np.nonzero((p[:-1] - target) * (p[1:] - target) <= 0)[0][0])
    return ks[i] + (p[i] - target) / (p[i] - p[i + 1])


def synthetic_curve(values, games, rng, truth=step_truth):
    """``games`` games of each value on common random numbers (half of them shared)."""
    values = np.asarray(values, float)
    shared = rng.random(games)
    own = rng.random((len(values), games))
    u = np.where(rng.random(games) < 0.5, shared[None, :], own)
    wins = (u < truth(values)[:, None]).astype(float)
    return Curve(values, wins.mean(axis=1), np.cov(wins) / games)


def solve_synthetic(seed, games=4000, pilot_games=2000, target=0.5, param=KOMI,
                    truth=step_truth):
    rng = np.random.default_rng(seed)
    _, window, design, rounds = place_design(
        param, target, lambda values, r: synthetic_curve(values, pilot_games, rng, truth))
    curve = synthetic_curve(design, games, rng, truth)
    return solution(param, Rate(), target, curve), window, design, rounds


def test_true_root_of_the_step_is_0_58():
    assert true_root() == pytest.approx(0.5826, abs=1e-3)


def test_integer_design_plays_every_whole_value_of_its_window():
    """The bug: a window of more than 11 whole values played 9 spread ones (komi 1 skipped)."""
    for seed in range(20):
        _, window, design, _ = solve_synthetic(seed)
        assert design == list(range(window[0], window[1] + 1)), (seed, window, design)
        assert 1 in design and 0 in design


def test_step_shaped_truth_interval_covers_the_root(games=4000):
    """200 synthetic solves at --games 4000 (pilot 2,000 games a value): the 95% interval holds
    the true root (0.58) in at least 180 (nominal 190; binomial sd 3.1, so 180 is 3.2 sd below:
    a real coverage of 95% fails this about once in 1,400 seed sets, and the seeds are
    pinned; measured: 194)."""
    root = true_root()
    hits = 0
    for seed in range(200):
        s, window, design, _ = solve_synthetic(10_000 + seed, games=games)
        assert design == list(range(window[0], window[1] + 1))
        hits += s["ci"] is not None and s["ci"][0] <= root <= s["ci"][1]
    assert hits >= 180, hits


def test_the_old_spread_design_misses_the_root():
    """What the fix changes: 9 spread values over [-10, 10] skip komi 1, and at 20,000 games
    their interval misses the root (0.58) far more often than 5% of the time (here in more
    than a quarter of 40 solves), with the note that whole values were skipped."""
    spread9 = sv.spread(-10, 10, 9, True)
    assert 1 not in spread9
    hits = 0
    for seed in range(40):
        s = solution(KOMI, Rate(), 0.5,
                     synthetic_curve(spread9, 20_000, np.random.default_rng(seed)))
        hits += s["ci"][0] <= true_root() <= s["ci"][1]
        assert "were not played" in s["verdict"]
    assert hits < 30, hits


def test_a_wide_integer_window_is_narrowed_by_more_pilot_rounds():
    """A range of 201 whole values: further pilot rounds narrow the window to whole values the
    design can play, every one of them."""
    wide = RuleParam("compensation.komi", True, -100, 100, 0)

    def truth(k):
        return np.clip(0.5 - 0.01 * np.asarray(k, float) + 0.02 * (np.asarray(k) <= 30), 0, 1)

    s, window, design, rounds = solve_synthetic(1, param=wide, truth=truth)
    assert rounds > 1 and len(design) <= sv.MAX_WHOLE_DESIGN
    assert design == list(range(window[0], window[1] + 1))
    ks = np.arange(-100, 101)
    p = truth(ks)
    i = int(np.nonzero((p[:-1] - 0.5) * (p[1:] - 0.5) <= 0)[0][0])
    root = ks[i] + (p[i] - 0.5) / (p[i] - p[i + 1])
    assert s["ci"][0] <= root <= s["ci"][1]


def test_a_window_too_wide_to_play_whole_is_one_line_refusal():
    """A metric that barely moves over a huge range: the pilot cannot narrow the window to
    whole values the design can play, and says so instead of skipping values."""
    wide = RuleParam("compensation.komi", True, -5000, 5000, 0)

    def flat(k):
        return 0.5 - 1e-6 * np.asarray(k, float)

    with pytest.raises(InputError) as e:
        solve_synthetic(2, param=wide, truth=flat, pilot_games=200)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("solve: the pilot places the root")
    assert "--range" in msg and "whole values" in msg


def test_gap_values_fill_the_widest_gaps_first():
    assert sv.gap_values((-10, 10), [-10, -7, -3, 0, 3, 7, 10], 3) == [-9, -5, 5]
    assert sv.gap_values((0, 3), [0, 1, 2, 3], 7) == []
    assert sv.gap_values((0, 10), [5], 3) == [0, 2, 10]


def crn_cov(p):
    """The per-game covariance of the synthetic design's wins (half the games share their
    random number): p_i (1 - p_i) on the diagonal, (min(p_i, p_j) - p_i p_j) / 2 off it."""
    p = np.asarray(p, float)
    cov = 0.5 * (np.minimum.outer(p, p) - np.outer(p, p))
    np.fill_diagonal(cov, p * (1 - p))
    return cov


def solve_to_target_ci(seed, width=0.5, games=4000, pilot_games=2000, cap=1_000_000,
                       design_of=None):
    """A solve with --target-ci ``width``: the pilot, then the design in batches sized as
    :func:`simcore.studies.study.run_study` sizes them (:func:`simcore.studies.study.next_stop`:
    a little past the games the current half-width predicts; double while the set is open) until
    :func:`simcore.studies.solve_design.set_half_width` is at most ``width``. Each batch's mean is drawn from
    its exact normal law (the central limit of the games above), so 200 solves stay cheap."""
    from simcore.studies.study import next_stop
    rng = np.random.default_rng(seed)

    def batch(values, n):
        p = step_truth(values)
        return rng.multivariate_normal(p, crn_cov(p) / n, method="cholesky")

    def pilot(values, r):
        return Curve(np.asarray(values, float), batch(values, pilot_games),
                     crn_cov(step_truth(values)) / pilot_games)

    _, window, design, _ = place_design(KOMI, 0.5, pilot)
    if design_of is not None:
        design = design_of(window)
    xs = np.asarray(design, float)
    n, total = games, batch(xs, games) * games
    while True:
        curve = Curve(xs, total / n, crn_cov(step_truth(xs)) / n)
        hw = sv.set_half_width(curve, 0.5, KOMI)
        if hw <= width or n >= cap:
            break
        more = next_stop(n, hw, width, 1, cap) - n
        total, n = total + batch(xs, more) * more, n + more
    return solution(KOMI, Rate(), 0.5, curve), design, n


def test_step_shaped_truth_interval_covers_the_root_at_target_ci():
    """The README's --target-ci 0.5 on the step-shaped truth: 200 solves played in batches until
    the interval's half-width is 0.5 hold the root 0.58 in at least 180 (the stopping rule
    looks at the width, not at where the interval lies); the old 9-value design (komi 1
    skipped) in far fewer (measured: 191 of 200, and the old design 1 of 40)."""
    root = true_root()
    hits = sum(s["ci"] is not None and s["ci"][0] <= root <= s["ci"][1]
               for s, _, _ in (solve_to_target_ci(20_000 + seed) for seed in range(200)))
    assert hits >= 180, hits
    old = sum(s["ci"] is not None and s["ci"][0] <= root <= s["ci"][1]
              for s, _, _ in (solve_to_target_ci(20_000 + seed,
                                                 design_of=lambda w: sv.spread(*w, 9, True))
                              for seed in range(40)))
    assert old < 30, old


def test_the_command_refuses_a_window_it_cannot_play_whole_with_nothing_written(tmp_path,
                                                                                monkeypatch):
    """The refusal through the command: one line, exit 2, no result directory (the design's
    limit lowered so that MOMOJAN's komi over [-10, 10] with a short pilot exceeds it)."""
    from click.testing import CliRunner

    from simcore.cli import main
    monkeypatch.setattr(sv, "MAX_INTEGER_DESIGN", 2)
    monkeypatch.setattr(sv, "MAX_WHOLE_DESIGN", 3)
    out = tmp_path / "solve"
    r = CliRunner().invoke(main, ["solve", "new_edition", "--param", "compensation.komi",
                                  "--range=-10,10", "--games", "100", "--pilot-games", "100",
                                  "--workers", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.output
    assert "the pilot places the root of first_dealer_win_rate = 0.5 only within " \
           "compensation.komi in [" in lines[0] and "give --range inside it" in lines[0]
    assert not out.exists()
