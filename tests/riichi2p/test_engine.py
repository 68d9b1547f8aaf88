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
from simcore.riichi2p.scoring import Y_HOUTEI, Y_PAARENCHAN, Y_SHIISAN_PUUTAA

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
    from simcore.family.registry import load
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


# ---- issue 46: the readings settled in spec §17, pinned ---------------------------------------

def test_reading_1_kuikae_bans_the_suji_across_the_run_from_an_end_call():
    # §17.1: 9p called with 78p bans 6p; 7p called with 89p has no suji tile (only 7p itself)
    s = E.new_state(False)
    ra = build_rules_array({"kuikae": "forbid"})
    p7, p6, p9, p1 = 9 + 6, 9 + 5, 9 + 8, 9 + 0
    assert E._kuikae_banned(s, 0, E.MELD_CHI, p7, p9, ra, p6)        # 9p with 78p: 6p banned
    assert E._kuikae_banned(s, 0, E.MELD_CHI, p7, p9, ra, p9)
    assert not any(E._kuikae_banned(s, 0, E.MELD_CHI, p7, p7, ra, k)  # 7p with 89p
                   for k in range(34) if k != p7)
    assert E._kuikae_banned(s, 0, E.MELD_CHI, p1, p1, ra, 9 + 3)    # 1p with 23p: 4p banned


def test_reading_2_a_vanishing_pool_stays_reported_through_a_draw():
    # §17.2: under riichi_pot: vanish the deposit stays in the pool until the next win, which
    # does not receive it (test_riichi_pot_vanish_burns_the_pool), and survives a draw
    wall = stack(DEALER, FAR, draws="1z 7z 6z 3z", indicator="9m")
    h = play(wall, {0: [riichi("1z"), discard("6z")], 1: [discard("7z"), discard("3z")]},
             rules={"live_wall": 4, "riichi_pot": "vanish"}, pool=1000)
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and h.rec[E.RF_RIICHI] == 1
    assert h.pool == 2000 and h.rec[E.RF_POOL_LEFT] == 2000
    assert h.scores == (25000 - 1000 + 1500, 25000 - 1500)


@pytest.mark.parametrize("action", ["ron", "pon"])
def test_reading_3_the_discard_after_a_kan_took_the_last_live_tile_is_houtei(action):
    # §17.3: live_wall 2; the dealer's draw leaves one live tile, its ankan moves that tile to
    # the dead wall, so its discard after the replacement draw is the last discard: ronned it is
    # houtei, and it may not be called
    dealer = "1111z 2468m 2468p 9s"
    other = OTHER if action == "ron" else "66m 2468p 2468s 357z"
    wall = stack(dealer, other, draws="5z 7z", indicator="9m 9m", rinshan="3s")
    h = play(wall, {0: [ankan("1z"), discard("6m")], 1: [RON if action == "ron" else PON]},
             rules={"live_wall": 2})
    assert len(h.of(E.EV_CALL)) == 1                 # the ankan alone
    if action == "ron":
        assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_WINNER] == 1
        assert (h.rec[E.RF_YAKU] >> Y_HOUTEI) & 1
    else:
        assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW


def test_reading_4_four_kans_abort_before_the_fourth_indicator():
    # §17.4: the dealer's three ankans turn three kan indicators; the other's ankan is the
    # fourth kan by two players: the hand aborts before its indicator is turned
    dealer = "1111m 2222m 3333m 9p"
    other = "4444p 2468s 567z 99s"
    wall = stack(dealer, other, draws="5z 6z", indicator="9m", rinshan="7m 8m 9m")
    h = play(wall, {0: [ankan("1m"), ankan("2m"), ankan("3m"), discard("5z")],
                    1: [ankan("4p")]})
    assert h.rec[E.RF_OUTCOME] == E.OUT_FOUR_KANS
    # the first indicator and the three kans' (the hand start logs the first one too)
    assert len(h.of(E.EV_CALL)) == 4 and len(h.of(E.EV_INDICATOR)) == 4
    assert h.state.st[E.ST_N_IND] == 4


def test_reading_5_sanankou_stands_apart_for_atozuke_b2():
    # §17.5: sanankou is a set yaku for (b2); (b2) holds when its sets hold no called tile and
    # not the winning tile
    rules = build_scoring_rules({"atozuke": False})
    apart = score_hand("chi:1'23s 222m 333p 444s 9m +9m ron seat:S", rules)
    assert apart["win"] and apart["yaku"] == ["sanankou"] and apart["pay"] == 2600
    holds_win = score_hand("chi:1'23s 222m 333p 44s 99m +4s tsumo seat:S", rules)
    assert not holds_win["win"] and holds_win["why"].startswith("atozuke")
    assert score_hand("chi:1'23s 222m 333p 44s 99m +4s tsumo seat:S",
                      build_scoring_rules())["pay"] == 2600


def _dealer_tsumo(**kw):
    wall = stack(DEALER, FAR, draws="1z 7z 2s", indicator="9m")
    return play(wall, {0: [discard("1z"), TSUMO], 1: [discard("7z")]}, **kw)


def test_reading_6_paarenchan_counts_from_the_dealers_first_win_as_dealer():
    # §17.6: the non-dealer win that makes a player dealer does not count ...
    wall = stack(DEALER, OTHER, draws="1z 7z 6m", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("6m")], 1: [discard("7z"), RON]},
             rules={"paarenchan": True}, st={"streak": 3, "streak_seat": 0})
    assert h.rec[E.RF_WINNER] == 1
    assert (h.state.st[E.ST_STREAK], h.state.st[E.ST_STREAK_SEAT]) == (0, -1)
    # ... the dealer's first win as dealer is the first, and the 8th is paarenchan
    h = _dealer_tsumo(rules={"paarenchan": True})
    assert (h.state.st[E.ST_STREAK], h.state.st[E.ST_STREAK_SEAT]) == (1, 0)
    assert not (h.rec[E.RF_YAKU] >> Y_PAARENCHAN) & 1
    h = _dealer_tsumo(rules={"paarenchan": True}, st={"streak": 7, "streak_seat": 0})
    assert (h.rec[E.RF_YAKU] >> Y_PAARENCHAN) & 1 and h.state.st[E.ST_STREAK] == 8


@pytest.mark.parametrize("draw,kept", [("reset", 0), ("pause", 5)])
def test_reading_6_an_abortive_draw_resets_paarenchan_like_an_exhaustive_one(draw, kept):
    dealer = "19m 19p 19s 123z 2468m"
    wall = stack(dealer, FAR.replace("1z", "3p"), draws="5z", indicator="9m")
    h = play(wall, {0: [KYUUSHU]}, rules={"live_wall": 2, "paarenchan": True,
                                          "paarenchan_draw": draw},
             st={"streak": 5, "streak_seat": 0})
    assert h.rec[E.RF_OUTCOME] == E.OUT_KYUUSHU
    assert h.state.st[E.ST_STREAK] == kept


@pytest.mark.parametrize("all_four", [False, True])
def test_reading_7_a_fifth_copy_wait_allows_riichi_only_by_the_rule_and_never_wins(all_four):
    # §17.7: 1111m 234567p 789s waits on a fifth 1m under tenpai_all_four_in_hand: true, for
    # riichi (and the draw's tenpai: test_a_wait_on_a_fifth_copy_is_tenpai_only_by_the_rule)
    wall = stack("1111m 234567p 789s", FAR, draws="1z 7z 3z 6z", indicator="9m")
    h = play(wall, {0: [riichi("1z"), discard("3z")], 1: [discard("7z"), discard("6z")]},
             rules={"live_wall": 4, "tenpai_all_four_in_hand": all_four})
    assert h.rec[E.RF_RIICHI] == (1 if all_four else 0)
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and len(h.of(E.EV_WIN)) == 0


def test_reading_8_a_discard_or_kakan_event_names_the_kind_and_redness_not_the_copy():
    # §17.8: tile ids in discard and kakan events are kind * 4 + 1 for a plain tile and
    # kind * 4 for the red five, whichever physical copy it was
    dealer = "0m 5m 456p 789p 1z 234s 9s"
    wall = stack(dealer, FAR, draws="1z 7z 3z 6z 2z", indicator="9m")
    h = play(wall, {0: [discard("1z"), discard("5m"), discard("5m")],
                    1: [discard("7z"), PASS, discard("6z"), PASS]},
             rules={"live_wall": 5, "red_fives": True})
    ids = [int(e[2]) for e in h.of(E.EV_DISCARD) if e[1] == 0]
    assert ids[0] == 4 * 27 + 1                       # a plain East, whichever copy was drawn
    assert ids[1:] == [4 * 4 + 1, 4 * 4]              # the plain 5m first, then the red one
