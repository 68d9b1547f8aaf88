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

from simcore.ptrump import scenario
from simcore.ptrump.family import FAMILY as family
from simcore.ptrump.engine import (
    END_ROUND_LIMIT, END_TARGET, GF_END_REASON, GF_N_SEATS, GF_N_WINNERS, GF_POOL_LEFT,
    GF_ROUNDS, GF_SCORE0, GF_WINNER, GF_WINNERS, OUT_DRAW, RF_DEPOSITS_LOST, RF_DEPOSITS_TAKEN,
    RF_GAME, RF_KANS0, RF_NOTEN_PAID, RF_NOTEN_PENALTY, RF_NUKI0, RF_OUTCOME, RF_POOL,
    RF_PONS0, RF_RIICHI0, RF_ROUND, RF_SCORE0, RF_TENPAI0, RF_VALUE, RF_VALUE0, RF_VALUE1, RF_VALUE2, RF_WINNERS,
    round_balance,
)
from simcore.family.replay import game_replay_text
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
    noten_points = sc.get("scoring.deductions.noten")
    literal = sc.get("scoring.negative_win") == "literal"
    max_kans = sc.get("kan.max_per_round")
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
            assert row[RF_NOTEN_PENALTY] <= noten * noten_points
        else:
            assert w != 0 and row[RF_POOL] == 0 and row[RF_DEPOSITS_LOST] == 0
            vals = row[RF_VALUE0:RF_VALUE0 + n]
            assert vals.sum() == row[RF_VALUE]
            for s in range(n):
                if not (w >> s) & 1:
                    assert vals[s] == 0
            assert row[RF_NOTEN_PENALTY] == 0 and row[RF_NOTEN_PAID] == 0
            if not literal:
                assert vals.min() >= 0
        assert row[RF_KANS0:RF_KANS0 + n].sum() <= max_kans
        assert row[RF_PONS0:RF_PONS0 + n].max() <= 2 and row[RF_NUKI0:RF_NUKI0 + n].max() <= 2
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
# (negative values, pons then kakans); random seats decline wins, call and kan at random. Three
# random seats play long matches (about 180 rounds each): 12 of them are some 2,000 rounds.
R3 = ("random", "random", "random")
GR = ("greedy", "random")
CALLER = ("greedy:pon_min_value=-3", "greedy:pon_min_value=-3")
OPTION_VARIANTS = [
    ("ptrump_3p", {}, {"calls.multiple_ron": "all"}, R3, 12),
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
    ("ptrump_3p", {}, {"furiten": "discard_only"}, R3, 12),
    ("ptrump_3p", {}, {"calls.kan_after_pon": True}, R3, 12),
    ("ptrump_3p", {}, {"calls.kuikae": True}, R3, 12),
    ("ptrump_3p", {}, {"calls.call_last_discard": True}, R3, 12),
    ("ptrump_3p", {}, {"kan.open_kan_from": "previous_only"}, R3, 12),
    ("ptrump_2p", {}, {"kan.added_kan": False}, GR, 60),
    ("ptrump_3p", {}, {"kan.max_per_round": 1}, R3, 12),
    ("ptrump_2p", {"stock.replacement_reserve": 4}, {"kan.replacement_needs_stock": False},
     R3[:2], 40),
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
    # greedy without riichi: its tenpai hands may lack a yaku (riichi is one)
    ("ptrump_2p", {}, {"tenpai.needs_yaku": True}, ("greedy:riichi=0", "random"), 60),
    ("ptrump_2p", {}, {"hand.open_kan_breaks_menzen": False}, CALLER, 300),
    ("ptrump_2p", {"scoring.additive.nagashi.when": "at_draw"}, {"cards.yaochu_honours": False},
     GR, 60),
    ("ptrump_2p", {}, {"scoring.additive.renhou.window": "first_go_around"}, GR, 300),
    ("ptrump_3p", {"scoring.additive.nagashi.when": "at_draw"},
     {"exhaustive_draw.nagashi_keeps_noten": False}, R3, 30),
    ("ptrump_2p", {}, {"scoring.deductions.noten": 2}, GR, 60),
    ("ptrump_2p", {}, {"riichi.open_riichi": "on"}, GR, 60),
]
# Read by the engine, but too rare to show in a test-sized run with these bots (invariants only
# here): a wait on a rank whose every copy the player holds; robbing a kakan; a tie at the top at
# or past the target (only multiple_ron: all or nagashi at_draw can make one, spec §9). Each is
# shown to change an outcome on one exact situation below (test_target_tie_play_on_...,
# test_scripted_chankan_..., test_scripted_dead_wait_...).
RARE_VARIANTS = [
    ("ptrump_3p", {"calls.multiple_ron": "all", "match.target_score": 3},
     {"match.target_tie": "play_on"}, R3, 12),
    ("ptrump_3p", {}, {"kan.chankan_added_kan": False}, R3, 12),
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
    from simcore.studies.study import run_study
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
    text = game_replay_text(family, sc, 4, 2)
    assert "round 1" in text and "match over" in text and "discards" in text
    b = Simulator(sc).play(np.array([2]), seed=4)
    assert f"after {b.games[0, GF_ROUNDS]} rounds" in text


# ---------------------------------------------------------------------------------------------
# Scripted rounds: a stacked wall, scripted seats (then baseline), one exact situation each
# ---------------------------------------------------------------------------------------------

def _scripted_round(name, hands, draws, scripts, dora="Kc", overrides=None, dealer=0):
    """Play one round of ``name`` with seat s dealt ``hands[s]`` (notation), the stock starting
    with ``draws`` (notation, or a list of card ids) and the dora indicator ``dora``; seat s
    plays ``scripts[s]`` (action ids), then baseline. Returns (record, events, scores)."""
    from policies.ptrump import SCRIPTED
    from simcore.ptrump.cards import parse_cards
    from simcore.ptrump.engine import N_RF, N_RNG, ST_LOG, ST_N_EV, new_round_state, play_round
    from simcore.ptrump.layout import MAX_SEATS
    s = sim(name, tuple("baseline" for _ in hands), **(overrides or {}))
    n = len(hands)
    if isinstance(draws, str):
        draws = parse_cards(draws)
    front = [c for h in hands for c in parse_cards(h)] + list(draws)
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
               True, rec, rs)
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


def _items(bits):
    """The names of the breakdown slots set in ``bits`` (a record's yaku_bits)."""
    from simcore.ptrump.rules_array import SLOTS
    return {name for i, name in enumerate(SLOTS) if (int(bits) >> i) & 1}


def _rows(ev, typ):
    return [tuple(int(x) for x in e[1:]) for e in ev if e[0] == typ]


def _draw_out(hands, must, tail, ura, dora="Kc", dealer=0):
    """A stock that plays out to the last card: every card but the hands and the two indicators
    is drawn. Seat s draws ``must[s]`` first, then the other cards (in card-id order, seat by
    seat), ``tail[s]`` last (notation). Returns (stock in draw order, each seat's draws), card
    ids; the ``ura`` card (a card id) ends up as the ura indicator (the one card
    ``_scripted_round`` has left over)."""
    from simcore.ptrump.cards import parse_cards
    n = len(hands)
    must = [parse_cards(m) if m else [] for m in must]
    tail = [parse_cards(t) if t else [] for t in tail]
    used = [c for h in hands for c in parse_cards(h)] + [_id(dora), ura]
    used += [c for m in must for c in m] + [c for t in tail for c in t]
    assert len(set(used)) == len(used)
    pool = [c for c in range(54) if c not in used]
    stock = 52 - 7 * n
    order = [(dealer + k) % n for k in range(n)]
    quota = {s: stock // n + (1 if k < stock % n else 0) for k, s in enumerate(order)}
    draws = {}
    for s in order:
        k = quota[s] - len(must[s]) - len(tail[s])
        draws[s], pool = must[s] + pool[:k] + tail[s], pool[k:]
    assert not pool
    seq = [draws[s][i] for i in range(max(quota.values())) for s in order if i < quota[s]]
    return seq, [draws[s] for s in range(n)]


JOKER2 = 53   # the second joker (a lone ``X`` in a hand is the first, 52)


def _discard_each_draw(draws):
    """A script that discards every drawn card (the hand never changes)."""
    from simcore.ptrump.layout import A_DISCARD
    return [A_DISCARD + c for c in draws]


# --- the three options a random run cannot show (RARE_VARIANTS), each on one exact situation ---

def test_target_tie_play_on_plays_another_round_after_a_tie_at_the_target():
    """Spec §9 target_tie. Pinned: match 289 of seed 99 (3 greedy seats, multiple_ron: all,
    nagashi at_draw so the double winner's all-yaochu discards add no win bonus) ends its first
    round with a double ron that leaves seats 0 and 2 on 5 points (values 6 and 3, each less
    its riichi deposit, the first winner after the discarder, seat 2, taking the pool of 3).
    With target 5, ``shared`` ends the match there; ``play_on`` plays the next round (same
    first round), which seat 2 wins alone. If the bots or the engine change, re-pin: search a
    few hundred matches for ``GF_N_WINNERS > 1`` at ``END_TARGET``."""
    base = {"calls.multiple_ron": "all", "scoring.additive.nagashi.when": "at_draw",
            "match.target_score": 5}
    seats = ("greedy", "greedy", "greedy")
    shared = sim("ptrump_3p", seats, **base).play(np.array([289]), seed=99, debug=True)
    play_on = sim("ptrump_3p", seats, **base, **{"match.target_tie": "play_on"}).play(
        np.array([289]), seed=99, debug=True)
    g, r = shared.games[0], shared.rounds
    assert (g[GF_ROUNDS], g[GF_END_REASON], g[GF_N_WINNERS]) == (1, END_TARGET, 2), \
        "the pinned match no longer ties at the target: re-pin it"
    assert g[GF_WINNER] == -1 and g[GF_WINNERS] == 0b101
    assert list(g[GF_SCORE0:GF_SCORE0 + 3]) == [5, -1, 5]
    assert r[0, RF_WINNERS] == 0b101 and list(r[0, RF_VALUE0:RF_VALUE0 + 3]) == [6, 0, 3]
    g2, r2 = play_on.games[0], play_on.rounds
    assert np.array_equal(r2[0], r[0])                  # the same first round
    assert (g2[GF_ROUNDS], g2[GF_END_REASON], g2[GF_N_WINNERS]) == (2, END_TARGET, 1)
    assert g2[GF_WINNER] == 2 and g2[GF_WINNERS] == 0b100
    assert list(g2[GF_SCORE0:GF_SCORE0 + 3]) == [5, -2, 10]


@pytest.mark.parametrize("chankan", [True, False])
def test_scripted_chankan_robs_an_added_kan_unless_the_option_is_off(chankan):
    """Spec §4 robbing: ``kan.chankan_added_kan: true``: any hand may ron the card added in a
    kakan (chankan is no yaku); false: the kakan stands and its replacement is drawn.

    3 seats, seat 2 deals and discards 5s; seat 0 pons it (5h 5d) and discards Qs; seat 1 draws
    4h and discards Kd: 234s 66 34h waits on 2 and 5; seat 2 draws and discards Qc; seat 0 draws
    5c and adds it to its pon. Seat 1 robs: 234 345 66, ron, tanyao + pinfu + nagashi (at_win:
    its one discard, Kd, is yaochu and was not called) = 3; no renhou after a call, no houtei on
    a robbed card, no dora (the indicator Kc makes A dora)."""
    from simcore.ptrump.engine import (
        DK_KAN_REPLACEMENT, EV_DRAW, EV_KAN, EV_WIN, EV_WIN_DETAIL, OUT_RON, RF_DISCARDER,
        RF_ROBBED, RF_WIN_CARD, RF_YAKU_BITS1, ROB_KAKAN, SK_KAKAN,
    )
    from simcore.ptrump.layout import A_DISCARD, A_KAKAN, A_PON
    rec, ev, scores = _scripted_round(
        "ptrump_3p", ["5h 5d 9s 9h Tc Jd Qs", "2s 3s 4s 6d 6c 3h Kd", "5s 1c 1d 7s 8s Th Jh"],
        "Ks 4h Qc 5c 8d",
        [[A_PON, A_DISCARD + _id("Qs"), A_KAKAN + 0], [A_DISCARD + _id("Kd")],
         [A_DISCARD + _id("5s"), A_DISCARD + _id("Qc")]],
        overrides={"kan.chankan_added_kan": chankan}, dealer=2)
    kan = _rows(ev, EV_KAN)
    if chankan:
        assert kan == []                                 # robbed before it stood
        assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNERS] == 0b010
        assert (rec[RF_DISCARDER], rec[RF_ROBBED], rec[RF_WIN_CARD]) == (0, ROB_KAKAN, _id("5c"))
        assert _rows(ev, EV_WIN) == [(1, _id("5c"), 3, 1, ROB_KAKAN)]
        (seat, bits, _, discarder, has_yaku), = _rows(ev, EV_WIN_DETAIL)
        assert (seat, discarder, has_yaku) == (1, 0, 1)
        assert _items(bits) == _items(rec[RF_YAKU_BITS1]) == {"tanyao", "pinfu", "nagashi"}
        assert rec[RF_VALUE1] == 3 and list(scores[:4]) == [0, 3, 0, 0]
        assert rec[RF_PONS0] == 1 and rec[RF_KANS0] == 0
    else:
        assert kan[0][:3] == (0, SK_KAKAN, 4)           # seat 0's kakan of rank 5 stands
        i = [tuple(e[:2]) for e in ev].index((EV_KAN, 0))
        assert tuple(ev[i + 1][:4]) == (EV_DRAW, 0, _id("8d"), DK_KAN_REPLACEMENT)
        assert rec[RF_KANS0] == 1
        assert not (rec[RF_ROBBED] == ROB_KAKAN and rec[RF_OUTCOME] == OUT_RON)


def _dead_wait_round(live_wait, riichi):
    """2 seats, every card drawn: seat 0 holds 1111 789 (its only wait, 1, is dead: all four
    copies in its hand), seat 1 seven odd cards; both discard what they draw (seat 0's first
    discard a riichi when ``riichi``), so nobody wins, calls or changes hand."""
    from simcore.ptrump.layout import A_DISCARD, A_RIICHI
    hands = ["1s 1h 1d 1c 7s 8s 9s", "5s 7h 9d Tc Qh Kd X"]
    stock, draws = _draw_out(hands, ["", ""], ["", ""], ura=JOKER2)
    s0 = _discard_each_draw(draws[0])
    if riichi:
        s0[0] += A_RIICHI - A_DISCARD
    return _scripted_round("ptrump_2p", hands, stock, [s0, _discard_each_draw(draws[1])],
                           overrides={"tenpai.needs_live_wait": live_wait})


@pytest.mark.parametrize("live_wait", [True, False])
def test_scripted_dead_wait_is_tenpai_at_the_draw_only_without_needs_live_wait(live_wait):
    """Spec §2 ``tenpai_needs_live_wait: true``: a rank all of whose copies the player holds is
    no wait, so 1111 789 is noten at the exhaustive draw and pays the noten penalty (§9);
    false: it is tenpai and pays nothing."""
    from simcore.ptrump.engine import EV_EXHAUSTIVE, RF_STOCK_LEFT
    rec, ev, scores = _dead_wait_round(live_wait, riichi=False)
    assert rec[RF_OUTCOME] == OUT_DRAW and rec[RF_STOCK_LEFT] == 0
    tenpai = 0 if live_wait else 1
    assert rec[RF_TENPAI0] == tenpai and rec[RF_TENPAI0 + 1] == 0
    assert rec[RF_NOTEN_PENALTY] == 2 - tenpai
    assert _rows(ev, EV_EXHAUSTIVE) == [(-1, tenpai, 2 - tenpai, 0, 0)]
    assert list(scores[:2]) == [tenpai - 1, -1]


def test_scripted_dead_wait_riichi_is_legal_only_without_needs_live_wait():
    """The same hand may declare riichi (a double riichi: first discard) only when a dead wait
    counts; it then stays tenpai to the draw, its deposit on the table."""
    with pytest.raises(AssertionError, match="illegal action"):
        _dead_wait_round(True, riichi=True)
    rec, ev, scores = _dead_wait_round(False, riichi=True)
    assert rec[RF_RIICHI0] == 2 and rec[RF_TENPAI0] == 1 and rec[RF_NOTEN_PENALTY] == 1
    assert list(scores[:2]) == [-1, -1] and rec[RF_POOL] == 1


# --- robbing a closed kan, last-card and first-draw wins: who wins, how, the points, the items --

@pytest.mark.parametrize("hand0, kan_card, hand1, option, robbed", [
    ("Ks Kh Kd 2s 3s 4s 6h", "Kc", "1s 9h Td Jc Qs X X", True, True),
    ("Ks Kh Kd 2s 3s 4s 6h", "Kc", "1s 9h Td Jc Qs X X", False, False),
    ("5s 5h 5d 1s 9c Tc Jc", "5c", "2s 3s 4s 6d 6c 3h 4h", True, False),   # not kokushi
], ids=["kokushi", "kokushi-option-off", "regular-hand"])
def test_scripted_kokushi_robs_a_closed_kan(hand0, kan_card, hand1, option, robbed):
    """Spec §4 [R]: kokushi may ron the 4th card of a closed kan (``kan.kokushi_robs_ankan``);
    no other hand may. Seat 0 deals, draws its fourth copy and declares the ankan; seat 1 waits
    on that rank. Kokushi 1 9 T J Q XX + K is a yakuman: exactly 13 (``yakuman.exclusive``; the
    renhou window is open but ignored), not double (the other cards are not one suit)."""
    from simcore.ptrump.engine import (
        DK_KAN_REPLACEMENT, EV_DRAW, EV_KAN, EV_WIN, EV_WIN_DETAIL, OUT_RON, RF_DISCARDER,
        RF_ROBBED, RF_WIN_CARD, RF_YAKU_BITS1, ROB_ANKAN, SK_ANKAN,
    )
    from simcore.ptrump.layout import A_ANKAN
    r = _id(kan_card) // 4
    rec, ev, scores = _scripted_round(
        "ptrump_2p", [hand0, hand1], f"{kan_card} 8d", [[A_ANKAN + r], []], dora="7c",
        overrides={"kan.kokushi_robs_ankan": option})
    if robbed:
        low = min(_id(c) for c in hand0.split() if _id(c) // 4 == r)  # the lowest id is shown
        assert _rows(ev, EV_KAN) == []
        assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNERS] == 0b10
        assert (rec[RF_DISCARDER], rec[RF_ROBBED], rec[RF_WIN_CARD]) == (0, ROB_ANKAN, low)
        assert _rows(ev, EV_WIN) == [(1, low, 13, 1, ROB_ANKAN)]
        (seat, bits, _, discarder, has_yaku), = _rows(ev, EV_WIN_DETAIL)
        assert (seat, discarder, has_yaku) == (1, 0, 1)
        assert _items(bits) == _items(rec[RF_YAKU_BITS1]) == {"kokushi"}
        assert rec[RF_VALUE1] == 13 and list(scores[:3]) == [0, 13, 0]
    else:
        assert _rows(ev, EV_KAN)[0][:3] == (0, SK_ANKAN, r)
        i = [tuple(e[:2]) for e in ev].index((EV_KAN, 0))
        assert tuple(ev[i + 1][:4]) == (EV_DRAW, 0, _id("8d"), DK_KAN_REPLACEMENT)
        assert rec[RF_KANS0] == 1 and rec[RF_ROBBED] != ROB_ANKAN


# 2 seats, every card drawn; each seat discards what it draws (nobody calls: the pairs are of
# ranks the other never discards). One seat holds 222 555 X (its wait, the other joker, is the ura
# indicator: it never wins); the other 234s 66 34h, waiting on 2 and 5, whose other copies sit in
# that hand and the last stock card, 5c; its other pairs' ranks (3, 4, 6) it draws itself.
PINFU = "2s 3s 4s 6d 6c 3h 4h"
BLOCKER = "2h 2d 2c 5s 5h 5d X"


def test_scripted_haitei_tsumo_on_the_last_stock_card():
    """Spec §8 haitei: tsumo on the last stock card. Seat 1 draws 5c last: 234 345 66, menzen
    tsumo + tanyao + pinfu + haitei = 4 (its discards include 3, 4, 6: no nagashi)."""
    from simcore.ptrump.engine import (
        EV_DRAW, EV_WIN, OUT_TSUMO, RF_STOCK_LEFT, RF_WIN_CARD, RF_YAKU_BITS1,
    )
    hands = [BLOCKER, PINFU]
    stock, draws = _draw_out(hands, ["", "3d 3c 4d 4c 6s 6h"], ["", "5c"], ura=JOKER2)
    assert stock[-1] == _id("5c") and len(draws[1]) == 19
    rec, ev, scores = _scripted_round(
        "ptrump_2p", hands, stock,
        [_discard_each_draw(draws[0]), _discard_each_draw(draws[1][:-1])])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNERS] == 0b10 and rec[RF_STOCK_LEFT] == 0
    assert _rows(ev, EV_DRAW)[-1][:2] == (1, _id("5c")) and len(_rows(ev, EV_DRAW)) == 38
    assert _rows(ev, EV_WIN) == [(1, _id("5c"), 4, 0, 0)] and rec[RF_WIN_CARD] == _id("5c")
    assert _items(rec[RF_YAKU_BITS1]) == {"tsumo", "tanyao", "pinfu", "haitei"}
    assert list(scores[:3]) == [0, 4, 0]


def test_scripted_houtei_ron_on_the_last_discard():
    """Spec §8 houtei: ron on the last discard. Seat 1 draws the last card, 5c (its fourth 5:
    no kan without stock), and discards it; seat 0 rons: tanyao + pinfu + houtei = 3."""
    from simcore.ptrump.engine import EV_DISCARD, EV_WIN, OUT_RON, RF_DISCARDER, RF_YAKU_BITS0
    hands = [PINFU, BLOCKER]
    stock, draws = _draw_out(hands, ["3d 3c 4d 4c 6s 6h", ""], ["", "5c"], ura=JOKER2)
    assert stock[-1] == _id("5c")
    rec, ev, scores = _scripted_round(
        "ptrump_2p", hands, stock,
        [_discard_each_draw(draws[0]), _discard_each_draw(draws[1])])
    assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNERS] == 0b01 and rec[RF_DISCARDER] == 1
    assert _rows(ev, EV_DISCARD)[-1][:2] == (1, _id("5c")) and len(_rows(ev, EV_DISCARD)) == 38
    assert _rows(ev, EV_WIN) == [(0, _id("5c"), 3, 1, 0)]
    assert _items(rec[RF_YAKU_BITS0]) == {"tanyao", "pinfu", "houtei"}
    assert list(scores[:3]) == [3, 0, 0]


@pytest.mark.parametrize("pon", [False, True])
def test_scripted_tenhou_and_chiihou(pon):
    """Spec §8 tenhou / chiihou (8 each): tsumo on the first draw, no pon/kan before ([R, 002]).
    3 seats. The dealer wins on its first draw: 234s 678h 55, tsumo + tanyao + tenhou = 10 (a
    tanki: no pinfu). Then seat 1 with the same hand wins on its first draw after the dealer's
    Jd: chiihou, 10; unless seat 2 pons that Jd (skipping seat 1): seat 1's first draw comes
    after a call, so tsumo + tanyao = 2."""
    from simcore.ptrump.engine import EV_PON, EV_WIN, OUT_TSUMO, RF_YAKU_BITS0, RF_YAKU_BITS1
    from simcore.ptrump.layout import A_DISCARD, A_PASS, A_PON
    win = "2s 3s 4s 6h 7h 8h 5d"
    rec, ev, scores = _scripted_round(
        "ptrump_3p", [win, "1s 9h Td Jc Qs Kd 7d", "Js Jh 1c 9c Tc Qc X"], "5c", [[], [], []])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNERS] == 0b001
    assert _rows(ev, EV_WIN) == [(0, _id("5c"), 10, 0, 0)]
    assert _items(rec[RF_YAKU_BITS0]) == {"tsumo", "tanyao", "tenhou"}
    seat2 = [A_PON, A_DISCARD + _id("Tc")] if pon else [A_PASS]
    draws = "8d 9d 5c" if pon else "8d 5c"     # with the pon, the dealer draws again first
    rec, ev, scores = _scripted_round(
        "ptrump_3p", ["1s 9h Td Jd Qs Kd 7d", win, "Js Jh 1c 9c Tc Qc X"], draws,
        [[A_DISCARD + _id("Jd"), A_DISCARD + _id("9d")], [], seat2])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNERS] == 0b010
    assert len(_rows(ev, EV_PON)) == int(pon)
    value = 2 if pon else 10
    assert _rows(ev, EV_WIN) == [(1, _id("5c"), value, 0, 0)]
    assert _items(rec[RF_YAKU_BITS1]) == {"tsumo", "tanyao"} | (set() if pon else {"chiihou"})
    assert scores[1] == value


@pytest.mark.parametrize("mode, over, value, items", [
    ("instead_of_discard", {}, 3, {"tsumo", "tanyao", "nukidora"}),
    ("replace", {}, 3, {"tsumo", "tanyao", "nukidora"}),
    ("replace", {"scoring.additive.chiihou.excludes_replacement": False}, 11,
     {"tsumo", "tanyao", "nukidora", "tenhou"}),
], ids=["instead_of_discard", "replace", "replace-replacement-counts"])
def test_scripted_tenhou_only_on_the_first_draw_after_a_nukidora(mode, over, value, items):
    """Regression (spec §8 tenhou: "tsumo on the first draw"): with ``nukidora.mode:
    instead_of_discard`` the dealer sets its joker aside on its first draw, which ends its turn
    without a discard; the win on its second draw (5c) is no tenhou (the engine took "no own
    discard yet" for "first draw"): tsumo + tanyao + nukidora = 3. Under ``replace`` the joker's
    replacement, 5c, wins inside the first turn: no tenhou while
    ``first_draw_excludes_replacement`` (default), tenhou (+8) without it (a nukidora is no call
    while ``nukidora.interrupts`` is false)."""
    from simcore.ptrump.engine import EV_NUKI, EV_WIN, OUT_TSUMO, RF_YAKU_BITS0
    from simcore.ptrump.layout import A_DISCARD, A_NUKI
    draws = "5d 9d 5c" if mode == "instead_of_discard" else "5d 5c"
    rec, ev, scores = _scripted_round(
        "ptrump_2p", ["2s 3s 4s 6h 7h 8h X", "1s 9h Td Jc Qs Kd 7d"], draws,
        [[A_NUKI], [A_DISCARD + _id("9d")]], overrides={"nukidora.mode": mode, **over})
    assert _rows(ev, EV_NUKI) == [(0, _id("X"), 0, 0, 0)]
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNERS] == 0b01
    assert _rows(ev, EV_WIN) == [(0, _id("5c"), value, 0, 0)]
    assert _items(rec[RF_YAKU_BITS0]) == items and scores[0] == value


# --- waits follow the win rule: a paaren wait needs one colour (spec §2, §6, §7, §9) ---------

MIXED_PAAREN = "2s 7s 8h 4d 5d 1c 6c"      # 1 2 4 5 6 7 8 of three suits: by rank, waits on 3


def _mixed_paaren_round(one_colour, riichi):
    """2 seats, every card drawn and discarded; seat 1 holds all four 3s, so no 3 is ever offered
    and seat 0's paaren-by-rank wait is judged only at the draw (and by the riichi test)."""
    from simcore.ptrump.layout import A_DISCARD, A_RIICHI
    hands = [MIXED_PAAREN, "3s 3h 3d 3c 9d Qh Kd"]
    stock, draws = _draw_out(hands, ["", ""], ["", ""], ura=JOKER2)
    s0 = _discard_each_draw(draws[0])
    if riichi:
        s0[0] += A_RIICHI - A_DISCARD
    return _scripted_round("ptrump_2p", hands, stock, [s0, _discard_each_draw(draws[1])],
                           overrides={"scoring.yakuman.paaren.one_colour": one_colour,
                                      "tenpai.needs_live_wait": False})


@pytest.mark.parametrize("one_colour", [True, False])
def test_scripted_mixed_colour_paaren_is_noten_at_the_draw(one_colour):
    """Under ``paaren_one_colour`` a mixed 1-8 can never win, so it is no tenpai: the noten
    penalty is paid (§2, §9). Without the option it waits on 3 (dead here, all four 3s are in
    the other hand, so ``needs_live_wait`` is off to let it count) and is tenpai."""
    rec, ev, scores = _mixed_paaren_round(one_colour, riichi=False)
    assert rec[RF_OUTCOME] == OUT_DRAW
    tenpai = 0 if one_colour else 1
    assert rec[RF_TENPAI0] == tenpai and rec[RF_NOTEN_PENALTY] == 2 - tenpai
    assert list(scores[:2]) == [tenpai - 1, -1]


def test_scripted_riichi_on_a_mixed_colour_paaren_is_illegal():
    """Riichi needs tenpai under the win rule (§7): on a hand that can never win it is refused;
    with ``paaren_one_colour: false`` the same declaration stands to the draw."""
    with pytest.raises(AssertionError, match="illegal action"):
        _mixed_paaren_round(True, riichi=True)
    rec, ev, scores = _mixed_paaren_round(False, riichi=True)
    assert rec[RF_RIICHI0] == 2 and rec[RF_TENPAI0] == 1


@pytest.mark.parametrize("mode, hand, first, offered, wins", [
    # spade paaren 2-8 waits on 1s and 9s only; it discarded 9h (completes nothing): no furiten
    ("suit", "2s 3s 4s 5s 6s 7s 8s", "9h", "1s", True),
    ("suit", "2s 3s 4s 5s 6s 7s 8s", "9h", "1h", False),   # 1h completes nothing: no offer
    ("suit", "2s 3s 4s 5s 6s 7s 8s", "9s", "1s", False),   # 9s completes it: furiten (§6)
    # red_black: a black 2-8 waits on the black 1s and 9s
    ("red_black", "2s 3c 4s 5c 6s 7c 8s", "9h", "1c", True),
    ("red_black", "2s 3c 4s 5c 6s 7c 8s", "9h", "1d", False),
    ("red_black", "2s 3c 4s 5c 6s 7c 8s", "9c", "1s", False),
])
def test_scripted_paaren_ron_and_furiten_are_by_card(mode, hand, first, offered, wins):
    """A card is a wait only if it completes a winning shape, and furiten counts only own
    discards that do (§2, §6): seat 0 draws ``first`` and discards it as riichi, seat 1 draws
    ``offered`` and discards it; seat 0 rons it (paaren, 13, yakuman exclusive) exactly when it
    wins."""
    from simcore.ptrump.engine import EV_WIN, OUT_RON
    from simcore.ptrump.layout import A_DISCARD, A_RIICHI, A_RON
    s0 = [A_RIICHI + _id(first)] + ([A_RON] if wins else [])
    rec, ev, scores = _scripted_round(
        "ptrump_2p", [hand, "5h 7h 9d Tc Qh Kd X"], f"{first} {offered}",
        [s0, [A_DISCARD + _id(offered)]], overrides={"cards.one_colour": mode})
    ron = [e for e in _rows(ev, EV_WIN) if e[0] == 0 and e[1] == _id(offered)]
    if wins:
        assert rec[RF_OUTCOME] == OUT_RON and ron == [(0, _id(offered), 13, 1, 0)]
        assert rec[RF_VALUE0] == 13
    else:
        assert ron == []


@pytest.mark.parametrize("hand, waits", [
    (MIXED_PAAREN, []),                               # never wins: no wait, no tenpai
    ("2345678s", ["1", "2", "5", "8", "9"]),          # 1s, 9s as paaren; 2, 5, 8 as a head
    ("1234567", ["1", "4", "7"]),                     # suit-less: never one colour, no paaren
])
def test_waits_command_follows_the_win_rule(hand, waits):
    """``momojan-sim waits --game ptrump`` answers with the engine's waits (§2)."""
    r = family.waits_json(hand, scenario.load("ptrump_2p"))
    assert r["waits"] == waits and r["tenpai"] == bool(waits)
