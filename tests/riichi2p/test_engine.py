"""The riichi2p engine (spec riichi2p.md §4-§11): scripted hands on stacked walls for the rules
(riichi and its deposit, furiten, calls and kuikae, kans and the kokushi ankan ron, abortive
draws, the exhaustive draw's noten payment, nagashi mangan, honba and the dealer's repeat), and
whole games under every bot in debug mode (tile conservation, hand sizes and the scores' sum are
asserted by the engine's check_hand after every hand)."""

import numpy as np
import pytest

from policies.riichi2p import POLICIES
from simcore.riichi2p import engine as E
from simcore.riichi2p.rules_array import build_rules_array, build_scoring_rules
from simcore.riichi2p.score_text import score_hand
from simcore.riichi2p.scoring import Y_SHIISAN_PUUTAA

from riichi2p.script import TH, TS, ankan, discard, play, riichi, stack

PASS, RON, TSUMO, PON, KYUUSHU = E.A_PASS, E.A_RON, E.A_TSUMO, E.A_PON, E.A_KYUUSHU
FAR = "2468m 2468p 2468s 1z"      # a hand far from tenpai, with nothing the other wants

# dealer tenpai on 2s-5s (1m dora under the 9m indicator); the other tenpai on 6m (tanyao)
DEALER = "123m 456m 789p 55s 34s"
OTHER = "234p 567p 234s 678s 6m"


def test_a_riichi_tile_that_is_ronned_costs_no_deposit():
    wall = stack(DEALER, OTHER, draws="1z 7z 6m", indicator="9m")
    h = play(wall, {0: [discard("1z"), riichi("6m")], 1: [discard("7z"), RON]})
    assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1
    want = score_hand("234p 567p 234s 678s 6m +6m ron seat:S dora:9m", build_scoring_rules())
    assert h.rec[E.RF_PAY] == want["pay"] == 1300
    assert h.rec[E.RF_RIICHI] == 0 and h.pool == 0 and len(h.of(E.EV_RIICHI_PAID)) == 0
    assert h.scores == (25000 - 1300, 25000)      # damage only: the winner gains nothing
    assert h.rec[E.RF_DEALER_KEPT] == 0


def test_an_established_riichi_pays_its_deposit_and_the_winner_takes_the_pool():
    wall = stack(DEALER, FAR, draws="1z 7z 6m 3z 2s", indicator="9m", ura="6z")
    h = play(wall, {0: [discard("1z"), riichi("6m"), TSUMO],
                    1: [discard("7z"), discard("3z")]}, pool=2000)
    assert h.rec[E.RF_OUTCOME] == E.OUT_TSUMO and h.rec[E.RF_WINNER] == 0
    # riichi, ippatsu, menzen tsumo, pinfu, dora 1m: a dealer mangan
    assert h.rec[E.RF_PAY] == 12000 and h.rec[E.RF_HAN] == 5
    assert h.rec[E.RF_RIICHI] == 1 and h.rec[E.RF_POOL_TAKEN] == 3000
    assert h.scores == (25000 - 1000 + 3000, 25000 - 12000) and h.pool == 0
    assert h.rec[E.RF_DEALER_KEPT] == 1


def test_riichi_pot_vanish_burns_the_pool():
    wall = stack(DEALER, FAR, draws="1z 7z 6m 3z 2s", indicator="9m", ura="6z")
    h = play(wall, {0: [discard("1z"), riichi("6m"), TSUMO],
                    1: [discard("7z"), discard("3z")]}, pool=2000,
             rules={"riichi_pot": "vanish"})
    assert h.scores == (25000 - 1000, 25000 - 12000) and h.pool == 0


def test_ippatsu_off_drops_its_han():
    wall = stack(DEALER, FAR, draws="1z 7z 6m 3z 2s", indicator="9m", ura="6z")
    h = play(wall, {0: [discard("1z"), riichi("6m"), TSUMO],
                    1: [discard("7z"), discard("3z")]}, rules={"ippatsu": False})
    assert h.rec[E.RF_HAN] == 4 and h.rec[E.RF_FU] == 20 and h.rec[E.RF_PAY] == 7700


def test_a_wait_in_ones_own_discards_is_furiten():
    # the other draws 3m and throws it back: tenpai on 3m, which it discarded
    other = "234p 567p 234s 678s 3m"
    wall = stack(DEALER, other, draws="1z 3m 3m", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("3m")], 1: [discard("3m"), RON]},
             rules={"live_wall": 3})
    assert h.rec[E.RF_OUTCOME] != E.OUT_RON
    assert all(w[1] != 1 for w in h.of(E.EV_WIN))
    # without the first discard of 3m the same ron stands
    wall = stack(DEALER, other, draws="1z 7z 3m", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("3m")], 1: [discard("7z"), RON]})
    assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1


def test_a_passed_ron_does_not_stop_a_ron_after_ones_next_draw():
    other = "234p 567p 234s 678s 3m"
    wall = stack(DEALER, other, draws="3m 7z 3m", indicator="9m")
    # the dealer discards 3m twice; the other passes the first, and its own draw (7z) between
    # ends that temporary furiten, so the second 3m may be ronned
    h = play(wall, {0: [discard("3m"), discard("3m")], 1: [PASS, discard("7z"), RON]})
    assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1


def test_after_riichi_a_passed_win_is_furiten_for_the_rest_of_the_hand():
    # the other riichis on 3m, passes the dealer's 3m, and cannot ron the next one
    other = "234p 567p 234s 678s 3m"
    wall = stack(FAR.replace("1z", "3m"), other, draws="1z 7z 3m 6z 3m 5z",
                 indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("3m"), discard("3m")],
                    1: [riichi("7z"), PASS, discard("6z"), RON]}, rules={"live_wall": 6})
    assert all(w[1] != 1 for w in h.of(E.EV_WIN))
    h = play(wall, {0: [discard("1z"), discard("3m"), discard("3m")],
                    1: [riichi("7z"), PASS, discard("6z"), RON]},
             rules={"live_wall": 6, "riichi_pass_win": "forced"})
    assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1


@pytest.mark.parametrize("rule,banned", [("forbid", True), ("allow", False)])
def test_kuikae_after_a_chi(rule, banned):
    # the dealer chis 3m with 12m and tries to discard 3m at once
    dealer = "12m 3m 456p 789p 1z 234s"
    wall = stack(dealer, FAR, draws="7z 3m", indicator="9m")
    h = play(wall, {0: [discard("7z"), E.A_CHI + 2, discard("3m")], 1: [discard("3m")]},
             rules={"kuikae": rule, "live_wall": 3})
    calls = h.of(E.EV_CALL)
    assert len(calls) == 1 and calls[0][2] == E.MELD_CHI
    after = h.of(E.EV_DISCARD)
    dealer_discards = [d for d in after if d[1] == 0]
    assert bool(dealer_discards[1][2] // 4 == 2) is (not banned)


@pytest.mark.parametrize("allowed", [True, False])
def test_kokushi_may_rob_an_ankan_when_the_rule_says_so(allowed):
    dealer = "777z 123m 456m 789p 5s"
    other = "19m 19p 19s 1234566z"
    wall = stack(dealer, other, draws="7z", indicator="9m")
    h = play(wall, {0: [ankan("7z")], 1: [RON]},
             rules={"kokushi_ankan_ron": allowed, "live_wall": 2})
    robbed = bool(h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1)
    assert robbed is allowed
    if allowed:
        assert h.rec[E.RF_YAKUMAN] >= 1 and h.rec[E.RF_PAY] == 32000


@pytest.mark.parametrize("on", [True, False])
def test_kyuushu_kyuuhai_aborts_with_a_repeat(on):
    dealer = "19m 19p 19s 123z 2468m"
    wall = stack(dealer, FAR.replace("1z", "3p"), draws="5z", indicator="9m")
    h = play(wall, {0: [KYUUSHU]}, rules={"kyuushu": on, "live_wall": 2}, honba=1)
    assert bool(h.rec[E.RF_OUTCOME] == E.OUT_KYUUSHU) is on
    if on:
        assert h.rec[E.RF_DEALER_KEPT] == 1 and h.scores == (25000, 25000)
        assert h.state.st[E.ST_HONBA] == 2


@pytest.mark.parametrize("to,penalty,scores", [
    ("transfer", 1500, (26500, 23500)),
    ("damage_only", 1500, (25000, 23500)),
    ("transfer", 3000, (28000, 22000)),
    ("transfer", 0, (25000, 25000)),
])
def test_the_noten_payment_at_an_exhaustive_draw(to, penalty, scores):
    # the dealer stays tenpai (throws the drawn honour), the other stays far
    wall = stack(DEALER, FAR, draws="1z 7z 6z 3z", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("6z")], 1: [discard("7z"), discard("3z")]},
             rules={"live_wall": 4, "noten_penalty": penalty, "noten_penalty_to": to})
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and h.rec[E.RF_TENPAI] == 1
    assert h.scores == scores
    assert h.rec[E.RF_DEALER_KEPT] == 1 and h.state.st[E.ST_HONBA] == 1


@pytest.mark.parametrize("passes,kept", [("always", 0), ("never", 1)])
def test_a_noten_dealer_passes_the_deal_by_the_rule(passes, kept):
    wall = stack(FAR, DEALER, draws="1z 7z 6z 3z", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("6z")], 1: [discard("7z"), discard("3z")]},
             rules={"live_wall": 4, "noten_dealer_passes": passes})
    assert h.rec[E.RF_TENPAI] == 2 and h.rec[E.RF_DEALER_KEPT] == kept


@pytest.mark.parametrize("rule,paid", [("none", 0), ("plain", 12000)])
def test_nagashi_mangan_by_the_rule(rule, paid):
    # the dealer throws only honours and terminals (a dealer mangan, nobody gains) and stays
    # tenpai, so the other also pays the noten 1500; the other threw simples
    wall = stack(DEALER, FAR, draws="1z 5p 9s 5m", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("9s")], 1: [discard("5p"), discard("5m")]},
             rules={"live_wall": 4, "nagashi_mangan": rule})
    assert h.rec[E.RF_NAGASHI] == (1 if paid else 0) and h.rec[E.RF_TENPAI] == 1
    assert h.scores == (25000 + 1500, 25000 - paid - 1500)


def test_honba_are_paid_by_the_loser():
    wall = stack(DEALER, OTHER, draws="1z 7z 6m", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("6m")], 1: [discard("7z"), RON]}, honba=2)
    assert h.rec[E.RF_PAY] == 1300 + 2 * 300
    assert h.state.st[E.ST_HONBA] == 0           # a non-dealer win passes the deal


# ---- whole games -----------------------------------------------------------------------------

def _games(policy, games, seed=1, rules=None, debug=True):
    ids, params = POLICIES.seat_arrays([{"policy": policy}] * 2, 2)
    s = E.new_state(False)
    g = np.zeros((len(games), E.N_GF), np.int64)
    r = np.zeros((len(games) * 600, E.N_RF), np.int64)
    n = E.play_games(np.asarray(games, np.int64), np.uint64(seed), s, build_scoring_rules(rules),
                     build_rules_array(rules), TS, TH, ids, params, debug, r, g)
    assert n >= 0
    return g, r[:n]


@pytest.mark.parametrize("policy", ["random", "baseline", "greedy"])
def test_whole_games_keep_their_invariants(policy):
    g, r = _games(policy, range(8))
    assert set(np.unique(r[:, E.RF_OUTCOME])) <= set(range(len(E.OUTCOMES)))
    bust = g[:, E.GF_END_REASON] == E.END_BUST
    assert np.all(g[bust, E.GF_SCORE0:E.GF_SCORE1 + 1].min(axis=1) <= 0)
    for i in range(len(g)):
        last = r[r[:, E.RF_GAME] == i][-1]
        assert (last[E.RF_SCORE0], last[E.RF_SCORE1]) == tuple(g[i, E.GF_SCORE0:E.GF_SCORE1 + 1])


@pytest.mark.parametrize("name", ["riichi2p_full_wall", "riichi2p_online", "riichi2p_local_yaku",
                                  "riichi2p_damage_only"])
def test_every_bundled_scenario_plays_in_debug_mode(name):
    from simcore.families import load
    from simcore.riichi2p.rules_array import values_of
    values = values_of(load(name)[1])
    g, r = _games("greedy", range(3), rules=values)
    assert len(r) >= 3


def test_below_zero_lets_a_player_at_zero_play_on():
    g, _ = _games("greedy", range(30), rules={"bust": "below_zero"})
    bust = g[:, E.GF_END_REASON] == E.END_BUST
    assert np.all(g[bust, E.GF_SCORE0:E.GF_SCORE1 + 1].min(axis=1) < 0)


def test_a_game_depends_on_its_seed_and_index_alone():
    a, ra_ = _games("greedy", [5, 6, 7], debug=False)
    b, rb = _games("greedy", [7], debug=False)
    assert np.array_equal(a[2], b[0])
    assert np.array_equal(ra_[ra_[:, E.RF_GAME] == 7], rb)


@pytest.mark.parametrize("all_four,tenpai", [(False, 0), (True, 1)])
def test_a_wait_on_a_fifth_copy_is_tenpai_only_by_the_rule(all_four, tenpai):
    wall = stack("1111m 234567p 789s", FAR, draws="1z 7z", indicator="9m")
    h = play(wall, {0: [discard("1z")], 1: [discard("7z")]},
             rules={"live_wall": 2, "tenpai_all_four_in_hand": all_four})
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and h.rec[E.RF_TENPAI] == tenpai


@pytest.mark.parametrize("atozuke,pay", [(True, 32000), (False, None)])
def test_atozuke_false_refuses_the_daisangen_ron_after_a_chi(atozuke, pay):
    # spec §5.5's example: chi 1s-23s, then 555z 666z 77z 99m waits on 7z (daisangen, whose
    # tiles hold neither the called 1s nor stand apart from the winning 7z) and 9m
    dealer = "2468m 2468p 1s 7z 9s 3z 4z"
    other = "23s 555z 666z 77z 99m 4p"
    wall = stack(dealer, other, draws="2z 5p", indicator="9p")
    h = play(wall, {0: [discard("1s"), discard("7z")], 1: [E.A_CHI + 0, discard("4p"), RON]},
             rules={"live_wall": 3, "atozuke": atozuke})   # 3: the 7z is not the houtei
    assert len(h.of(E.EV_CALL)) == 1
    if pay:
        assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_PAY] == pay
    else:
        assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and len(h.of(E.EV_WIN)) == 0


# ---- issue 46: shiisan puutaa (spec §8.4, §4.6) ----------------------------------------------
# 13 kinds, one pair (9m), no run, triplet or taatsu: 14 tiles with the 1p drawn
PUUTAA13 = "1499m 47p 258s 3457z"


def _puutaa_paid(dealer: bool) -> int:
    """What the independent reference pays for the pattern as a first-turn tsumo (§8.4)."""
    from simcore.riichi2p import reference as R
    from simcore.riichi2p.tiles import parse_group, split_groups
    kinds = [k for g in split_groups(PUUTAA13.replace(" ", ""), "t") for k, _, _ in
             parse_group(g, "t")]
    win = R.Win(concealed=sorted(kinds), melds=[], win_tile=9, tsumo=True, first=True,
                dealer=dealer, seat_wind=R.EAST if dealer else R.SOUTH, shiisan_puutaa=True)
    got = R.score(win, {"shiisan_puutaa": True})
    assert got is not None and got.legal and got.yakuman == {"shiisan_puutaa": 1}
    return got.payment


@pytest.mark.parametrize("on", [True, False])
def test_shiisan_puutaa_in_the_dealers_dealt_14_is_offered_as_tsumo(on):
    # the bug: the mask offered tsumo only on a winning shape, so the pattern never won
    wall = stack(PUUTAA13, FAR, draws="1p", indicator="9m")
    h = play(wall, {0: [TSUMO]}, rules={"shiisan_puutaa": on, "live_wall": 2})
    if on:
        assert h.rec[E.RF_OUTCOME] == E.OUT_TSUMO and h.rec[E.RF_WINNER] == 0
        assert (h.rec[E.RF_YAKU] >> Y_SHIISAN_PUUTAA) & 1 and h.rec[E.RF_YAKUMAN] == 1
        assert h.rec[E.RF_PAY] == _puutaa_paid(dealer=True) == 48000
    else:
        assert h.rec[E.RF_OUTCOME] != E.OUT_TSUMO


def test_shiisan_puutaa_at_the_non_dealers_first_draw_is_offered_as_tsumo():
    wall = stack(FAR, PUUTAA13, draws="3p 1p", indicator="9m")
    h = play(wall, {0: [discard("3p")], 1: [TSUMO]},
             rules={"shiisan_puutaa": True, "live_wall": 3})
    assert h.rec[E.RF_OUTCOME] == E.OUT_TSUMO and h.rec[E.RF_WINNER] == 1
    assert h.rec[E.RF_PAY] == _puutaa_paid(dealer=False) == 32000


def test_shiisan_puutaa_is_void_after_the_dealers_ankan():
    # §8.4: void after any call, an ankan included; the dealer's ankan comes before the
    # non-dealer's first draw, so the pattern is no win there
    dealer = "1111z 2468m 2468p 9s"
    wall = stack(dealer, PUUTAA13, draws="9p 1p 5z", indicator="9m", rinshan="3s")
    h = play(wall, {0: [ankan("1z"), discard("9s")], 1: [TSUMO]},
             rules={"shiisan_puutaa": True, "live_wall": 3})
    assert len(h.of(E.EV_CALL)) == 1
    assert h.rec[E.RF_OUTCOME] != E.OUT_TSUMO or h.rec[E.RF_WINNER] != 1
    assert not (h.rec[E.RF_YAKU] >> Y_SHIISAN_PUUTAA) & 1
