"""The ptrump yaku value table (``point_sources``) and yaku reach (``yaku_reach``).

Reach is measured in a sample of matches (simcore.nb.reach): per seat and round the record's
``reach`` word has the score slots some live wait of the hand would have scored at some point
(the winner's include what it won with). The value table's rows are the yaku, the additive
items and the yakuman; a match's ``total`` is its wins' points before the pon deduction and the
zero floor, so each win's value is that total less the pons, floored.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.family import registry as families
from simcore.nb.reach import reach_games
from simcore.ptrump import metrics
from simcore.ptrump.engine import (
    OUT_DRAW, RF_GAME, RF_N_SEATS, RF_OUTCOME, RF_REACH0, RF_TENPAI0, RF_VALUE0, RF_WINNER,
    RF_WINNERS, RF_YAKU_BITS0,
)
from simcore.ptrump.layout import MAX_SEATS
from simcore.ptrump.rules_array import SLOT
from tests.reach_checks import check_reach


def _scenario(name, policy=None, **overrides):
    """Bundled scenario ``name``, every seat playing ``policy`` (if given), dotted-key
    overrides applied."""
    fam, sc = families.load(name)
    data = sc.to_dict()
    if policy:
        data["players"] = [{"policy": policy, "params": {}}] * len(data["players"])
    for key, value in overrides.items():
        *path, last = key.split(".")
        d = data
        for k in path:
            d = d[k]
        d[last] = value
    return fam, fam.SCENARIOS.from_dict(data, name=name)


@pytest.mark.parametrize("name", ["ptrump_2p", "ptrump_3p"])
def test_yaku_reach_is_counted_once_per_hand_in_the_sampled_matches(name):
    fam, sc = families.load(name)
    rows, reached = check_reach(fam, sc)
    by_name = dict(zip([r["name"] for r in rows], reached.sum(axis=0)))
    assert by_name["riichi"] > 0 and by_name["tsumo"] > 0 and by_name["pinfu"] > 0
    for moment in metrics.MOMENT + metrics.BY_CARDS:
        assert by_name[moment] == 0


@pytest.mark.parametrize("name, policy, overrides", [
    ("ptrump_2p", "greedy", {}),
    ("ptrump_3p", "greedy", {}),
    ("ptrump_beginner", "random", {}),     # yakuless wins with pons: below zero, floored
    ("ptrump_2p", "random", {"scoring.negative_win": "literal",
                               "scoring.yakuman.exclusive": False,
                               "scoring.yaku.yakuhai.per_set": False}),
])
def test_the_yaku_table_accounts_for_every_point_of_every_win(name, policy, overrides):
    """The rows add up to ``total`` match by match, and each win's value is its rows' points
    less the pon deduction, floored at 0 under ``floor_zero`` (the engine's own value)."""
    fam, sc = _scenario(name, policy, **overrides)
    idx = np.arange(400)
    batch = fam.SIMULATOR(sc).play(idx, 11)
    data = fam.SCENARIOS.payload(sc)
    rows, x, fired, wins, total = fam.point_sources(idx, batch, data)
    np.testing.assert_array_equal(x.sum(axis=1), total)
    assert np.all(fired <= wins[:, None]) and wins.sum() > 250
    assert {r["name"] for r in rows} >= {"tsumo", "riichi", "dora", "nukidora", "kokushi"}
    assert "pon" not in {r["name"] for r in rows}
    # each win (one winner a round under head_bump): the rows of that round alone
    r = batch.rounds
    won = r[:, RF_OUTCOME] != OUT_DRAW
    one = r[won].copy()
    one[:, RF_GAME] = np.arange(len(one))
    _, xr, _, wr, gross = metrics.point_sources(np.arange(len(one)), one, data)
    assert np.all(wr == 1)
    w = one[:, RF_WINNER]
    pons = metrics.win_counts(one, "pon")[np.arange(len(one)), w]
    raw = gross - data["scoring"]["deductions"]["pon"] * pons
    value = one[np.arange(len(one)), RF_VALUE0 + w]
    floor = data["scoring"]["negative_win"] == "floor_zero"
    np.testing.assert_array_equal(value, np.maximum(raw, 0) if floor else raw)
    assert pons.sum() > 0
    if policy == "random":
        assert (raw < 0).any()


def test_a_seat_tenpai_at_a_draw_where_tenpai_needs_a_yaku_was_within_reach_of_one():
    """tenpai.needs_yaku: a seat tenpai at an exhaustive draw has a wait that scores a yaku,
    so its reach is not empty (random seats: many draws)."""
    fam, sc = _scenario("ptrump_2p", "random", **{"tenpai.needs_yaku": True})
    r = fam.SIMULATOR(sc).play(np.arange(400), 7).rounds
    sample = reach_games(r[:, RF_GAME]) & (r[:, RF_OUTCOME] == OUT_DRAW)
    n = 0
    for s in range(MAX_SEATS):
        tenpai = sample & (r[:, RF_TENPAI0 + s] == 1)
        n += tenpai.sum()
        assert np.all(r[tenpai, RF_REACH0 + s] != 0)
    assert n > 50   # the check has cases


def test_reach_is_noted_in_the_sampled_matches_and_covers_each_winners_yaku():
    fam, sc = families.load("ptrump_3p")
    r = fam.SIMULATOR(sc).play(np.arange(200), 3).rounds
    sample = reach_games(r[:, RF_GAME])
    reach = r[:, RF_REACH0:RF_REACH0 + MAX_SEATS]
    assert np.all(reach[~sample] == 0) and np.all(reach[r[:, RF_N_SEATS] == 2, 2] == 0)
    for s in range(MAX_SEATS):
        won = sample & (((r[:, RF_WINNERS] >> s) & 1) != 0) & (r[:, RF_OUTCOME] != OUT_DRAW)
        bits = r[won, RF_YAKU_BITS0 + s]
        assert np.all(reach[won, s] & bits == bits)


def _deal_only_reach(hand0):
    """Seat 0 dealt ``hand0``; seat 1 deals and wins by tenhou on its first draw: seat 0's
    reach is what its dealt hand's waits score."""
    from simcore.ptrump.layout import A_TSUMO
    from tests.ptrump.test_engine import _scripted_round
    rec, _, _ = _scripted_round("ptrump_2p", [hand0, "1h 1d 1c 2h 2d 2c 3h"], "3d",
                                [[], [A_TSUMO]], dealer=1)
    assert rec[RF_WINNER] == 1 and (rec[RF_YAKU_BITS0 + 1] >> SLOT["tenhou"]) & 1
    assert (rec[RF_REACH0 + 1] >> SLOT["tenhou"]) & 1   # the winner's reach: what it won with
    return {name for name in SLOT if (rec[RF_REACH0] >> SLOT[name]) & 1}


def test_scripted_reach_of_a_dealt_hand_scores_each_colour_of_a_wait():
    """234s 56s XX waits on 1, 4, 7: only the spade copies make it one colour (chinitsu);
    with 56h no copy does. A dealt hand has no riichi and no nagashi."""
    one_suit = _deal_only_reach("2s 3s 4s 5s 6s X X")
    assert {"tsumo", "pinfu", "chinitsu"} <= one_suit
    assert not one_suit & {"riichi", "double_riichi", "nagashi", "tenhou", "ippatsu"}
    mixed = _deal_only_reach("2s 3s 4s 5h 6h X X")
    assert {"tsumo", "pinfu"} <= mixed and "chinitsu" not in mixed
