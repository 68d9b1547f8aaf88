"""The round engine: invariants under every bundled scenario, determinism, records, replay."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.momojan import scenario
from simcore.momojan.engine import (
    END_FOUR_DEALERSHIPS, GF_END_REASON, GF_ROUNDS, GF_SCORE0, GF_SCORE1, GF_WINNER, OUT_DRAW, RF_DEALER, RF_DRAW3_0,
    RF_DRAW3_1, RF_DRAW_PAYMENT, RF_GAME, RF_KAN0, RF_KAN1, RF_OUTCOME, RF_POINTS, RF_POT,
    RF_REACH0, RF_REACH1, RF_REPEAT, RF_SCORE0, RF_SCORE1, RF_TENPAI0, RF_WINNER, RF_YAKU_BITS,
)
from simcore.nb.reach import reach_games
from simcore.family.chunks import run_games
from simcore.momojan.family import FAMILY
from simcore.momojan.simulate import Simulator

GAMES = 600

_SIMS = {}


def sim(name, policies=("random", "random")):
    key = (name, policies)
    if key not in _SIMS:
        base = scenario.load(name).to_dict()
        base["players"] = [{"policy": p, "params": {}} for p in policies]
        _SIMS[key] = Simulator(scenario.from_dict(base, name=name))
    return _SIMS[key]


@pytest.mark.parametrize("policies", [("random", "random"), ("baseline", "baseline"),
                                      ("random", "baseline")])
@pytest.mark.parametrize("name", scenario.bundled_names())
def test_invariants_hold_in_random_games(name, policies):
    """Debug mode checks card conservation, hand sizes 7/4/1, points + pot, legal actions and
    draw-three stock on every turn; any breach raises inside the engine."""
    b = sim(name, policies).play(np.arange(GAMES), seed=12345, debug=True)
    assert len(b.games) == GAMES and len(b.rounds) >= GAMES
    _check_records(scenario.load(name), b)


def _check_records(sc, b):
    start = sc.get("starting_points")
    r = b.rounds
    # points plus pot are conserved round by round
    assert np.all(r[:, RF_SCORE0] + r[:, RF_SCORE1] + r[:, RF_POT] == 2 * start)
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    assert np.all(wins[:, RF_WINNER] >= 0) and np.all(wins[:, RF_POINTS] > 0)
    draws = r[r[:, RF_OUTCOME] == OUT_DRAW]
    assert np.all((draws[:, RF_WINNER] >= 0) == (draws[:, RF_DRAW_PAYMENT] > 0))
    # dealer repeats only after a dealer win, and resets otherwise
    for prev, cur in zip(r[:-1], r[1:]):
        if prev[RF_GAME] != cur[RF_GAME]:
            assert cur[RF_REPEAT] == 0
            continue
        dealer_won = prev[RF_OUTCOME] != OUT_DRAW and prev[RF_WINNER] == prev[RF_DEALER]
        assert cur[RF_DEALER] == (prev[RF_DEALER] if dealer_won else 1 - prev[RF_DEALER])
        assert cur[RF_REPEAT] == (prev[RF_REPEAT] + 1 if dealer_won else 0)
    _check_reach(sc, r)
    g = b.games
    assert np.all(g[:, GF_ROUNDS] >= 1) and g[:, GF_ROUNDS].sum() == len(r)
    # the winner has more points, unless the game ended by a forced rule
    normal = g[:, GF_END_REASON] == END_FOUR_DEALERSHIPS
    ahead = np.where(g[:, GF_SCORE0] > g[:, GF_SCORE1], 0, 1)
    level = g[:, GF_SCORE0] == g[:, GF_SCORE1]
    assert np.all((g[normal, GF_WINNER] == ahead[normal]) | level[normal])


def _check_reach(sc, r):
    """Yaku reach (simcore.nb.reach): measured in the sampled games only; a winner was within
    reach of what it scored; a seat tenpai at an exhaustive draw, where tenpai needs a yaku,
    was within reach of one."""
    sample = reach_games(r[:, RF_GAME])
    assert sample.any() and not sample.all()
    reach = r[:, RF_REACH0:RF_REACH1 + 1]
    assert np.all(reach[~sample] == 0)
    won = sample & (r[:, RF_OUTCOME] != OUT_DRAW)
    winner_reach = np.where(r[:, RF_WINNER] == 0, r[:, RF_REACH0], r[:, RF_REACH1])
    assert np.all((winner_reach[won] & r[won, RF_YAKU_BITS]) == r[won, RF_YAKU_BITS])
    if sc.get("exhaustive_draw.tenpai_requires_yaku"):
        for s in range(2):
            tenpai = sample & (r[:, RF_OUTCOME] == OUT_DRAW) & (r[:, RF_TENPAI0 + s] == 1)
            assert np.all(reach[tenpai, s] != 0)


def test_scenario_options_show_in_the_records():
    no3 = sim("no_draw_three").play(np.arange(300), seed=1)
    assert no3.rounds[:, RF_DRAW3_0].sum() + no3.rounds[:, RF_DRAW3_1].sum() == 0
    new = sim("new_edition").play(np.arange(300), seed=1)
    assert new.rounds[:, RF_DRAW3_0].sum() > 0
    assert new.rounds[:, RF_KAN0].sum() + new.rounds[:, RF_KAN1].sum() == 0
    old = sim("old_edition").play(np.arange(600), seed=1)
    assert old.rounds[:, RF_KAN0].sum() + old.rounds[:, RF_KAN1].sum() > 0  # random bots kan
    thirty = sim("start_30_points").play(np.arange(50), seed=1)
    assert np.all(thirty.rounds[:, RF_SCORE0] + thirty.rounds[:, RF_SCORE1] + thirty.rounds[:, RF_POT] == 60)


def test_same_seed_same_games_in_any_batch_or_order():
    s = sim("new_edition", ("baseline", "random"))
    whole = s.play(np.arange(40), seed=7)
    parts = {i: s.play(np.arange(i, i + 10), seed=7) for i in (30, 0, 20, 10)}  # out of order
    assert np.array_equal(whole.games, np.concatenate([parts[i].games for i in sorted(parts)]))
    assert np.array_equal(whole.rounds, np.concatenate([parts[i].rounds for i in sorted(parts)]))
    assert not np.array_equal(whole.games, s.play(np.arange(40), seed=8).games)


def test_run_json_identical_for_one_and_two_workers():
    sc = scenario.load("new_edition")
    a = run_games(FAMILY, sc, 2500, seed=3, workers=1)
    b = run_games(FAMILY, sc, 2500, seed=3, workers=2)
    assert np.array_equal(a.games, b.games) and np.array_equal(a.rounds, b.rounds)


def test_forked_workers_inherit_the_simulators_built_before_the_fork(tmp_path, monkeypatch):
    """run_study builds each variant's simulator once, in this process, before it forks its
    workers (a chunk of no games); the workers play with the inherited ones."""
    import os

    from simcore.momojan.family import FAMILY as family
    from simcore.runners.local import usable_cores
    from simcore.studies.study import run_study
    if usable_cores() < 2:
        pytest.skip("one usable core: the study would run in this process")
    log = tmp_path / "builds"
    class Logged(family.SIMULATOR):
        def __init__(self, sc):
            with open(log, "a") as f:
                f.write(f"{os.getpid()}\n")
            super().__init__(sc)

    monkeypatch.setattr(family, "SIMULATOR", Logged)  # the forked workers have it too
    from simcore.family import chunks
    monkeypatch.setitem(chunks._SIMULATORS, type(family), {})
    sc = family.SCENARIOS.with_overrides(scenario.load("new_edition"),
                                         {"scoring": {"ron_bonus": 2}}, "ron_bonus_2")
    res = run_study(family, [sc, scenario.load("no_ron_bonus")], seed=1, games=4000, workers=2)
    assert res.sums.n == 4000 and res.workers == 2
    assert log.read_text().split() == [str(os.getpid())] * 2  # two variants, built here only


def test_run_cli_json_and_table():
    runner = CliRunner()
    # --no-save: the output is what is tested here (saving and reports: test_results, test_report)
    r = runner.invoke(main, ["run", "scenarios/new_edition.yaml", "--games", "200", "--seed", "5",
                             "--workers", "1", "--json", "--no-save"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 200 and out["seed"] == 5 and out["scenario"] == "new_edition"
    m = out["metrics"]["first_dealer_win_rate"]
    assert m["n"] == 200 and m["ci"][0] <= m["value"] <= m["ci"][1]
    assert abs(sum(out["end_reasons"].values()) - 1) < 1e-6
    for k in ("tsumo_rate", "ron_rate", "draw_rate", "dealer_round_win_rate", "doubled_win_rate",
              "mean_winning_points", "mean_rounds_per_game"):
        assert k in out["metrics"]
    r = runner.invoke(main, ["run", "new_edition", "--games", "50", "--workers", "1", "--no-save"])
    assert r.exit_code == 0 and "first_dealer_win_rate" in r.output


@pytest.mark.parametrize("args, fragment", [
    (["run", "nope_edition"], "no such scenario"),
    (["run", "new_edition", "--games", "0"], "--games"),
    (["run", "new_edition", "--out", "/nonexistent/dir/x.json"], "--out"),
    (["replay", "new_edition", "--seed", "-1"], "--seed"),
])
def test_run_and_replay_bad_input(args, fragment):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and fragment in r.output and "Traceback" not in r.output


def test_replay_shows_a_whole_game():
    r = CliRunner().invoke(main, ["replay", "new_edition", "--seed", "3", "--game", "1",
                                  "--players", "baseline"])
    assert r.exit_code == 0, r.output
    text = r.output
    assert "round 1" in text and "game over" in text and "discards" in text
    assert "ante: " in text and "ledger: " in text
    # the replayed game is the game `run` played
    b = sim("new_edition", ("baseline", "baseline")).play(np.array([1]), seed=3)
    assert f"final P0 {b.games[0, GF_SCORE0]}, P1 {b.games[0, GF_SCORE1]}" in text


def test_a_seat_tenpai_at_a_draw_where_tenpai_needs_a_yaku_was_within_reach_of_one():
    data = scenario.load("new_edition").to_dict()
    data["exhaustive_draw"]["tenpai_requires_yaku"] = True
    data["players"] = [{"policy": "baseline", "params": {}}] * 2
    sc = scenario.from_dict(data, name="tenpai_needs_yaku")
    r = Simulator(sc).play(np.arange(800), seed=7).rounds
    tenpai = reach_games(r[:, RF_GAME]) & (r[:, RF_OUTCOME] == OUT_DRAW) & (r[:, RF_TENPAI0] == 1)
    assert tenpai.sum() > 10   # the check below has cases
    _check_reach(sc, r)
