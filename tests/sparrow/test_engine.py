"""Scripted Sparrow rounds (spec sparrow.md §3-§6): a stacked wall and scripted discards set up
each rule's situation exactly; the round record and the event log say what the engine did."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.sparrow import engine as E
from simcore.sparrow.family import FAMILY
from simcore.sparrow.hand import tables
from simcore.sparrow.rules import SLOTS
from simcore.sparrow.tiles import parse_tiles

GREEDY = {"policy": "greedy"}


def play(hands, indicator, draws, discards=(), dealer=0, rules=None, points=40):
    """One round: seat (dealer + i) holds ``hands[i]``; ``draws`` in turn order from the dealer;
    ``discards[s]``: seat s's hand slots to discard, in order (then greedy). Returns the round
    record (a dict) and the events (type names with their rows)."""
    n = len(hands)
    d = FAMILY.SCENARIOS.load("sparrow").to_dict()
    d["players"] = [GREEDY] * n
    d["deck"]["red_bamboo"] = 0
    for key, v in (rules or {}).items():
        node = d
        *parents, last = key.split(".")
        for k in parents:
            node = node[k]
        node[last] = v
    sc = FAMILY.SCENARIOS.from_dict(d, name="scripted")
    tiles = parse_tiles(" ".join([*hands, indicator, *draws]), d["deck"]["red_bamboo"])
    rest = [t for t in range(44) if t not in tiles]
    s = E.new_state(True)
    s.wall[:] = tiles + rest
    s.st[E.ST_LOG], s.st[E.ST_STACKED], s.st[E.ST_N], s.st[E.ST_DEALER] = 1, 1, n, dealer
    s.points[:n] = points
    pol = np.full(E.MAX_SEATS, -1, np.int64)   # the scripted seat of simcore.family.policy
    params = np.full((E.MAX_SEATS, 12), -1.0)
    params[:, 0] = 0
    for seat, slots in enumerate(discards):
        params[seat, 1:1 + len(slots)] = slots
    rngs = np.zeros((1 + E.MAX_SEATS, 4), np.uint64)
    rec = np.zeros(E.N_RF, np.int64)
    E.play_round((s, SLOTS.array(sc), tables(), pol, s), params, rngs, rec)
    events = [(E.EV_TYPES[int(r[0])], *map(int, r[1:])) for r in s.ev[:s.st[E.ST_N_EV]]]
    return dict(zip(E.ROUND_FIELDS, rec.tolist())), events


def payments(events):
    return [(e[1], e[2], e[3]) for e in events if e[0] == "payment"]


OTHERS = ["1s 1s 9s G R", "1s 9s G R 5s"]


def test_a_dealer_tsumo_is_split_among_the_others_rounded_up():
    # 345s 77s draws 7s: a run (1), a triplet (2), tanyao (1), dora 7s x3 (3) = 7 points
    rec, ev = play(["345s 77s", *OTHERS], "7s", ["7s"])
    assert rec["outcome"] == E.OUT_TSUMO and rec["winners"] == 1 and rec["value0"] == 7
    assert payments(ev) == [(1, 0, 4), (2, 0, 4)]   # ceil(7 / 2)
    assert (rec["points0"], rec["points1"], rec["points2"]) == (48, 36, 36)


@pytest.mark.parametrize("how, each", [("split_floor", 3), ("each_full", 7)])
def test_tsumo_settlement_options(how, each):
    rec, ev = play(["345s 77s", *OTHERS], "7s", ["7s"], rules={"settlement.tsumo": how})
    assert payments(ev) == [(1, 0, each), (2, 0, each)]


def test_a_win_below_min_points_is_no_win():
    # 123s 456s: two runs (2), no tanyao, no chanta, no dora (indicator G): 2 points < 5
    hands = ["123s 45s", "1s 9s 9s G R", "1s 9s G R R"]
    rec, ev = play(hands, "G", ["6s"], discards=[[5]])
    assert rec["value0"] == 0 and not any(e[0] == "win" and e[1] == 0 for e in ev)
    rec, _ = play(hands, "G", ["6s"], rules={"wins.min_points": 2})
    assert rec["outcome"] == E.OUT_TSUMO and rec["value0"] == 2


RON_HANDS = ["1s 9s G R R", "345s 66s", "45s 777s"]   # seats 1 and 2 both wait on 6s


def test_head_bump_gives_a_discard_to_the_first_seat_after_the_discarder():
    rules = {"wins.min_points": 4}   # 345 666 and 456 777: a run, a triplet, tanyao = 4
    rec, ev = play(RON_HANDS, "G", ["6s"], discards=[[5]], rules=rules)
    assert rec["outcome"] == E.OUT_RON and rec["winners"] == 0b010 and rec["from_seat"] == 0
    assert payments(ev) == [(0, 1, 4)] and rec["points0"] == 36
    rec, ev = play(RON_HANDS, "G", ["6s"], discards=[[5]],
                   rules=dict(rules, **{"wins.multiple_ron": "all"}))
    assert rec["winners"] == 0b110 and payments(ev) == [(0, 1, 4), (0, 2, 4)]


@pytest.mark.parametrize("furiten, ron", [("waits", False), ("tile", True), ("none", True)])
def test_furiten_reads_the_discards_of_a_waiting_seat(furiten, ron):
    # seat 1 draws 7s to 345s 777s, declines the tsumo and discards its 3s: it now waits on 3s
    # and 6s with a 3s among its discards; seat 2 then discards a 6s
    hands = ["1s 9s G R R", "3s 45s 77s", "1s 9s G R 6s"]
    rules = {"wins.furiten": furiten, "wins.min_points": 4, "wins.may_decline": True}
    rec, ev = play(hands, "G", ["9s", "7s", "1s"], discards=[[5], [E.DECLINE, 0], [4]],
                   rules=rules)
    assert [e[2] >> 2 for e in ev if e[:2] == ("decline", 1) and e[3:5] == (4, -1)] == [6]
    assert (rec["outcome"] == E.OUT_RON and rec["winners"] == 0b010) == ron


def test_noten_payment_at_an_exhaustive_draw():
    rec, ev = play(["1s 3s 5s 7s 9s", "2s 4s 6s 8s G"], "R", [],
                   rules={"draw.noten_payment": 3, "wins.min_points": 1000})
    assert rec["outcome"] == E.OUT_DRAW and rec["turns"] == 44 - 11
    tenpai = [e for e in ev if e[0] == "exhaustive"][0][2]
    paid = payments(ev)
    assert all(a == 3 and not (tenpai >> p) & 1 and (tenpai >> q) & 1 for p, q, a in paid)
    ten = bin(tenpai).count("1")
    assert len(paid) == ten * (2 - ten)
