"""With the default seats of ``new_edition`` (strong bots: ``value`` in both seats), the rules that
calls and draw-three make reachable do fire (issue 9, item 8): Pon and Chi happen, kibidango, tabi
(4 sets) and onigashima (5 sets) occur in wins, draw-three is used, and
``exhaustive_draw.call_set_points`` changes the outcome of at least one game (two scenarios
differing only in that option, same seed). The assertions only ask for one occurrence of each;
the counts seen when written are in the README's bot section, with the 100,000-game figures.
"""

import numpy as np
import pytest

from simcore.momojan import scenario
from simcore.momojan.engine import (
    OUT_DRAW, RF_CHI0, RF_CHI1, RF_DRAW3_0, RF_DRAW3_1, RF_OUTCOME, RF_PON0, RF_PON1, RF_SET_BONUS,
    RF_SETS, RF_YAKU_BITS,
)
from simcore.momojan.rules_array import Y_KIBIDANGO
from simcore.momojan.simulate import Simulator

GAMES, SEED = 600, 21


def _scenario(call_set_points=None):
    data = scenario.load("new_edition").to_dict()
    if call_set_points is not None:
        data["exhaustive_draw"]["call_set_points"] = call_set_points
    return scenario.from_dict(data, name="new_edition")


def test_default_seats_are_strong():
    assert {s["policy"] for s in scenario.load("new_edition")["players"]} <= {"value", "greedy",
                                                                             "defensive"}


@pytest.fixture(scope="module")
def batch():
    return Simulator(_scenario()).play(np.arange(GAMES), seed=SEED)


def test_calls_and_draw_three_happen(batch):
    r = batch.rounds
    assert r[:, RF_PON0].sum() + r[:, RF_PON1].sum() > 0
    assert r[:, RF_CHI0].sum() + r[:, RF_CHI1].sum() > 0
    assert r[:, RF_DRAW3_0].sum() + r[:, RF_DRAW3_1].sum() > 0


def test_kibidango_and_set_count_bonuses_occur_in_wins(batch):
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    assert ((wins[:, RF_YAKU_BITS] >> Y_KIBIDANGO) & 1).sum() > 0
    bonus = wins[:, RF_SET_BONUS] > 0
    assert (bonus & (wins[:, RF_SETS] == 4)).sum() > 0   # tabi
    assert (bonus & (wins[:, RF_SETS] == 5)).sum() > 0   # onigashima


def test_call_set_points_change_an_outcome(batch):
    other = Simulator(_scenario(call_set_points=0)).play(np.arange(GAMES), seed=SEED)
    assert not np.array_equal(batch.games, other.games)


def test_set_count_bonus_marks_its_slot(batch):
    """New edition: a set-count bonus is not a yaku, but its slot bit is set (the catalogue's
    yaku_tabi_share ... yaku_nihonichi_share count it) exactly when the bonus is paid."""
    from simcore.momojan.rules_array import SLOT_SET_COUNT
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    slot = SLOT_SET_COUNT + np.minimum(wins[:, RF_SETS], 7) - 4
    marked = np.where(wins[:, RF_SETS] >= 4, (wins[:, RF_YAKU_BITS] >> np.maximum(slot, 0)) & 1, 0)
    assert np.array_equal(marked == 1, wins[:, RF_SET_BONUS] > 0)
    assert (wins[:, RF_SET_BONUS] > 0).sum() > 0
