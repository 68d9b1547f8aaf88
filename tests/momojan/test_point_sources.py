"""MOMOJAN's yaku value table sums (``point_sources``) against the round-by-round formula."""

import numpy as np
import pytest

from simcore.momojan import metrics
from simcore.momojan.engine import (OUT_DRAW, RF_DORA, RF_GAME, RF_OUTCOME, RF_RON_BONUS,
                                    RF_SET_BONUS, RF_SUBTOTAL, RF_WINNER, RF_YAKU_BITS)
from simcore.momojan.rules_array import YAKU_KEYS
from simcore.momojan.schema import SET_BONUS_NAMES
from simcore.momojan.yaku_conditions import new_yaku_names
from simcore.family.metrics import per_game_sums


def _by_rounds(idx, rounds, data):
    """Every column round by round, then summed per game (what point_sources gives)."""
    table = data["scoring"]["yaku"]
    is_yaku = data["scoring"]["set_count_is_yaku"]
    win = (rounds[:, RF_WINNER] >= 0) & (rounds[:, RF_OUTCOME] != OUT_DRAW)
    bits = rounds[:, RF_YAKU_BITS]
    cols, hits = [], []
    for i, name in enumerate(list(YAKU_KEYS) + list(SET_BONUS_NAMES) + new_yaku_names(table)):
        hit = win & (((bits >> i) & 1) != 0)
        if name in SET_BONUS_NAMES:
            pts = data["scoring"]["set_count_bonus"][name]
            cols.append(np.where(hit, pts if is_yaku else rounds[:, RF_SET_BONUS], 0))
        else:
            cols.append(np.where(hit, table[name]["points"], 0))
        hits.append(hit)
    for field in (RF_DORA, RF_RON_BONUS):
        v = np.where(win, rounds[:, field], 0)
        cols.append(v)
        hits.append(v > 0)
    per_round = np.stack(cols + hits + [win, np.where(win, rounds[:, RF_SUBTOTAL], 0)], axis=1)
    _, sums = per_game_sums(idx, rounds[:, RF_GAME], per_round.astype(np.int64))
    k = len(cols)
    return sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k], sums[:, 2 * k + 1]


@pytest.mark.parametrize("name", ["old_edition", "new_edition"])
def test_point_sources_sum_each_games_wins(name):
    # the old edition scores the set count as a yaku, the new one as a bonus of its own
    from simcore.momojan.family import FAMILY
    from simcore.momojan.simulate import Simulator
    from simcore.momojan import scenario
    sc = scenario.load(name)
    data = sc.to_dict()
    idx = np.arange(40, 440, dtype=np.int64)
    batch = Simulator(sc).play(idx, seed=5)
    rows, x, fired, wins, total = FAMILY.point_sources(idx, batch, data)
    want = _by_rounds(idx, batch.rounds, data)
    assert len(rows) == x.shape[1] == fired.shape[1]
    for got, w in zip((x, fired, wins, total), want):
        assert got.dtype == np.int64 and np.array_equal(got, w)
    assert fired.sum() > 0 and x[:, [r["name"] == "dora" for r in rows]].sum() > 0
    # with every round a win and every bit set in some round (the unpacking's edges), and no
    # round at all
    r = batch.rounds.copy()
    r[:, RF_WINNER] = 0
    r[:, RF_OUTCOME] = 0
    r[:, RF_YAKU_BITS] = np.random.default_rng(3).integers(0, 2 ** 62, len(r))
    r[::7, RF_YAKU_BITS] = -1
    for rr in (r, r[:0]):
        got = FAMILY.point_sources(idx, type(batch)(batch.games, rr), data)[1:]
        for g, w in zip(got, _by_rounds(idx, rr, data)):
            assert np.array_equal(g, w)
