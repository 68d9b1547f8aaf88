"""Recorded two-player riichi games replayed event by event through the independent rule model
(tests/riichi2p/replay_model.py, written from shared/rules/riichi2p.md and the log format
alone): the bundled scenarios, variants flipping the [I] options (the §17 readings first) and
some [R] options, with the scenario's bots and with random seats; tampered records the model
must refuse; and the two engine deviations it found, fixed in the engine."""
from __future__ import annotations


import numpy as np
import pytest

from simcore.riichi2p.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS
from simcore.riichi2p.family import FAMILY
from tests.riichi2p.replay_model import check_game
from tests.replay_checks import replay_all, copied_batch, refused, game_with

SEED = 3
GAMES = 16
EV = {name: i for i, name in enumerate(EV_TYPES)}
RANDOM = [{"policy": "random"}, {"policy": "random"}]
BASELINE = [{"policy": "baseline"}, {"policy": "baseline"}]


def _variant(edits: dict, base: str = "riichi2p", name: str = "replay_variant"):
    d = FAMILY.SCENARIOS.load(base).to_dict()
    d.update(edits)
    if d["players"] == RANDOM and "max_hands" not in edits:
        d["max_hands"] = 25      # random seats rarely bust anyone: keep their games short
    return FAMILY.SCENARIOS.from_dict(d, name=name)


def _replay_all(sc, games=GAMES, seed=SEED):
    replay_all(FAMILY.SIMULATOR(sc), sc, check_game, games, seed)


BUNDLED = ["riichi2p", "riichi2p_full_wall", "riichi2p_online", "riichi2p_local_yaku",
           "riichi2p_damage_only"]


@pytest.mark.parametrize("scenario", BUNDLED)
def test_bundled_scenarios_replay_by_the_rules(scenario):
    _replay_all(FAMILY.SCENARIOS.load(scenario))


@pytest.mark.parametrize("scenario", BUNDLED)
def test_bundled_scenarios_with_random_seats(scenario):
    _replay_all(_variant({"players": RANDOM}, base=scenario), games=6)


VARIANTS = {
    # §17 readings first
    "s17_1_kuikae_genbutsu_only": {"kuikae": "genbutsu_only"},
    "s17_1_kuikae_allow": {"kuikae": "allow", "players": RANDOM},
    "s17_1_kuikae_forbid_random": {"kuikae": "forbid", "players": RANDOM},
    "s17_2_vanish": {"riichi_pot": "vanish"},
    "s17_3_4_kans_random_short_wall": {"players": RANDOM, "live_wall": 12},
    "s17_4_suukaikan_false": {"suukaikan": False, "players": RANDOM},
    "s17_5_atozuke_false": {"atozuke": False},
    "s17_5_atozuke_literal_ignore": {"atozuke": False, "atozuke_first_call": "literal",
                                     "atozuke_whole_hand_yaku": "ignore"},
    "s17_6_paarenchan_player_wins_pause": {"paarenchan": True,
                                           "paarenchan_counts": "player_wins",
                                           "paarenchan_draw": "pause"},
    "s17_7_all_four_in_hand": {"tenpai_all_four_in_hand": True},
    # the other [I] options
    "first_dealer_1_east_west": {"first_dealer": 1, "seat_winds": "east_west"},
    "noten_damage_reset_on_pass": {"noten_penalty_to": "damage_only",
                                   "honba_after_draw": "reset_on_pass"},
    "ura_without_riichi": {"ura_needs_riichi": False, "red_fives": True},
    "nagashi_own_call_honba": {"nagashi_mangan": "void_if_called", "nagashi_void_on": "own_call",
                               "nagashi_honba": True, "players": RANDOM},
    "nagashi_any_call": {"nagashi_mangan": "void_if_called", "nagashi_void_on": "any_call"},
    "riichi_pass_win_forced": {"riichi_pass_win": "forced"},
    "riichi_ankan_any_tile": {"riichi_ankan_drawn_only": False, "players": BASELINE},
    "below_zero_both_draw": {"bust": "below_zero", "both_bust": "draw",
                             "start_points": [3000, 3000]},
    "max_hands_3": {"max_hands": 3},
    "local_yaku_options": {"sanrenkou": True, "sanrenkou_open_han": 1, "daisharin": True,
                           "daisharin_ranks": "any7", "renhou": "baiman"},
    # some [R] options that change the flow
    "kokushi_ankan_ron_no_kyuushu": {"kokushi_ankan_ron": True, "kyuushu": False},
    "dealer_never_passes_shibari": {"noten_dealer_passes": "never", "ryanhan_shibari": True,
                                    "shibari_honba": 1},
    "dealer_east_only": {"noten_dealer_passes": "east_only", "honba_value": 1500,
                         "noten_penalty": 3000},
    "no_kan_dora_no_ura": {"kan_dora": False, "ura_dora": False, "players": RANDOM},
    "riichi_minimums": {"riichi_min_points": 5000, "riichi_min_wall": 6},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_variants_replay_by_the_rules(variant):
    _replay_all(_variant(VARIANTS[variant]))


# --- two engine deviations the model found, fixed in the engine --------------------------------

def test_discard_ids_name_kind_and_red_only():
    """A tsumogiri discard logged the drawn physical tile id (seed 3, game 0, event 41: 54,
    copy 2 of 5p), not kind*4(+1) (§17.8)."""
    _replay_all(FAMILY.SCENARIOS.load("riichi2p"), games=3)


def test_riichi_discards_the_drawn_tile_even_a_red_five():
    """A riichi player who drew a red five discarded a plain five and kept the red (+1 han;
    riichi2p_online, seed 3, game 6, event 1174); in riichi the drawn tile goes (§7, §4.6.5)."""
    sc = FAMILY.SCENARIOS.load("riichi2p_online")
    for game in (6, 17):
        events, batch = FAMILY.SIMULATOR(sc).replay_events(SEED, game)
        check_game(sc, events, batch)


# --- the model refuses tampered records -------------------------------------------------------

def _batch(batch):
    return copied_batch(batch)


def _refused(sc, events, batch, match):
    refused(check_game, sc, events, batch, match)


def _game_with(sc, want):
    return game_with(FAMILY.SIMULATOR(sc), sc, check_game, SEED, want)


def test_tampered_events_and_records_are_refused():
    sc = FAMILY.SCENARIOS.load("riichi2p")
    events, batch = _game_with(sc, lambda e: ((e[:, 0] == EV["win"]).any()
                                              and (e[:, 0] == EV["riichi_paid"]).any()))
    win = int(np.flatnonzero(events[:, 0] == EV["win"])[0])
    e = events.copy()
    e[win, 3] += 100                                   # the payment
    _refused(sc, e, batch, "win paid")

    e = events.copy()
    first_discard = int(np.flatnonzero(e[:, 0] == EV["discard"])[0])
    k = int(e[first_discard, 2]) // 4
    e[first_discard, 2] = ((k + 1) % 34) * 4 + 1       # a tile not (necessarily) held
    e[first_discard, 4] = 0
    with pytest.raises(AssertionError):
        check_game(sc, e, batch)

    e = events.copy()
    first_draw = int(np.flatnonzero(e[:, 0] == EV["draw"])[0])
    e[first_draw, 2] = e[1, 2]                         # draw a dealt tile
    _refused(sc, e, batch, "already dealt")

    e = events.copy()
    paid = int(np.flatnonzero(e[:, 0] == EV["riichi_paid"])[0])
    e = np.delete(e, paid, axis=0)                     # a riichi without its deposit
    _refused(sc, e, batch, "deposit")

    e = events.copy()
    e[-1, 2] ^= 3                                      # the game's winners
    _refused(sc, e, batch, "game_end winners")

    b = _batch(batch)
    b.rounds[0, ROUND_FIELDS.index("score0")] += 100
    _refused(sc, events, b, "round record 0 score0")

    b = _batch(batch)
    b.games[0, GAME_FIELDS.index("rounds")] += 1
    _refused(sc, events, b, "game record rounds")


def test_a_riichi_with_too_few_points_is_refused():
    """A game played under the spec's riichi minimum, replayed under a stricter one."""
    sc = FAMILY.SCENARIOS.load("riichi2p")
    strict = _variant({"riichi_min_points": 26000})
    events, batch = _game_with(sc, lambda e: (e[:, 0] == EV["riichi_paid"]).any())
    _refused(strict, events, batch, "§7: riichi with")


def test_a_discard_under_a_stricter_kuikae_is_refused():
    """Games replayed under options that forbid what they did: the model reads the options."""
    sc = _variant({"kuikae": "allow", "players": RANDOM})
    sim = FAMILY.SIMULATOR(sc)
    forbid = _variant({"kuikae": "forbid", "players": RANDOM})
    for game in range(10):
        events, batch = sim.replay_events(SEED, game)
        check_game(sc, events, batch)
        try:
            check_game(forbid, events, batch)
        except AssertionError as e:
            if "kuikae" in str(e) or "no legal discard" in str(e):
                return
    pytest.fail("no kuikae discard in 10 random games under kuikae: allow")
