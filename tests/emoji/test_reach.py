"""Emoji's yaku value table and yaku reach (``Family.point_sources``, ``Family.yaku_reach``):
the rows account for every doubling of every win, reach is counted as tests/reach_checks.py
requires, and a scripted hand is within reach of exactly the yaku its waits would score."""

import numpy as np
import pytest

from emojiwalls import play_scripted_round, stack_wall
from simcore.emoji import engine as E
from simcore.emoji import metrics as M
from simcore.emoji.scoring import YAKU
from simcore.emoji.tiles import parse_tiles
from simcore.family import registry as families
from simcore.nb.reach import reach_games
from tests.reach_checks import check_reach


def _scenario(name, players=None, **scoring):
    fam, sc = families.load(name)
    if not (players or scoring):
        return fam, sc
    data = sc.to_dict()
    data["scoring"].update(scoring)
    if players:
        data["players"] = [{"policy": players, "params": {}}] * 4
    return fam, fam.SCENARIOS.from_dict(data, name=f"{name}_test")


def _bits(*names):
    return sum(1 << YAKU.index(n) for n in names)


@pytest.mark.parametrize("name", ["emoji", "emoji_nakayoshi_twins"])
def test_yaku_reach_is_counted_once_per_hand_in_the_sampled_games(name):
    fam, sc = _scenario(name)
    rows, reached = check_reach(fam, sc)
    by_name = dict(zip([r["name"] for r in rows], reached.sum(axis=0)))
    assert by_name["machibuse"] > 0 and by_name["all_runs"] > 0 and by_name["four_pairs"] > 0
    assert by_name["tsumo"] == by_name["last_tile"] == by_name["tenhou"] == 0   # of the moment
    assert by_name["dealer"] == by_name["dora"] == 0


@pytest.mark.parametrize("name, players, scoring", [
    ("emoji", None, {}),
    ("emoji_confirmed_only", "baseline", {"dora_points": 50, "dealer_factor": 2.0}),
    ("emoji", "random", {"honor_triplet_per_set": True, "calibration": "free",
                         "rounding": "floor"}),
])
def test_the_yaku_table_accounts_for_every_doubling_of_every_win(name, players, scoring):
    """Each game's rows sum to its total, and a win's total is log2 of its value over the base
    (in thousandths, to the rounding of each row and of the value to whole chips); the value
    without dora the table computes leaves 0 to 3 whole dora."""
    fam, sc = _scenario(name, players, **scoring)
    idx = np.arange(300)
    batch = fam.SIMULATOR(sc).play(idx, 3)
    data = fam.SCENARIOS.payload(sc)
    rows, x, fired, wins, total = fam.point_sources(idx, batch, data)
    assert [r["name"] for r in rows] == list(YAKU) + ["dealer", "dora"]
    np.testing.assert_array_equal(x.sum(axis=1), total)
    assert np.all(fired <= wins[:, None]) and wins.sum() > 100
    r = batch.rounds
    won, _, _, _, n_dora, value, before = M._wins(r, data["scoring"])
    dp = data["scoring"]["dora_points"]
    assert np.all((n_dora >= 0) & (n_dora <= 3))
    assert np.all(np.abs(value - before - n_dora * dp)[won] < 1)
    assert n_dora[won].any() and (n_dora[won] == 0).any()
    base = data["scoring"]["base"]
    log_value = np.where(won, M.DOUBLING * np.log2(np.where(won, value, 1) / base), 0)
    by_game = np.zeros(len(idx))
    np.add.at(by_game, r[:, E.RF_GAME], log_value.sum(axis=1))
    assert np.all(np.abs(by_game - total) <= 12 * wins)
    # x1 yaku fire and add nothing; the table's points are the scenario's
    points = {row["name"]: row["points"] for row in rows}
    assert points["machibuse"] == "x2" and points["dora"] == f"{dp:g}/tile"


def test_a_seat_in_riichi_was_within_reach_of_machibuse_and_a_winner_of_what_it_won():
    """Riichi makes every wait score machibuse: a seat in riichi at the end of a round (tenpai
    at a draw, always) was within reach of it; a winner was within reach of what it scored;
    the games outside the sample have no reach."""
    fam, sc = _scenario("emoji", "baseline")
    r = fam.SIMULATOR(sc).play(np.arange(400), 11).rounds
    sample = reach_games(r[:, E.RF_GAME])
    reach = r[:, E.RF_REACH0:E.RF_REACH0 + 4]
    assert np.all(reach[~sample] == 0)
    seats = np.arange(4)
    riichi = sample[:, None] & ((r[:, E.RF_RIICHI, None] >> seats) & 1 != 0)
    tenpai_draw = (sample & (r[:, E.RF_OUTCOME] == E.OUT_DRAW))[:, None] & \
        ((r[:, E.RF_TENPAI, None] >> seats) & 1 != 0)
    assert (riichi & tenpai_draw).sum() > 10   # the check below has cases
    assert np.all(reach[riichi] & _bits("machibuse"))
    won = sample[:, None] & ((r[:, E.RF_WINNERS, None] >> seats) & 1 != 0)
    bits = r[:, E.RF_YAKU0:E.RF_YAKU0 + 4]
    assert np.all((reach[won] & bits[won]) == bits[won])


# ---- scripted: a hand frozen by tsumogiri, its waits known -----------------------------------

JUNK = {0: "147k 19m 15h", 2: "258k 28m 2h 6h"}


def test_a_winner_was_within_reach_of_the_yaku_of_its_other_wait():
    """Seat 1 holds 23m 456k 88h (waits 1m: all_runs; 4m: all_runs and tanyao) and rons seat
    2's 1m: it won all_runs, and was within reach of tanyao as well."""
    hands = {**JUNK, 1: "23m 456k 88h", 3: "369k 37m 37h"}
    wall = stack_wall(hands, "7h", {1: ["1z", "2z", "1m", "3z"]})
    _, rec, _ = play_scripted_round(wall)
    assert rec[E.RF_OUTCOME] == E.OUT_RON and rec[E.RF_WINNERS] == 0b0010
    assert rec[E.RF_YAKU1] == _bits("all_runs")
    assert rec[E.RF_REACH1] == _bits("all_runs", "tanyao")
    assert rec[E.RF_REACH0] == rec[E.RF_REACH2] == rec[E.RF_REACH3] == 0   # not tenpai


@pytest.mark.parametrize("riichi", [False, True])
def test_a_seat_tenpai_at_the_draw_was_within_reach_of_its_waits_yaku(riichi):
    """Seat 1 holds 11z 22z 33z 9k (one wait, 9k: four pairs, half flush); the other two 9k
    are the indicator and the tile never drawn, so the round is drawn with seat 1 tenpai.
    Declaring riichi with turn 1's discard adds machibuse and debana_machibuse."""
    hands = {**JUNK, 1: "11z 22z 33z 9k", 3: "368k 37m 37h"}
    wall = stack_wall(hands, "9k", {1: [None, "5m", None, None]}, tail={89: "9k"})
    scripts = {1: [parse_tiles("5m")[0] + 30]} if riichi else {}
    _, rec, _ = play_scripted_round(wall, scripts)
    assert rec[E.RF_OUTCOME] == E.OUT_DRAW and rec[E.RF_TENPAI] == 0b0010
    assert rec[E.RF_RIICHI] == (0b0010 if riichi else 0)
    want = _bits("four_pairs", "half_flush")
    if riichi:
        want |= _bits("machibuse", "debana_machibuse")
    assert rec[E.RF_REACH1] == want


def test_two_honour_triplets_count_twice_under_honor_triplet_per_set():
    """The records keep a win's yaku, not its honour triplets: under honor_triplet_per_set the
    table finds them from the value (the count that leaves whole dora). 111z 222z 5k rons 5k,
    dora 5k: honour triplet x2 twice, all triplets, half flush, two dora."""
    from simcore.emoji import scoring as S
    from simcore.emoji.tiles import counts_of
    fam, sc = _scenario("emoji", None, honor_triplet_per_set=True, calibration="free")
    data = fam.SCENARIOS.payload(sc)
    c = counts_of(parse_tiles("111z 222z 55k")).astype(np.int64)
    five = parse_tiles("5k")[0]
    sr = S.scoring_rules(honor_triplet_per_set=True)
    value, _, mask = S.score_win(c, five, False, 0, 3, 15, False, five, sr,
                                 np.zeros(S.DECOMP_COLS, np.int64))
    assert mask == _bits("honor_triplet", "all_triplets", "half_flush") and value == 1600 + 200
    rec = np.zeros((1, E.N_RF), np.int64)
    rec[0, E.RF_OUTCOME], rec[0, E.RF_WINNERS] = E.OUT_RON, 0b0010
    rec[0, E.RF_YAKU1], rec[0, E.RF_VALUE1] = mask, value
    rows, x, fired, wins, total = fam.point_sources(np.arange(1), _Batch(rec), data)
    got = {row["name"]: (int(x[0, i]), int(fired[0, i])) for i, row in enumerate(rows)}
    assert got["honor_triplet"] == (2000, 1) and got["all_triplets"] == (1000, 1)
    assert got["dora"] == (round(1000 * np.log2(1800 / 1600)), 1) and got["dealer"] == (0, 0)
    assert wins[0] == 1 and total[0] == x.sum()


class _Batch:
    def __init__(self, rounds):
        self.rounds = rounds
