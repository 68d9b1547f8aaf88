"""Scripted rounds for engine tests: stack the wall, script both seats, play one round.

A round is set up in card notation: each seat's hand, the dora indicator, the dead wall and the
first stock cards; the rest of the deck follows in deck order. Each seat plays a list of actions
(``simcore.family.policy.SCRIPTED``: -1 or running out lets ``baseline`` decide). An illegal scripted action
makes the engine raise ``AssertionError`` ("policy chose an illegal action").
"""

from __future__ import annotations

import re

import numpy as np

from simcore.family.policy import SCRIPTED
from simcore.momojan import scenario as scenario_mod
from simcore.momojan.actions import CALL, DISCARD, DISCARD_RIICHI, KAI, KAN_CLOSED, PH_START
from simcore.momojan.cards import parse_card
from simcore.momojan.engine import (
    EV_WIDTH, N_RF, N_RNG, ST_LOG, ST_N_EV, new_round_state, play_round,
)
from simcore.momojan.simulate import Simulator

SCRIPT_LEN = 64
_SIMS: dict = {}


def cards(text: str) -> list[int]:
    """Kinds of ``"123l 5z5z 4o"`` in order (duplicates allowed, unlike a hand)."""
    out = []
    for digits, letter in re.findall(r"(\d+)([mloiz])", text.replace(" ", "")):
        out += [parse_card(d + letter) for d in digits]
    return out


def table(name: str = "new_edition", **overrides) -> "Table":
    key = (name, repr(sorted(overrides.items())))
    if key not in _SIMS:
        data = scenario_mod.load(name).to_dict()
        for path, value in overrides.items():
            node = data
            *parents, leaf = path.split(".")
            for p in parents:
                node = node[p]
            node[leaf] = value
        _SIMS[key] = Table(scenario_mod.from_dict(data, name=name))
    return _SIMS[key]


class Table:
    """One scenario's compiled engine, ready for scripted rounds."""

    def __init__(self, sc):
        self.sc = sc
        self.sim = Simulator(sc)
        self.et = self.sim.ET

    def row(self, text: str) -> int:
        """The set-catalogue row of a set written in notation (for KAI + row, CALL + row)."""
        want = sorted(cards(text))
        for r, row in enumerate(self.et.rows):
            if sorted(int(x) for x in row) == want:
                return r
        raise KeyError(text)

    def kai(self, text):
        return KAI + self.row(text)

    def call(self, text):
        return CALL + self.row(text)

    def wall(self, hand0: str, hand1: str, dora: str, dead: str = "", stock: str = "") -> np.ndarray:
        front = cards(hand0) + cards(hand1) + cards(dora) + cards(dead)
        hs, dw = self.sc.get("hand_size"), self.sc.get("dead_wall")
        assert len(cards(hand0)) == hs and len(cards(hand1)) == hs
        rest = list(self.et.deck)
        for k in front + cards(stock):
            rest.remove(k)
        dead_rest = [rest.pop() for _ in range(dw - 1 - len(cards(dead)))]  # fill the dead wall
        order = cards(hand0) + cards(hand1) + cards(dora) + cards(dead) + dead_rest + cards(stock) + rest
        assert sorted(order) == sorted(self.et.deck)
        return np.array(order, np.int64)

    def play(self, wall, script0, script1, dealer=0, scores=None, pot=0):
        """Play one round; returns (points paid, round record, event log)."""
        rs = new_round_state(True)
        rs.st[ST_LOG] = 1
        rs.wall[:len(wall)] = wall
        start = self.sc.get("starting_points")
        scores = np.array(scores or (start, start), np.int64)
        params = np.full((2, SCRIPT_LEN), -1.0)
        params[:, 0] = 0
        for s, script in enumerate((script0, script1)):
            params[s, 1:1 + len(script)] = script
        rngs = np.ones((N_RNG, 4), np.uint64)
        rec = np.zeros(N_RF, np.int64)
        pol = np.array([SCRIPTED, SCRIPTED], np.int64)
        paid = play_round(rs, self.et, self.sim.ra, self.sim.T, dealer, scores, pot,
                          int(scores.sum()) + pot, pol, params, rngs, True, rec, rs, dealer,
                          PH_START, -1, False, -1)
        return paid, rec, rs.ev[:rs.st[ST_N_EV]].copy()


def discard(text, riichi=False):
    return (DISCARD_RIICHI if riichi else DISCARD) + parse_card(text)


def kan_closed(text):
    return KAN_CLOSED + parse_card(text)


__all__ = ["cards", "table", "discard", "kan_closed", "EV_WIDTH"]
