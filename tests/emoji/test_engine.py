"""The emoji engine: whole games under every bot in debug mode (the round driver's invariants),
chips conserved, each game a function of (seed, index) alone, and the spec's worked examples
(emoji.md §15) on stacked walls with scripted seats."""

import numpy as np
import pytest

from emojiwalls import play_scripted_round, stack_wall as _wall
from policies.emoji import POLICIES
from simcore.emoji import engine as E
from simcore.emoji import hand as H
from simcore.emoji import scoring as S
from simcore.emoji.rules_array import build_rules_array
from simcore.emoji.tiles import N_KINDS, counts_of, parse_tiles

T = H.tables(False)


def _play(policy, games, seed=1, ra=None, debug=True):
    ids, params = POLICIES.seat_arrays([{"policy": policy}] * 4, 4)
    s = E.new_state(False)
    g = np.zeros((len(games), E.N_GF), np.int64)
    r = np.zeros((len(games) * 12, E.N_RF), np.int64)
    n = E.play_games(np.asarray(games, np.int64), np.uint64(seed), s,
                     build_rules_array() if ra is None else ra, S.scoring_rules(), T, ids,
                     params, debug, r, g)
    return g, r[:n]


@pytest.mark.parametrize("policy", ["random", "idle", "baseline", "greedy"])
def test_games_keep_their_invariants_and_conserve_chips(policy):
    g, r = _play(policy, range(60))
    assert np.all(g[:, E.GF_CHIPS0:E.GF_CHIPS0 + 4].sum(axis=1) + g[:, E.GF_POT_LEFT] == 20000)
    assert set(np.unique(r[:, E.RF_OUTCOME])) <= {E.OUT_TSUMO, E.OUT_RON, E.OUT_DRAW}
    assert np.all((r[:, E.RF_TURNS] >= 1) & (r[:, E.RF_TURNS] <= 15))
    assert np.all((g[:, E.GF_ROUNDS] >= 1) & (g[:, E.GF_ROUNDS] <= 12))


def test_a_game_depends_on_its_seed_and_index_alone():
    a, ra_ = _play("greedy", [5, 6, 7])
    b, rb = _play("greedy", [7])
    assert np.array_equal(a[2], b[0])
    assert np.array_equal(ra_[ra_[:, E.RF_GAME] == 7], rb)


# ---- worked examples on stacked walls --------------------------------------------------------

def _round(wall, scripts, ra=None, chips=5000):
    """Play one round from ``wall`` (:func:`emojiwalls.play_scripted_round`); returns (the chips
    deltas, the record)."""
    return play_scripted_round(wall, scripts, ra, chips)[:2]


JUNK = {0: "147k 19m 15h", 2: "258k 28m 2h 6h", 3: "369k 37m 37h"}


def test_example_1_a_non_dealers_ron():
    """Seat 1 holds 234k 567m 8h; seat 2 draws and discards 8h; dora 5m: 325, pot 80 ->
    deltas -20, +385, -345, -20."""
    wall = _wall({**JUNK, 1: "234k 567m 8h"}, "4m", {1: ["1z", "2z", "8h", "3z"]})
    delta, rec = _round(wall, {})
    assert list(delta) == [-20, 385, -345, -20]
    assert rec[E.RF_OUTCOME] == E.OUT_RON and rec[E.RF_VALUE1] == 325
    assert rec[E.RF_WINNERS] == 0b0010 and rec[E.RF_RON_FROM] == 0b0100


def test_example_5_the_best_tile_pays_and_nearest_seat():
    """Seat 1 holds 23m 456k 88h; seat 2 discards 1m, seat 0 discards 4m; dora 8h: seat 0 pays
    425 (-445, +485, -20, -20); under nearest_seat seat 2 pays 350 (-20, +410, -370, -20)."""
    hands = {0: "147k 19m 15h", 1: "23m 456k 88h", 2: "258k 28m 2h 6h", 3: "369k 37m 37h"}
    wall = _wall(hands, "7h", {1: ["4m", "1z", "1m", "3z"]})
    delta, _ = _round(wall, {})
    assert list(delta) == [-445, 485, -20, -20]
    ra = build_rules_array({"settlement.ron_source": "nearest_seat"})
    delta, _ = _round(wall, {}, ra)
    assert list(delta) == [-20, 410, -370, -20]


def test_example_7_exhaustive_draw_with_a_remainder():
    """Dealer seat 1 in the spec; here the dealer is seat 0 and the tenpai seats 1, 2, 3 share
    the pot of 80: 26 each, the remainder 2 to the first in dealer order (seat 1)."""
    hands = {0: "1223334k", 1: "123m 456m 9h", 2: "123h 456h 9k", 3: "789m 789h 1z"}
    # one turn (the option turns: 1), each draw an honour nobody waits on, thrown back
    wall = _wall(hands, "5k", {1: ["2z", "2z", "2z", "3z"]})
    delta, rec = _round(wall, {}, build_rules_array({"wall.turns": 1}))
    assert rec[E.RF_OUTCOME] == E.OUT_DRAW
    assert rec[E.RF_TENPAI] == 0b1110   # seat 0's 1223334k needs a 4th 3k: not tenpai
    assert list(delta) == [-20, 8, 6, 6]


def _k(text):
    return parse_tiles(text)[0]


def test_example_2_a_dealers_riichi_tsumo_split_and_each_full():
    """Seat 0 declares riichi (turn 2: no debana), holds 789k 9k 111z, draws 9k in turn 3;
    dora 9k: x12 -> 1800 + 300 = 2100, 700 from each; pot 80 + 100: deltas +2160, -720 x3;
    each_full: +6360, -2120 x3."""
    hands = {0: "789k 9k 111z", 1: "258k 28m 2h 6h", 2: "36k 37m 37h 3z", 3: "14k 49m 48h 2z"}
    # nobody draws a 6k or 9k (seat 0 waits on both) before seat 0's own 9k in turn 3
    draws = {1: ["5h", "5m", "6m", "7m"], 2: ["1h", "5m", "6h", "8m"], 3: ["9k", "3m", "2z", "5k"]}
    wall = _wall(hands, "8k", draws)
    scripts = {0: [-2, N_KINDS + _k("1h")]}
    delta, rec = _round(wall, scripts)
    assert rec[E.RF_OUTCOME] == E.OUT_TSUMO and rec[E.RF_VALUE0] == 2100
    assert list(delta) == [2160, -720, -720, -720]
    delta, _ = _round(wall, scripts, build_rules_array({"settlement.tsumo_payment": "each_full"}))
    assert list(delta) == [6360, -2120, -2120, -2120]


def test_example_4_two_tsumo_winners_at_once():
    """Turn 1 here (the spec's turn 6 changes nothing but tenhou): seat 1 holds 345k 678m 2h and
    draws 2h, seat 3 holds 11z 22z 33z 9k and draws 9k; dora 6m. Off turn 1 (no tenhou) the
    values are 438 and 600; on turn 1 both are tenhou (x10) as well."""
    hands = {0: "147k 19m 15h", 1: "345k 678m 2h", 2: "258k 28m 5h 6h", 3: "11z 22z 33z 9k"}
    wall = _wall(hands, "5m", {1: ["3m", "1k", "4m", "3h"], 2: ["7h", "2h", "9h", "9k"]})
    delta, rec = _round(wall, {})
    assert rec[E.RF_OUTCOME] == E.OUT_TSUMO and rec[E.RF_WINNERS] == 0b1010
    assert (rec[E.RF_VALUE1], rec[E.RF_VALUE3]) == (438, 600)
    # seat 1: +438 from the others (146 each) - 200 to seat 3 + 40 pot; seat 3: +600 - 146 + 40
    assert list(delta) == [-366, 258, -366, 474]


def test_example_8_the_sources_maximum_in_play():
    """Seat 0 declares riichi in turn 1 with 112233k 9k and wins by tsumo on 9k in the last turn
    (15); dora 2k: 182,450; seats 1 and 2 pay 60,817, seat 3 60,816; seat 0 +182,510. The other
    seats hold hands no tile completes and throw back every draw; the last 9k lies beyond the
    last draw (wall[89])."""
    hands = {0: "112233k 9k", 1: "5k 49m 4h 8h 1z 2z", 2: "6k 2m 6m 1h 5h 9h 3z",
             3: "8k 3m 7m 2h 6h 1z 2z"}
    for seat in (1, 2, 3):
        assert H.distance(np.asarray(counts_of(parse_tiles(hands[seat])), np.int64), T) >= 3
    wall = _wall(hands, "1k", {15: ["9k", None, None, None]}, tail={89: "9k"})
    delta, rec = _round(wall, {0: [N_KINDS + int(wall[29])]})
    assert rec[E.RF_TURNS] == 15 and rec[E.RF_VALUE0] == 182450
    assert list(delta) == [182510, -60837, -60837, -60836]


def test_example_6_a_ronned_riichi_discard_a_cross_ron_and_a_yakuless_win():
    """Turn 2 (the spec's turn 4): seat 2 discards 7h declaring riichi, leaving 123m 456m 9k;
    seat 0 discards 9k. Seat 2 rons seat 0 (machibuse x all_runs -> 300 + 100 dora = 400);
    seat 3 (56h 888k 33z) rons seat 2's 7h with no yaku (100). Pot 80 + 100: 90 each. Under
    riichi_if_ronned: void seat 2's riichi falls: 150 + 100 = 250, the pot 80, 40 each."""
    hands = {0: "147k 19m 25h 1z", 1: "257k 28m 6h 2z", 2: "123m 456m 9k",
             3: "56h 888k 33z"}
    draws = {1: ["3k", "4k", "1z", "2z"], 2: ["9k", "9h", "7h", "2m"]}
    wall = _wall(hands, "4m", draws)
    scripts = {2: [-2, N_KINDS + _k("7h")]}
    delta, rec = _round(wall, scripts)
    assert rec[E.RF_WINNERS] == 0b1100 and (rec[E.RF_VALUE2], rec[E.RF_VALUE3]) == (400, 100)
    assert list(delta) == [-420, -20, 270, 170]
    delta, rec = _round(wall, scripts, build_rules_array({"riichi.if_ronned": "void"}))
    assert (rec[E.RF_VALUE2], rec[E.RF_VALUE3]) == (250, 100)
    assert list(delta) == [-270, -20, 170, 120]


def test_riichi_needs_no_balance_under_riichi_min_chips_0():
    """A seat below 0 after the ante may still declare (spec §7: no balance needed)."""
    hands = {0: "123m 456m 9k", 1: "258k 28m 6h 2z 3z", 2: "147k 19m 25h 1z",
             3: "36k 37m 37h 3z"}
    wall = _wall(hands, "4m", {1: ["5h", "1k", "2k", "4k"]}, )
    delta, rec = _round(wall, {0: [N_KINDS + _k("5h")]}, chips=10,
                        ra=build_rules_array({"wall.turns": 1}))
    assert rec[E.RF_RIICHI] & 1


def test_an_off_yaku_counts_for_nothing_not_even_require_yaku():
    c = np.zeros(N_KINDS, np.int64)
    for k in parse_tiles("234k 678m 99h"):   # only all_runs
        c[k] += 1
    out = np.zeros(6, np.int64)
    sr = S.scoring_rules(off=("all_runs",))
    v, p, m = S.score_win(c, parse_tiles("9h")[0], False, 0, 5, 15, False, -1, sr, out)
    assert m == 0 and v == 100
