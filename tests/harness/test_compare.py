"""Self-checks of compare: exact zeros, calibration, coverage, a known effect, the pairing's gain.

Pinned seeds, stated tolerances; every study runs in this process (workers=1) and shares one
built simulator per scenario (simcore.family.chunks.simulator_for), so the whole file plays
about 0.07 M games.
The calibration plays games of one dealership each (half the rounds of the bundled two; the same
46 metrics have data): it checks the statistics of identical variants, which hold for any game.
The coverage, known-effect and pairing checks play the baseline bot in both seats (a third of
the default bots' time per game; 300 games a run, where the value bots had 200): the intervals'
properties do not depend on the bots, and the catalogue's call metrics are not what they test.
"""

import json
import math

import numpy as np
import pytest
from scipy.stats import binom

from simcore.family.chunks import ChunkTask
from simcore.family.chunks import chunk_stats, run_games
from simcore.family.players import with_players
from simcore.momojan import scenario
from simcore.momojan.family import FAMILY as family
from simcore.stats.luck import corrected
from simcore.stats.moments import MomentSums, difference
from simcore.studies.compare import compare_rows
from simcore.studies.study import run_study, variant_seed

ALPHA = 0.05
NAMES = [m.name for m in family.CATALOGUE]
J = {n: j for j, n in enumerate(NAMES)}


def _sums(scenarios, seed, games, paired=True):
    payloads = tuple(family.SCENARIOS.payload(s) for s in scenarios)
    seeds = tuple(variant_seed(seed, v, paired) for v in range(len(scenarios)))
    return chunk_stats(family, ChunkTask(payloads, seeds, 0, games)).sums


@pytest.fixture(scope="module")
def new():
    return scenario.load("new_edition")


@pytest.fixture(scope="module")
def no_ron():
    return scenario.load("no_ron_bonus")


@pytest.fixture(scope="module")
def short_new(new):
    """new_edition with one dealership each (half the rounds per game)."""
    return family.SCENARIOS.with_overrides(new, {"game": {"dealerships_each": 1}}, "new_edition_short")


def _baseline(s):
    """The scenario with the baseline bot in both seats (a third of the default value bots'
    time per game): the checks below are of the intervals, which hold for any bots."""
    return with_players(family, s, "baseline,baseline")


REPS, REP_GAMES = 100, 300
LARGE_REPS = 50   # the quick tier's known effect and pairing gain: 15,000 paired games


def _pool(runs):
    pooled = MomentSums.empty(len(NAMES), 4)
    for r in runs:
        pooled = pooled.merge(r)
    return pooled


@pytest.fixture(scope="module")
def _runs(new, no_ron):
    """Paired run ``rep`` of 300 games, new_edition vs no_ron_bonus, baseline bots: played
    once in the module, whichever fixture asks first."""
    a, b = _baseline(new), _baseline(no_ron)
    played = {}

    def run(rep):
        if rep not in played:
            played[rep] = _sums([a, b], seed=5000 + rep, games=REP_GAMES)
        return played[rep]
    return run


@pytest.fixture(scope="module")
def paired_runs(_runs):
    """100 independent paired runs (the coverage studies: the second tier)."""
    return [_runs(rep) for rep in range(REPS)]


@pytest.fixture(scope="module")
def large(_runs):
    """The known effect's and the pairing's data: the first 50 paired runs pooled, 15,000
    paired games (the difference in mean winning points: -0.801, standard error 0.0063;
    all 100 pooled: -0.815, 0.0046; the prediction it is held to: -0.835)."""
    return _pool([_runs(rep) for rep in range(LARGE_REPS)])


def test_renamed_copy_gives_exact_zeros_and_no_difference(new):
    copy = family.SCENARIOS.with_overrides(new, {}, "new_edition_copy")
    assert copy.name != new.name
    s = _sums([new, copy], seed=3, games=600)
    rows = compare_rows(family.CATALOGUE, s, [(0, 1)])
    kinds = {m.name: m.kind for m in family.CATALOGUE}
    for r in rows:
        if r["verdict"] == "never happened":
            continue
        assert r["diff"] == 0.0, r["metric"]
        assert r["differing"]["games"] == 0, r
        if r["method"] and r["method"].startswith("score"):
            # a 0/1 game rate: Tango's interval holds at K = 0 (about +-z^2/n wide, never 0)
            lo, hi = r["ci"]
            assert kinds[r["metric"]] == "game_rate"
            assert lo < 0 < hi and hi - lo > 3 / 600, r
            assert r["p"] == 1.0 and r["verdict"] in ("equivalent", "inconclusive"), r
        else:
            # no game differed: no zero-width interval, no test, no `equivalent` with certainty
            assert r["verdict"] == "identical", r
            assert r["p"] is None and r["ci"] == [None, None]


@pytest.mark.second_tier
def test_calibration_false_different_rate_within_binomial_tolerance(short_new):
    """200 repetitions of 100 short games of new_edition vs itself with independent randomness
    (pairing off): the family-wise rate of any false `different` must not exceed alpha beyond
    what 200 binomial trials allow (one-sided, 0.1% level: at most 21 of 200; 8 seen)."""
    reps, games = 200, 100
    false = 0
    for rep in range(reps):
        s = _sums([short_new, short_new], seed=1000 + rep, games=games, paired=False)
        rows = compare_rows(family.CATALOGUE, s, [(0, 1)], alpha=ALPHA, paired=False)
        false += any(r["verdict"] == "different" for r in rows)
    limit = binom.ppf(0.999, reps, ALPHA)
    assert false <= limit, f"{false} of {reps} repetitions called a difference (limit {limit})"


@pytest.mark.second_tier
def test_paired_interval_covers_the_true_difference_about_95_percent(paired_runs):
    """A known effect (mean winning points without the ron bonus): 100 paired runs of 300
    games; each run's truth is the other 99 pooled (29,700 games, independent of the run; its
    own error ~1/10 of a run's). Coverage must lie within the binomial 99.9% range of 0.95 for
    100 trials."""
    j = J["mean_winning_points"]
    covered = 0
    for rep, run in enumerate(paired_runs):
        truth = difference(_pool(paired_runs[:rep] + paired_runs[rep + 1:]), j).diff
        d = difference(run, j)
        covered += abs(d.diff - truth) <= 1.959964 * d.se
    lo, hi = binom.ppf(0.0005, REPS, 0.95), binom.ppf(0.9995, REPS, 0.95)
    assert lo <= covered <= hi, f"covered {covered} of {REPS} (expected {lo}..{hi})"


def test_no_ron_bonus_lowers_mean_winning_points_by_the_ron_bonus_share(new, large):
    """Without the +1 ron bonus every ron win scores 1 point less before doubling, so the mean
    falls by about the ron-bonus share of wins, more where the bonus tipped a win over the
    doubling threshold. Predicted from new_edition's own records, the observed paired
    difference must match within 0.05 points."""
    d = difference(large, J["mean_winning_points"])
    share = difference(large, J["ron_bonus_share"]).a.value
    batch = run_games(family, _baseline(new), 4000, seed=20240, workers=1)  # the bots of `large`
    from simcore.momojan.engine import OUT_DRAW, RF_OUTCOME, RF_POINTS, RF_RON_BONUS, RF_SUBTOTAL
    wins = batch.rounds[batch.rounds[:, RF_OUTCOME] != OUT_DRAW]
    threshold = new.get("scoring.double_threshold")
    factor = new.get("scoring.double_factor")
    sub = wins[:, RF_SUBTOTAL] - wins[:, RF_RON_BONUS]
    predicted = float(np.mean(np.where(sub >= threshold, sub * factor, sub) - wins[:, RF_POINTS]))
    assert -2 * share < d.diff < -share  # more than the share (doubling), never twice it
    assert abs(d.diff - predicted) < 0.05, (d.diff, predicted)


def test_pairing_narrows_the_first_dealer_interval(large):
    """Same deals, same seats: the first-dealer outcome is shared by most games, so the paired
    interval of the difference is several times narrower than independent runs' (about 3.5x
    for new_edition vs no_ron_bonus; the README quotes old vs new)."""
    d = difference(large, J["first_dealer_win_rate"])
    assert d.correlation > 0.8
    assert d.narrowing > 2.5
    assert math.isclose(d.se_independent, math.hypot(d.a.se, d.b.se), rel_tol=1e-9)


def test_merging_chunks_in_any_order_equals_one_chunk(new, no_ron):
    payloads, seeds = (family.SCENARIOS.payload(new), family.SCENARIOS.payload(no_ron)), (7, 7)
    whole = chunk_stats(family, ChunkTask(payloads, seeds, 0, 90)).sums
    parts = [chunk_stats(family, ChunkTask(payloads, seeds, a, a + 30)).sums for a in (60, 0, 30)]
    merged = MomentSums.empty(len(NAMES), 4)
    for p in parts:
        merged = merged.merge(p)
    assert np.array_equal(merged.s, whole.s) and np.array_equal(merged.c, whole.c)


def test_target_ci_stops_on_width_and_reports_it(new):
    from simcore.studies.study import Target
    res = run_study(family, [new], seed=1, games=200, workers=1, chunk_games=200,
                    target=Target("first_dealer_win_rate", 0.06), max_games=2000)
    assert res.reached["reached"] and res.reached["half_width"] <= 0.06
    assert res.games == res.reached["games"] and res.games % 200 == 0 and res.games <= 2000
    capped = run_study(family, [new], seed=1, games=200, workers=1, chunk_games=200,
                       target=Target("first_dealer_win_rate", 0.001), max_games=400)
    assert not capped.reached["reached"] and capped.games == 400


def test_target_ci_batches_do_not_depend_on_the_worker_count(new):
    """The next batch's size comes from the games played, never from the workers: with 2
    workers a batch of two chunks per worker once played 600 games where 1 worker played 400."""
    from simcore.runners.local import usable_cores
    from simcore.studies.study import Target
    if usable_cores() < 2:
        pytest.skip("one usable core: both runs would use one worker")
    res = [run_study(family, [new], seed=1, games=200, workers=w, chunk_games=200,
                     target=Target("first_dealer_win_rate", 0.055), max_games=4000)
           for w in (1, 2)]
    assert res[0].games == res[1].games
    assert np.array_equal(res[0].sums.s, res[1].sums.s) and res[0].reached == res[1].reached


@pytest.mark.parametrize("args,message", [
    (["sweep", "new_edition", "--set", "scoring.ron_bonus=x"],
     'momojan-sim: error: --set scoring.ron_bonus: expected an integer >= 0, got "x"'),
    (["sweep", "new_edition", "--set", "scoring.nope=1"], "momojan-sim: error: --set scoring.nope: unknown key"),
    (["sweep", "new_edition", "--set", "scoring.ron_bonus"], "momojan-sim: error: --set scoring.ron_bonus: expected KEY=V1,V2"),
    (["compare", "new_edition", "no_ron_bonus", "--margin", "foo=1"], "momojan-sim: error: --margin foo=1: unknown metric"),
    (["compare", "new_edition", "no_ron_bonus", "--margin", "draw_rate=-1"], "momojan-sim: error: --margin draw_rate=-1: the margin must be"),
    (["compare", "new_edition", "no_ron_bonus", "--metrics", "draw_rat"], "momojan-sim: error: --metrics: unknown metric 'draw_rat' (did you mean 'draw_rate'?)"),
    (["compare", "new_edition", "no_ron_bonus", "--max-games", "10"], "momojan-sim: error: --max-games only applies with --target-ci"),
])
def test_bad_study_options_are_one_line_exit_2(args, message):
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), r.output


def test_compare_lists_only_the_seats_the_game_has():
    """Issue 27 item 4: a 2-player compare shows no third seat's metrics (they were listed as
    `never happened`); a 3-player one keeps them; a metric asked for by name stays."""
    from click.testing import CliRunner

    from simcore.cli import main
    from simcore.studies.compare import seats_present
    names = ["seat0_win_share", "seat2_win_share", "seat1_ahead_of_seat2", "draw_rate"]
    assert seats_present(names, 2) == ["seat0_win_share", "draw_rate"]
    assert seats_present(names, 3) == names
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "20",
                                  "--no-save", "--quiet", "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    metrics = json.loads(r.output)["metrics"]
    # 2 seats: seat 1's share is 1 - seat 0's, not listed twice (issue 27 item 4)
    assert "seat0_win_share" in metrics and "seat1_win_share" not in metrics
    assert not any("seat2" in m for m in metrics)


def _kind(name, a_value):
    kind = family.CATALOGUE[J[name]].kind
    if kind == "win_rate" and a_value is not None and a_value < 0.05:
        return "rare share"
    return {"game_rate": "game rate", "round_rate": "round rate", "win_rate": "win share",
            "per_win": "win mean", "per_game": "game mean", "per_round": "round mean"}[kind]


@pytest.mark.second_tier
def test_every_printed_interval_covers_by_metric_kind(paired_runs):
    """Issue 27 item 9: a point-value change (new_edition vs no_ron_bonus), 100 paired runs of
    300 games. Per metric kind, the intervals compare prints cover the leave-one-out truth
    (29,700 games) within the binomial 99.9% range of 0.95 for the intervals printed (the
    rows of one run are not independent: a loose check, the benchmark measures it at 200 runs);
    no interval has zero width; rows with too few differing games print none."""
    from collections import Counter
    shown, covered, few = Counter(), Counter(), Counter()
    for rep, run in enumerate(paired_runs):
        truth = _pool(paired_runs[:rep] + paired_runs[rep + 1:])
        for r in compare_rows(family.CATALOGUE, run, [(0, 1)], NAMES):
            d = difference(truth, J[r["metric"]])
            if d.diff is None or r["verdict"] == "never happened":
                continue
            kind = _kind(r["metric"], d.a.value)
            lo, hi = r["ci"]
            if lo is None:
                assert r["verdict"] in ("too few differing games", "identical"), r
                assert r["p"] is None and r["p_equivalence"] is None
                few[kind] += 1
                continue
            assert hi > lo, r
            shown[kind] += 1
            covered[kind] += lo <= d.diff <= hi
    assert {"game rate", "win mean", "game mean"} <= set(shown)
    for kind, n in shown.items():
        lo = binom.ppf(0.0005, n, 0.95) - 0.01 * n
        assert covered[kind] >= lo, (kind, covered[kind], n)
    assert few["rare share"] > 0   # a point-value change: rare yaku almost never differ


def test_compare_opens_with_the_rules_that_differ_and_leaves_out_what_is_off():
    """Issue 27 items 4-6 from the command line: `key: a -> b` first, yaku off in both listed
    once, the seat and first-dealer metrics' distance from fair, units in pp and points."""
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "60",
                                  "--no-save", "--quiet", "--workers", "1"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1] == "seats: P0 value, P1 value"   # issue 31 item 5: who sat where
    assert lines[2] == "rules that differ (1):" and lines[3] == "  scoring.ron_bonus: 1 -> 0"
    assert "off in both variants (not compared): kan_per_round, yaku_honitsu_share" in r.output
    assert "yaku_new_1_share" not in r.output.split("off in both")[1].split("\n\n")[1]
    assert "first_dealer_win_rate (fair 50.00%)" in r.output
    assert " pp " in r.output and " points " in r.output and " pts" not in r.output
    assert "seat0_win_rate" not in r.output    # the same as seat0_win_share: listed once
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "60",
                                  "--no-save", "--quiet", "--workers", "1", "--json"])
    data = json.loads(r.output)
    assert data["rules_differ"] == [{"key": "scoring.ron_bonus", "a": 1, "b": 0}]
    assert "yaku_kan_share" in data["off_in_both"] and "yaku_kan_share" not in data["metrics"]
    assert data["metrics"]["draw_rate"]["unit"] == "pp"
    assert data["metrics"]["mean_winning_points"]["unit"] == "points"
    assert data["metrics"]["yaku_kerai_share"]["margin_relative"] is True
    fair = data["metrics"]["first_dealer_win_rate"]["fair"]
    assert fair["value"] == 0.5 and fair["ci"][0] <= fair["distance_change"] <= fair["ci"][1]
    # each variant's value with its own interval (a QA trial: a and b had none)
    for name, row in data["metrics"].items():
        for side in "ab":
            lo, hi = row[f"{side}_ci"]
            assert row[side] is None or lo is None or lo <= row[side] <= hi, (name, side)
    m = data["metrics"]["mean_winning_points"]
    line = next(x for x in lines if "mean_winning_points" in x and "->" in x)
    assert (f"{m['a']:.3f} [{m['a_ci'][0]:.3f}, {m['a_ci'][1]:.3f}] -> {m['b']:.3f} "
            f"[{m['b_ci'][0]:.3f}, {m['b_ci'][1]:.3f}]") in line, line


def test_compare_says_what_each_variant_is_for_itself_and_what_would_settle_it():
    """Issue 50 item 1: each variant's own interval with the fair value inside or OUTSIDE (text
    and --json ``per_variant``), and the games per variant that would settle an inconclusive
    metric at the difference seen (plan's formula)."""
    from click.testing import CliRunner
    from simcore.cli import main
    from simcore.stats.moments import games_for_power
    args = ["compare", "new_edition", "no_ron_bonus", "--games", "200", "--no-save", "--quiet",
            "--workers", "1"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    own = r.output.split("each variant for itself (95% intervals; is the fair value inside?):")[1]
    line = next(x for x in own.splitlines() if x.startswith("  first_dealer_win_rate (fair"))
    assert line.count("fair inside") + line.count("fair OUTSIDE") == 2, line
    data = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    pv = data["per_variant"]
    assert [v["name"] for v in pv] == ["new_edition", "no_ron_bonus"]
    for v, key in zip(pv, ("a", "b")):
        s = v["metrics"]["first_dealer_win_rate"]
        assert s["value"] == data["metrics"]["first_dealer_win_rate"][key]
        assert s["reference"] == 0.5
        assert s["contains_reference"] == (s["ci"][0] <= 0.5 <= s["ci"][1])
        assert f"{100 * s['value']:.2f}% [{100 * s['ci'][0]:.2f}%, {100 * s['ci'][1]:.2f}%]" \
            in line
    tested = sum(m["p"] is not None for m in data["metrics"].values())
    unsettled = {n: m for n, m in data["metrics"].items() if m["verdict"] == "inconclusive"}
    assert unsettled
    from scipy.stats import norm
    for n, m in unsettled.items():
        a = ALPHA / tested
        options = []
        margin = m["margin"] * abs(m["a"]) if m["margin_relative"] else m["margin"]
        if abs(m["diff"]) < margin:   # the two one-sided tests, bound by the nearer margin
            z = norm.ppf(1 - a) + norm.ppf(0.8)
            options.append((math.ceil(200 * (z * m["se"] / (margin - abs(m["diff"]))) ** 2),
                            "equivalent"))
        if m["diff"]:
            binary = m["method"].startswith("score (Tango)")
            options.append((games_for_power(m["se"], 200, abs(m["diff"]), a, 0.8, binary),
                            "different"))
        want, to = min(options)
        assert (m["games_to_settle"], m["settles_to"]) == (max(200, want), to), n
        assert f"    {n}: about {max(200, want):,}, to show it {to}" in r.output
    decided = [m for m in data["metrics"].values() if m["verdict"] != "inconclusive"]
    assert all(m["games_to_settle"] is None for m in decided)


def test_a_rare_yaku_change_is_compared_as_a_ratio():
    """Issue 27 item 2: halving a yaku's points (new_edition's kerai 5 -> 2) ... its share is
    rare; a yaku made twice as valuable shows a relative change with its interval."""
    from simcore.cli import main
    from click.testing import CliRunner
    r = CliRunner().invoke(main, ["compare", "old_edition", "new_edition", "--games", "300",
                                  "--no-save", "--quiet", "--workers", "1", "--json",
                                  "--players", "baseline,baseline"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)["metrics"]
    rare = [m for m, row in rows.items() if row["relative"] and row["relative"]["ci"][0]
            is not None and max(row["a"], row["b"]) < 0.05]
    assert rare, "no rare rate compared as a ratio"
    for m in rare:
        rel = rows[m]["relative"]
        assert rel["ci"][0] <= rel["value"] <= rel["ci"][1]


@pytest.mark.plays("ptrump")
def test_variants_with_different_seat_counts_compare_the_seats_both_have():
    """3 players against 2: no seat-2 metric (it would read 'lowers seat2 share to 0'), and no
    seat-share distance from fair (1/3 against 1/2 is not one fair value). (A pairwise fair
    value, seat 0 ahead of seat 1 = 1/2, would stay; in 2 seats it is seat 0's share, so it is
    not listed.)"""
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["compare", "ptrump_3p", "ptrump_confirmed_only", "--games",
                                  "30", "--no-save", "--quiet", "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)["metrics"]
    assert not any("seat2" in m for m in rows) and "seat0_win_share" in rows
    assert rows["seat0_win_share"]["fair"] is None and rows["first_dealer_win_share"]["fair"] is None


def _coverage_pairs():
    a = _baseline(scenario.load("new_edition"))
    return {"point value": (a, _baseline(scenario.load("no_ron_bonus"))),
            "play": (a, family.SCENARIOS.with_overrides(a, {"riichi": {"enabled": False}}, "no_riichi")),
            "deck": (_baseline(scenario.load("old_edition")), a)}


@pytest.mark.parametrize("pair,games,reps,luck", [
    ("play", 300, 60, False), ("deck", 300, 60, False), ("point value", 3000, 24, False),
    ("play", 3000, 24, False), ("deck", 3000, 24, False),
    # issue 32 item 4: the same checks with the luck correction on (the deck change is where
    # it corrects most paired differences; the play change has the same deals)
    ("deck", 300, 60, True), ("play", 3000, 24, True)])
@pytest.mark.second_tier
def test_coverage_by_metric_kind_for_each_kind_of_change(pair, games, reps, luck):
    """Issue 27 item 9, the other cells of the README's table at fewer runs (the benchmark
    plays 200 each): per metric kind, the printed intervals cover the leave-one-out truth.
    The check counts runs, not intervals (a run's rows are related): a kind's coverage must
    be inside the binomial 99.9% range of 0.95 for as many trials as it had runs with an
    interval, less 0.02; none has zero width. Overall, the mean of the runs' coverage must be
    within 3 standard errors of the runs (the rows of a run move together) of 0.95, less the
    leave-one-out truth's own error (it pools only reps - 1 runs: 0.942 expected at 16)."""
    from collections import Counter
    a, b = _coverage_pairs()[pair]
    runs = [_sums([a, b], seed=81000 + 100 * games + rep, games=games) for rep in range(reps)]
    shown, covered, present = Counter(), Counter(), Counter()
    lucky = 0
    per_run = []
    for rep, run in enumerate(runs):
        truth = _pool(runs[:rep] + runs[rep + 1:])
        kinds_here = set()
        before = sum(covered.values()), sum(shown.values())
        rows = compare_rows(family.CATALOGUE, corrected(run) if luck else run, [(0, 1)], NAMES)
        lucky += sum(bool(r["luck_narrowing"]) for r in rows)
        for r in rows:
            d = difference(truth, J[r["metric"]])
            if d.diff is None or r["ci"][0] is None:
                continue
            kind = _kind(r["metric"], d.a.value)
            assert r["ci"][1] > r["ci"][0], r
            shown[kind] += 1
            covered[kind] += r["ci"][0] <= d.diff <= r["ci"][1]
            kinds_here.add(kind)
        present.update(kinds_here)
        per_run.append((sum(covered.values()) - before[0]) / (sum(shown.values()) - before[1]))
    for kind, n in shown.items():
        runs_with = present[kind]
        lo = binom.ppf(0.0005, runs_with, 0.95) / runs_with - 0.02
        assert covered[kind] / n >= lo, (pair, games, kind, covered[kind], n)
    mean, se = np.mean(per_run), np.std(per_run, ddof=1) / math.sqrt(reps)
    # the truth pools reps - 1 runs: the difference to it has sd sqrt(1 + 1/(reps - 1)) times
    # a run's, so a 95% interval covers it less often
    from scipy.stats import norm
    expected = 2 * norm.cdf(1.959964 / math.sqrt(1 + 1 / (reps - 1))) - 1
    assert mean >= expected - 3 * se, (mean, se, expected, covered, shown)
    assert (lucky > 0) == luck, lucky      # with the correction on, some rows are corrected


def test_a_target_on_a_metric_that_never_varies_is_not_reached(new):
    """A half-width of 0 is no interval: --target-ci on kans (off in new_edition) stops at once
    and says the target was not reached."""
    from simcore.stats.summary import target_line
    from simcore.studies.study import Target
    res = run_study(family, [new, new], seed=1, games=200, workers=1, chunk_games=200,
                    target=Target("kan_per_round", 0.01), max_games=2000)
    assert res.games == 200 and not res.reached["reached"] and res.reached["no_variation"]
    assert "never varied" in target_line(res.reached, True)
