"""The ptrump engine: invariants under every bundled scenario and many rule options, score
bookkeeping (spec §8), option effects, determinism across batches and workers, replay.

Debug mode makes the engine check, at every turn start, that every card id is in exactly one
place and that concealed hands are 7 - 3k cards (7/4/1), that every policy answer is legal, and
after every round that the scores plus the pool changed by exactly the win values less the noten
penalties (plus what went to tenpai players, nagashi at a draw, less pon penalties under
``always`` and deposits lost at a draw); any breach raises inside the engine. The records are
then checked again from Python.

Compiled simulators are shared through the module-level cache (one Simulator per rules and
seats; the compiled kernel is the same for all of them).
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.ptrump import family, scenario
from simcore.ptrump.engine import (
    END_ROUND_LIMIT, END_TARGET, GF_END_REASON, GF_N_SEATS, GF_N_WINNERS, GF_POOL_LEFT,
    GF_ROUNDS, GF_SCORE0, GF_WINNER, GF_WINNERS, OUT_DRAW, RF_DEPOSITS_LOST, RF_DEPOSITS_TAKEN,
    RF_GAME, RF_KANS0, RF_NOTEN_PAID, RF_NOTEN_PENALTY, RF_NUKI0, RF_OUTCOME, RF_POOL,
    RF_PONS0, RF_RIICHI0, RF_ROUND, RF_SCORE0, RF_TENPAI0, RF_VALUE, RF_VALUE0, RF_VALUE1, RF_VALUE2, RF_WINNERS,
    round_balance,
)
from simcore.ptrump.simulate import Simulator

_SIMS: dict = {}


def sim(name, policies, **overrides):
    """The Simulator of bundled scenario ``name`` with these seats and dotted-key overrides."""
    key = (name, policies, repr(sorted(overrides.items())))
    if key not in _SIMS:
        data = scenario.load(name).to_dict()
        data["players"] = [_seat(p) for p in policies]
        for path, value in overrides.items():
            node = data
            *parents, leaf = path.split(".")
            for p in parents:
                node = node[p]
            node[leaf] = value
        _SIMS[key] = Simulator(scenario.from_dict(data, name=name))
    return _SIMS[key]


def _seat(text):
    """``greedy:pon_min_value=-3`` -> a seat mapping."""
    name, *pairs = text.split(":")
    params = {}
    for pair in pairs:
        k, v = pair.split("=")
        params[k] = float(v) if "." in v else int(v)
    return {"policy": name, "params": params}


def check_records(sc, b):
    """Record-level checks: bookkeeping per round, per match, and the match end (spec §8, §9)."""
    n = len(sc["players"])
    start = sc.get("match.start_score")
    target = sc.get("match.target_score")
    r, g = b.rounds, b.games
    assert np.all(g[:, GF_N_SEATS] == n) and g[:, GF_ROUNDS].sum() == len(r)
    prev_total = None
    prev_game = -1
    for row in r:
        total = int(row[RF_SCORE0:RF_SCORE0 + n].sum() + row[RF_POOL])
        if row[RF_GAME] != prev_game:
            prev_total, prev_game = n * start, row[RF_GAME]
            assert row[RF_ROUND] == 0
        assert total - prev_total == round_balance(row), "bookkeeping (spec §8)"
        prev_total = total
        w = int(row[RF_WINNERS])
        if row[RF_OUTCOME] == OUT_DRAW:
            assert w == 0 and row[RF_VALUE] == 0 and row[RF_DEPOSITS_TAKEN] == 0
            noten = n - row[RF_TENPAI0:RF_TENPAI0 + n].sum()
            assert row[RF_NOTEN_PENALTY] <= noten * sc.get("scoring.deductions.noten")
        else:
            assert w != 0 and row[RF_POOL] == 0 and row[RF_DEPOSITS_LOST] == 0
            vals = row[RF_VALUE0:RF_VALUE0 + n]
            assert vals.sum() == row[RF_VALUE]
            for s in range(n):
                if not (w >> s) & 1:
                    assert vals[s] == 0
            assert row[RF_NOTEN_PENALTY] == 0 and row[RF_NOTEN_PAID] == 0
            if sc.get("scoring.negative_win") != "literal":
                assert np.all(vals >= 0)
        assert np.all(row[RF_KANS0:RF_KANS0 + n].sum() <= sc.get("kan.max_per_round"))
        assert np.all(row[RF_PONS0:RF_PONS0 + n] <= 2) and np.all(row[RF_NUKI0:RF_NUKI0 + n] <= 2)
    # the match: the last round's scores, the winners are the top seats, the end reason
    last = np.searchsorted(r[:, RF_GAME], np.arange(len(g)), side="right") - 1
    scores = g[:, GF_SCORE0:GF_SCORE0 + n]
    assert np.array_equal(scores, r[last][:, RF_SCORE0:RF_SCORE0 + n])
    assert np.array_equal(g[:, GF_POOL_LEFT], r[last][:, RF_POOL])
    top = scores.max(axis=1)
    for i in range(len(g)):
        winners = [s for s in range(n) if (g[i, GF_WINNERS] >> s) & 1]
        assert winners == [s for s in range(n) if scores[i, s] == top[i]]
        assert g[i, GF_N_WINNERS] == len(winners)
        assert g[i, GF_WINNER] == (winners[0] if len(winners) == 1 else -1)
        if g[i, GF_END_REASON] == END_TARGET:
            assert top[i] >= target
        else:
            assert g[i, GF_END_REASON] == END_ROUND_LIMIT
            assert g[i, GF_ROUNDS] == sc.get("match.max_rounds")


SEATINGS = {2: [("random", "random"), ("greedy", "baseline"), ("greedy", "random")],
            3: [("random", "random", "random"), ("greedy", "baseline", "random"),
                ("greedy", "greedy", "greedy")]}


@pytest.mark.parametrize("name", scenario.bundled_names())
def test_invariants_under_every_bundled_scenario(name):
    sc = scenario.load(name)
    for policies in SEATINGS[len(sc["players"])]:
        s = sim(name, policies)
        b = s.play(np.arange(40), seed=12345, debug=True)
        assert len(b.games) == 40
        check_records(s.scenario, b)


# Rule options (each must be read by the engine or by scoring), each with base overrides, the
# variant's overrides, the seats that make it matter and the matches to play. Every variant is
# played in debug mode and must change some record against its base on the same seed: an option
# that cannot change an outcome is a defect. ``greedy:pon_min_value=-3`` calls whatever it costs
# (negative values, pons then kakans); random seats decline wins, call and kan at random.
R3 = ("random", "random", "random")
GR = ("greedy", "random")
CALLER = ("greedy:pon_min_value=-3", "greedy:pon_min_value=-3")
OPTION_VARIANTS = [
    ("ptrump_3p", {}, {"calls.multiple_ron": "all"}, R3, 30),
    ("ptrump_2p", {}, {"nukidora.mode": "instead_of_discard"}, GR, 60),
    ("ptrump_2p", {}, {"nukidora.rob": "any_joker_wait"}, GR, 60),
    ("ptrump_2p", {}, {"nukidora.interrupts": True}, GR, 60),
    ("ptrump_2p", {}, {"stock.replacement_reserve": 4}, GR, 60),
    ("ptrump_2p", {}, {"stock.indicators_in_stock": True}, GR, 60),
    ("ptrump_2p", {}, {"scoring.deductions.pon_penalty": "always"}, GR, 60),
    ("ptrump_2p", {}, {"scoring.deductions.kakan_keeps_pon_penalty": False}, CALLER, 300),
    ("ptrump_2p", {}, {"riichi.deposits": "lost_at_draw"}, GR, 60),
    ("ptrump_2p", {}, {"scoring.additive.nagashi.when": "at_draw"}, GR, 60),
    ("ptrump_3p", {}, {"exhaustive_draw.noten_to_tenpai": True},
     ("random", "random", "baseline"), 30),
    ("ptrump_2p", {}, {"furiten": "none"}, GR, 60),
    ("ptrump_3p", {}, {"furiten": "discard_only"}, R3, 30),
    ("ptrump_3p", {}, {"calls.kan_after_pon": True}, R3, 30),
    ("ptrump_3p", {}, {"calls.kuikae": True}, R3, 30),
    ("ptrump_3p", {}, {"calls.call_last_discard": True}, R3, 30),
    ("ptrump_3p", {}, {"kan.open_kan_from": "previous_only"}, R3, 30),
    ("ptrump_2p", {}, {"kan.added_kan": False}, GR, 60),
    ("ptrump_3p", {}, {"kan.max_per_round": 1}, R3, 30),
    ("ptrump_2p", {"stock.replacement_reserve": 4}, {"kan.replacement_needs_stock": False},
     R3[:2], 100),
    ("ptrump_2p", {}, {"riichi.ankan": True}, GR, 60),
    ("ptrump_2p", {}, {"riichi.min_stock": "one"}, ("baseline", "baseline"), 300),
    ("ptrump_2p", {}, {"riichi.requires_menzen": False}, GR, 60),
    ("ptrump_2p", {}, {"riichi.allow_negative_score": False}, GR, 60),
    ("ptrump_2p", {}, {"riichi.deposit": 2}, GR, 60),
    ("ptrump_2p", {}, {"match.next_dealer": "winner"}, GR, 60),
    ("ptrump_2p", {}, {"match.first_dealer": 1}, GR, 60),
    ("ptrump_2p", {}, {"match.start_score": 10}, GR, 60),
    ("ptrump_2p", {}, {"match.max_rounds": 5}, GR, 60),
    ("ptrump_2p", {}, {"calls.may_decline_win": False}, GR, 60),
    # negative values: pons with little else (spec §8 example B); tanyao worth 0 makes more
    ("ptrump_2p", {"scoring.yaku.tanyao.points": 0}, {"scoring.negative_win": "forbidden"},
     ("greedy:pon_min_value=-3", "random"), 300),
    ("ptrump_2p", {"scoring.yaku.tanyao.points": 0}, {"scoring.negative_win": "literal"},
     ("greedy:pon_min_value=-3", "random"), 300),
    ("ptrump_2p", {}, {"tenpai.needs_yaku": True}, GR, 60),
    ("ptrump_2p", {}, {"hand.open_kan_breaks_menzen": False}, CALLER, 300),
    ("ptrump_2p", {"scoring.additive.nagashi.when": "at_draw"}, {"cards.yaochu_honours": False},
     GR, 60),
    ("ptrump_2p", {}, {"scoring.additive.renhou.window": "first_go_around"}, GR, 300),
    ("ptrump_3p", {"scoring.additive.nagashi.when": "at_draw"},
     {"exhaustive_draw.nagashi_keeps_noten": False}, R3, 30),
    ("ptrump_2p", {}, {"scoring.deductions.noten": 2}, GR, 60),
    ("ptrump_2p", {}, {"riichi.open_riichi": "on"}, GR, 60),
]
# Read by the engine, but too rare to show in a test-sized run with these bots (invariants only):
# a wait on a rank whose every copy the player holds; robbing a kakan; a tie at the top at or
# past the target (only multiple_ron: all or nagashi at_draw can make one, spec §9).
RARE_VARIANTS = [
    ("ptrump_3p", {"calls.multiple_ron": "all", "match.target_score": 3},
     {"match.target_tie": "play_on"}, R3, 30),
    ("ptrump_3p", {}, {"kan.chankan_added_kan": False}, R3, 30),
    ("ptrump_2p", {}, {"tenpai.needs_live_wait": False}, ("baseline", "baseline"), 100),
]


def _variant_id(v):
    return ",".join(f"{k}={val}" for k, val in v[2].items())


def _play_variant(variant):
    name, base_over, over, seats, games = variant
    base = sim(name, seats, **base_over).play(np.arange(games), seed=99)
    s = sim(name, seats, **{**base_over, **over})
    b = s.play(np.arange(games), seed=99, debug=True)
    check_records(s.scenario, b)
    same = (np.array_equal(base.games, b.games) and base.rounds.shape == b.rounds.shape
            and np.array_equal(base.rounds, b.rounds))
    return same


@pytest.mark.parametrize("variant", OPTION_VARIANTS, ids=_variant_id)
def test_rule_options_hold_invariants_and_change_outcomes(variant):
    assert not _play_variant(variant), f"{variant[2]} changed nothing in {variant[4]} matches"


@pytest.mark.parametrize("variant", RARE_VARIANTS, ids=_variant_id)
def test_rare_rule_options_hold_invariants(variant):
    _play_variant(variant)


def test_same_seed_same_matches_in_any_batch_or_order():
    s = sim("ptrump_3p", ("greedy", "random", "baseline"))
    whole = s.play(np.arange(40), seed=7)
    parts = {i: s.play(np.arange(i, i + 10), seed=7) for i in (30, 0, 20, 10)}
    assert np.array_equal(whole.games, np.concatenate([parts[i].games for i in sorted(parts)]))
    assert np.array_equal(whole.rounds, np.concatenate([parts[i].rounds for i in sorted(parts)]))
    assert not np.array_equal(whole.games, s.play(np.arange(40), seed=8).games)


def test_results_identical_for_one_and_two_workers():
    from simcore.study import run_study
    sc = sim("ptrump_2p", ("greedy", "baseline")).scenario
    a = run_study(family, [sc], seed=3, games=400, workers=1, chunk_games=100)
    b = run_study(family, [sc], seed=3, games=400, workers=2, chunk_games=100)
    assert a.sums.n == b.sums.n == 400
    assert np.array_equal(a.sums.s, b.sums.s)


def test_first_dealer_random_is_balanced_and_keyed_by_match():
    b = sim("ptrump_3p", ("random", "random", "random"), **{"match.max_rounds": 1}).play(
        np.arange(600), seed=5)
    from simcore.ptrump.engine import GF_FIRST_DEALER
    counts = np.bincount(b.games[:, GF_FIRST_DEALER], minlength=3)
    assert counts.min() > 150, counts   # 200 expected each; 150 is > 4 sd below


def test_riichi_deposits_and_records():
    b = sim("ptrump_2p", ("baseline", "baseline")).play(np.arange(100), seed=11, debug=True)
    r = b.rounds
    assert r[:, RF_RIICHI0:RF_RIICHI0 + 2].max() == 2      # double riichi happens
    assert (r[:, RF_DEPOSITS_TAKEN] > 0).any()              # and a winner takes the pool
    draws = r[r[:, RF_OUTCOME] == OUT_DRAW]
    assert len(draws) and (draws[:, RF_POOL] > 0).any()    # deposits stay after a draw


def test_replay_matches_the_played_match():
    sc = sim("ptrump_3p", ("greedy", "baseline", "random")).scenario
    text = family.replay_text(sc, 4, 2)
    assert "round 1" in text and "match over" in text and "discards" in text
    b = Simulator(sc).play(np.array([2]), seed=4)
    assert f"after {b.games[0, GF_ROUNDS]} rounds" in text


# ---------------------------------------------------------------------------------------------
# Scripted rounds: a stacked wall, scripted seats (then baseline), one exact situation each
# ---------------------------------------------------------------------------------------------

def _scripted_round(name, hands, draws, scripts, dora="Kc", overrides=None, dealer=0):
    """Play one round of ``name`` with seat s dealt ``hands[s]`` (notation), the stock starting
    with ``draws`` and the dora indicator ``dora``; seat s plays ``scripts[s]`` (action ids),
    then baseline. Returns (record, events)."""
    from simcore.ptrump.bots import SCRIPTED
    from simcore.ptrump.cards import parse_cards
    from simcore.ptrump.engine import N_RF, N_RNG, ST_LOG, ST_N_EV, new_round_state, play_round
    from simcore.ptrump.layout import MAX_SEATS
    s = sim(name, tuple("baseline" for _ in hands), **(overrides or {}))
    n = len(hands)
    front = [c for h in hands for c in parse_cards(h)] + parse_cards(draws)
    ind = parse_cards(dora)[0]
    rest = [c for c in range(54) if c not in front and c != ind]
    rest.sort(key=lambda c: (c >= 52, c))    # jokers first in line: never an indicator
    wall = front + rest + [ind]   # wall[52] (ura) is the highest id left, wall[53] the dora
    assert sorted(wall) == list(range(54)), "stacked wall must hold every card once"
    rs = new_round_state(True)
    rs.st[ST_LOG] = 1
    rs.wall[:] = np.array(wall, np.int64)
    params = np.full((MAX_SEATS, 32), -1.0)
    params[:, 0] = 0
    for i, script in enumerate(scripts):
        params[i, 1:1 + len(script)] = script
    pol = np.full(MAX_SEATS, SCRIPTED, np.int64)
    scores = np.zeros(MAX_SEATS + 1, np.int64)
    rec = np.zeros(N_RF, np.int64)
    play_round(rs, s.ra, s.hr, n, dealer, scores, pol, params, np.ones((N_RNG, 4), np.uint64),
               True, rec)
    return rec, rs.ev[:rs.st[ST_N_EV]].copy(), scores


def _id(text):
    from simcore.ptrump.cards import parse_cards
    return parse_cards(text)[0]


def test_scripted_pon_skips_a_seat_and_play_goes_on_from_the_caller():
    from simcore.ptrump.engine import EV_DISCARD, EV_DRAW, EV_PON
    from simcore.ptrump.layout import A_DISCARD, A_PON
    rec, ev, _ = _scripted_round(
        "ptrump_3p", ["5s 1h 9h Tc Jd Qs Kh", "1s 9s Th Jh Qh Kd 2c", "5h 5d 2s 3s 4s 7h 8c"],
        "3c", [[A_DISCARD + _id("5s")], [], [A_PON, A_DISCARD + _id("8c")]])
    kinds = [(int(e[0]), int(e[1])) for e in ev]
    i = kinds.index((EV_PON, 2))
    assert kinds[i - 1] == (EV_DISCARD, 0)           # seat 0's 5s, seat 1 skipped
    assert kinds[i + 1] == (EV_DISCARD, 2)           # the caller discards without drawing
    assert kinds[i + 2] == (EV_DRAW, 0)              # then play goes on after the caller
    assert rec[RF_PONS0 + 2] == 1


@pytest.mark.parametrize("mode, winners", [("head_bump", 0b010), ("all", 0b110)])
def test_scripted_multiple_ron(mode, winners):
    from simcore.ptrump.layout import A_DISCARD, A_RON
    rec, ev, scores = _scripted_round(
        "ptrump_3p", ["8s 1h 9h Tc Jd Qs Kh", "2s 3s 4s 3h 4h 5h 8h", "4d 5d 6d 5c 6c 7c 8d"],
        "Ks", [[A_DISCARD + _id("8s")], [A_RON], [A_RON]],
        overrides={"calls.multiple_ron": mode})
    assert rec[RF_WINNERS] == winners and rec[RF_OUTCOME] != OUT_DRAW
    # tanyao + renhou (a ron before one's first draw)
    assert rec[RF_VALUE1] == 2 and rec[RF_VALUE2] == (2 if mode == "all" else 0)
    assert scores[1] == 2 and scores[2] == rec[RF_VALUE2]


def test_scripted_riichi_ronned_on_its_declaring_discard_is_void():
    from simcore.ptrump.layout import A_RIICHI, A_RON
    rec, ev, scores = _scripted_round(
        "ptrump_2p", ["1s 2s 3s 4h 5h 6h 9c", "2d 3d 4d 3c 4c 5c 8d"], "8h",
        [[A_RIICHI + _id("8h")], [A_RON]])
    assert rec[RF_WINNERS] == 0b10
    assert rec[RF_RIICHI0] == 0 and rec[RF_POOL] == 0 and scores[0] == 0 and scores[2] == 0
    assert scores[1] == rec[RF_VALUE1] >= 1


def test_scripted_nukidora_draws_a_replacement():
    from simcore.ptrump.engine import DK_NUKI_REPLACEMENT, EV_DRAW, EV_NUKI
    from simcore.ptrump.layout import A_DISCARD, A_NUKI
    rec, ev, _ = _scripted_round(
        "ptrump_2p", ["1s 2s 3s 4h 5h 6h 9c", "2d 3d 4d 3c 4c 5c 8d"], "X 7c",
        [[A_NUKI, A_DISCARD + _id("7c")], []])
    kinds = [int(e[0]) for e in ev]
    i = kinds.index(EV_NUKI)
    assert ev[i + 1][0] == EV_DRAW and ev[i + 1][3] == DK_NUKI_REPLACEMENT
    assert ev[i + 1][2] == _id("7c") and rec[RF_NUKI0] == 1
