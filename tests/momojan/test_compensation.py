"""Compensation variants (issue 29; spec: not rulebook, tagged [V]): starting bonuses by role
and the komi, at the start or counted at the end, each set up and checked on whole games."""

import numpy as np
import pytest

from simcore.errors import InputError
from simcore.momojan import scenario
from simcore.momojan.engine import (
    END_FOUR_DEALERSHIPS, END_OSHIMAI, END_ROUND_LIMIT, GF_END_REASON, GF_FIRST_DEALER,
    GF_POT_LEFT, GF_SCORE0, GF_SCORE1, GF_WINNER, RF_GAME, RF_ROUND, RF_SCORE0, RF_SCORE1,
    RF_POT,
)
from simcore.momojan.simulate import Simulator

GAMES = 400


def play(**compensation):
    data = scenario.load("new_edition").to_dict()
    for k, v in compensation.items():
        if k in ("first_dealer", "second_dealer"):
            data["compensation"]["start_bonus"][k] = v
        else:
            data["compensation"][k] = v
    data["players"] = [{"policy": "baseline", "params": {}}] * 2
    return Simulator(scenario.from_dict(data, name="comp")).play(np.arange(GAMES), seed=3,
                                                                  debug=True)


def _fd_diff(g):
    fd = g[:, GF_FIRST_DEALER]
    s = np.stack([g[:, GF_SCORE0], g[:, GF_SCORE1]], axis=1)
    return s[np.arange(len(g)), fd] - s[np.arange(len(g)), 1 - fd], fd


def test_start_bonus_by_role_adds_to_the_points_in_play():
    b = play(first_dealer=5, second_dealer=3)
    g = b.games
    # every point is conserved from the start: 40 + 5 for the first dealer, 40 + 3 for the other
    kept = g[:, GF_SCORE0] + g[:, GF_SCORE1]
    assert np.all((kept == 88) | (kept + g[:, GF_POT_LEFT] == 88))


def test_komi_at_start_moves_points_from_the_first_dealer():
    b = play(komi=7, komi_at="start")
    g, r = b.games, b.rounds
    first = r[r[:, RF_ROUND] == 0]
    fd = g[first[:, RF_GAME], GF_FIRST_DEALER]
    scores = np.stack([first[:, RF_SCORE0], first[:, RF_SCORE1]], axis=1)
    # after round 0 the points plus pot are still 80 in all; the first dealer began at 33
    assert np.all(scores.sum(axis=1) + first[:, RF_POT] == 80)
    base = play()
    fd_wins = np.mean(g[:, GF_WINNER] == g[:, GF_FIRST_DEALER])
    fd_wins_base = np.mean(base.games[:, GF_WINNER] == base.games[:, GF_FIRST_DEALER])
    assert fd_wins < fd_wins_base - 0.05
    assert fd.shape == (GAMES,)


@pytest.mark.parametrize("komi", [-3, 2, 5])
def test_komi_at_end_decides_games_won_on_points(komi):
    b = play(komi=komi, komi_at="end")
    base = play()
    g = b.games
    np.testing.assert_array_equal(b.rounds, base.rounds)  # every round played the same
    diff, fd = _fd_diff(g)
    on_points = np.isin(g[:, GF_END_REASON], [END_FOUR_DEALERSHIPS, END_OSHIMAI, END_ROUND_LIMIT])
    assert on_points.sum() > GAMES // 2
    # leftover pot goes to the winner after the decision: take it back out
    diff = diff - np.where(g[:, GF_WINNER] == fd, 1, -1) * g[:, GF_POT_LEFT]
    want = np.where(diff >= komi, fd, 1 - fd)     # a level game after komi: the first dealer
    np.testing.assert_array_equal(g[on_points, GF_WINNER], want[on_points])
    np.testing.assert_array_equal(g[~on_points, GF_WINNER], base.games[~on_points, GF_WINNER])


@pytest.mark.parametrize("change, message", [
    ({"first_dealer": -40}, "compensation.start_bonus.first_dealer: the first dealer would start "
                            "with 0 points"),
    ({"komi": 40, "komi_at": "start"}, "compensation.komi: the first dealer would start with 0"),
])
def test_a_role_starting_with_nothing_is_refused(change, message):
    with pytest.raises(InputError, match=message):
        play(**change)

