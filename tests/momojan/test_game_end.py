"""Every way a game ends (spec §9), checked game by game against a plain-Python model.

The model replays each game from its round records (who dealt, the outcome, who won and what was
paid) with the rules of §9 (ante, pot, dealer repeat, dealerships, dealer streak, oshimai, bust,
unpayable ante, tie-break, leftover pot) and must reach the engine's scores after every round, its
end reason, winner and final scores. Scenario variants make each end frequent; the test asserts
that each end reason it names does occur, so none is checked vacuously.
"""

import numpy as np
import pytest

from simcore.momojan import scenario
from simcore.momojan.engine import (
    END_ANTE_UNPAYABLE, END_BUST, END_DEALER_STREAK, END_FOUR_DEALERSHIPS, END_OSHIMAI,
    END_ROUND_LIMIT, GF_END_REASON, GF_FIRST_DEALER, GF_POT_LEFT, GF_ROUNDS, GF_SCORE0, GF_SCORE1,
    GF_WINNER, MAX_ROUNDS, OUT_DRAW, RF_DEALER, RF_DRAW_PAYMENT, RF_GAME, RF_OUTCOME, RF_POINTS,
    RF_POT, RF_REPEAT, RF_SCORE0, RF_SCORE1, RF_WINNER, RF_YAKU_BITS,
)
from simcore.momojan.rules_array import Y_OSHIMAI
from simcore.momojan.simulate import Simulator

GAMES = 400


def _simulate(overrides, policies=("random", "baseline"), games=GAMES):
    data = scenario.load("new_edition").to_dict()
    for path, value in overrides.items():
        node = data
        *parents, leaf = path.split(".")
        for p in parents:
            node = node[p]
        node[leaf] = value
    data["players"] = [{"policy": p, "params": {}} for p in policies]
    sc = scenario.from_dict(data, name="end_variant")
    return sc, Simulator(sc).play(np.arange(games), seed=21, debug=True)


def _model_game(sc, game, rounds):
    """Replay one game from its round records; return (end reason, winner, scores, pot left)."""
    g = sc.get
    scores = [g("starting_points")] * 2
    pot, dealer, repeat, dealerships = 0, int(game[GF_FIRST_DEALER]), 0, 0
    end, loser, forced = None, None, None
    for r in rounds:
        assert end is None, "a round was played after the game ended"
        assert (r[RF_DEALER], r[RF_REPEAT]) == (dealer, repeat)
        nd = 1 - dealer
        ante = g("ante.base") + g("ante.per_repeat") * repeat
        assert scores[nd] >= ante
        scores[nd] -= ante
        pot += ante
        w = int(r[RF_WINNER])
        paid = r[RF_POINTS] if r[RF_OUTCOME] != OUT_DRAW else r[RF_DRAW_PAYMENT]
        if w >= 0:
            scores[w] += paid + pot
            scores[1 - w] -= paid
            pot = 0
        elif not g("pot.carry_over"):
            scores[nd] += pot
            pot = 0
        assert [r[RF_SCORE0], r[RF_SCORE1], r[RF_POT]] == [*scores, pot]
        busted = [s for s in (0, 1) if scores[s] < g("game.bust_below")]
        if busted:
            end, loser = END_BUST, busted[-1]
            continue
        if r[RF_OUTCOME] != OUT_DRAW and w == dealer:
            repeat += 1
            if 0 < g("game.dealer_streak_win") <= repeat:
                end, forced = END_DEALER_STREAK, dealer
        else:
            dealer, repeat, dealerships = 1 - dealer, 0, dealerships + 1
            if dealerships >= 2 * g("game.dealerships_each"):
                end = END_FOUR_DEALERSHIPS
        oshimai = r[RF_OUTCOME] != OUT_DRAW and (r[RF_YAKU_BITS] >> Y_OSHIMAI) & 1
        if end is None and oshimai and g("scoring.yaku.oshimai.ends_game"):
            end = END_OSHIMAI
    if end is None:
        if len(rounds) >= MAX_ROUNDS:
            end = END_ROUND_LIMIT
        else:  # the next round's ante cannot be paid
            ante = g("ante.base") + g("ante.per_repeat") * repeat
            assert scores[1 - dealer] < ante
            end, loser = END_ANTE_UNPAYABLE, 1 - dealer
    first = int(game[GF_FIRST_DEALER])
    if loser is not None:
        winner = 1 - loser
    elif forced is not None:
        winner = forced
    elif scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
    else:
        winner = {"first_dealer": first, "second_dealer": 1 - first, "draw": -1}[g("game.tie_break")]
    pot_left = pot
    if pot and winner >= 0 and g("game.leftover_pot") == "winner":
        scores[winner] += pot
    return end, winner, scores, pot_left


VARIANTS = [
    ({}, {END_FOUR_DEALERSHIPS, END_DEALER_STREAK, END_BUST}),
    ({"starting_points": 3, "ante.base": 1}, {END_BUST, END_ANTE_UNPAYABLE}),
    ({"game.dealer_streak_win": 2, "pot.carry_over": False, "game.leftover_pot": "nobody"},
     {END_DEALER_STREAK}),
    ({"scoring.yaku.oshimai.sets_of": ["dog"], "game.tie_break": "draw"}, {END_OSHIMAI}),
    ({"starting_points": 100000, "game.dealer_streak_win": 0, "game.dealerships_each": 1000,
      "ante.base": 0, "ante.per_repeat": 0, "game.tie_break": "second_dealer"}, {END_ROUND_LIMIT}),
]


@pytest.mark.parametrize("overrides, must_occur", VARIANTS)
def test_games_end_as_the_rules_say(overrides, must_occur):
    # games that run to the round limit are long: 20 of them, and only those are played
    games = GAMES if END_ROUND_LIMIT not in must_occur else 20
    sc, b = _simulate(overrides, games=games)
    seen = set()
    for i, game in enumerate(b.games[:games]):
        rounds = b.rounds[b.rounds[:, RF_GAME] == i]
        assert len(rounds) == game[GF_ROUNDS]
        end, winner, scores, pot_left = _model_game(sc, game, rounds)
        assert (game[GF_END_REASON], game[GF_WINNER]) == (end, winner), i
        assert [game[GF_SCORE0], game[GF_SCORE1], game[GF_POT_LEFT]] == [*scores, pot_left], i
        seen.add(end)
    assert must_occur <= seen, (must_occur - seen)
