"""Chunks of Sparrow games around the compiled engine (kit: :mod:`simcore.family.chunks`)."""

from __future__ import annotations

import numpy as np

from simcore.family import chunks
from . import engine as E
from .hand import tables
from .rules import SLOTS


class Simulator(chunks.Simulator):
    GAME_FIELDS, ROUND_FIELDS, MAX_EVENTS = E.GAME_FIELDS, E.ROUND_FIELDS, E.MAX_EVENTS
    ST_LOG, ST_N_EV = E.ST_LOG, E.ST_N_EV
    ROUND_SCORE0, START_SCORE = "points0", "start_points"
    HISTOGRAMS = {"winning_points": ("points per win", "wins", 41),
                  "rounds_per_game": ("rounds per game", "games", 41)}

    def __init__(self, scenario):
        super().__init__(scenario)
        from policies.sparrow import POLICIES
        self.ra, self.t, self.n = SLOTS.array(scenario), tables(), len(scenario["players"])
        self.policy_ids, self.params = POLICIES.seat_arrays(scenario["players"], E.MAX_SEATS)

    def new_state(self, log: bool):
        return E.new_state(log)

    def kernel(self, idx, seed, state, debug, rounds, games) -> int:
        return E.play_games(idx, seed, state, self.n, self.ra, self.t, self.policy_ids,
                            self.params, rounds, games)

    def replay_rounds(self) -> int:
        return E.MAX_ROUNDS

    @classmethod
    def histogram_values(cls, batch) -> dict:
        r = batch.rounds
        won = np.stack([(r[:, E.RF_WINNERS] >> s) & 1 for s in range(E.MAX_SEATS)], 1) != 0
        return {"winning_points": r[:, E.RF_VALUE0:E.RF_VALUE0 + E.MAX_SEATS][won],
                "rounds_per_game": batch.games[:, E.GF_ROUNDS]}
