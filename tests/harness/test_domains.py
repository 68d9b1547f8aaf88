"""Breakdowns (metrics within parts of the games) and the yaku value table: the sums, the
interval's coverage, and the accounting of every point of a win."""

import numpy as np
import pytest

from simcore.family import registry as families
from simcore.stats import domains
from simcore.stats.moments import MomentSums, ratio


def test_one_part_is_the_ratio_of_the_whole():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 5, (500, 2))
    y = rng.integers(1, 4, (500, 2))
    rows = domains.ratio_sums(x, y, np.zeros(500, np.int64), 1)[0]
    z = np.empty((500, 2, 2), np.int64)
    z[:, :, 0], z[:, :, 1] = x, y
    sums = MomentSums.from_values(z)
    for j in range(2):
        e = domains.estimate(rows[j], is_rate=False)
        r = ratio(sums, j)
        assert e["value"] == pytest.approx(r.value, abs=1e-6)
        assert e["ci"][1] - e["value"] == pytest.approx(1.959964 * r.se, rel=1e-5)


def test_a_part_s_interval_covers_its_true_ratio():
    """400 runs of 600 games in 3 parts; per game x ~ Binomial(y, p_part) with y in 1..6 rounds:
    each part's 95% interval holds p_part in 93-98% of runs (binomial sd 1.1%; the effective
    count is at most the rounds, so the interval is never narrower than a binomial one and
    covers a little more where rounds are independent, as here)."""
    rng = np.random.default_rng(7)
    p = np.array([0.3, 0.5, 0.7])
    hits = np.zeros(3)
    for _ in range(400):
        codes = rng.integers(0, 3, 600)
        y = rng.integers(1, 7, 600)
        x = rng.binomial(y, p[codes])
        rows = domains.ratio_sums(x, y, codes, 3)
        for c in range(3):
            e = domains.estimate(rows[c, 0])
            hits[c] += e["ci"][0] <= p[c] <= e["ci"][1]
    assert np.all((hits / 400 > 0.925) & (hits / 400 <= 0.98)), hits / 400


def test_too_few_games_get_no_interval_and_rates_stay_in_range():
    assert domains.estimate([5, 3, 5, 3, 3, 5])["ci"] == [None, None]
    e = domains.estimate([40, 40, 40, 40, 40, 40])     # every game: no spread
    assert e["ci"][1] == 1.0 and e["ci"][0] < 1.0
    assert domains.bin_labels((0, 1, 5, 40)) == ("0", "1-4", "5-39", "40+")
    np.testing.assert_array_equal(domains.bin_codes([0, 1, 4, 5, 100], (0, 1, 5)),
                                  [0, 1, 1, 2, 2])


@pytest.mark.parametrize("name", ["new_edition", "old_edition", "new_edition_confirmed_only"])
def test_the_yaku_table_accounts_for_every_point_of_every_win(name):
    """The sources' points add up, game by game, to the points scored before doubling."""
    fam, sc = families.load(name)
    data = sc.to_dict()
    data["players"] = [{"policy": "greedy", "params": {}}] * 2
    sc = fam.SCENARIOS.from_dict(data, name=name)
    idx = np.arange(600)
    batch = fam.SIMULATOR(sc).play(idx, 11)
    rows, x, fired, wins, total = fam.point_sources(idx, batch, fam.SCENARIOS.payload(sc))
    np.testing.assert_array_equal(x.sum(axis=1), total)
    assert np.all(fired <= wins[:, None]) and wins.sum() > 300
    assert {r["name"] for r in rows} >= {"riichi", "dora", "ron_bonus", "tabi", "kerai"}


def test_run_prints_the_breakdown_and_the_yaku_table():
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "2000", "--no-save",
                                  "--quiet"])
    assert r.exit_code == 0, r.output
    assert "first_dealer_win_rate by how the game ended" in r.output
    assert "yaku value table" in r.output and "on, never scored" in r.output


def test_the_per_game_codes_have_names(tmp_path):
    """The per-game table's end_reason codes are named, from the API and from a result."""
    import simcore
    from click.testing import CliRunner
    from simcore.cli import main
    assert simcore.game_codes("momojan")["end_reason"][3] == "bust"
    assert simcore.game_codes("ptrump")["end_reason"] == {0: "target", 1: "round_limit"}
    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "300", "--out", str(out),
                                  "--quiet", "--no-report"])
    assert r.exit_code == 0, r.output
    res = simcore.load_result(str(out), pandas=False)
    names = res.game_names("end_reason")
    assert len(names) == 300 and set(names) <= set(res.codes["end_reason"].values())


def test_yaku_reach_is_counted_once_per_hand_in_the_sampled_games():
    """MOMOJAN's reach (tests/reach_checks.py); each family's tests run the same checks."""
    from tests.reach_checks import check_reach
    fam, sc = families.load("new_edition")
    rows, reached = check_reach(fam, sc)
    by_name = dict(zip([r["name"] for r in rows], reached.sum(axis=0)))
    assert by_name["riichi"] > 0 and by_name["tabi"] > 0 and by_name["haitei"] == 0


def _reach_sums(n_games, reached, hands, completed):
    """ratio_sums rows of one source: reached/hands and completed/reached over n_games games
    of equal counts."""
    z = np.zeros(n_games, np.int64)
    r = np.full(n_games, reached)
    return {"within_reach": domains.ratio_sums(r, np.full(n_games, hands), z, 1)[0].tolist(),
            "completed": domains.ratio_sums(np.full(n_games, completed), r, z, 1)[0].tolist()}


@pytest.mark.parametrize("reached, completed, reading", [
    (0, 0, "seldom in reach"), (1, 0, "seldom completed"), (5, 1, None)])
def test_the_two_readings_of_dead_weight(reached, completed, reading):
    """Never in reach reads "seldom in reach"; in reach and never finished, "seldom
    completed"; a yaku in reach in 5% of hands and finished in 20% of those, neither."""
    sums = _reach_sums(400, reached, 20, completed)
    out = domains._reach({k: [v[0]] for k, v in sums.items()}, 0, True)
    assert out["reach_reading"] == reading
    if reached:
        assert out["within_reach"]["value"] == pytest.approx(reached / 20)


def test_run_prints_whether_a_yaku_is_worth_chasing():
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "1000", "--no-save",
                                  "--quiet"])
    assert r.exit_code == 0, r.output
    assert "is it worth chasing?" in r.output and "hands in reach" in r.output


from hypothesis import given, settings, strategies as st   # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.lists(st.integers(0, 11), max_size=40), st.integers(1, 4),
       st.integers(0, 2 ** 32 - 1))
def test_per_game_sums_add_each_games_rounds(n, games_of_rounds, q, seed):
    """The family kit's per-game sums (every family's metrics) against a loop over the rounds:
    games with no round (first, last or between) get 0, and a chunk with no round at all."""
    from simcore.family.metrics import per_game_sums
    start = 1000
    idx = np.arange(start, start + n, dtype=np.int64)
    round_game = np.sort([start + g for g in games_of_rounds if g < n]).astype(np.int64)
    per_round = np.random.default_rng(seed).integers(-3, 2 ** 40, (len(round_game), q))
    pos, sums = per_game_sums(idx, round_game, per_round)
    want = np.zeros((n, q), np.int64)
    for i, g in enumerate(round_game):
        want[g - start] += per_round[i]
    assert np.array_equal(pos, round_game - start)
    assert sums.dtype == np.int64 and np.array_equal(sums, want)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.lists(st.integers(0, 45), max_size=150), st.integers(1, 4),
       st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_reach_sums_count_the_sampled_games_bits(n, games_of_rounds, seats, per_round_seats,
                                                 seed):
    """The kit's reach sums (every family's yaku reach) against a loop over the rounds: only
    games of the reach sample count, a row with no bit counts nothing, and the seats played
    may be one number or one per round."""
    from simcore.family.metrics import reach_sums
    from simcore.nb.reach import measures_reach
    rng = np.random.default_rng(seed)
    start = 3
    idx = np.arange(start, start + n, dtype=np.int64)
    round_game = np.sort([start + g for g in games_of_rounds if g < n]).astype(np.int64)
    m = len(round_game)
    reach = rng.integers(0, 2 ** 12, (m, seats))
    won = rng.integers(0, 2 ** 12, (m, seats)) * (rng.random((m, seats)) < 0.3)
    played = rng.integers(1, seats + 1, m) if per_round_seats else seats
    row_bits = [None if rng.random() < 0.2 else int(b) for b in rng.permutation(12)[:7]]
    has, reached, completed, hands = reach_sums(idx, round_game, reach, won, played, row_bits)
    want_r, want_c = np.zeros((n, len(row_bits)), np.int64), np.zeros((n, len(row_bits)), np.int64)
    want_h = np.zeros(n, np.int64)
    for i, g in enumerate(round_game):
        if not measures_reach(int(g)):
            continue
        want_h[g - start] += played[i] if per_round_seats else played
        for j, b in enumerate(row_bits):
            if b is not None:
                want_r[g - start, j] += sum((int(x) >> b) & 1 for x in reach[i])
                want_c[g - start, j] += sum((int(x) >> b) & 1 for x in won[i])
    assert has == [b is not None for b in row_bits]
    assert np.array_equal(reached, want_r) and np.array_equal(completed, want_c)
    assert np.array_equal(hands, want_h)
