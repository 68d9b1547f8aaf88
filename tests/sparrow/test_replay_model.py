"""Recorded Sparrow games replayed event by event through the independent rule model
(tests/sparrow/replay_model.py, written from the spec and docs/sparrow.md alone): the bundled
scenarios and variants touching every rule option, and tampered records the model must refuse."""
from __future__ import annotations


import numpy as np
import pytest

from simcore.sparrow.engine import EV_TYPES, ROUND_FIELDS, GAME_FIELDS
from simcore.sparrow.family import FAMILY
from tests.sparrow.replay_model import check_game
from tests.replay_checks import variant, replay_all, copied_batch, refused, refused_records

SEED = 3
GAMES = 30


def _variant(edits: dict, base: str = "sparrow", name: str = "replay_variant"):
    return variant(FAMILY, base, edits, name)


def _seats(n, policy="greedy", **params):
    seat = {"policy": policy}
    if params:
        seat["params"] = params
    return [dict(seat) for _ in range(n)]


def _replay_all(sc, games=GAMES, seed=SEED):
    replay_all(FAMILY.SIMULATOR(sc), sc, check_game, games, seed)


@pytest.mark.parametrize("scenario", ["sparrow", "sparrow_2p", "sparrow_5p", "sparrow_min4"])
def test_bundled_scenarios_replay_by_the_rules(scenario):
    _replay_all(FAMILY.SCENARIOS.load(scenario))


VARIANTS = {
    "multiple_ron_all": {"wins.multiple_ron": "all"},
    "furiten_tile": {"wins.furiten": "tile"},
    "furiten_none": {"wins.furiten": "none"},
    "tsumo_split_floor": {"settlement.tsumo": "split_floor"},
    "tsumo_each_full": {"settlement.tsumo": "each_full"},
    "noten_payment_2": {"draw.noten_payment": 2},
    "dealer_repeat_on_win": {"match.dealer_repeat": "on_win"},
    "dealer_repeat_on_win_or_draw": {"match.dealer_repeat": "on_win_or_draw"},
    "specials_alone": {"scoring.specials": "alone"},
    "dora_next": {"wall.dora": "next"},
    "red_bamboo_0": {"deck.red_bamboo": 0},
    "red_bamboo_4": {"deck.red_bamboo": 4},
    "dealer_bonus_3": {"scoring.dealer_bonus": 3},
    "may_decline_random": {"wins.may_decline": True, "players": _seats(4, "random")},
    "may_decline_random_all": {"wins.may_decline": True, "wins.multiple_ron": "all",
                               "players": _seats(4, "random")},
    "may_decline_greedy_below_8": {"wins.may_decline": True,
                                   "players": _seats(4, "greedy", decline_below=8)},
    "seats_2": {"players": _seats(2)},
    "seats_6": {"players": _seats(6)},
    "seats_6_all_on_win": {"players": _seats(6), "wins.multiple_ron": "all",
                           "match.dealer_repeat": "on_win", "wins.furiten": "none",
                           "draw.noten_payment": 1},
    "seats_2_random_decline_mixed": {"players": _seats(2, "random"), "wins.may_decline": True,
                                     "wall.dora": "next", "deck.red_bamboo": 4,
                                     "scoring.specials": "alone", "scoring.dealer_bonus": 2},
    "policy_random": {"players": _seats(4, "random")},
    "no_bust": {"match.bust_ends": False, "settlement.tsumo": "each_full"},
    "laps_1": {"match.laps": 1},
    # a seat busts in the round that completes the last lap (the reason is then "bust")
    "bust_on_last_lap": {"start_points": 12, "match.laps": 1, "settlement.tsumo": "each_full"},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_variants_replay_by_the_rules(variant):
    _replay_all(_variant(VARIANTS[variant]))


def test_round_limit_ends_the_game_at_256_rounds():
    # nobody can win, every round is drawn and the dealer repeats after a draw
    sc = _variant({"match.dealer_repeat": "on_win_or_draw", "wins.min_points": 1000,
                   "players": _seats(4, "random"), "draw.noten_payment": 1,
                   "match.bust_ends": False})
    sim = FAMILY.SIMULATOR(sc)
    for game in range(3):
        events, batch = sim.replay_events(SEED, game)
        check_game(sc, events, batch)
        assert int(batch.games[0][GAME_FIELDS.index("rounds")]) == 256
        assert int(batch.games[0][GAME_FIELDS.index("end_reason")]) == 2


# --- the model refuses tampered records ---------------------------------------------------------

EV = {name: i for i, name in enumerate(EV_TYPES)}


def _game_with_a_ron_and_a_tsumo():
    """A default-scenario game (seed 3) holding both a ron and a tsumo, its events and batch."""
    sc = FAMILY.SCENARIOS.load("sparrow")
    sim = FAMILY.SIMULATOR(sc)
    for game in range(50):
        events, batch = sim.replay_events(SEED, game)
        wins = events[events[:, 0] == EV["win"]]
        if (wins[:, 4] == -1).any() and (wins[:, 4] >= 0).any():
            check_game(sc, events, batch)
            return sc, events, batch
    raise AssertionError("no game with both a ron and a tsumo in 50")


def _batch(batch):
    return copied_batch(batch)


def _refused(sc, events, batch, match):
    refused(check_game, sc, events, batch, match)


def test_tampered_events_and_records_are_refused():
    sc, events, batch = _game_with_a_ron_and_a_tsumo()
    win_rows = np.flatnonzero(events[:, 0] == EV["win"])
    ron = next(i for i in win_rows if events[i, 4] >= 0)
    tsumo = next(i for i in win_rows if events[i, 4] == -1)

    e = events.copy()
    e[ron, 3] += 1                                    # a win's points
    _refused(sc, e, batch, "worth")

    e = events.copy()
    e[ron + 1, 3] += 1                                # the ron's payment
    _refused(sc, e, batch, "payments")

    e = np.delete(events, [tsumo, *range(tsumo + 1, tsumo + 4)], axis=0)   # a skipped tsumo
    _refused(sc, e, batch, "skips a legal tsumo")

    e = np.delete(events, [ron, ron + 1], axis=0)     # a skipped ron
    _refused(sc, e, batch, "skips a legal ron")

    e = events.copy()
    e[0, 2] = (e[0, 2] + 1) % 11                      # the dora kind
    _refused(sc, e, batch, "dora kind")

    e = events.copy()
    first_discard = np.flatnonzero(e[:, 0] == EV["discard"])[0]
    e[first_discard, 2] = e[0, 3]                     # discard the indicator
    _refused(sc, e, batch, "not in its hand")

    e = events.copy()
    first_draw = np.flatnonzero(e[:, 0] == EV["draw"])[0]
    e[first_draw, 2] = e[0, 3]                        # draw the indicator
    _refused(sc, e, batch, "already dealt, drawn or revealed")

    e = events.copy()
    e[first_draw, 1] = (e[first_draw, 1] + 1) % 4     # out of turn
    _refused(sc, e, batch, "turn")

    e = events.copy()
    e[-1, 3] = (e[-1, 3] + 1) % 3                     # the end reason
    _refused(sc, e, batch, "game_end reason")

    refused_records(check_game, sc, events, batch, [
        ("rounds", ROUND_FIELDS, "points0", lambda v: v + 1),   # a round's points
        ("rounds", ROUND_FIELDS, "turns", lambda v: v + 1),
        ("games", GAME_FIELDS, "winners", lambda v: v ^ 1)])


def test_a_wrong_reach_column_is_refused():
    """Reach is checked in the sampled games (index a multiple of 8) and must be 0 elsewhere."""
    sc = FAMILY.SCENARIOS.load("sparrow")
    sim = FAMILY.SIMULATOR(sc)
    for game in (0, 1):
        events, batch = sim.replay_events(SEED, game)
        check_game(sc, events, batch)
        reach = batch.rounds[:, ROUND_FIELDS.index("reach0"):ROUND_FIELDS.index("reach0") + 4]
        assert (reach.any() if game == 0 else not reach.any())
        b = _batch(batch)
        b.rounds[0, ROUND_FIELDS.index("reach1")] ^= 2    # chanta
        _refused(sc, events, b, "round record reach1")


def test_a_ron_under_furiten_is_refused():
    """A recorded ron replayed under a scenario whose furiten rule forbids it."""
    sc_none = _variant({"wins.furiten": "none"})
    sim = FAMILY.SIMULATOR(sc_none)
    sc_waits = _variant({"wins.furiten": "waits"})
    for game in range(200):
        events, batch = sim.replay_events(SEED, game)
        try:
            check_game(sc_waits, events, batch)
        except AssertionError as e:
            if "furiten" in str(e):
                return
    pytest.fail("no furiten ron in 200 games under wins.furiten: none")


def test_rules_of_the_model_differ_from_a_wrong_scenario():
    """Games of one tsumo rule replayed under another are refused (the model reads the option)."""
    sc = _variant({"settlement.tsumo": "each_full"})
    events, batch = FAMILY.SIMULATOR(sc).replay_events(SEED, 0)
    check_game(sc, events, batch)
    if not ((events[:, 0] == EV["win"]) & (events[:, 4] == -1)).any():
        pytest.skip("game 0 has no tsumo")
    _refused(_variant({}), events, batch, "payments")
